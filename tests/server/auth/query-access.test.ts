// Running queries: READ_DATA on the graph, the data-writing privileges too for a query that
// writes data, and the query's EXECUTE ACL. The REST rule is checked through the guard in
// front of a stand-in GET/POST /query/{graph}/{query} route (the real one comes with the query
// back end); the shell's RUN QUERY through the statement check; the executor's own REST calls
// act as the shell user.
import { expect } from "chai";
import Koa from "koa";
import Router from "@koa/router";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { restAuthMiddleware } from "../../../server/auth/rest-auth.js";
import { errorMiddleware } from "../../../server/http/error-middleware.js";
import type { StatementContext } from "../../../server/gsql/exec/context.js";
import { ROOT, basic, bearer, member, startAuthServer, type AuthServer, type Member } from "./auth-fixture.js";

describe("auth: running queries", function () {
  this.timeout(60_000);
  let s: AuthServer;
  let stand: Server;
  let base: string;
  const people: Record<string, Member> = {};

  before(async () => {
    s = await startAuthServer();
    const setup = await s.gsql(`CREATE VERTEX P (PRIMARY_ID id STRING, age INT)
CREATE GRAPH G (P)
CREATE QUERY readq() FOR GRAPH G { PRINT 1; }
CREATE QUERY writeq() FOR GRAPH G { INSERT INTO P VALUES ("x", 1); }
CREATE QUERY aclq() FOR GRAPH G { PRINT 2; }
`, ROOT);
    expect(setup.returnCode, setup.text).to.equal(0);
    for (const role of ["observer", "queryreader", "querywriter", "admin"]) people[role] = await member(s, `run_${role}`, role, "G", "G");
    const acl = await s.gsql("GRANT ACL PRIVILEGE EXECUTE ON QUERY aclq TO admin", ROOT, { graph: "G" });
    expect(acl.returnCode, acl.text).to.equal(0);

    const router = new Router();
    const answer = (ctx: Koa.Context) => {
      ctx.body = { error: false, message: "", results: [{ ran: ctx.params.query_name }] };
    };
    router.get("/query/:graph_name/:query_name", answer);
    router.post("/query/:graph_name/:query_name", answer);
    const app = new Koa();
    app.use(errorMiddleware(() => undefined));
    app.use(restAuthMiddleware(s.server.auth, router));
    app.use(router.routes());
    stand = await new Promise((resolve) => {
      const server = app.listen(0, "127.0.0.1", () => resolve(server));
    });
    base = `http://127.0.0.1:${(stand.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => stand.close(resolve));
    await s.close();
  });

  const run = async (who: string, query: string, method = "GET") => {
    const res = await fetch(`${base}/query/G/${query}`, { method, headers: { Authorization: bearer(people[who]!.token) } });
    return { status: res.status, json: (await res.json()) as any };
  };

  it("a read-only query needs READ_DATA (queryreader and up)", async () => {
    expect((await run("observer", "readq")).status).to.equal(403);
    for (const who of ["queryreader", "querywriter", "admin"]) {
      const res = await run(who, "readq");
      expect(res.status, who).to.equal(200);
      expect(res.json.results).to.deep.equal([{ ran: "readq" }]);
    }
  });

  it("a query that writes data also needs the data-writing privileges (querywriter and up)", async () => {
    const refused = await run("queryreader", "writeq", "POST");
    expect(refused.status).to.equal(403);
    expect(refused.json).to.include({ error: true, code: "REST-10016", message: "Access Denied because user 'run_queryreader' does not have the privilege CREATE_DATA on graph 'G'." });
    expect((await run("querywriter", "writeq", "POST")).status).to.equal(200);
  });

  it("an EXECUTE ACL decides alone: only its roles, the owner and superusers run the query", async () => {
    const refused = await run("querywriter", "aclq");
    expect(refused.status).to.equal(403);
    expect(refused.json.message).to.equal("Access Denied because the ACL of query 'aclq' on graph 'G' does not let user 'run_querywriter' run it.");
    expect((await run("admin", "aclq")).status).to.equal(200);
    const owner = await s.rest("POST", "/requesttoken", ROOT, '{"graph":"G"}');
    const res = await fetch(`${base}/query/G/aclq`, { headers: { Authorization: bearer(owner.json.token) } });
    expect(res.status).to.equal(200);
  });

  it("RUN QUERY at the shell is checked the same way before it runs", async () => {
    const reader = basic(people.queryreader!.user, people.queryreader!.password);
    const refused = await s.gsql("RUN QUERY writeq()", reader, { graph: "G" });
    expect(refused.lines).to.deep.equal(["Access denied: user 'run_queryreader' does not have the privilege CREATE_DATA on graph 'G'."]);
    const acl = await s.gsql("RUN QUERY aclq()", basic(people.querywriter!.user, people.querywriter!.password), { graph: "G" });
    expect(acl.lines).to.deep.equal(["Access denied: the ACL of query 'aclq' on graph 'G' does not let user 'run_querywriter' run it."]);
    // Allowed: the query's own handler answers (it is not installed here).
    const allowed = await s.gsql("RUN QUERY readq()", reader, { graph: "G" });
    expect(allowed.lines[0]).to.match(/^The query readq is not installed\./);
  });

  it("POST /gsqlserver/interpreted_query needs READ_DATA, and the data-writing privileges for a text that writes", async () => {
    // A stand-in interpreter records what it is asked to run (the real one comes with the back end).
    const ran: string[] = [];
    const t = await startAuthServer({
      gsql: { queries: { interpret: async (graph) => (ran.push(graph), '{"error":false,"message":"","results":[{"1":1}]}') } },
    });
    try {
      expect((await t.gsql("CREATE VERTEX P (PRIMARY_ID id STRING, age INT)\nCREATE GRAPH G (P)", ROOT)).returnCode).to.equal(0);
      const observer = await member(t, "i_observer", "observer", "G", "G");
      const reader = await member(t, "i_reader", "queryreader", "G", "G");
      const writer = await member(t, "i_writer", "querywriter", "G", "G");
      const read = "INTERPRET QUERY () FOR GRAPH G { PRINT 1; }";
      const write = 'INTERPRET QUERY () FOR GRAPH G { INSERT INTO P VALUES ("ix", 1); PRINT 1; }';
      const post = (m: Member, text: string) => t.gsqlHttp("POST", "/gsqlserver/interpreted_query", basic(m.user, m.password), text);
      const refused = await post(observer, read);
      expect(refused.status).to.equal(403);
      expect(refused.json).to.deep.equal({ error: true, message: "Access denied: user 'i_observer' does not have the privilege READ_DATA on graph 'G'.", results: [] });
      expect((await post(reader, write)).json.message).to.equal("Access denied: user 'i_reader' does not have the privilege CREATE_DATA on graph 'G'.");
      expect(ran).to.deep.equal([]);
      expect((await post(reader, read)).json).to.deep.equal({ error: false, message: "", results: [{ "1": 1 }] });
      expect((await post(writer, write)).status).to.equal(200);
      expect(ran).to.deep.equal(["G", "G"]);
    } finally {
      await t.close();
    }
  });

  it("the executor's own REST calls act as the shell user", async () => {
    const access = s.server.gsql!.access!;
    const as = (who: string) => ({ principal: { user: people[who]!.user, via: "password" } }) as unknown as StatementContext;
    const header = access.restAuthorization(as("queryreader"))!;
    expect(header).to.match(/^Bearer [a-z0-9]{40}$/);
    expect((await s.rest("GET", "/graph/G/vertices/P", header)).status).to.equal(200);
    expect((await s.rest("POST", "/graph/G", header, '{"vertices":{"P":{"y":{}}}}')).status).to.equal(403);
    expect((await s.rest("GET", "/graph/G/vertices/P", access.restAuthorization(as("observer")))).status).to.equal(403);
    // They are made in memory only, never stored.
    expect(JSON.stringify(s.server.services.engine.auth.snapshot())).to.not.include(header.slice(7));
  });
});
