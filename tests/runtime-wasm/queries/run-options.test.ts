// Run options: the monitoring log of __GQUERY__monitor=true (per-SELECT timings, written to
// a file the response names), and abort of a running query.
import { expect } from "chai";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeSharedRuntime, compileGsql, createDatabase, sharedRuntime } from "./gsql-harness.js";
import { SAMPLE_DATA, SAMPLE_DDL } from "./sample-graph.js";
import { monitorMessage } from "../../../runtime-wasm/query/monitor-log.js";

describe("query run options", function () {
  this.timeout(30000);
  after(closeSharedRuntime);

  it("monitor mode reports every SELECT execution and writes the log", async () => {
    const db = createDatabase(SAMPLE_DDL, SAMPLE_DATA);
    const q = await compileGsql(
      db,
      "CREATE QUERY m() FOR GRAPH G SYNTAX V1 { S = {P.*}; WHILE S.size() > 0 LIMIT 3 DO S = SELECT t FROM S:s -(Knows:e)-> P:t; END; T = SELECT s FROM S:s; PRINT S.size() AS n; }",
    );
    const dir = mkdtempSync(join(tmpdir(), "monitor-"));
    const r = await sharedRuntime().run(db.store, db.graph, q, [], { monitor: true, monitorLogDir: dir });
    if (!r.ok) throw new Error(r.message);
    // S: {a,b,c} -> {b,c} -> {c} -> {} (the loop ends), then the last SELECT over {}
    expect(r.monitor!.map((t) => [t.select, t.resultSize])).to.deep.equal([
      [0, 2],
      [0, 1],
      [0, 0],
      [1, 0],
    ]);
    const log = readFileSync(r.monitorLog!, "utf8").split("\n");
    expect(log[0]).to.match(/^query m: 4 SELECT executions, [\d.]+ ms in total$/);
    expect(log[1]).to.match(/^#1 SELECT 0: [\d.]+ ms, 2 vertices selected$/);
    expect(monitorMessage(r.monitorLog!)).to.equal(`The query monitoring log is written to ${r.monitorLog}.`);
    // without monitor mode nothing is recorded
    const plain = await sharedRuntime().run(db.store, db.graph, q, []);
    expect(plain.ok && plain.monitor).to.deep.equal([]);
  });

  it("LOG writes its values to the run's log only when its condition holds", async () => {
    const db = createDatabase(SAMPLE_DDL, SAMPLE_DATA);
    const q = await compileGsql(db, 'CREATE QUERY l(INT n) FOR GRAPH G { LOG(n > 1, "n is", n, 2.5); LOG(n > 100, "never"); PRINT n; }');
    const r = await sharedRuntime().run(db.store, db.graph, q, [3n]);
    expect(r.ok && r.logs).to.deep.equal(["n is, 3, 2.5"]);
  });

  it("an abort signal stops a running query; the runtime keeps working", async () => {
    const db = createDatabase(SAMPLE_DDL, SAMPLE_DATA);
    const spin = await compileGsql(db, "CREATE QUERY spin() FOR GRAPH G { INT i = 0; WHILE TRUE DO i = i + 1; END; }");
    const controller = new AbortController();
    const running = sharedRuntime().run(db.store, db.graph, spin, [], { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    expect(await running).to.deep.include({ ok: false, kind: "aborted" });
    const q = await compileGsql(db, "CREATE QUERY ok() FOR GRAPH G { PRINT 1 AS one; }");
    const r = await sharedRuntime().run(db.store, db.graph, q, []);
    expect(r.ok && r.results).to.equal('[{"one":1}]');
  });
});
