// The access matrix: every REST endpoint, every GSQL-server endpoint and a command of each
// privilege family × {no token, short token, unknown token, expired token, each built-in
// role, a role on another graph, no role}. Each cell is either allowed (the endpoint's
// normal answer) or the documented refusal: 401 REST-10016 / REST-3300 without valid
// credentials, 403 (REST-10016, "Access denied" at the shell) when not allowed. Every write
// names an item of its own, read back afterwards as the superuser: made or removed exactly
// when the cell is allowed, untouched when refused.
import { expect } from "chai";
import { BUILTIN_ENDPOINTS } from "../../../server/endpoints/builtin-endpoints.js";
import { restRule } from "../../../server/auth/access-table.js";
import { ROOT, basic, bearer, member, requestToken, startAuthServer, type AuthServer } from "./auth-fixture.js";

type GraphRole = "observer" | "queryreader" | "querywriter" | "designer" | "admin";
/** What a cell needs: nothing, any valid credentials, a graph role on G (or higher), or a global role. */
type Need = "open" | "auth" | GraphRole | "globaldesigner" | "superuser";

const RANK: Record<GraphRole, number> = { observer: 1, queryreader: 2, querywriter: 3, designer: 4, admin: 5 };

interface Cred {
  name: string;
  header?: string;
  /** invalid: what the 401 says. */
  invalid?: "REST-10016" | "REST-3300";
  role?: GraphRole | "globaldesigner" | "superuser";
  /** The graph the role is on (G for the tested graph, H for another). */
  on?: "G" | "H" | "global" | "none";
}

/** The expected decision for a valid credential, by an independent reading of the role table. */
function allowed(cred: Cred, need: Need): boolean {
  if (need === "open" || need === "auth") return true;
  if (cred.role === "superuser") return true;
  if (need === "superuser") return false;
  if (need === "globaldesigner") return cred.role === "globaldesigner";
  if (cred.role === "globaldesigner") return RANK[need] <= RANK.designer;
  if (cred.on !== "G" || cred.role === undefined) return false;
  return RANK[cred.role] >= RANK[need];
}

const SCHEMA = `CREATE VERTEX P (PRIMARY_ID id STRING, age INT)
CREATE VERTEX T (PRIMARY_ID id STRING)
CREATE DIRECTED EDGE K (FROM P, TO P)
CREATE GRAPH G (P, T, K)
CREATE VERTEX Q (PRIMARY_ID id STRING)
CREATE GRAPH H (Q)
CREATE LOADING JOB lj FOR GRAPH G { DEFINE FILENAME f; LOAD f TO VERTEX P VALUES ($0, $1) USING SEPARATOR=","; }
CREATE QUERY q() FOR GRAPH G { PRINT 1; }
`;

describe("auth: access matrix (endpoints × credentials)", function () {
  this.timeout(120_000);
  let s: AuthServer;
  const creds: Cred[] = [];

  const vertexExists = async (type: string, id: string) => (await s.rest("GET", `/graph/G/vertices/${type}/${id}`, ROOT_TOKEN.value)).status === 200;
  const ROOT_TOKEN = { value: "" };

  before(async () => {
    s = await startAuthServer();
    const setup = await s.gsql(SCHEMA, ROOT);
    expect(setup.returnCode, setup.text).to.equal(0);
    const rootToken = await s.rest("POST", "/requesttoken", ROOT, "{}");
    ROOT_TOKEN.value = bearer(rootToken.json.token);

    creds.push({ name: "none", invalid: "REST-10016" });
    creds.push({ name: "short", header: "Bearer abc123", invalid: "REST-10016" });
    creds.push({ name: "unknown", header: bearer("q".repeat(32)), invalid: "REST-3300" });
    for (const role of ["observer", "queryreader", "querywriter", "designer", "admin"] as GraphRole[]) {
      const m = await member(s, `u_${role}`, role, "G", "G");
      creds.push({ name: role, header: bearer(m.token), role, on: "G" });
    }
    for (const role of ["globaldesigner", "superuser"] as const) {
      const m = await member(s, `u_${role}`, role, undefined, "G");
      // A token made with the password and no graph acts wherever the user's roles reach.
      const unbound = await s.rest("POST", "/requesttoken", basic(m.user, m.password), "{}");
      creds.push({ name: role, header: bearer(unbound.json.token), role, on: "global" });
    }
    const other = await member(s, "u_other", "querywriter", "H", "H");
    creds.push({ name: "other-graph", header: bearer(other.token), role: "querywriter", on: "H" });
    // A user with no role: a token from the password (no secret is possible without a role).
    const created = await s.gsql("CREATE USER", ROOT, { answers: ["u_norole:pw-norole"] });
    expect(created.returnCode).to.equal(0);
    const norole = await s.rest("POST", "/requesttoken", basic("u_norole", "pw-norole"), "{}");
    expect(norole.status, norole.text).to.equal(200);
    creds.push({ name: "no-role", header: bearer(norole.json.token), on: "none" });
    // Expired: a one-second token, then the clock moves on.
    const secret = (await member(s, "u_expiring", "superuser", undefined, "G")).secret;
    const shortLived = await requestToken(s, secret, 1);
    s.clock.now += 5_000;
    creds.push({ name: "expired", header: bearer(shortLived), invalid: "REST-3300" });

    // Items each cell's write works on.
    const vertices: Record<string, unknown> = {};
    const edges: Record<string, unknown> = {};
    for (const c of creds) {
      vertices[`del_${c.name}`] = {};
      vertices[`src_${c.name}`] = {};
      vertices[`dst_${c.name}`] = {};
      vertices[`flt_${c.name}`] = { age: { value: 1000 + creds.indexOf(c) } };
      edges[`src_${c.name}`] = { K: { P: { [`dst_${c.name}`]: {} } } };
    }
    const seeded = await s.rest("POST", "/graph/G", ROOT_TOKEN.value, JSON.stringify({ vertices: { P: vertices }, edges: { P: edges } }));
    expect(seeded.status, seeded.text).to.equal(200);
    for (const c of creds) {
      for (const [stmt, label] of [[`CREATE QUERY dq_${c.name.replace(/-/g, "_")}() FOR GRAPH G { PRINT 1; }`, "query"], [`CREATE USER`, "user"]] as const) {
        const answer = await s.gsql(stmt, ROOT, { answers: [`victim_${id(c)}:pw`] });
        expect(answer.returnCode, `${label}: ${answer.text}`).to.equal(0);
      }
    }
  });
  after(() => s.close());

  interface Case {
    name: string;
    need: Need;
    /** Sends the request with `header` for credential `c`. */
    send(c: Cred): Promise<{ status: number; text: string; json: any }>;
    /** "rest": envelope answers; "gsql-http": text refusals; "gsql": statement output. */
    family: "rest" | "gsql-http" | "gsql";
    /** Reads back the cell's own item: true when the change happened. */
    changed?(c: Cred): Promise<boolean>;
    /** Prepares the cell's item (run before each cell). */
    prepare?(c: Cred): Promise<void>;
    /** The status of an allowed request when it is not 200. */
    okStatus?: number;
  }

  const id = (c: Cred) => c.name.replace(/-/g, "_");
  const restCase = (name: string, need: Need, method: string, path: (c: Cred) => string, body?: (c: Cred) => string, extra: Partial<Case> = {}): Case => ({
    name, need, family: "rest", send: (c) => s.rest(method, path(c), c.header, body?.(c)), ...extra,
  });
  const gsqlCase = (name: string, need: Need, text: (c: Cred) => string, extra: Partial<Case> & { graph?: string; answers?: string[] } = {}): Case => ({
    name, need, family: "gsql",
    send: async (c) => {
      const a = await s.gsql(text(c), c.header, { graph: extra.graph, answers: extra.answers });
      return { status: a.status, text: a.text + `\n#rc=${a.returnCode}`, json: a };
    },
    ...extra,
  });

  const cases: Case[] = [
    restCase("GET /echo", "auth", "GET", () => "/echo"),
    restCase("POST /echo", "auth", "POST", () => "/echo"),
    restCase("GET /version", "auth", "GET", () => "/version"),
    restCase("GET /endpoints", "auth", "GET", () => "/endpoints"),
    restCase("GET /endpoints/G", "observer", "GET", () => "/endpoints/G"),
    restCase("GET /statistics", "auth", "GET", () => "/statistics"),
    restCase("GET /statistics/G", "observer", "GET", () => "/statistics/G"),
    restCase("GET vertices", "queryreader", "GET", () => "/graph/G/vertices/P?limit=3"),
    restCase("GET vertex", "queryreader", "GET", (c) => `/graph/G/vertices/P/del_${c.name}`),
    restCase("GET edges", "queryreader", "GET", (c) => `/graph/G/edges/P/src_${c.name}`),
    restCase("GET edges of a type", "queryreader", "GET", (c) => `/graph/G/edges/P/src_${c.name}/K`),
    restCase("GET edges to a type", "queryreader", "GET", (c) => `/graph/G/edges/P/src_${c.name}/K/P`),
    restCase("GET edge", "queryreader", "GET", (c) => `/graph/G/edges/P/src_${c.name}/K/P/dst_${c.name}`),
    restCase("POST /builtins", "queryreader", "POST", () => "/builtins/G", () => JSON.stringify({ function: "stat_vertex_number", type: "*" })),
    restCase("POST /graph (upsert)", "querywriter", "POST", () => "/graph/G", (c) => JSON.stringify({ vertices: { P: { [`new_${c.name}`]: { age: { value: 7 } } } } }), {
      changed: (c) => vertexExists("P", `new_${c.name}`),
    }),
    restCase("DELETE vertex", "querywriter", "DELETE", (c) => `/graph/G/vertices/P/del_${c.name}`, undefined, {
      changed: async (c) => !(await vertexExists("P", `del_${c.name}`)),
    }),
    restCase("DELETE vertices by filter", "querywriter", "DELETE", (c) => `/graph/G/vertices/P?filter=age=${1000 + creds.indexOf(c)}`, undefined, {
      changed: async (c) => !(await vertexExists("P", `flt_${c.name}`)),
    }),
    restCase("DELETE edges", "querywriter", "DELETE", (c) => `/graph/G/edges/P/src_${c.name}/K/P/dst_${c.name}`, undefined, {
      changed: async (c) => {
        const res = await s.rest("GET", `/graph/G/edges/P/src_${c.name}/K`, ROOT_TOKEN.value);
        return res.json.results.length === 0;
      },
    }),
    restCase("DELETE edges of a source", "querywriter", "DELETE", (c) => `/graph/G/edges/P/dst_${c.name}`),
    restCase("DELETE edges of a type", "querywriter", "DELETE", (c) => `/graph/G/edges/P/dst_${c.name}/K`),
    restCase("DELETE edges to a type", "querywriter", "DELETE", (c) => `/graph/G/edges/P/dst_${c.name}/K/P`),
    restCase("DELETE by type", "querywriter", "DELETE", () => "/graph/G/delete_by_type/vertices/T", undefined, {
      prepare: async () => {
        expect((await s.rest("POST", "/graph/G", ROOT_TOKEN.value, '{"vertices":{"T":{"t1":{}}}}')).status).to.equal(200);
      },
      changed: async () => !(await vertexExists("T", "t1")),
    }),
    restCase("POST /ddl (loading)", "queryreader", "POST", () => "/ddl/G?tag=lj&filename=f", (c) => `ddl_${c.name},5\n`, {
      changed: (c) => vertexExists("P", `ddl_${c.name}`),
    }),
    { name: "GET /gsqlserver/gsql/schema", need: "observer", family: "gsql-http", send: (c) => s.gsqlHttp("GET", "/gsqlserver/gsql/schema?graph=G", c.header) },
    { name: "GET /gsqlserver/gsql/queryinfo", need: "observer", family: "gsql-http", send: (c) => s.gsqlHttp("GET", "/gsqlserver/gsql/queryinfo?graph=G", c.header) },
    { name: "GET /gsqlserver/gsql/udtlist", need: "observer", family: "gsql-http", send: (c) => s.gsqlHttp("GET", "/gsqlserver/gsql/udtlist?graph=G", c.header) },
    { name: "GET /restpp/echo", need: "auth", family: "rest", send: (c) => s.gsqlHttp("GET", "/restpp/echo", c.header) },
    { name: "GET /restpp/graph vertices", need: "queryreader", family: "rest", send: (c) => s.gsqlHttp("GET", "/restpp/graph/G/vertices/P?limit=1", c.header) },
    gsqlCase("ls (graph)", "observer", () => "ls", { graph: "G" }),
    gsqlCase("SHOW QUERY", "observer", () => "SHOW QUERY q", { graph: "G" }),
    gsqlCase("SHOW JOB", "observer", () => "SHOW JOB lj", { graph: "G" }),
    gsqlCase("CREATE QUERY", "querywriter", (c) => `CREATE QUERY q_${id(c)}() FOR GRAPH G { PRINT 2; }`, {
      changed: async (c) => s.server.gsql!.catalog.query("G", `q_${id(c)}`) !== undefined,
    }),
    gsqlCase("DROP QUERY", "querywriter", (c) => `DROP QUERY dq_${id(c)}`, {
      graph: "G",
      changed: async (c) => s.server.gsql!.catalog.query("G", `dq_${id(c)}`) === undefined,
    }),
    gsqlCase("CREATE LOADING JOB", "designer", (c) => `CREATE LOADING JOB lj_${id(c)} FOR GRAPH G { DEFINE FILENAME f; LOAD f TO VERTEX P VALUES ($0, $1); }`, {
      changed: async (c) => s.server.gsql!.catalog.loadingJob("G", `lj_${id(c)}`) !== undefined,
    }),
    gsqlCase("CREATE VERTEX (global)", "globaldesigner", (c) => `CREATE VERTEX V_${id(c)} (PRIMARY_ID id STRING)`, {
      changed: async (c) => s.server.services.engine.schema.vertexTypes.some((v) => v.name === `V_${id(c)}`),
    }),
    gsqlCase("GRANT ROLE on G", "admin", (c) => `GRANT ROLE observer ON GRAPH G TO victim_${id(c)}`, {
      changed: async (c) => s.server.services.engine.auth.grantsOf(`victim_${id(c)}`).length > 0,
    }),
    gsqlCase("DROP USER", "superuser", (c) => `DROP USER victim_${id(c)}`, {
      changed: async (c) => s.server.services.engine.auth.user(`victim_${id(c)}`) === undefined,
    }),
    gsqlCase("SHOW USER", "auth", () => "SHOW USER"),
    {
      name: "POST /gsqlserver/gsql/command", need: "observer", family: "gsql",
      send: async (c) => {
        const a = await s.gsql("ls", c.header, { graph: "G", endpoint: "command" });
        return { status: a.status, text: a.text + `\n#rc=${a.returnCode}`, json: a };
      },
    },
    {
      name: "POST /gsql/v1/statements", need: "observer", family: "gsql",
      send: async (c) => {
        const headers: Record<string, string> = { "Content-Type": "text/plain", "GSQL-Cookie": '{"graph":"G"}' };
        if (c.header) headers.Authorization = c.header;
        const res = await fetch(`${s.gsqlUrl}/gsql/v1/statements`, { method: "POST", body: "ls", headers });
        const text = await res.text();
        const rc = /__GSQL__RETURN__CODE__,(\d+)/.exec(text)?.[1];
        return { status: res.status, text: `${text}\n#rc=${rc}`, json: undefined };
      },
    },
    // No dialog waits under this id: an allowed request reaches the route, which says so.
    { name: "POST /gsqlserver/gsql/dialog", need: "auth", family: "gsql-http", okStatus: 404, send: (c) => s.gsqlHttp("POST", "/gsqlserver/gsql/dialog", c.header, "0123,answer") },
    { name: "POST /gsqlserver/gsql/version", need: "open", family: "gsql-http", send: (c) => s.gsqlHttp("POST", "/gsqlserver/gsql/version", c.header) },
    { name: "GET /gsqlserver/gsql/getinfo", need: "open", family: "gsql-http", send: (c) => s.gsqlHttp("GET", "/gsqlserver/gsql/getinfo", c.header) },
    { name: "POST /gsqlserver/gsql/abortclientsession", need: "open", family: "gsql-http", send: (c) => s.gsqlHttp("POST", "/gsqlserver/gsql/abortclientsession", c.header) },
  ];

  it("has an access rule for every built-in REST endpoint", () => {
    const missing = Object.keys(BUILTIN_ENDPOINTS).filter((key) => restRule(key) === undefined);
    expect(missing).to.deep.equal([]);
  });

  for (const c of cases) {
    it(`${c.name}: each credential gets exactly its cell's answer`, async () => {
      const failures: string[] = [];
      for (const cred of creds) {
        await c.prepare?.(cred);
        const res = await c.send(cred);
        const expectOk = (c.need === "open" || cred.invalid === undefined) && allowed(cred, c.need);
        const problem = cellProblem(c, c.need === "open" ? { ...cred, invalid: undefined } : cred, expectOk, res);
        if (problem) failures.push(`${cred.name}: ${problem}`);
        if (c.changed) {
          const changed = await c.changed(cred);
          if (changed !== expectOk) failures.push(`${cred.name}: ${expectOk ? "the change is missing" : "a refused request changed data"}`);
        }
      }
      expect(failures, failures.join("\n")).to.deep.equal([]);
    });
  }
});

/** Why a response is not the cell's expected answer, or undefined when it is. */
function cellProblem(c: { family: "rest" | "gsql-http" | "gsql"; okStatus?: number }, cred: Cred, expectOk: boolean, res: { status: number; text: string; json: any }): string | undefined {
  const show = `${res.status} ${res.text.slice(0, 200)}`;
  if (cred.invalid !== undefined) {
    if (res.status !== 401) return `expected 401, got ${show}`;
    if (c.family === "rest") {
      if (res.json?.error !== true || res.json?.code !== cred.invalid) return `expected code ${cred.invalid}, got ${show}`;
    } else if (!res.text.includes("__GSQL__RETURN__CODE__,41") && !res.text.includes("#rc=41")) {
      return `expected return code 41, got ${show}`;
    }
    return undefined;
  }
  if (c.family === "gsql") {
    const rc = Number(/#rc=(\d+)/.exec(res.text)?.[1]);
    if (expectOk) return rc === 0 && !res.text.includes("Access denied") ? undefined : `expected success, got ${show}`;
    return rc === 212 && /^Access denied: /m.test(res.text) ? undefined : `expected "Access denied" and return code 212, got ${show}`;
  }
  if (expectOk) {
    if (res.status !== (c.okStatus ?? 200)) return `expected ${c.okStatus ?? 200}, got ${show}`;
    if (c.family === "rest" && res.json && res.json.error !== false && res.json.error !== "false" && !isListing(res.json)) return `expected success, got ${show}`;
    return undefined;
  }
  if (res.status !== 403) return `expected 403, got ${show}`;
  if (c.family === "rest") {
    return res.json?.code === "REST-10016" && String(res.json?.message).startsWith("Access Denied because ") ? undefined : `expected REST-10016 access denied, got ${show}`;
  }
  return res.text.startsWith("Access denied: ") ? undefined : `expected "Access denied", got ${show}`;
}

/** GET /endpoints and GET /statistics answer bare objects, without the envelope. */
function isListing(json: any): boolean {
  return typeof json === "object" && json !== null && !("error" in json);
}
