// Loading into the real graph store, end to end: a 100k-line file through RUN LOADING JOB
// and the same data through POST /ddl, counted with stat_vertex_number / stat_edge_number
// against counts computed here from the data; endpoints created on the fly, reducers,
// NEW_VERTEX_ONLY, VERTEX_MUST_EXIST and DATETIME values read back from the store.
import { expect } from "chai";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStore } from "../../../runtime-wasm/store/index.js";
import { Engine } from "../../../server/engine/engine.js";
import { runLoadingJob } from "../../../server/loading/run-job.js";
import { runLoad } from "../../../server/loading/run.js";
import { engineSink } from "../../../server/loading/engine-sink.js";
import type { LoadingJobPlan } from "../../../server/loading/plan.js";
import { startTestServer, type TestServer } from "../../helpers/http.js";
import { col, job, skip, socialSchema, body, vertexType, edgeType, scalar } from "./fixtures.js";
import type { DatabaseSchema } from "../../../runtime-wasm/schema/types.js";
import { edgeRunsOf, type AttributeWrite, type EdgeWrite, type LoadBatch, type VertexWrite } from "../../../server/loading/sink.js";

const FORM = { "content-type": "application/x-www-form-urlencoded" };

function newEngine(): Engine {
  const engine = new Engine({ createStore });
  engine.apply({ kind: "define-schema", schema: socialSchema() });
  return engine;
}

/** Person vertex from column 0 (name, age) and a Knows edge $0 -> $3 with since=$4. */
const peopleJob: LoadingJobPlan = job(
  [
    { kind: "vertex", type: "Person", values: [col(0), col(1), col(2), skip, skip, skip, skip] },
    { kind: "edge", type: "Knows", from: { id: col(0) }, to: { id: col(3) }, values: [col(4)] },
  ],
  {},
  { name: "load_people" },
);

/** 100k lines; every 1000th is short, every 997th has a bad age (that Person is dropped, its edge loads). */
function peopleLines(n: number): { text: string; expected: { vertices: number; edges: number; short: number; badAge: number } } {
  const lines: string[] = [];
  const vertices = new Set<string>();
  const edges = new Set<string>();
  let short = 0;
  let badAge = 0;
  for (let i = 0; i < n; i++) {
    if (i % 1000 === 999) {
      lines.push(`p${i},short`);
      short++;
      continue;
    }
    const target = `p${(i * 7919) % (n * 2)}`;
    const age = i % 997 === 0 ? "old" : String(i % 90);
    if (age === "old") badAge++;
    lines.push(`p${i},name${i},${age},${target},${2000 + (i % 20)}`);
    // The edge creates both endpoints, whether or not the Person object itself was valid.
    vertices.add(`p${i}`);
    vertices.add(target);
    edges.add(`p${i}>${target}`);
  }
  return { text: lines.join("\n") + "\n", expected: { vertices: vertices.size, edges: edges.size, short, badAge } };
}

async function counts(server: TestServer) {
  const v = await server.request("POST", "/builtins/social", JSON.stringify({ function: "stat_vertex_number", type: "Person" }));
  const e = await server.request("POST", "/builtins/social", JSON.stringify({ function: "stat_edge_number", type: "Knows" }));
  const r = await server.request("POST", "/builtins/social", JSON.stringify({ function: "stat_edge_number", type: "Known_By" }));
  return { vertices: v.json.results[0].count, edges: e.json.results[0].count, reverse: r.json.results[0].count };
}

describe("loading into the store: 100k lines through RUN LOADING JOB and POST /ddl", function () {
  this.timeout(60_000);
  const data = peopleLines(100_000);

  it("RUN LOADING JOB from a file", async () => {
    const engine = newEngine();
    engine.apply({ kind: "create-loading-job", plan: peopleJob });
    const path = join(mkdtempSync(join(tmpdir(), "wg-load-")), "people.csv");
    writeFileSync(path, data.text);
    const summary = await runLoadingJob(engine, { graph: "social", job: "load_people", paths: { f: path } });
    const s = summary.result.sources[0]!.statistics;
    expect([s.validLine, s.notEnoughToken]).to.deep.equal([100_000 - data.expected.short, data.expected.short]);
    expect(s.vertex[0]).to.include({ typeName: "Person", validObject: 100_000 - data.expected.short - data.expected.badAge, invalidAttribute: data.expected.badAge });
    expect(s.edge[0]).to.include({ typeName: "Knows", validObject: 100_000 - data.expected.short });
    const server = await startTestServer({ engine });
    try {
      expect(await counts(server)).to.deep.equal({ vertices: data.expected.vertices, edges: data.expected.edges, reverse: data.expected.edges });
    } finally {
      await server.close();
    }
  });

  it("POST /ddl with the same data gives the same counts", async () => {
    const engine = newEngine();
    engine.apply({ kind: "create-loading-job", plan: peopleJob });
    const server = await startTestServer({ engine });
    try {
      const r = await server.request("POST", "/ddl/social?tag=load_people&filename=f", data.text, FORM);
      expect(r.status).to.equal(200);
      expect(r.json.code).to.equal("REST-0000");
      const s = r.json.results[0].statistics;
      expect([s.validLine, s.notEnoughToken, s.vertex[0].invalidAttribute]).to.deep.equal([100_000 - data.expected.short, data.expected.short, data.expected.badAge]);
      expect(await counts(server)).to.deep.equal({ vertices: data.expected.vertices, edges: data.expected.edges, reverse: data.expected.edges });
    } finally {
      await server.close();
    }
  });
});

describe("loading into the store: semantics", () => {
  const read = (engine: Engine, type: string, id: string | number) =>
    engine.read((s) => {
      const vid = s.lookup(type, id);
      return vid === undefined ? undefined : s.attributes(vid);
    });

  it("edge endpoints are created with defaults; a later vertex line fills them in", async () => {
    const engine = newEngine();
    const sink = engineSink(engine, "social");
    await runLoad(job([{ kind: "edge", type: "Knows", from: { id: col(0) }, to: { id: col(1) }, values: [col(2)] }]), body("a,b,2001\n"), sink);
    expect(read(engine, "Person", "b")).to.include({ name: "", age: 0n });
    await runLoad(job([{ kind: "vertex", type: "Person", values: [col(0), col(1), col(2), skip, skip, col(3), skip] }]), body("b,Bea,44,2011-02-03 01:02:03\n"), sink);
    expect(read(engine, "Person", "b")).to.include({ name: "Bea", age: 44n, born: Date.UTC(2011, 1, 3, 1, 2, 3) / 1000 });
  });

  it("VERTEX_MUST_EXIST skips edges to missing vertices; NEW_VERTEX_ONLY leaves existing ones", async () => {
    const engine = newEngine();
    const sink = engineSink(engine, "social");
    await runLoad(job([{ kind: "vertex", type: "City", values: [col(0), col(1)] }]), body("1,Oslo\n"), sink);
    await runLoad(job([{ kind: "vertex", type: "City", values: [col(0), col(1)] }], { newVertexOnly: true }), body("1,Bergen\n2,Rome\n"), sink);
    expect(read(engine, "City", 1)).to.deep.equal({ name: "Oslo" });
    expect(read(engine, "City", 2)).to.deep.equal({ name: "Rome" });
    await runLoad(job([{ kind: "edge", type: "LivesIn", from: { id: col(0) }, to: { id: col(1) }, values: [] }], { vertexMustExist: true }), body("ann,1\n"), sink);
    expect(read(engine, "Person", "ann")).to.equal(undefined);
    expect(engine.read((s) => s.storedEdgeCount("LivesIn"))).to.equal(0);
  });

  it("reducers fold across lines and loads; on a new vertex the value is stored", async () => {
    const engine = newEngine();
    const sink = engineSink(engine, "social");
    const plan = job([
      {
        kind: "vertex",
        type: "Counter",
        values: [col(0), { kind: "reduce", reducer: "add", value: col(1) }, { kind: "reduce", reducer: "max", value: col(2) }, col(3), { kind: "split", value: col(4), separator: ";", keySeparator: ":" }, skip],
      },
    ]);
    await runLoad(plan, body("7,5,1.5,1,a:1\n7,10,0.5,2,b:2\n"), sink);
    await runLoad(plan, body("7,1,9.25,1,a:5\n"), sink);
    const c = read(engine, "Counter", 7)!;
    expect(c.total).to.equal(16n);
    expect(c.best).to.equal(9.25);
    expect([...(c.seen as bigint[])].sort()).to.deep.equal([1n, 2n]);
    expect(new Map(c.scores as [string, bigint][])).to.deep.equal(new Map([["a", 5n], ["b", 2n]]));
  });

  it("DELETE jobs remove vertices (with their edges) and edges", async () => {
    const engine = newEngine();
    const sink = engineSink(engine, "social");
    await runLoad(job([{ kind: "edge", type: "Knows", from: { id: col(0) }, to: { id: col(1) }, values: [skip] }]), body("a,b\nb,c\nc,a\na,c\n"), sink);
    expect(engine.read((s) => [s.vertexCount("Person"), s.storedEdgeCount("Knows")])).to.deep.equal([3, 4]);
    const deletes: LoadingJobPlan = {
      ...job([]),
      statements: [
        { kind: "delete_vertex", type: "Person", id: col(0), source: { kind: "file", variable: "f" }, using: {}, where: { kind: "compare", op: "==", left: { kind: "token", value: col(2) }, right: { kind: "string", text: "v" } } },
      ],
    };
    const r = await runLoad(deletes, body("c,,v\nb,,x\n"), sink);
    expect(r.sources[0]!.statistics.deleteVertex[0]).to.include({ typeName: "Person", validObject: 1 });
    expect(r.sources[0]!.statistics.failedConditionLine).to.equal(1);
    expect(engine.read((s) => [s.vertexCount("Person"), s.storedEdgeCount("Knows"), s.storedEdgeCount("Known_By")])).to.deep.equal([2, 1, 1]);
    const edgeDeletes: LoadingJobPlan = { ...job([]), statements: [{ kind: "delete_edge", type: "Knows", from: { id: col(0) }, to: { id: col(1) }, source: { kind: "file", variable: "f" }, using: {} }] };
    await runLoad(edgeDeletes, body("a,b\n"), sink);
    expect(engine.read((s) => [s.vertexCount("Person"), s.storedEdgeCount("Knows")])).to.deep.equal([2, 0]);
  });

  it("JSON lines load nested keys into the store", async () => {
    const engine = newEngine();
    const plan = job([{ kind: "vertex", type: "Person", values: [{ kind: "named_column", name: "id" }, { kind: "json_path", path: ["info", "name"] }, { kind: "named_column", name: "age" }, skip, { kind: "named_column", name: "ok" }, skip, skip] }], { jsonFile: true });
    await runLoad(plan, body('{"id":"j1","info":{"name":"Jo"},"age":33,"ok":true}\n{"id":"j2"}\n'), engineSink(engine, "social"));
    expect(read(engine, "Person", "j1")).to.include({ name: "Jo", age: 33n, active: true });
    expect(read(engine, "Person", "j2")).to.include({ name: "", age: 0n, active: false });
  });

  it("sources with different flags in one batch: each item reaches the store once, with its own flags", async () => {
    const engine = newEngine();
    const sink = engineSink(engine, "social");
    await runLoad(job([{ kind: "vertex", type: "City", values: [col(0), col(1)] }]), body("1,Oslo\n"), sink);
    const plan: LoadingJobPlan = {
      ...job([]),
      files: [{ name: "f1" }, { name: "f2" }],
      statements: [
        { kind: "load", source: { kind: "file", variable: "f1" }, destinations: [{ kind: "vertex", type: "City", values: [col(0), col(1)] }], using: { newVertexOnly: true } },
        { kind: "load", source: { kind: "file", variable: "f2" }, destinations: [{ kind: "edge", type: "Knows", from: { id: col(0) }, to: { id: col(1) }, values: [{ kind: "reduce", reducer: "add", value: col(2) }] }], using: { vertexMustExist: false } },
      ],
    };
    await runLoad(plan, new Map([["f1", { kind: "body" as const, data: "1,Bergen\n2,Rome\n" }], ["f2", { kind: "body" as const, data: "a,b,5\n" }]]), sink);
    expect(read(engine, "City", 1)).to.deep.equal({ name: "Oslo" });
    expect(read(engine, "City", 2)).to.deep.equal({ name: "Rome" });
    const since = engine.read((s) => {
      const a = s.lookup("Person", "a")!;
      const [edge] = [...s.edges(a, { type: "Knows" })];
      return s.edgeAttribute(edge!, "since");
    });
    expect(since).to.equal(5n);
  });

  it("an undirected edge given both ways in one batch is one edge; REDUCE(add) folds both", async () => {
    const engine = newEngine();
    const plan = job([{ kind: "edge", type: "Friend", from: { id: col(0) }, to: { id: col(1) }, values: [{ kind: "reduce", reducer: "add", value: col(2) }] }]);
    await runLoad(plan, body("a,b,2\nb,a,3\n"), engineSink(engine, "social"));
    await runLoad(plan, body("b,a,10\n"), engineSink(engine, "social"));
    const weights = engine.read((s) => [...s.edges(s.lookup("Person", "a")!, { type: "Friend" })].map((e) => s.edgeAttribute(e, "weight")));
    expect(weights).to.deep.equal([15n]);
    expect(engine.read((s) => s.storedEdgeCount("Friend"))).to.equal(1);
  });

  it("items of one batch apply in order: different reducers on one vertex, flags split into calls, skipped edges create nothing", () => {
    const engine = newEngine();
    const counter = (id: number, op: AttributeWrite["op"], total: number, newVertexOnly = false): VertexWrite => ({ type: "Counter", id, attributes: [{ name: "total", op, value: BigInt(total) }], newVertexOnly });
    const friend = (a: string, b: string, weight: number, vertexMustExist = false): EdgeWrite => ({ type: "Friend", from: { type: "Person", id: a }, to: { type: "Person", id: b }, attributes: [{ name: "weight", op: "+", value: BigInt(weight) }], vertexMustExist });
    const batch: LoadBatch = {
      // 5 (new: stored), max 3, +1, then a NEW_VERTEX_ONLY item (left untouched) and +10 on a vertex that item creates.
      vertices: [counter(1, "+", 5), counter(1, ">", 3), counter(1, "+", 1), counter(1, "=", 100, true), counter(2, "=", 7, true), counter(2, "+", 10)],
      // The first edge is skipped (VERTEX_MUST_EXIST, x is missing): the next one creates the edge.
      edgeRuns: edgeRunsOf([friend("x", "y", 1, true), friend("y", "x", 2), friend("x", "y", 3)]),
      vertexDeletes: [],
      edgeDeletes: [],
    };
    const outcome = engine.apply({ kind: "load-batch", graph: "social", batch });
    expect(outcome).to.deep.include({ acceptedVertices: 5, acceptedEdges: 2, skippedEdges: 1 });
    expect(read(engine, "Counter", 1)!.total).to.equal(6n);
    expect(read(engine, "Counter", 2)!.total).to.equal(17n);
    const weights = engine.read((s) => [...s.edges(s.lookup("Person", "x")!, { type: "Friend" })].map((e) => s.edgeAttribute(e, "weight")));
    expect(weights).to.deep.equal([5n]);
  });

  it("composite PRIMARY KEY vertices and edge endpoints given as tuples", async () => {
    const movie = { ...vertexType("Movie", "STRING", [["title", scalar("STRING")], ["yr", scalar("UINT")], ["rating", scalar("DOUBLE")]]), compositeKey: ["title", "yr"] };
    const db: DatabaseSchema = {
      tuples: [],
      vertexTypes: [movie, vertexType("Actor", "STRING", [])],
      edgeTypes: [edgeType("ActsIn", [["Actor", "Movie"]])],
      graphs: [{ name: "cinema", vertexTypes: ["Movie", "Actor"], edgeTypes: ["ActsIn"], version: 0 }],
      globalVersion: 0,
    };
    const engine = new Engine({ createStore });
    engine.apply({ kind: "define-schema", schema: db });
    const plan: LoadingJobPlan = {
      ...job([]),
      graph: "cinema",
      statements: [
        {
          kind: "load",
          source: { kind: "file", variable: "f" },
          destinations: [
            { kind: "vertex", type: "Movie", values: [col(1), col(2), col(3)] },
            { kind: "edge", type: "ActsIn", from: { id: col(0) }, to: { id: { kind: "composite", parts: [col(1), col(2)] } }, values: [] },
          ],
          using: {},
        },
      ],
    };
    const r = await runLoad(plan, body("ann,Heat,1995,8.3\nbob,Heat,1995,8.3\ncy,Heat,x,1\ndi,,1990,2\n"), engineSink(engine, "cinema"));
    const s = r.sources[0]!.statistics;
    expect(s.vertex[0]).to.include({ typeName: "Movie", validObject: 2, invalidPrimaryId: 1, noIdFound: 1 });
    expect(s.edge[0]).to.include({ typeName: "ActsIn", validObject: 2, invalidSecondaryId: 1, noIdFound: 1 });
    expect(engine.read((snap) => [snap.vertexCount("Movie"), snap.vertexCount("Actor"), snap.storedEdgeCount("ActsIn")])).to.deep.equal([1, 2, 2]);
    expect(engine.read((snap) => snap.attributes(snap.lookup("Movie", ["Heat", 1995n])!))).to.deep.equal({ title: "Heat", yr: 1995n, rating: 8.3 });
  });
});
