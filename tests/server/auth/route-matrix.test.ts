// The access matrix generated from the routers themselves: every route the REST application
// and the GSQL-server application register (so a route added later is in it without an edit
// here) × {no token, short token, unknown token, expired token, each built-in role, a role on
// another graph, no role}, directly and (REST) through /restpp. The expected decision comes
// from the route's rule in the access table read against this file's own table of what each
// built-in role holds (gsql-ddl-loading-shell §11), not from the server's access code.
// A refused request must apply no engine command: nothing changes.
import { expect } from "chai";
import type Router from "@koa/router";
import type Koa from "koa";
import { createRestApp } from "../../../server/rest-app.js";
import { createGsqlApp } from "../../../server/gsql/gsql-app.js";
import { GSQL_HTTP_ACCESS, REST_ACCESS, restRule, type AccessRule } from "../../../server/auth/access-table.js";
import { ROOT, basic, bearer, member, requestToken, startAuthServer, type AuthServer, type HttpAnswer } from "./auth-fixture.js";

/** §11's built-in roles, each including the one before it. */
const OBSERVER = ["READ_SCHEMA", "READ_LOADINGJOB", "READ_QUERY"];
const QUERYREADER = [...OBSERVER, "EXECUTE_LOADINGJOB", "READ_DATA"];
const QUERYWRITER = [...QUERYREADER, "WRITE_QUERY", "CREATE_DATA", "UPDATE_DATA", "DELETE_DATA"];
const DESIGNER = [...QUERYWRITER, "WRITE_SCHEMA", "WRITE_LOADINGJOB", "ACCESS_TAG"];
const ADMIN = [...DESIGNER, "WRITE_ROLE", "WRITE_DATASOURCE", "READ_ROLE", "READ_USER", "READ_PROXYGROUP"];
const GRAPH_ROLES: Record<string, string[]> = { observer: OBSERVER, queryreader: QUERYREADER, querywriter: QUERYWRITER, designer: DESIGNER, admin: ADMIN };

interface Cred {
  name: string;
  header?: string;
  /** The 401 code over REST when the credential is not valid. */
  invalid?: "REST-10016" | "REST-3300";
  role?: string;
  /** Where the role is: the tested graph G, the other graph H, globally, or nowhere. */
  on?: "G" | "H" | "global" | "none";
}

/** Whether `cred` may do what `rule` asks on `graph` (undefined: the request names none it can be told). */
function expectAllowed(cred: Cred, rule: AccessRule, graph: string | undefined): boolean {
  if (rule.kind === "open") return true;
  if (cred.invalid !== undefined) return false;
  if (rule.kind === "authenticated") return true;
  if (cred.role === "superuser") return true;
  const needed = rule.kind === "run-query" ? ["READ_DATA"] : rule.privileges;
  if (cred.role === "globaldesigner") return (rule.kind === "global" || graph !== undefined) && needed.every((p) => DESIGNER.includes(p));
  if (rule.kind === "global" || graph === undefined || cred.on !== graph || cred.role === undefined) return false;
  return needed.every((p) => GRAPH_ROLES[cred.role!]!.includes(p));
}

/** A value for each path parameter a route may have; a new name fails the test until it is given one here. */
const PATH_VALUES: Record<string, string> = {
  graph_name: "G",
  vertex_type: "P",
  source_vertex_type: "P",
  target_vertex_type: "P",
  vertex_id: "m1",
  source_vertex_id: "m1",
  target_vertex_id: "m2",
  edge_type: "K",
  query_name: "q",
};

interface Route {
  method: string;
  /** The router's path, `:name` parameters. */
  path: string;
}

function routesOf(app: Koa): Route[] {
  const router = app.middleware.map((m) => (m as { router?: Router }).router).find((r) => r !== undefined);
  if (!router) throw new Error("no router in the application");
  return router.stack.flatMap((layer) =>
    layer.methods.filter((m) => m !== "HEAD").map((method) => ({ method, path: String(layer.path) })),
  );
}

const keyOf = (r: Route) => `${r.method} ${r.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}")}`;

function concretePath(r: Route): string {
  return r.path.replace(/:([A-Za-z0-9_]+)/g, (_all, name: string) => {
    const value = PATH_VALUES[name];
    if (value === undefined) throw new Error(`the matrix has no value for the path parameter :${name} of ${keyOf(r)}`);
    return value;
  });
}

const SCHEMA = `CREATE VERTEX P (PRIMARY_ID id STRING, age INT)
CREATE DIRECTED EDGE K (FROM P, TO P)
CREATE GRAPH G (P, K)
CREATE VERTEX Q (PRIMARY_ID id STRING)
CREATE GRAPH H (Q)
CREATE LOADING JOB lj FOR GRAPH G { DEFINE FILENAME f; LOAD f TO VERTEX P VALUES ($0, $1) USING SEPARATOR=","; }
CREATE QUERY q() FOR GRAPH G { PRINT 1; }
`;

describe("auth: access matrix generated from the routes", function () {
  this.timeout(180_000);
  let s: AuthServer;
  let restRoutes: Route[];
  let gsqlRoutes: Route[];
  const creds: Cred[] = [];
  const applied: string[] = [];

  before(async () => {
    s = await startAuthServer();
    const setup = await s.gsql(SCHEMA, ROOT);
    expect(setup.returnCode, setup.text).to.equal(0);
    // The same route tables the running server was built from.
    restRoutes = routesOf(createRestApp({ engine: s.server.services.engine, auth: s.server.auth, log: () => {} }).app);
    gsqlRoutes = routesOf(createGsqlApp({ exec: s.server.gsql, restHandler: () => {}, log: () => {} }));

    creds.push({ name: "none", invalid: "REST-10016" });
    creds.push({ name: "short", header: "Bearer abc123", invalid: "REST-10016" });
    creds.push({ name: "unknown", header: bearer("q".repeat(32)), invalid: "REST-3300" });
    for (const role of Object.keys(GRAPH_ROLES)) {
      const m = await member(s, `r_${role}`, role, "G", "G");
      creds.push({ name: role, header: bearer(m.token), role, on: "G" });
    }
    for (const role of ["globaldesigner", "superuser"]) {
      const m = await member(s, `r_${role}`, role, undefined, "G");
      const unbound = await s.rest("POST", "/requesttoken", basic(m.user, m.password), "{}");
      creds.push({ name: role, header: bearer(unbound.json.token), role, on: "global" });
    }
    const other = await member(s, "r_other", "admin", "H", "H");
    creds.push({ name: "admin-on-H", header: bearer(other.token), role: "admin", on: "H" });
    const created = await s.gsql("CREATE USER", ROOT, { answers: ["r_norole:pw-norole"] });
    expect(created.returnCode, created.text).to.equal(0);
    creds.push({ name: "no-role", header: basic("r_norole", "pw-norole"), on: "none" });
    const expiring = await member(s, "r_expiring", "superuser", undefined, "G");
    const shortLived = await requestToken(s, expiring.secret, 1);
    s.clock.now += 5_000;
    creds.push({ name: "expired", header: bearer(shortLived), invalid: "REST-3300" });

    // Every command the engine applies from here on is recorded.
    const engine = s.server.services.engine;
    const apply = engine.apply.bind(engine);
    engine.apply = ((command, options) => {
      const result = apply(command, options);
      applied.push(command.kind);
      return result;
    }) as typeof engine.apply;
  });
  after(() => s?.close());

  it("finds the routes it checks: the REST endpoints and the GSQL-server endpoints", () => {
    const rest = new Set(restRoutes.map(keyOf));
    for (const key of ["GET /graph/{graph_name}/vertices/{vertex_type}", "POST /ddl/{graph_name}", "POST /builtins/{graph_name}", "GET /endpoints", "POST /requesttoken"]) {
      expect(rest.has(key), key).to.equal(true);
    }
    expect(new Set(gsqlRoutes.map(keyOf))).to.include.all.keys("POST /gsqlserver/gsql/file", "GET /gsqlserver/gsql/schema");
  });

  it("has a rule in the access table for every REST route (the token routes check their own)", () => {
    const missing = restRoutes.map(keyOf).filter((key) => restRule(key) === undefined && !key.endsWith(" /requesttoken"));
    expect(missing).to.deep.equal([]);
  });

  it("has a rule for every GSQL-server route", () => {
    const missing = gsqlRoutes.map(keyOf).filter((key) => GSQL_HTTP_ACCESS[key] === undefined);
    expect(missing).to.deep.equal([]);
  });

  /** The request of a route, with a body its handler can read (auth decides before the handler looks). */
  function restRequest(r: Route): { path: string; body?: string } {
    const path = concretePath(r);
    if (path.startsWith("/ddl")) return { path: `${path}?tag=lj&filename=f`, body: "" };
    if (path.startsWith("/builtins")) return { path, body: JSON.stringify({ function: "stat_vertex_number", type: "*" }) };
    // Their graph is a query parameter.
    if (path === "/query_status" || path === "/query_result") return { path: `${path}?graph_name=G&requestid=1` };
    if (r.method === "POST" || r.method === "PUT") return { path, body: "{}" };
    return { path };
  }

  /** Why an answer is not the cell's, or undefined when it is. */
  function restProblem(cred: Cred, allowed: boolean, rule: AccessRule, res: HttpAnswer): string | undefined {
    const show = `${res.status} ${res.text.slice(0, 160)}`;
    if (allowed) return res.status === 401 || res.status === 403 ? `expected to pass the access check, got ${show}` : undefined;
    if (cred.invalid !== undefined && rule.kind !== "open") {
      return res.status === 401 && res.json?.error === true && res.json?.code === cred.invalid ? undefined : `expected 401 ${cred.invalid}, got ${show}`;
    }
    return res.status === 403 && res.json?.code === "REST-10016" && String(res.json?.message).startsWith("Access Denied because ") ? undefined : `expected 403 REST-10016, got ${show}`;
  }

  it("answers every REST route, directly and through /restpp, as its rule and the caller's role say, changing nothing when refused", async () => {
    const failures: string[] = [];
    const multiGraph = s.server.services.engine.graphNames().length > 1;
    for (const route of restRoutes) {
      const key = keyOf(route);
      if (key.endsWith(" /requesttoken")) continue;
      const rule = restRule(key)!;
      // A graph-less form addresses the only graph; with two graphs it names none.
      const graph = route.path.includes(":graph_name") ? "G" : REST_ACCESS[key] === undefined && multiGraph ? undefined : "G";
      const { path, body } = restRequest(route);
      for (const cred of creds) {
        const allowed = expectAllowed(cred, rule, graph);
        for (const [via, send] of [["direct", () => s.rest(route.method, path, cred.header, body)], ["/restpp", () => s.gsqlHttp(route.method, `/restpp${path}`, cred.header, body)]] as const) {
          const before = applied.length;
          const res = await send();
          const problem = restProblem(cred, allowed, rule, res);
          if (problem) failures.push(`${key} (${via}) as ${cred.name}: ${problem}`);
          if (!allowed && applied.length !== before) failures.push(`${key} (${via}) as ${cred.name}: refused, yet applied ${applied.slice(before).join(", ")}`);
        }
      }
    }
    expect(failures, failures.join("\n")).to.deep.equal([]);
  });

  /** A request the GSQL-server route can take: graph G named, a harmless body. */
  function gsqlRequest(r: Route): { path: string; body?: string; headers: Record<string, string> } {
    const headers: Record<string, string> = { "GSQL-Cookie": JSON.stringify({ graph: "G" }) };
    const path = concretePath(r);
    if (r.method === "GET") return { path: `${path}?graph=G`, headers };
    if (path === "/gsqlserver/gsql/dialog") return { path, body: encodeURIComponent("0123,answer"), headers };
    if (path === "/gsqlserver/gsql/login") return { path, body: Buffer.from("tigergraph:tigergraph").toString("base64"), headers };
    if (path === "/gsqlserver/interpreted_query") return { path, body: "INTERPRET QUERY () FOR GRAPH G { PRINT 1; }", headers };
    if (path === "/gsql/v1/statements") return { path, body: "ls", headers: { ...headers, "Content-Type": "text/plain" } };
    return { path, body: encodeURIComponent("ls"), headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" } };
  }

  /**
   * Routes whose table rule only authenticates: what their body then needs, and how that
   * refusal reads (`ls` on G needs READ_SCHEMA; the interpreted query READ_DATA).
   */
  const BODY_CHECKS: Record<string, { rule: AccessRule; refused(status: number, text: string): boolean }> = {
    "POST /gsqlserver/gsql/file": { rule: { kind: "graph", privileges: ["READ_SCHEMA"] }, refused: statementRefused },
    "POST /gsqlserver/gsql/command": { rule: { kind: "graph", privileges: ["READ_SCHEMA"] }, refused: statementRefused },
    "POST /gsql/v1/statements": { rule: { kind: "graph", privileges: ["READ_SCHEMA"] }, refused: statementRefused },
    "POST /gsqlserver/interpreted_query": {
      rule: { kind: "graph", privileges: ["READ_DATA"] },
      refused: (status, text) => status === 403 && JSON.parse(text).error === true && String(JSON.parse(text).message).startsWith("Access denied: "),
    },
  };

  it("answers every GSQL-server route as its rule and the caller's role say, changing nothing when refused", async () => {
    const failures: string[] = [];
    for (const route of gsqlRoutes) {
      const key = keyOf(route);
      const rule = GSQL_HTTP_ACCESS[key]!;
      const bodyCheck = BODY_CHECKS[key];
      const { path, body, headers } = gsqlRequest(route);
      for (const cred of creds) {
        const passes = expectAllowed(cred, rule, "G");
        const allowed = passes && (bodyCheck === undefined || expectAllowed(cred, bodyCheck.rule, "G"));
        const before = applied.length;
        const res = await fetch(s.gsqlUrl + path, { method: route.method, body, headers: cred.header ? { ...headers, Authorization: cred.header } : headers });
        const text = await res.text();
        const show = `${res.status} ${text.slice(0, 160)}`;
        if (allowed) {
          const refusedAnyway = res.status === 401 || res.status === 403 || (bodyCheck !== undefined && bodyCheck.refused(res.status, text));
          if (refusedAnyway) failures.push(`${key} as ${cred.name}: expected to be allowed, got ${show}`);
          continue;
        }
        if (!passes) {
          const status = cred.invalid !== undefined ? 401 : 403;
          const ok = res.status === status && text.endsWith("__GSQL__RETURN__CODE__,41\n") && (status === 401 || text.startsWith("Access denied: "));
          if (!ok) failures.push(`${key} as ${cred.name}: expected ${status} with return code 41, got ${show}`);
        } else if (!bodyCheck!.refused(res.status, text)) {
          failures.push(`${key} as ${cred.name}: expected the body's refusal, got ${show}`);
        }
        if (applied.length !== before) failures.push(`${key} as ${cred.name}: refused, yet applied ${applied.slice(before).join(", ")}`);
      }
    }
    expect(failures, failures.join("\n")).to.deep.equal([]);
  });
});

/** A statement refused at the shell: "Access denied: ..." and return code 212. */
function statementRefused(status: number, text: string): boolean {
  return status === 200 && /^Access denied: /m.test(text) && text.endsWith("__GSQL__RETURN__CODE__,212\n");
}
