// The GSQL catalog across a restart with a data directory: queries (with their states and
// install levels), loading jobs and the schema come back, installed queries are compiled
// again, and the demo graph is made only on the very first start.
import { expect } from "chai";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../../../server/serve.js";
import { DEMO_PENDING_FILE } from "../../../server/gsql/demo/demo-graph.js";
import { splitAnswer } from "./gsql-helpers.js";

describe("GSQL catalog across restarts", function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "gsql-restart-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps queries, their states and the demo graph; reinstalls installed queries", async () => {
    const first = await startServer({ port: 0, gsqlPort: 0, demo: true, dataDir: dir, log: () => undefined });
    expect(first.demo!.returnCode).to.equal(0);
    const res = await fetch(`http://127.0.0.1:${first.gsqlPort}/gsqlserver/gsql/file`, {
      method: "POST",
      headers: { "GSQL-Cookie": '{"graph":"Social"}' },
      body: encodeURIComponent("CREATE QUERY extra() FOR GRAPH Social { PRINT 1; }\nCREATE QUERY draft_one() FOR GRAPH Social { PRINT nope; }"),
    });
    expect(splitAnswer(res.status, await res.text()).returnCode).to.equal(212);
    const before = first.catalog.snapshot();
    await first.close();

    const second = await startServer({ port: 0, gsqlPort: 0, demo: true, dataDir: dir, log: () => undefined });
    try {
      expect(second.demo).to.equal(undefined);
      expect(second.catalog.snapshot()).to.deep.equal(before);
      expect(second.catalog.queries("Social").map((q) => `${q.name}:${q.state}`)).to.deep.equal([
        "hello:installed", "friends_of_friends:installed", "people_older_than:installed", "friend_count:installed", "extra:defined", "draft_one:draft",
      ]);
      expect(second.installedQueries.ofGraph("Social").map((q) => q.name).sort()).to.deep.equal(["friend_count", "friends_of_friends", "hello", "people_older_than"]);
      const counts: any = await (await fetch(`http://127.0.0.1:${second.restPort}/builtins/Social`, { method: "POST", body: JSON.stringify({ function: "stat_vertex_number", type: "*" }) })).json();
      expect(counts.results).to.deep.equal([{ v_type: "Person", count: 12 }]);
    } finally {
      await second.close();
    }
  });

  it("makes the demo again when the first start stopped while making it (its marker still there)", async () => {
    const partial = mkdtempSync(join(tmpdir(), "gsql-demo-partial-"));
    try {
      // What a first start killed part-way leaves: the marker, the schema and some data, no queries.
      const first = await startServer({ port: 0, gsqlPort: 0, demo: false, dataDir: partial, log: () => undefined });
      writeFileSync(join(partial, DEMO_PENDING_FILE), "");
      const script = "CREATE VERTEX Person (PRIMARY_ID name STRING, name STRING, age INT, gender STRING, city STRING)\nCREATE GRAPH Social (Person)";
      const res = await fetch(`http://127.0.0.1:${first.gsqlPort}/gsqlserver/gsql/file`, { method: "POST", body: encodeURIComponent(script) });
      expect(splitAnswer(res.status, await res.text()).returnCode).to.equal(0);
      await fetch(`http://127.0.0.1:${first.restPort}/graph/Social`, { method: "POST", body: JSON.stringify({ vertices: { Person: { Stray: { age: { value: 1 } } } } }) });
      await first.close();

      const second = await startServer({ port: 0, gsqlPort: 0, demo: true, dataDir: partial, log: () => undefined });
      try {
        expect(second.demo!.returnCode).to.equal(0);
        expect(existsSync(join(partial, DEMO_PENDING_FILE))).to.equal(false);
        expect(second.installedQueries.ofGraph("Social").map((q) => q.name).sort()).to.deep.equal(["friend_count", "friends_of_friends", "hello", "people_older_than"]);
        const counts: any = await (await fetch(`http://127.0.0.1:${second.restPort}/builtins/Social`, { method: "POST", body: JSON.stringify({ function: "stat_vertex_number", type: "*" }) })).json();
        expect(counts.results).to.deep.equal([{ v_type: "Person", count: 12 }]);
      } finally {
        await second.close();
      }
      // settled: a third start leaves it alone
      const third = await startServer({ port: 0, gsqlPort: 0, demo: true, dataDir: partial, log: () => undefined });
      try {
        expect(third.demo).to.equal(undefined);
        expect(third.installedQueries.ofGraph("Social")).to.have.length(4);
      } finally {
        await third.close();
      }
    } finally {
      rmSync(partial, { recursive: true, force: true });
    }
  });
});
