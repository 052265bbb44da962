import { expect } from "chai";
import { runLoad } from "../../../server/loading/run.js";
import { LoadError } from "../../../server/loading/errors.js";
import { decodeSeparatorText, type LoadingJobPlan } from "../../../server/loading/plan.js";
import { RecordingSink, body, call, col, job, lit, named, skip } from "./fixtures.js";

const personValues = [col(0), col(1), col(2), skip, skip, skip, skip];
const zeroObject = { noIdFound: 0, invalidAttribute: 0, invalidVertexType: 0, invalidPrimaryId: 0, invalidSecondaryId: 0, incorrectFixedBinaryLength: 0 };

describe("runLoad: CSV to vertices and edges", () => {
  it("loads CSV without a header; statistics in the /ddl shape", async () => {
    const sink = new RecordingSink();
    const result = await runLoad(job([{ kind: "vertex", type: "Person", values: personValues }]), body("p1,Ann,31\np2,Bob,27\n"), sink);
    expect(result.sources).to.have.length(1);
    expect(result.sources[0]!.sourceName).to.equal("Online_POST");
    expect(result.sources[0]!.statistics).to.deep.equal({
      validLine: 2,
      rejectLine: 0,
      failedConditionLine: 0,
      notEnoughToken: 0,
      invalidJson: 0,
      oversizeToken: 0,
      vertex: [{ typeName: "Person", validObject: 2, ...zeroObject }],
      edge: [],
      deleteVertex: [],
      deleteEdge: [],
    });
    expect(sink.vertices).to.deep.equal([
      { type: "Person", id: "p1", newVertexOnly: false, attributes: [{ name: "name", value: "Ann", op: "=" }, { name: "age", value: 31n, op: "=" }] },
      { type: "Person", id: "p2", newVertexOnly: false, attributes: [{ name: "name", value: "Bob", op: "=" }, { name: "age", value: 27n, op: "=" }] },
    ]);
  });

  it("HEADER=true names columns and is never loaded", async () => {
    const sink = new RecordingSink();
    const plan = job([{ kind: "vertex", type: "Person", values: [named("id"), named("name"), named("age"), skip, skip, skip, skip] }], { header: true });
    const r = await runLoad(plan, body("age,id,name\n40,p9,Zed\n"), sink);
    expect(r.sources[0]!.lines).to.equal(1);
    expect(r.sources[0]!.statistics.validLine).to.equal(1);
    expect(sink.vertices[0]!.id).to.equal("p9");
    expect(sink.vertices[0]!.attributes).to.deep.equal([{ name: "name", value: "Zed", op: "=" }, { name: "age", value: 40n, op: "=" }]);
  });

  it("a $\"name\" not in the header is a load error and writes nothing", async () => {
    const sink = new RecordingSink();
    const plan = job([{ kind: "vertex", type: "Person", values: [named("nope"), skip, skip, skip, skip, skip, skip] }], { header: true });
    let error: unknown;
    await runLoad(plan, body("id,name\np1,A\n"), sink).catch((e) => (error = e));
    expect(error).to.be.instanceOf(LoadError);
    expect((error as Error).message).to.contain('Column "nope" is not in the header');
    expect(sink.batches).to.have.length(0);
  });

  it("custom multi-character separator and eol, CR LF", async () => {
    for (const [sep, eol] of [["|#|", "\r\n"], ["\t", "\n"], ["::", "$$"], [",", "\r\n"]]) {
      const sink = new RecordingSink();
      const data = ["p1", "Ann", "31"].join(sep!) + eol + ["p2", "Bob", "27"].join(sep!) + eol;
      const r = await runLoad(job([{ kind: "vertex", type: "Person", values: personValues }], { separator: sep, eol }), body(data), sink, { chunkBytes: 3 });
      expect(r.sources[0]!.statistics.validLine, JSON.stringify([sep, eol])).to.equal(2);
      expect(sink.vertices.map((v) => v.attributes[1]!.value)).to.deep.equal([31n, 27n]);
    }
  });

  it("quoted fields keep separators with QUOTE=double", async () => {
    const sink = new RecordingSink();
    await runLoad(job([{ kind: "vertex", type: "Person", values: personValues }], { quote: "double" }), body('p1,"Smith, Ann",31\n'), sink);
    expect(sink.vertices[0]!.attributes[0]!.value).to.equal("Smith, Ann");
  });

  it("counts short lines, bad ids and bad attributes exactly; objects are whole or absent", async () => {
    const sink = new RecordingSink();
    const data = ["p1,Ann,31", "p2,Bob", ",NoId,3", "p3,Cy,old", "p4,Di,-7", "p5,Ed,+8"].join("\n");
    const r = await runLoad(job([{ kind: "vertex", type: "Person", values: personValues }]), body(data), sink);
    const s = r.sources[0]!.statistics;
    expect([s.validLine, s.notEnoughToken]).to.deep.equal([5, 1]);
    expect(s.vertex).to.deep.equal([{ typeName: "Person", ...zeroObject, validObject: 3, noIdFound: 1, invalidAttribute: 1 }]);
    expect(sink.vertices.map((v) => v.id)).to.deep.equal(["p1", "p4", "p5"]);
    expect(sink.vertices.map((v) => v.attributes[1]!.value)).to.deep.equal([31n, -7n, 8n]);
  });

  it("a short line is skipped for every LOAD; an object error drops only that object", async () => {
    const sink = new RecordingSink();
    const plan = job([
      { kind: "vertex", type: "Person", values: [col(0), skip, col(2), skip, skip, skip, skip] },
      { kind: "vertex", type: "City", values: [col(1), skip] },
    ]);
    const r = await runLoad(plan, body("p1,10,5\np2,xx,6\np3,11\n"), sink);
    const s = r.sources[0]!.statistics;
    expect(s.notEnoughToken).to.equal(1);
    expect(s.vertex.map((e) => [e.typeName, e.validObject, e.invalidPrimaryId])).to.deep.equal([["Person", 2, 0], ["City", 1, 1]]);
    expect(sink.vertices.map((v) => `${v.type}:${v.id}`)).to.deep.equal(["Person:p1", "City:10", "Person:p2"]);
  });

  it("edges: endpoints and attributes; VERTEX_MUST_EXIST is passed to the store", async () => {
    const sink = new RecordingSink();
    const plan = job([{ kind: "edge", type: "Knows", from: { id: col(0) }, to: { id: col(1) }, values: [col(2)] }], { vertexMustExist: true });
    const r = await runLoad(plan, body("a,b,2001\nb,,2002\nc,d,x\n"), sink);
    expect(r.sources[0]!.statistics.edge).to.deep.equal([{ typeName: "Knows", ...zeroObject, validObject: 1, noIdFound: 1, invalidAttribute: 1 }]);
    expect(sink.edges).to.deep.equal([{ type: "Knows", from: { type: "Person", id: "a" }, to: { type: "Person", id: "b" }, attributes: [{ name: "since", value: 2001n, op: "=" }], vertexMustExist: true }]);
  });

  it("multi-pair edges pick the pair from a type annotation, fixed or read from a column", async () => {
    const sink = new RecordingSink();
    const plan = job([
      { kind: "edge", type: "Likes", from: { id: col(0) }, to: { id: col(1), type: "City" }, values: [] },
      { kind: "edge", type: "Likes", from: { id: col(0), type: "Person" }, to: { id: col(1), type: col(2) }, values: [] },
    ]);
    const r = await runLoad(plan, body("a,7,City\nb,8,Person\nc,9,Planet\nd,x,City\n"), sink);
    expect(sink.edges.map((e) => `${e.from.id}->${e.to.type}:${e.to.id}`)).to.deep.equal(["a->City:7", "a->City:7", "b->City:8", "b->Person:8", "c->City:9"]);
    const s = r.sources[0]!.statistics.edge[0]!;
    expect([s.validObject, s.invalidVertexType, s.invalidSecondaryId]).to.deep.equal([5, 1, 2]);
  });

  it("a multi-pair edge without annotations is a plan error", async () => {
    const plan = job([{ kind: "edge", type: "Likes", from: { id: col(0) }, to: { id: col(1) }, values: [] }]);
    let error: unknown;
    await runLoad(plan, body("a,b\n"), new RecordingSink()).catch((e) => (error = e));
    expect((error as Error).message).to.match(/do not pick exactly one of its FROM\/TO pairs/);
  });

  it("WHERE failures count as failedConditionLine, not as errors", async () => {
    const sink = new RecordingSink();
    const plan = job([
      {
        kind: "vertex",
        type: "Person",
        values: personValues,
        where: { kind: "compare", op: ">=", left: { kind: "function", name: "to_int", args: [{ kind: "token", value: col(2) }] }, right: { kind: "number", value: 18 } },
      },
    ]);
    const r = await runLoad(plan, body("a,A,17\nb,B,18\nc,C,40\nd,D,x\n"), sink);
    const s = r.sources[0]!.statistics;
    expect([s.validLine, s.failedConditionLine, s.vertex[0]!.validObject]).to.deep.equal([4, 2, 2]);
    expect(sink.vertices.map((v) => v.id)).to.deep.equal(["b", "c"]);
  });

  it("REJECT_LINE_RULE skips lines and counts them in rejectLine", async () => {
    const sink = new RecordingSink();
    const plan = job([{ kind: "vertex", type: "Person", values: personValues }], { rejectLineRule: "bad" }, {
      lineFilters: [{ name: "bad", condition: { kind: "or", left: { kind: "is_empty", operand: { kind: "token", value: col(2) } }, right: { kind: "not", operand: { kind: "is_numeric", operand: { kind: "token", value: col(2) } } } } }],
    });
    const r = await runLoad(plan, body("a,A,1\nb,B,\nc,C,z\nd,D, 45 \n"), sink);
    const s = r.sources[0]!.statistics;
    expect([s.validLine, s.rejectLine]).to.deep.equal([2, 2]);
    expect(sink.vertices.map((v) => v.id)).to.deep.equal(["a", "d"]);
  });

  it("token functions nest; literals and $sys.file_name load", async () => {
    const sink = new RecordingSink();
    const plan = job([
      { kind: "vertex", type: "Person", values: [call("gsql_concat", lit("p-"), call("gsql_lower", call("gsql_trim", col(0)))), { kind: "file_name" }, lit("7"), skip, call("gsql_to_bool", col(1)), skip, skip] },
    ]);
    await runLoad(plan, body("  ABC ,T\n"), sink);
    expect(sink.vertices[0]).to.deep.equal({
      type: "Person",
      id: "p-abc",
      newVertexOnly: false,
      attributes: [{ name: "name", value: "Online_POST", op: "=" }, { name: "age", value: 7n, op: "=" }, { name: "active", value: true, op: "=" }],
    });
  });

  it("empty tokens: STRING writes \"\", other types keep the stored value (not written)", async () => {
    const sink = new RecordingSink();
    await runLoad(job([{ kind: "vertex", type: "Person", values: [col(0), col(1), col(2), col(3), col(4), col(5), skip] }]), body("p1,,,,,\n"), sink);
    expect(sink.vertices[0]!.attributes).to.deep.equal([{ name: "name", value: "", op: "=" }]);
  });

  it("DATETIME forms load as epoch seconds; an invalid one rejects the object", async () => {
    const sink = new RecordingSink();
    const plan = job([{ kind: "vertex", type: "Person", values: [col(0), skip, skip, skip, skip, col(1), skip] }], { separator: "|" });
    const data = ["a|2011-02-03 01:02:03", "b|2011/2/3 1:2:3", "c|2011-02-03T01:02:03.123z", "d|2011-02-03", "e|86400", "f|2010-13-05", "g|2004-04-31 00:00:00", "h|1582-10-14"].join("\n");
    const r = await runLoad(plan, body(data), sink);
    const t = Date.UTC(2011, 1, 3, 1, 2, 3) / 1000;
    expect(sink.vertices.map((v) => [v.id, v.attributes[0]!.value])).to.deep.equal([["a", t], ["b", t], ["c", t], ["d", Date.UTC(2011, 1, 3) / 1000], ["e", 86400]]);
    expect(r.sources[0]!.statistics.vertex[0]!.invalidAttribute).to.equal(3);
  });

  it("reducers, collections (LIST/SET/SPLIT/MAP) and their default operators", async () => {
    const sink = new RecordingSink();
    const plan = job([
      {
        kind: "vertex",
        type: "Counter",
        values: [
          col(0),
          { kind: "reduce", reducer: "add", value: col(1) },
          { kind: "reduce", reducer: "max", value: col(2) },
          { kind: "split", value: col(3), separator: ";" },
          { kind: "split", value: col(4), separator: ";", keySeparator: ":" },
          { kind: "reduce", reducer: "or", value: col(5) },
        ],
      },
      { kind: "vertex", type: "Person", values: [col(0), skip, skip, skip, skip, skip, { kind: "list", items: [col(1), lit("x"), col(2)] }] },
    ]);
    await runLoad(plan, body("1,5,2.5,3;1;3,a:1;b:2,6\n"), sink);
    expect(sink.vertices[0]).to.deep.equal({
      type: "Counter",
      id: 1,
      newVertexOnly: false,
      attributes: [
        { name: "total", value: 5n, op: "+" },
        { name: "best", value: 2.5, op: ">" },
        { name: "seen", value: [3n, 1n], op: "+" },
        { name: "scores", value: [["a", 1n], ["b", 2n]], op: "+" },
        { name: "flag", value: 6n, op: "|" },
      ],
    });
    expect(sink.vertices[1]!.attributes).to.deep.equal([{ name: "tags", value: ["5", "x", "2.5"], op: "+" }]);
  });

  it("a reducer that does not fit the attribute type is a plan error", async () => {
    const plan = job([{ kind: "vertex", type: "Person", values: [col(0), { kind: "reduce", reducer: "max", value: col(1) }, skip, skip, skip, skip, skip] }]);
    let error: unknown;
    await runLoad(plan, body("a,b\n"), new RecordingSink()).catch((e) => (error = e));
    expect((error as Error).message).to.equal("Reducer max cannot be applied to the attribute name of type STRING.");
  });

  it("NEW_VERTEX_ONLY is passed with each vertex", async () => {
    const sink = new RecordingSink();
    await runLoad(job([{ kind: "vertex", type: "City", values: [col(0), col(1)] }], { newVertexOnly: true }), body("1,Oslo\n"), sink);
    expect(sink.vertices[0]!.newVertexOnly).to.equal(true);
  });

  it("line ranges (-n first,last) count from the first line, header included", async () => {
    const sink = new RecordingSink();
    const plan = job([{ kind: "vertex", type: "City", values: [named("id"), named("name")] }], { header: true });
    const r = await runLoad(plan, body("id,name\n1,a\n2,b\n3,c\n4,d\n"), sink, { lineRange: { first: 3, last: 4 } });
    expect(sink.vertices.map((v) => v.id)).to.deep.equal([2, 3]);
    expect(r.sources[0]!.lines).to.equal(2);
  });

  it("dry run counts without writing", async () => {
    const sink = new RecordingSink();
    const r = await runLoad(job([{ kind: "vertex", type: "City", values: [col(0), col(1)] }]), body("1,a\n2,b\n"), sink, { dryRun: true });
    expect(r.sources[0]!.statistics.vertex[0]!.validObject).to.equal(2);
    expect(sink.batches).to.have.length(0);
  });

  it("atomic loads hand everything to the store in one batch", async () => {
    const sink = new RecordingSink();
    const lines = Array.from({ length: 70000 }, (_, i) => `${i},c${i}`).join("\n");
    await runLoad(job([{ kind: "vertex", type: "City", values: [col(0), col(1)] }]), body(lines), sink, { atomic: true, chunkBytes: 1 << 16 });
    expect(sink.batches).to.have.length(1);
    expect(sink.vertices).to.have.length(70000);
  });

  it("plan errors: unknown types, wrong value counts, mixed USING, undefined variables", async () => {
    const cases: [LoadingJobPlan, RegExp][] = [
      [job([{ kind: "vertex", type: "Nope", values: [col(0)] }]), /Vertex type Nope does not exist/],
      [job([{ kind: "vertex", type: "City", values: [col(0)] }]), /needs 2 values/],
      [job([{ kind: "edge", type: "Knows", from: { id: col(0) }, to: { id: skip }, values: [col(2)] }]), /TO id of Knows cannot be '_'/],
      [job([{ kind: "vertex", type: "City", values: [col(0), { kind: "json_path", path: ["a", "b"] }] }]), /needs USING JSON_FILE="true"/],
      [job([{ kind: "vertex", type: "City", values: [col(0), call("gsql_nope", col(1))] }]), /Unknown token function gsql_nope/],
      [job([{ kind: "vertex", type: "City", values: [col(0), col(1)] }], { separator: "abcde" }), /SEPARATOR must be 1 to 4 characters/],
      [
        {
          ...job([]),
          statements: [
            { kind: "load", source: { kind: "file", variable: "f" }, destinations: [{ kind: "vertex", type: "City", values: [col(0), col(1)] }], using: {} },
            { kind: "load", source: { kind: "file", variable: "f" }, destinations: [{ kind: "vertex", type: "City", values: [col(0), col(1)] }], using: { separator: "|" } },
          ],
        },
        /must have the same USING/,
      ],
    ];
    for (const [plan, message] of cases) {
      let error: unknown;
      await runLoad(plan, body("1,2,3\n"), new RecordingSink()).catch((e) => (error = e));
      expect(error, String(message)).to.be.instanceOf(LoadError);
      expect((error as Error).message).to.match(message);
    }
  });
});

describe("runLoad: JSON lines", () => {
  it("loads key paths; absent keys keep defaults; bad lines count as invalidJson", async () => {
    const sink = new RecordingSink();
    const plan = job([{ kind: "vertex", type: "Person", values: [named("id"), { kind: "json_path", path: ["info", "name"] }, named("age"), skip, named("ok"), skip, skip] }], { jsonFile: true });
    const data = ['{"id":"a","info":{"name":"Ann"},"age":30,"ok":true}', '{"age":5,"id":"b"}', "{broken", '["x"]', '{"info":{"name":"NoId"}}'].join("\n");
    const r = await runLoad(plan, body(data), sink);
    const s = r.sources[0]!.statistics;
    expect([s.validLine, s.invalidJson, s.vertex[0]!.validObject, s.vertex[0]!.noIdFound]).to.deep.equal([3, 2, 2, 1]);
    expect(sink.vertices).to.deep.equal([
      { type: "Person", id: "a", newVertexOnly: false, attributes: [{ name: "name", value: "Ann", op: "=" }, { name: "age", value: 30n, op: "=" }, { name: "active", value: true, op: "=" }] },
      { type: "Person", id: "b", newVertexOnly: false, attributes: [{ name: "age", value: 5n, op: "=" }] },
    ]);
  });
});

describe("runLoad: temp tables and flatten", () => {
  it("flatten feeds one row per element to the statements reading the table", async () => {
    const sink = new RecordingSink();
    const plan: LoadingJobPlan = {
      ...job([]),
      statements: [
        {
          kind: "load",
          source: { kind: "file", variable: "f" },
          destinations: [{ kind: "temp_table", table: "t", columns: ["pid", "city"], values: [col(0), { kind: "flatten", value: col(1), separator: ",", fieldCount: 1 }] }],
          using: { separator: "|", quote: "double" },
        },
        { kind: "load", source: { kind: "temp_table", table: "t" }, destinations: [{ kind: "edge", type: "LivesIn", from: { id: named("pid") }, to: { id: named("city") }, values: [] }], using: {} },
      ],
    };
    const r = await runLoad(plan, body('101|"1,2"\n102|3\n'), sink);
    expect(sink.edges.map((e) => `${e.from.id}->${e.to.id}`)).to.deep.equal(["101->1", "101->2", "102->3"]);
    expect(r.sources[0]!.statistics.edge[0]!.validObject).to.equal(3);
  });
});

describe("runLoad: DELETE statements", () => {
  it("queues vertex and edge deletions", async () => {
    const sink = new RecordingSink();
    const plan: LoadingJobPlan = {
      ...job([]),
      statements: [
        { kind: "delete_vertex", type: "City", id: col(0), source: { kind: "file", variable: "f" }, using: {} },
        { kind: "delete_edge", type: "Knows", from: { id: col(1) }, to: { id: col(2) }, source: { kind: "file", variable: "f" }, using: {} },
      ],
    };
    const r = await runLoad(plan, body("5,a,b\nx,c,d\n"), sink);
    expect(sink.batches[0]!.vertexDeletes).to.deep.equal([{ type: "City", id: 5 }]);
    expect(sink.batches[0]!.edgeDeletes.map((d) => `${d.from.id}->${d.to!.id}`)).to.deep.equal(["a->b", "c->d"]);
    expect(r.sources[0]!.statistics.deleteVertex[0]).to.include({ typeName: "City", validObject: 1, invalidPrimaryId: 1 });
  });
});

describe("runLoad: limits", () => {
  it("a load stopped by its time limit (atomic) writes nothing", async () => {
    const sink = new RecordingSink();
    let error: unknown;
    await runLoad(job([{ kind: "vertex", type: "City", values: [col(0), col(1)] }]), body("1,a\n2,b\n"), sink, { atomic: true, signal: AbortSignal.abort() }).catch((e) => (error = e));
    expect(error).to.be.instanceOf(LoadError);
    expect((error as LoadError).kind).to.equal("timeout");
    expect(sink.batches).to.have.length(0);
  });
  it("a missing file is an io error before anything is read", async () => {
    let error: unknown;
    await runLoad(job([{ kind: "vertex", type: "City", values: [col(0), col(1)] }]), new Map([["f", { kind: "path" as const, path: "/nonexistent/x.csv" }]]), new RecordingSink()).catch((e) => (error = e));
    expect((error as LoadError).kind).to.equal("io");
  });
});

describe("runLoad: -max_percent_error", () => {
  it("stops reading a source once the share of errors passes the limit", async () => {
    const lines = ["1,a", "2,b", "x,c", "y,d", ...Array.from({ length: 200 }, (_, i) => `${i + 10},e`)].join("\n");
    const sink = new RecordingSink();
    const r = await runLoad(job([{ kind: "vertex", type: "City", values: [col(0), col(1)] }]), body(lines), sink, { maxPercentError: 10, chunkBytes: 8 });
    expect(r.sources[0]!.stoppedBy).to.equal("max_percent_error");
    expect(r.sources[0]!.lines).to.be.lessThan(20);
    const all = await runLoad(job([{ kind: "vertex", type: "City", values: [col(0), col(1)] }]), body(lines), new RecordingSink(), { maxPercentError: 10 });
    expect(all.sources[0]!.stoppedBy).to.equal(undefined);
    expect(all.sources[0]!.statistics.vertex[0]!.invalidPrimaryId).to.equal(2);
  });
});

describe("USING separator text", () => {
  it('decodes "\\t", "\\xy" decimal codes and escapes; plain text stays', () => {
    expect(["\\t", "\\30", "\\124", "|", "\\r\\n", "a\\tb", "\\300"].map(decodeSeparatorText)).to.deep.equal(["\t", "\u001e", "|", "|", "\r\n", "a\tb", undefined]);
  });
});
