// FILE output (gsql-semantics §8.4): FILE declarations empty the file, println and
// PRINT ... TO_CSV add lines (values separated by commas, list elements by spaces, vertices
// by id), files are written when the query succeeds, FILE parameters name the path.
import { expect } from "chai";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeSharedRuntime, createDatabase, runGsql } from "./gsql-harness.js";
import { SAMPLE_DATA, SAMPLE_DDL } from "./sample-graph.js";

describe("query FILE output", function () {
  this.timeout(30000);
  after(closeSharedRuntime);
  const db = createDatabase(SAMPLE_DDL, SAMPLE_DATA);
  const dir = mkdtempSync(join(tmpdir(), "gsql-files-"));

  it("println, PRINT TO_CSV per vertex and per PRINT, lists as space-separated elements", async () => {
    const path = join(dir, "out.csv");
    writeFileSync(path, "old content\n");
    const r = await runGsql(
      db,
      `CREATE QUERY f(STRING p) FOR GRAPH G SYNTAX V1 {
         FILE f (p);
         ListAccum<INT> @@l;
         @@l += [1, 2, 3];
         f.println("header", 7, 2.5, TRUE);
         S = {P.*};
         S = SELECT s FROM S:s ACCUM f.println(s, s.name, s.age);
         PRINT S.name, S.age TO_CSV f;
         PRINT @@l, "end" TO_CSV f;
         PRINT "results" AS r;
       }`,
      [path],
    );
    expect(r.ok && r.results).to.equal('[{"r":"results"}]');
    const lines = readFileSync(path, "utf8").split("\n");
    expect(lines[0]).to.equal("header,7,2.5,true");
    expect(lines.slice(1, 4).sort()).to.deep.equal(["a,Ann,30", "b,Bob,25", "c,Cid,35"]);
    expect(lines.slice(4, 7).sort()).to.deep.equal(["Ann,30", "Bob,25", "Cid,35"]);
    expect(lines.slice(7)).to.deep.equal(["1 2 3,end", ""]);
  });

  it("a FILE parameter names the file; a failed query writes nothing", async () => {
    const path = join(dir, "param.csv");
    const r = await runGsql(db, 'CREATE QUERY g(FILE f) FOR GRAPH G { f.println("x", 1); }', [path]);
    expect(r.ok).to.equal(true);
    expect(readFileSync(path, "utf8")).to.equal("x,1\n");
    const failed = join(dir, "failed.csv");
    const bad = await runGsql(db, 'CREATE QUERY h(FILE f, INT z) FOR GRAPH G { f.println("x"); PRINT 1 / z AS q; }', [failed, 0n]);
    expect(bad.ok).to.equal(false);
    expect(existsSync(failed)).to.equal(false);
  });
});
