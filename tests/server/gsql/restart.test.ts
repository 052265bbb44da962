// The GSQL catalog across a restart with a data directory: queries (with their states and
// install levels), loading jobs and the schema come back, installed queries are compiled
// again, and the demo graph is made only on the very first start.
import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../../../server/serve.js";
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
});
