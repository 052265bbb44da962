// to_vertex / to_vertex_set probe the store's primary-id hash from inside the module. With
// thousands of vertices (long probe runs, collisions, the hash grown several times) and
// some of them deleted (deleted entries stay in the hash and must be skipped), every id a
// query looks up must resolve to the vertex the store's own lookup gives, and no other.
// SelectVertex reads the ids (and optionally the types) from a delimited file.
import { expect } from "chai";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mulberry32 } from "../../../tools/bench/rmat.js";
import { closeSharedRuntime, createDatabase, runGsql } from "./gsql-harness.js";

const DDL = `
CREATE VERTEX S (PRIMARY_ID id STRING)
CREATE VERTEX N (PRIMARY_ID id INT)
CREATE GRAPH G (S, N)
`;

const QUERY = `CREATE QUERY find(SET<STRING> texts, SET<INT> numbers) FOR GRAPH G SYNTAX V1 {
  SetAccum<INT> @@textVids, @@numberVids;
  A = to_vertex_set(texts, "S");
  B = to_vertex_set(numbers, "N");
  A = SELECT a FROM A:a ACCUM @@textVids += getvid(a);
  B = SELECT b FROM B:b ACCUM @@numberVids += getvid(b);
  PRINT @@textVids, @@numberVids;
}`;

describe("to_vertex / to_vertex_set: primary-id lookup inside the module", function () {
  this.timeout(60000);
  after(closeSharedRuntime);

  it("finds exactly the vertices the store's own lookup finds", async () => {
    const rnd = mulberry32(5);
    const texts = Array.from({ length: 3000 }, (_, i) => `t${i}-${Math.floor(rnd() * 1e9).toString(36)}${i % 7 === 0 ? "é" : ""}`);
    const numbers = Array.from({ length: 3000 }, (_, i) => (i % 2 === 0 ? -1 : 1) * (i * 7919 + Math.floor(rnd() * 1e6)) * (i % 5 === 0 ? 1e6 : 1));
    const db = createDatabase(DDL, { vertices: [...texts.map((id) => ({ type: "S", id })), ...numbers.map((id) => ({ type: "N", id }))] });
    db.store.deleteVertices("S", texts.filter((_, i) => i % 3 === 0));
    db.store.deleteVertices("N", numbers.filter((_, i) => i % 4 === 0));
    // ask for every id ever loaded, plus ids never loaded
    const askTexts = [...texts, "t1", "", "nope"];
    const askNumbers = [...numbers, 1, 0, 123456789];
    const r = await runGsql(db, QUERY, [askTexts, askNumbers.map((n) => BigInt(n))]);
    if (!r.ok) throw new Error(r.message);
    const out = (r.json as { "@@textVids": number[]; "@@numberVids": number[] }[])[0];
    const expected = db.store.read((s) => ({
      texts: askTexts.map((id) => s.lookup("S", id)).filter((v): v is number => v !== undefined),
      numbers: askNumbers.map((id) => s.lookup("N", id)).filter((v): v is number => v !== undefined),
    }));
    expect(expected.texts.length).to.equal(2000);
    expect(expected.numbers.length).to.equal(2250);
    expect([...out["@@textVids"]].sort((a, b) => a - b)).to.deep.equal([...expected.texts].sort((a, b) => a - b));
    expect([...out["@@numberVids"]].sort((a, b) => a - b)).to.deep.equal([...expected.numbers].sort((a, b) => a - b));
    // each call reports the ids it skipped (the SET parameters hold each id once)
    const missing = (asked: unknown[], found: number[]) => new Set(asked).size - new Set(found).size;
    expect(r.warnings).to.deep.equal([
      `Runtime Warning: ${missing(askTexts, expected.texts)} ids are invalid S vertex ids.`,
      `Runtime Warning: ${missing(askNumbers, expected.numbers)} ids are invalid N vertex ids.`,
    ]);
    expect(missing(askTexts, expected.texts)).to.equal(1003);
  });

  it("warns only when an id is unknown, and to_vertex fails on one", async () => {
    const db = createDatabase(DDL, { vertices: [{ type: "S", id: "a" }, { type: "N", id: 5 }] });
    const found = await runGsql(db, QUERY, [["a"], [5n]]);
    if (!found.ok) throw new Error(found.message);
    expect(found.warnings).to.deep.equal([]);
    expect(found.json).to.deep.equal([{ "@@textVids": [db.store.read((s) => s.lookup("S", "a"))], "@@numberVids": [db.store.read((s) => s.lookup("N", 5))] }]);
    const one = await runGsql(db, QUERY, [["a", "b"], []]);
    expect(one.ok && one.warnings).to.deep.equal(["Runtime Warning: 1 ids are invalid S vertex ids."]);
    const missing = await runGsql(db, `CREATE QUERY single(INT n) FOR GRAPH G { VERTEX v = to_vertex(n, "N"); PRINT v; }`, [6n]);
    expect(missing.ok).to.equal(false);
    if (!missing.ok) expect([missing.kind, missing.message]).to.deep.equal(["error", "Runtime Error: the vertex does not exist."]);
  });

  it("a vertex type given at run time: ids looked up in the type of that name, the warning names it, an unknown name fails the run", async () => {
    const db = createDatabase(DDL, { vertices: [{ type: "S", id: "a" }, { type: "S", id: "7" }, { type: "N", id: 7 }] });
    const query = `CREATE QUERY pick(STRING t, SET<STRING> ids) FOR GRAPH G {
      SetAccum<INT> @@vids;
      A = to_vertex_set(ids, t);
      A = SELECT a FROM A:a ACCUM @@vids += getvid(a);
      VERTEX one = to_vertex("7", t);
      PRINT @@vids, one;
    }`;
    const vid = (type: string, id: string | number) => db.store.read((s) => s.lookup(type, id))!;
    // The same text "7" names an S vertex and (as a number) an N vertex.
    const asS = await runGsql(db, query, ["S", ["a", "7", "b"]]);
    if (!asS.ok) throw new Error(asS.message);
    expect(asS.json).to.deep.equal([{ "@@vids": [vid("S", "a"), vid("S", "7")].sort((a, b) => a - b), one: "7" }]);
    expect(asS.warnings).to.deep.equal(["Runtime Warning: 1 ids are invalid S vertex ids."]);
    const asN = await runGsql(db, query, ["N", ["7", "8"]]);
    if (!asN.ok) throw new Error(asN.message);
    expect((asN.json as { "@@vids": number[] }[])[0]!["@@vids"]).to.deep.equal([vid("N", 7)]);
    expect(asN.warnings).to.deep.equal(["Runtime Warning: 1 ids are invalid N vertex ids."]);
    const unknown = await runGsql(db, query, ["X", ["7"]]);
    expect(unknown.ok).to.equal(false);
    if (!unknown.ok) expect([unknown.kind, unknown.message]).to.deep.equal(["error", "Runtime Error: the vertex type does not exist."]);
  });

  describe("SelectVertex", () => {
    const dir = mkdtempSync(join(tmpdir(), "wasmgraph-selectvertex-"));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const db = createDatabase(DDL, { vertices: [{ type: "S", id: "a" }, { type: "S", id: "b" }, { type: "N", id: 5 }, { type: "N", id: -7 }] });
    const vid = (type: string, id: string | number) => db.store.read((s) => s.lookup(type, id))!;
    const run = (call: string) =>
      runGsql(db, `CREATE QUERY sv(STRING path) FOR GRAPH G SYNTAX V1 {
        SetAccum<INT> @@vids;
        R = {${call}};
        R = SELECT v FROM R:v ACCUM @@vids += getvid(v);
        PRINT R.size() AS n, @@vids;
      }`, [join(dir, "ids.csv")]);
    const vids = (r: Awaited<ReturnType<typeof run>>) => {
      if (!r.ok) throw new Error(r.message);
      const out = (r.json as { n: number; "@@vids": number[] }[])[0];
      return { n: out.n, vids: [...out["@@vids"]].sort((x, y) => x - y), warnings: r.warnings };
    };
    const sorted = (xs: number[]) => [...xs].sort((x, y) => x - y);

    it("reads a column of ids of one type, skipping and counting unknown ones", async () => {
      writeFileSync(join(dir, "ids.csv"), "x,a\r\ny,zz\n\nz,b\nw,a\n");
      expect(vids(await run(`SelectVertex(path, $1, S, ",", false)`))).to.deep.equal({ n: 2, vids: sorted([vid("S", "a"), vid("S", "b")]), warnings: ["Runtime Warning: 1 ids are invalid S vertex ids."] });
    });

    it("names the column from the header and takes each row's type from another column", async () => {
      writeFileSync(join(dir, "ids.csv"), "kind|key\nN|5\nS|b\nN|-7\nQ|5\nN|6\n");
      expect(vids(await run(`SelectVertex(path, $"key", $0, "|", true)`))).to.deep.equal({ n: 3, vids: sorted([vid("N", 5), vid("S", "b"), vid("N", -7)]), warnings: ["Runtime Warning: 2 ids are invalid vertex ids."] });
    });

    it("fails on a missing file or column", async () => {
      writeFileSync(join(dir, "ids.csv"), "a\nb\n");
      const noColumn = await run(`SelectVertex(path, $1, S, ",", false)`);
      expect(noColumn.ok || [noColumn.kind, noColumn.message]).to.deep.equal(["error", "Runtime Error: a row of the file given to SelectVertex has no such column."]);
      const noName = await run(`SelectVertex(path, $"id", S, ",", false)`);
      expect(noName.ok || noName.message).to.equal("Runtime Error: a row of the file given to SelectVertex has no such column.");
      rmSync(join(dir, "ids.csv"));
      const noFile = await run(`SelectVertex(path, $0, S, ",", false)`);
      expect(noFile.ok || noFile.message).to.equal("Runtime Error: the file given to SelectVertex cannot be read.");
    });
  });
});
