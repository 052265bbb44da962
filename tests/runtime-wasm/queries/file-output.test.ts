// FILE objects (gsql-semantics §8.4): `FILE f (path)` and FILE parameters, `f.println` at
// query level and in ACCUM/POST-ACCUM; values as text (vertices by id, collections
// space-separated), written when the query ends, nothing written when it fails.
import { expect } from "chai";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeSharedRuntime, createDatabase, runGsql } from "./gsql-harness.js";
import { SAMPLE_DATA, SAMPLE_DDL } from "./sample-graph.js";

describe("query FILE output", function () {
  this.timeout(30000);
  const dir = mkdtempSync(join(tmpdir(), "wasmgraph-file-"));
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await closeSharedRuntime();
  });

  it("a FILE parameter gets a header line and one line per vertex; PRINT output is unaffected", async () => {
    const db = createDatabase(SAMPLE_DDL, SAMPLE_DATA);
    const path = join(dir, "ages.csv");
    const r = await runGsql(
      db,
      `CREATE QUERY q(FILE f) FOR GRAPH G SYNTAX V1 {
         SetAccum<STRING> @names;
         S = {P.*};
         f.println("id", "age", "half", "knows");
         S = SELECT s FROM S:s -(Knows:e)-> P:t ACCUM s.@names += t.name
             POST-ACCUM f.println(s, s.age, s.age / 2.0, s.@names);
         PRINT S.size() AS n;
       }`,
      [path],
    );
    expect(r.ok && r.json).to.deep.equal([{ n: 2 }]);
    expect(r.ok && r.files).to.deep.equal([path]);
    const lines = readFileSync(path, "utf8").split("\n");
    expect(lines[0]).to.equal("id,age,half,knows");
    expect(lines.at(-1)).to.equal("");
    const rows = lines.slice(1, -1).map((l) => l.split(","));
    rows.sort((a, b) => a[0].localeCompare(b[0]));
    expect(rows.map((r) => r.slice(0, 3))).to.deep.equal([
      ["a", "30", "15"],
      ["b", "25", "12.5"],
    ]);
    expect(rows[0][3].split(" ").sort()).to.deep.equal(["Bob", "Cid"]);
    expect(rows[1][3]).to.equal("Cid");
  });

  it("FILE declared in the body empties the file; bools, strings and unknown vertices as text", async () => {
    const db = createDatabase(SAMPLE_DDL, SAMPLE_DATA);
    const path = join(dir, "declared.txt");
    writeFileSync(path, "old content\n");
    const r = await runGsql(
      db,
      `CREATE QUERY q(STRING p) FOR GRAPH G SYNTAX V1 {
         FILE out (p);
         MinAccum<VERTEX> @@none;
         out.println(TRUE, "x y", 3);
         out.println(@@none);
       }`,
      [path],
    );
    expect(r.ok).to.equal(true);
    expect(readFileSync(path, "utf8")).to.equal("true,x y,3\n\n");
    const empty = join(dir, "empty.txt");
    writeFileSync(empty, "old\n");
    await runGsql(db, `CREATE QUERY q(STRING p) FOR GRAPH G SYNTAX V1 { FILE out (p); }`, [empty]);
    expect(readFileSync(empty, "utf8")).to.equal("");
  });

  it("a missing FILE parameter is a runtime error; a failed query writes no file", async () => {
    const db = createDatabase(SAMPLE_DDL, SAMPLE_DATA);
    const missing = await runGsql(db, `CREATE QUERY q(FILE f) FOR GRAPH G SYNTAX V1 { f.println(1); }`, []);
    expect(missing).to.deep.include({ ok: false, kind: "error", message: "Runtime Error: no file path was given for the FILE parameter." });
    const path = join(dir, "never.txt");
    const failed = await runGsql(db, `CREATE QUERY q(FILE f) FOR GRAPH G SYNTAX V1 { EXCEPTION boom (40003); f.println(1); RAISE boom ("no"); }`, [path]);
    expect(failed).to.deep.include({ ok: false, kind: "exception", code: 40003 });
    expect(existsSync(path)).to.equal(false);
  });

  it("a FILE declared with an empty path is fine until a line is written to it", async () => {
    const db = createDatabase(SAMPLE_DDL, SAMPLE_DATA);
    const text = `CREATE QUERY q(STRING p, BOOL write) FOR GRAPH G SYNTAX V1 { FILE out (p); IF write THEN out.println(1); END; PRINT 7 AS x; }`;
    expect(await runGsql(db, text, ["", false])).to.deep.include({ ok: true, json: [{ x: 7 }] });
    const written = await runGsql(db, text, ["", true]);
    expect(written).to.deep.include({ ok: false, kind: "error", message: "Runtime Error: the query's data modification failed: a line written to a FILE whose path is empty" });
  });

  it("PRINT ... TO_CSV writes one line per PRINT, or one per vertex of the set its items read", async () => {
    const db = createDatabase(SAMPLE_DDL, SAMPLE_DATA);
    const path = join(dir, "csv.txt");
    const r = await runGsql(
      db,
      `CREATE QUERY q(STRING p) FOR GRAPH G SYNTAX V1 {
         FILE f (p);
         ListAccum<INT> @@l;
         @@l += [1, 2, 3];
         S = {P.*};
         PRINT S.name, S.age TO_CSV f;
         PRINT @@l, "end" TO_CSV f;
         PRINT S.name WHERE S.age > 29 TO_CSV f;
         PRINT "results" AS r;
       }`,
      [path],
    );
    expect(r.ok && r.results).to.equal('[{"r":"results"}]');
    const lines = readFileSync(path, "utf8").split("\n");
    expect(lines.slice(0, 3).sort()).to.deep.equal(["Ann,30", "Bob,25", "Cid,35"]);
    expect(lines[3]).to.equal("1 2 3,end");
    expect(lines.slice(4, 6).sort()).to.deep.equal(["Ann", "Cid"]);
    expect(lines.slice(6)).to.deep.equal([""]);
  });
});
