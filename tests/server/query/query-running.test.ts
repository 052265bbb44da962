// Running installed queries over REST: a runaway loop stopped by its `timeout`, by the
// GSQL-TIMEOUT header and by the server's global limit, while other requests keep being
// answered and later queries run; consistent snapshots while upserts go on; /statistics
// and /endpoints?dynamic=true for query endpoints; query writes as one engine command;
// the v1 envelope after SET json_api = v1.
import { expect } from "chai";
import { Engine } from "../../../server/engine/engine.js";
import type { EngineCommand } from "../../../server/engine/commands.js";
import { createStore } from "../../../runtime-wasm/store/index.js";
import { startTestServer } from "../../helpers/http.js";
import { request } from "node:http";
import { readFileSync, rmSync } from "node:fs";
import { ok, PEOPLE, startQueryServer, type QueryServer } from "./query-fixture.js";

describe("REST /query: running", function () {
  let s: QueryServer;
  before(async () => {
    s = await startQueryServer();
  });
  after(() => s.close());

  const timedOut = (seconds: number) => ({
    status: 504,
    json: { version: { edition: "wasmgraph", api: "v2", schema: 0 }, error: true, message: `The query timed out after ${seconds} second${seconds === 1 ? "" : "s"} and was stopped.`, results: [], code: "REST-3000" },
  });

  it("a runaway WHILE TRUE is stopped by its timeout while /echo and vertex reads are answered; the server works afterwards", async () => {
    const started = Date.now();
    let spinEnded = 0;
    const spin = s.send("GET", "/query/G/spin?timeout=1").then((r) => {
      spinEnded = Date.now();
      return r;
    });
    // Answered while the loop runs, each long before it is stopped.
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (let i = 0; i < 5; i++) {
      expect((await s.send("GET", "/echo")).json).to.deep.equal({ error: false, message: "Hello GSQL" });
      const ann = await s.send("GET", "/graph/G/vertices/Person/ann");
      expect(ann.json.results).to.deep.equal([{ v_id: "ann", v_type: "Person", attributes: { age: PEOPLE.ann, score: 0 } }]);
    }
    expect(spinEnded, "the other requests were answered before the loop was stopped").to.equal(0);
    const r = await spin;
    expect({ status: r.status, json: r.json }).to.deep.equal(timedOut(1));
    expect(Date.now() - started).to.be.below(5000);
    expect((await s.send("GET", "/query/G/typed_vertex?p=bob")).json).to.deep.equal(ok([{ p: "bob" }]));
  });

  it("the GSQL-TIMEOUT header (milliseconds) stops it too, and wins over `timeout`", async () => {
    const r = await s.send("GET", "/query/G/spin?timeout=100", undefined, { "GSQL-TIMEOUT": "300" });
    expect({ status: r.status, json: r.json }).to.deep.equal(timedOut(0.3));
    const bad = await s.send("GET", "/query/G/spin", undefined, { "GSQL-TIMEOUT": "soon" });
    expect(bad.status).to.equal(400);
    expect(bad.json.message).to.equal("The GSQL-TIMEOUT header must be a whole number of milliseconds, not 'soon'.");
  });

  it("a client that hangs up stops its query", async () => {
    const pool = s.server.queryRuntime.get().pool;
    const req = request(`${s.restUrl}/query/G/spin?timeout=60`);
    req.on("error", () => undefined);
    req.end();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pool.busy).to.equal(1);
    req.destroy();
    const until = Date.now() + 3000;
    while (pool.busy > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pool.busy).to.equal(0);
  });

  it("GET /showprocesslist lists running queries; GET /abortquery stops them by request id or all", async () => {
    expect((await s.send("GET", "/showprocesslist/G")).json.results).to.deep.equal([]);
    const first = s.send("GET", "/query/G/spin?timeout=60");
    const second = s.send("GET", "/query/G/spin?timeout=60");
    let list: any[] = [];
    for (let i = 0; i < 100 && list.length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      list = (await s.send("GET", "/showprocesslist/G")).json.results;
    }
    expect(list.map((r) => [r.url, r.status])).to.deep.equal([["/query/G/spin?timeout=60", "running"], ["/query/G/spin?timeout=60", "running"]]);
    const [a, b] = list;
    expect(a.requestid).to.match(/^\d+\.RESTPP_1_1\.\d+\.N$/);
    expect(a.startTime).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
    expect(Date.parse(a.expirationTime.replace(" ", "T") + "Z") - Date.parse(a.startTime.replace(" ", "T") + "Z")).to.equal(60_000);

    const one = await s.send("GET", `/abortquery/G?requestid=${a.requestid}&requestid=nope`);
    expect(one.json.results).to.deep.equal([{ aborted_queries: [{ requestid: a.requestid, url: a.url }] }]);
    const stopped = await first;
    expect({ status: stopped.status, json: stopped.json }).to.deep.equal({
      status: 200,
      json: { version: { edition: "wasmgraph", api: "v2", schema: 0 }, error: true, message: `The query was aborted by an abort request (request id ${a.requestid}).`, results: [] },
    });
    const all = await s.send("GET", "/abortquery/G?requestid=all");
    expect(all.json.results).to.deep.equal([{ aborted_queries: [{ requestid: b.requestid, url: b.url }] }]);
    expect((await second).json.message).to.equal(`The query was aborted by an abort request (request id ${b.requestid}).`);
    expect((await s.send("GET", "/showprocesslist/G")).json.results).to.deep.equal([]);
    expect((await s.send("GET", "/abortquery/G")).json.message).to.equal("Parameter requestid is required.");
  });

  it("__GQUERY__monitor=true writes the monitoring log and names it in the message", async () => {
    const r = await s.send("GET", "/query/G/birthday?p=ann&__GQUERY__monitor=true");
    const match = /^The query monitoring log is written to (.+)\.$/.exec(r.json.message);
    expect(match, r.json.message).to.not.equal(null);
    try {
      expect(readFileSync(match![1]!, "utf8").split("\n")[0]).to.match(/^query birthday: 1 SELECT executions, [\d.]+ ms in total$/);
    } finally {
      rmSync(match![1]!, { force: true });
      await s.send("POST", "/graph/G", JSON.stringify({ vertices: { Person: { ann: { age: { value: PEOPLE.ann } } } } }));
    }
  });

  it("an uncaught RAISE and a run-time error answer the envelope with error true", async () => {
    expect((await s.send("GET", "/query/G/boom?x=5")).json).to.deep.equal(ok([{ q: 2 }]));
    const raised = await s.send("GET", "/query/G/boom?x=10");
    expect({ status: raised.status, json: raised.json }).to.deep.equal({
      status: 200,
      json: { version: { edition: "wasmgraph", api: "v2", schema: 0 }, error: true, message: "x is too big", results: [], code: "40001" },
    });
    const divided = await s.send("GET", "/query/G/boom?x=0");
    expect(divided.status).to.equal(200);
    expect(divided.json).to.include({ error: true });
    expect(divided.json.message).to.match(/^Runtime Error: /);
  });

  it("runs see one snapshot of the graph while upserts go on", async () => {
    const run = s.send("GET", "/query/G/slow_count?spins=30000000");
    let done = false;
    void run.then(() => (done = true));
    let written = 0;
    while (!done && written < 2000) {
      const r = await s.send("POST", "/graph/G", JSON.stringify({ vertices: { Person: { [`extra${written}`]: { age: { value: 1 } } } } }));
      expect(r.status).to.equal(200);
      written++;
    }
    const result = (await run).json.results[0];
    expect(written, "upserts landed while the query ran").to.be.above(0);
    expect(result.a).to.equal(result.b);
    const now = (await s.send("GET", "/graph/G/vertices/Person?count_only=true")).json.results[0].count;
    expect(now).to.be.above(result.a);
    // Leave the graph as the other tests expect it.
    for (let i = 0; i < written; i++) await s.send("DELETE", `/graph/G/vertices/Person/extra${i}`);
  });

  it("/statistics counts each query endpoint: completed requests and timeouts apart", async () => {
    for (let i = 0; i < 3; i++) await s.send("GET", "/query/G/typed_vertex?p=ann");
    const stats = (await s.send("GET", "/statistics?seconds=60")).json;
    expect(stats["GET /query/G/typed_vertex"].CompletedRequests).to.be.at.least(3);
    // spin: two runs stopped by their limits; the refused header, the hang-up and the two aborted runs ended otherwise.
    expect(stats["GET /query/G/spin"]).to.include({ CompletedRequests: 4, TimeoutRequests: 2 });
    expect(stats["GET /query/G/nope"]).to.equal(undefined);
  });

  it("GSQL-ASYNC: true detaches the run: a request id at once, then /query_status and /query_result", async () => {
    const submitted = await s.send("GET", "/query/G/slow_count?spins=5000000", undefined, { "GSQL-ASYNC": "true" });
    expect(submitted.status).to.equal(200);
    const id: string = submitted.json.request_id;
    expect(submitted.json).to.deep.equal({
      version: { edition: "wasmgraph", api: "v2", schema: 0 },
      error: false,
      message: "The query is successfully submitted. Please check query status using the request id.",
      results: [],
      request_id: id,
    });
    let status: any;
    for (let i = 0; i < 200; i++) {
      status = (await s.send("GET", `/query_status?graph_name=G&requestid=${id}`)).json.results[0];
      if (status.status !== "running") break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).to.include({ requestid: id, url: "/query/G/slow_count?spins=5000000", status: "success" });
    const people = (await s.send("GET", "/graph/G/vertices/Person?count_only=true")).json.results[0].count;
    expect((await s.send("GET", `/query_result?requestid=${id}`)).json).to.deep.equal(ok([{ a: people, b: people }]));

    const spin = (await s.send("GET", "/query/G/spin?timeout=1", undefined, { "GSQL-ASYNC": "true" })).json.request_id;
    expect((await s.send("GET", `/query_status?graph_name=G&requestid=${spin}`)).json.results[0].status).to.equal("running");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await s.send("GET", `/query_status?graph_name=G&requestid=all`)).json.results.map((r: { requestid: string; status: string }) => [r.requestid, r.status])).to.deep.equal([
      [id, "success"],
      [spin, "timeout"],
    ]);
    expect((await s.send("GET", `/query_result?graph_name=G&requestid=${spin}`)).json).to.deep.equal({
      version: { edition: "wasmgraph", api: "v2", schema: 0 }, error: true, message: "The query timed out after 1 second and was stopped.", results: [], code: "REST-3000",
    });
    const unknown = await s.send("GET", "/query_result?requestid=nope");
    expect({ status: unknown.status, message: unknown.json.message }).to.deep.equal({ status: 400, message: "No query detached with request id nope on the graph G." });
  });

  it("/endpoints?dynamic=true describes every installed query", async () => {
    const listing = (await s.send("GET", "/endpoints?dynamic=true")).json;
    expect(Object.keys(listing)).to.deep.equal(
      ["add_person", "any_set", "any_vertex", "birthday", "boom", "scalars", "sets", "slow_count", "spin", "typed_set", "typed_vertex"].map((q) => `GET /query/G/${q}`),
    );
    const common = { method: "GET", function: "queryDispatcher", action: "query", target: "GPE", payload: [{ rule: "AS_QUERY_STRING" }], graph_name: "G" };
    expect(listing["GET /query/G/scalars"]).to.deep.equal({
      ...common,
      parameters: {
        query: { type: "STRING", default: "scalars", min_count: 0, max_count: 1 },
        i: { type: "INT64", min_count: 1, max_count: 1 },
        u: { type: "UINT64", min_count: 1, max_count: 1 },
        d: { type: "DOUBLE", min_count: 1, max_count: 1 },
        b: { type: "BOOL", min_count: 1, max_count: 1 },
        s: { type: "STRING", min_count: 1, max_count: 1 },
        t: { type: "DATETIME", min_count: 1, max_count: 1 },
        k: { type: "INT64", min_count: 0, max_count: 1, default: "7" },
      },
      summary: "Runs the installed query scalars of the graph G; parameters: INT i, UINT u, DOUBLE d, BOOL b, STRING s, DATETIME t, INT k = 7.",
    });
    expect(listing["GET /query/G/any_vertex"].parameters).to.deep.equal({
      query: { type: "STRING", default: "any_vertex", min_count: 0, max_count: 1 },
      v: { type: "STRING", min_count: 1, max_count: 1, is_id: true, id_type: "$v.type" },
      "v.type": { type: "TYPENAME", min_count: 1, max_count: 1 },
    });
    expect(listing["GET /query/G/typed_set"].parameters.ps).to.deep.equal({ type: "STRING", min_count: 0, is_id: true, id_type: "Person" });
    // Built-ins are not dynamic; a dropped query leaves the listing.
    expect(Object.keys((await s.send("GET", "/endpoints?builtin=true")).json).some((k) => k.startsWith("GET /query/"))).to.equal(false);
    const dropped = await s.command("DROP QUERY sets", { graph: "G" });
    expect(dropped.returnCode).to.equal(0);
    expect((await s.send("GET", "/endpoints?dynamic=true")).json["GET /query/G/sets"]).to.equal(undefined);
    expect((await s.send("GET", "/query/G/sets")).status).to.equal(404);
  });

  it("a query's writes are one engine command, applied after its reads", async () => {
    const engine = s.server.services.engine;
    const logged: EngineCommand[] = [];
    engine.commandLog = { prepare: (command) => () => void logged.push(command) };
    try {
      const r = await s.send("GET", "/query/G/birthday?p=bob");
      // The query printed what it read: the age before its own write.
      expect(r.json).to.deep.equal(ok([{ S: [{ v_id: "bob", v_type: "Person", attributes: { "S.age": PEOPLE.bob } }] }]));
      expect(logged).to.deep.equal([
        {
          kind: "query-writes",
          graph: "G",
          query: "birthday",
          steps: [{ kind: "upsert", batch: { vertices: [{ type: "Person", id: "bob", attributes: [{ name: "age", value: BigInt(PEOPLE.bob + 1), op: "=" }] }] }, updateOnly: true }],
        },
      ]);
      expect((await s.send("GET", "/graph/G/vertices/Person/bob")).json.results[0].attributes.age).to.equal(PEOPLE.bob + 1);
      // A query that writes nothing logs nothing.
      await s.send("GET", "/query/G/typed_vertex?p=bob");
      expect(logged).to.have.length(1);
    } finally {
      engine.commandLog = undefined;
      await s.send("POST", "/graph/G", JSON.stringify({ vertices: { Person: { bob: { age: { value: PEOPLE.bob } } } } }));
    }
  });

  it("after SET json_api = v1 the envelope has no version", async () => {
    const set = await s.command("SET json_api = v1");
    expect(set.returnCode).to.equal(0);
    const r = await s.send("GET", "/query/G/typed_vertex?p=ann");
    expect(r.text).to.equal('{"error":false,"message":"","results":[{"p":"ann"}]}');
    const bad = await s.send("GET", "/query/G/typed_vertex");
    expect(bad.json).to.deep.equal({ error: true, message: "Parameter p is required: the query takes p (VERTEX<Person>).", results: [], code: "REST-30000" });
  });
});

describe("REST /query: the server's global timeout", function () {
  it("stops a query that asked for no limit of its own", async () => {
    const engine = new Engine({ createStore, defaultTimeoutMs: 400 });
    const t = await startTestServer({ engine, gsqlPort: 0 });
    try {
      const gsql = await fetch(`http://127.0.0.1:${t.server.gsqlPort}/gsqlserver/gsql/file`, {
        method: "POST",
        body: encodeURIComponent("CREATE VERTEX V (PRIMARY_ID id STRING)\nCREATE GRAPH H (V)\nCREATE QUERY spin() FOR GRAPH H { INT n = 0; WHILE TRUE DO n = n + 1; END; PRINT n; }\nINSTALL QUERY spin"),
      });
      expect(await gsql.text()).to.contain("__GSQL__RETURN__CODE__,0");
      const r = await t.get("/query/H/spin");
      expect(r.status).to.equal(504);
      expect(r.json.message).to.equal("The query timed out after 0.4 seconds and was stopped.");
      // `timeout=0` means the server's limit too.
      expect((await t.get("/query/H/spin?timeout=0")).status).to.equal(504);
    } finally {
      await t.close();
    }
  });
});
