// Running queries without installing them: INTERPRET QUERY at the shell (a created query
// with shell arguments, or an anonymous one) and POST /gsqlserver/interpreted_query
// (parameters in the URL). Results are checked against the demo graph's CSV files.
import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type RunningServer } from "../../../server/serve.js";
import { DEMO_DIR } from "../../../server/gsql/demo/demo-graph.js";
import { splitAnswer } from "./gsql-helpers.js";

const people = readFileSync(join(DEMO_DIR, "people.csv"), "utf8").trim().split("\n").slice(1).map((l) => l.split(","));
const friendships = readFileSync(join(DEMO_DIR, "friendships.csv"), "utf8").trim().split("\n").slice(1).map((l) => l.split(","));

describe("GSQL server: interpreting queries", () => {
  let server: RunningServer;
  let gsql: string;
  before(async () => {
    server = await startServer({ port: 0, gsqlPort: 0, demo: true, log: () => undefined });
    gsql = `http://127.0.0.1:${server.gsqlPort}`;
  });
  after(() => server.close());

  const command = async (text: string) => {
    const res = await fetch(`${gsql}/gsqlserver/gsql/command`, { method: "POST", body: encodeURIComponent(text), headers: { "GSQL-Cookie": '{"graph":"Social"}' } });
    return splitAnswer(res.status, await res.text());
  };

  it("INTERPRET QUERY name(args) runs a created query with shell arguments", async () => {
    const answer = await command("INTERPRET QUERY people_older_than(40)");
    expect(answer.returnCode).to.equal(0);
    const json = JSON.parse(answer.text);
    expect(json.error).to.equal(false);
    const expected = people.filter((p) => Number(p[1]) > 40).sort((a, b) => Number(b[1]) - Number(a[1]))
      .map((p) => ({ v_id: p[0], v_type: "Person", attributes: { "Older.name": p[0], "Older.age": Number(p[1]) } }));
    expect(json.results).to.deep.equal([{ Older: expected }]);
  });

  it("a vertex argument names the friends the CSV file lists", async () => {
    const answer = await command('INTERPRET QUERY hello("Amara")');
    const ids = JSON.parse(answer.text).results[0].Friends.map((v: { v_id: string }) => v.v_id).sort();
    const expected = friendships.filter(([a, b]) => a === "Amara" || b === "Amara").map(([a, b]) => (a === "Amara" ? b : a)).sort();
    expect(ids).to.deep.equal(expected);
  });

  it("an anonymous INTERPRET QUERY runs once", async () => {
    const answer = await command("INTERPRET QUERY () FOR GRAPH Social { People = {Person.*}; PRINT People.size() AS n; }");
    expect(JSON.parse(answer.text).results).to.deep.equal([{ n: people.length }]);
  });

  it("a bad argument is an error envelope and an error return code", async () => {
    const answer = await command("INTERPRET QUERY hello(\"Nobody\")");
    const json = JSON.parse(answer.text);
    expect(json.error).to.equal(true);
    expect(json.message).to.include("Nobody");
    expect(answer.returnCode).to.equal(212);
  });

  it("POST /gsqlserver/interpreted_query takes the text as body and the parameters in the URL", async () => {
    const res = await fetch(`${gsql}/gsqlserver/interpreted_query?k=41&k2=1`, {
      method: "POST",
      body: "CREATE QUERY q(INT k, INT k2) FOR GRAPH Social { PRINT k + k2 AS answer; }",
    });
    expect(res.status).to.equal(200);
    expect(JSON.parse(await res.text())).to.deep.equal({ version: { edition: "wasmgraph", api: "v2", schema: 0 }, error: false, message: "", results: [{ answer: 42 }] });
    const bad = await fetch(`${gsql}/gsqlserver/interpreted_query?k=abc`, { method: "POST", body: "CREATE QUERY q(INT k) FOR GRAPH Social { PRINT k; }" });
    expect(JSON.parse(await bad.text())).to.deep.include({ error: true, message: "The parameter k must be an INT, not 'abc'." });
    const noGraph = await fetch(`${gsql}/gsqlserver/interpreted_query`, { method: "POST", body: "CREATE QUERY q() FOR GRAPH Nope { PRINT 1; }" });
    expect(noGraph.status).to.equal(400);
  });
});
