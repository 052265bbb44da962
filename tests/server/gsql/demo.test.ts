// The demo graph of a first start: made by running the shipped GSQL script through the
// executor. Checked against the shipped CSV files (12 people, 15 friendships) through the
// REST endpoints, the example queries through the catalog, GET /query (the README's curl
// lines) and RUN QUERY at the shell, with results computed from the same files.
import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type RunningServer } from "../../../server/serve.js";
import { DEMO_DIR } from "../../../server/gsql/demo/demo-graph.js";
import { splitAnswer } from "./gsql-helpers.js";

describe("demo graph", () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ port: 0, gsqlPort: 0, demo: true, log: () => undefined });
  });
  after(() => server.close());

  const rest = async (path: string, init?: RequestInit) => (await fetch(`http://127.0.0.1:${server.restPort}${path}`, init)).json() as Promise<any>;

  it("holds every person and friendship of the shipped CSV files", async () => {
    const people = readFileSync(join(DEMO_DIR, "people.csv"), "utf8").trim().split("\n").slice(1).map((l) => l.split(","));
    const friendships = readFileSync(join(DEMO_DIR, "friendships.csv"), "utf8").trim().split("\n").slice(1);
    const counts = await rest("/builtins/Social", { method: "POST", body: JSON.stringify({ function: "stat_vertex_number", type: "*" }) });
    expect(counts.results).to.deep.equal([{ v_type: "Person", count: people.length }]);
    const edges = await rest("/builtins/Social", { method: "POST", body: JSON.stringify({ function: "stat_edge_number", type: "*" }) });
    // An undirected edge is counted from both ends.
    expect(edges.results).to.deep.equal([{ e_type: "Friendship", count: 2 * friendships.length }]);
    const amara = await rest("/graph/Social/vertices/Person/Amara");
    const row = people.find((p) => p[0] === "Amara")!;
    expect(amara.results).to.deep.equal([{ v_id: "Amara", v_type: "Person", attributes: { name: "Amara", age: Number(row[1]), gender: row[2], city: row[3] } }]);
    const friends = await rest("/graph/Social/edges/Person/Amara/Friendship");
    const expected = friendships.map((l) => l.split(",")).filter(([a, b]) => a === "Amara" || b === "Amara").map(([a, b]) => (a === "Amara" ? b : a)).sort();
    expect(friends.results.map((e: { to_id: string }) => e.to_id).sort()).to.deep.equal(expected);
  });

  it("defines the four example queries on Social", () => {
    const names = server.gsql!.catalog.queries("Social").map((q) => q.name);
    expect(names).to.deep.equal(["hello", "friends_of_friends", "people_older_than", "friend_count"]);
    expect(server.gsql!.catalog.queries("Social").every((q) => q.state === "defined" || q.state === "installed")).to.equal(true);
  });

  it("installs the example queries", () => {
    expect(server.demo!.returnCode).to.equal(0);
    expect(server.demo!.output).to.include("Query installation finished.");
    expect(server.gsql!.catalog.queries("Social").map((q) => q.state)).to.deep.equal(["installed", "installed", "installed", "installed"]);
  });

  const people = readFileSync(join(DEMO_DIR, "people.csv"), "utf8").trim().split("\n").slice(1).map((l) => l.split(","));
  const friendships = readFileSync(join(DEMO_DIR, "friendships.csv"), "utf8").trim().split("\n").slice(1).map((l) => l.split(","));
  const friendsOf = (who: string) => friendships.filter(([a, b]) => a === who || b === who).map(([a, b]) => (a === who ? b! : a!));
  const person = (name: string) => people.find((p) => p[0] === name)!;
  const byId = (xs: { v_id: string }[]) => [...xs].sort((a, b) => a.v_id.localeCompare(b.v_id));
  const V2 = { edition: "wasmgraph", api: "v2", schema: 0 };

  it("answers the README's query lines with results computed from the CSV files", async () => {
    const hello = await rest("/query/Social/hello?p=Amara");
    expect({ ...hello, results: [{ Friends: byId(hello.results[0].Friends) }] }).to.deep.equal({
      version: V2,
      error: false,
      message: "",
      results: [{
        Friends: byId(friendsOf("Amara").map((name) => {
          const [, age, gender, city] = person(name);
          return { v_id: name, v_type: "Person", attributes: { name, age: Number(age), gender, city } };
        })),
      }],
    });

    const older = await rest("/query/Social/people_older_than?min_age=40");
    expect(older).to.deep.equal({
      version: V2,
      error: false,
      message: "",
      results: [{
        Older: people.filter((p) => Number(p[1]) > 40).sort((a, b) => Number(b[1]) - Number(a[1]))
          .map(([name, age]) => ({ v_id: name, v_type: "Person", attributes: { "Older.name": name, "Older.age": Number(age) } })),
      }],
    });

    const known = new Set(["Amara", ...friendsOf("Amara")]);
    const suggestions = [...new Set(friendsOf("Amara").flatMap(friendsOf))].filter((n) => !known.has(n));
    const fof = await rest("/query/Social/friends_of_friends?p=Amara");
    expect(suggestions.length).to.be.above(0);
    expect(byId(fof.results[0].Suggestions)).to.deep.equal(
      byId(suggestions.map((name) => ({ v_id: name, v_type: "Person", attributes: { "Suggestions.name": name, "Suggestions.city": person(name)[3] } }))),
    );
  });

  it("RUN QUERY at the shell prints what GET /query answers, for a demo query and one installed through the GSQL server", async () => {
    const gsql = async (text: string) => {
      const res = await fetch(`http://127.0.0.1:${server.gsqlPort}/gsqlserver/gsql/command`, { method: "POST", body: encodeURIComponent(text), headers: { "GSQL-Cookie": '{"graph":"Social"}' } });
      return splitAnswer(res.status, await res.text());
    };
    const run = await gsql('RUN QUERY people_older_than(40)');
    expect(run.returnCode).to.equal(0);
    expect(JSON.parse(run.text)).to.deep.equal(await rest("/query/Social/people_older_than?min_age=40"));

    const created = await gsql("CREATE QUERY oldest(INT k) FOR GRAPH Social { People = {Person.*}; Top = SELECT p FROM People:p ORDER BY p.age DESC LIMIT k; PRINT Top[Top.name, Top.age]; }");
    expect(created.returnCode).to.equal(0);
    const installed = await gsql("INSTALL QUERY oldest");
    expect(installed.returnCode, installed.text).to.equal(0);
    const top3 = [...people].sort((a, b) => Number(b[1]) - Number(a[1])).slice(0, 3)
      .map(([name, age]) => ({ v_id: name, v_type: "Person", attributes: { "Top.name": name, "Top.age": Number(age) } }));
    const expected = { version: V2, error: false, message: "", results: [{ Top: top3 }] };
    expect(await rest("/query/Social/oldest?k=3")).to.deep.equal(expected);
    const shell = await gsql("RUN QUERY oldest(3)");
    expect(shell.returnCode).to.equal(0);
    expect(JSON.parse(shell.text)).to.deep.equal(expected);
    // A refused run is a failed command at the shell too.
    const bad = await gsql('RUN QUERY hello("Nobody")');
    expect(bad.returnCode).to.not.equal(0);
    expect(JSON.parse(bad.text)).to.deep.equal({ version: V2, error: true, message: "Failed to convert user vertex id for parameter p: 'Nobody' is not a valid Person vertex id.", results: [], code: "REST-30000" });
  });

  // Last: a second server on the same engine attaches its own catalog to it.
  it("is made only when the database is empty", async () => {
    const again = await startServer({ port: 0, gsqlPort: 0, demo: true, engine: server.services.engine, log: () => undefined });
    try {
      expect(again.demo).to.equal(undefined);
    } finally {
      await again.close();
    }
  });
});
