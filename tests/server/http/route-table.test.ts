// The dispatch table against @koa/router itself: for the application's real routes and for
// generated request paths (case variants, trailing and doubled slashes, encoded characters,
// every method), the table picks the same route with the same parameters the router's own
// match picks first; over HTTP, unmatched methods and paths keep the 404 REST-1000 envelope.
import { expect } from "chai";
import Router from "@koa/router";
import type Koa from "koa";
import { createRestApp } from "../../../server/rest-app.js";
import { RouteTable } from "../../../server/http/route-table.js";
import { startTestServer, type TestServer } from "../../helpers/http.js";

const METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"];
const SEGMENTS = ["graph", "GRAPH", "Graph", "g1", "vertices", "edges", "Person", "p%201", "p%2F2", "%E0%A4%A", "_", "echo", "ECHO", "version", "endpoints", "statistics", "builtins", "ddl", "query", "requesttoken", "delete_by_type", "showprocesslist", "abortquery", "query_status", "query_result", ""];

function routerOf(app: Koa): Router {
  const router = app.middleware.map((m) => (m as { router?: Router }).router).find((r) => r !== undefined);
  if (!router) throw new Error("no router in the application");
  return router;
}

/** What @koa/router runs first for this request: the first layer matching path and method, with its parameters. */
function reference(router: Router, method: string, path: string): { path: string; params: Record<string, string> } | undefined {
  const layer = router.match(path, method).pathAndMethod[0];
  if (!layer) return undefined;
  return { path: String(layer.path), params: layer.params(path, layer.captures(path), {}) as Record<string, string> };
}

/** Deterministic generator (no flaky seeds). */
function* generatedPaths(count: number): Generator<string> {
  let x = 12345;
  const next = (n: number) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x % n;
  };
  for (let i = 0; i < count; i++) {
    const length = 1 + next(7);
    const parts = Array.from({ length }, () => SEGMENTS[next(SEGMENTS.length)]!);
    let path = "/" + parts.join("/");
    if (next(5) === 0) path += "/";
    yield path;
  }
}

function agreeOn(router: Router, table: RouteTable, method: string, path: string): void {
  const want = reference(router, method, path);
  const got = table.match(method, path);
  expect(got && { path: got.path, params: { ...got.params } }, `${method} ${path}`).to.deep.equal(want);
}

describe("REST route table", () => {
  it("picks the route and parameters @koa/router picks, for every route's own path and 6000 generated paths", () => {
    const { app } = createRestApp();
    const router = routerOf(app);
    const table = new RouteTable(router);
    let matched = 0;
    for (const layer of router.stack) {
      const concrete = String(layer.path).replace(/:([A-Za-z0-9_]+)/g, "x");
      for (const method of METHODS) {
        for (const path of [concrete, concrete + "/", concrete.toUpperCase()]) {
          agreeOn(router, table, method, path);
          if (table.match(method, path)) matched++;
        }
      }
    }
    for (const path of generatedPaths(6000)) {
      for (const method of METHODS) {
        agreeOn(router, table, method, path);
        if (table.match(method, path)) matched++;
      }
    }
    // The generated set must exercise matches, not only misses.
    expect(matched).to.be.greaterThan(router.stack.length * 3);
  });

  it("keeps registration order with routes whose shape it cannot tell (wildcards, a parameter first)", () => {
    const router = new Router();
    const noop = () => undefined;
    router.get("/a/:x", noop);
    router.get("/:first/b", noop);
    router.get("/files/*rest", noop);
    router.get("/opt{/:x}", noop);
    router.get("/a/b", noop);
    router.post("/a/:x/c", noop);
    const table = new RouteTable(router);
    for (const path of ["/a/b", "/a/c", "/z/b", "/files/x/y/z", "/files", "/a/b/c", "/A/B", "/files/", "/q/b/", "/opt", "/opt/1", "/opt/1/2"]) {
      for (const method of ["GET", "HEAD", "POST"]) agreeOn(router, table, method, path);
    }
    expect(table.match("GET", "/a/b")!.path).to.equal("/a/:x");
    expect(table.match("GET", "/z/b")!.params).to.deep.equal({ first: "z" });
    // Routes added after the first match are seen.
    router.get("/late/:y", noop);
    expect(table.match("GET", "/late/1")!.params).to.deep.equal({ y: "1" });
  });

  it("marks which requests may write by method and route", () => {
    const router = new Router();
    const noop = () => undefined;
    router.register(["/graph/:g/vertices/:t"], ["GET", "DELETE"], noop);
    router.register(["/query/:g/:q"], ["GET", "POST"], noop);
    const table = new RouteTable(router, { mayWrite: (method, path) => method !== "GET" && method !== "HEAD" || path.startsWith("/query/") });
    expect(table.match("GET", "/graph/g/vertices/T")!.mayWrite).to.equal(false);
    expect(table.match("HEAD", "/graph/g/vertices/T")!.mayWrite).to.equal(false);
    expect(table.match("DELETE", "/graph/g/vertices/T")!.mayWrite).to.equal(true);
    expect(table.match("GET", "/query/g/q")!.mayWrite).to.equal(true);
    expect(table.match("POST", "/query/g/q")!.mayWrite).to.equal(true);
  });
});

describe("REST dispatch over HTTP", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  const notFound = (path: string) => ({
    error: true,
    code: "REST-1000",
    message: `Endpoint is not found from url = ${path}, please use GET /endpoints to list all valid endpoints.`,
    results: [],
  });

  it("a known path with a method it does not take answers 404 REST-1000, exactly as an unknown path", async () => {
    for (const [method, path] of [["PUT", "/echo"], ["PATCH", "/graph/g/vertices/T"], ["POST", "/version"], ["DELETE", "/statistics"], ["GET", "/graph//vertices/T"]] as const) {
      const r = await t.request(method, path);
      expect(r.status, `${method} ${path}`).to.equal(404);
      expect(r.json, `${method} ${path}`).to.deep.equal(notFound(path));
    }
  });

  it("matches literals case-insensitively and allows one trailing slash, as before", async () => {
    for (const path of ["/echo", "/echo/", "/ECHO", "/Echo/"]) {
      const r = await t.get(path);
      expect(r.status, path).to.equal(200);
      expect(r.json, path).to.deep.equal({ error: false, message: "Hello GSQL" });
    }
    const doubled = await t.get("/echo//");
    expect(doubled.status).to.equal(404);
    expect(doubled.json).to.deep.equal(notFound("/echo//"));
  });

  it("counts each endpoint exactly once per request in /statistics, and not the unmatched ones", async () => {
    for (let i = 0; i < 7; i++) await t.get("/echo/");
    for (let i = 0; i < 3; i++) await t.request("POST", "/echo");
    await t.request("PUT", "/echo");
    await t.get("/nope");
    const r = await t.get("/statistics?seconds=60");
    // 4 GET /echo from the previous test, 7 here.
    expect(r.json["GET /echo"].CompletedRequests).to.equal(11);
    expect(r.json["POST /echo"].CompletedRequests).to.equal(3);
    expect(Object.keys(r.json).sort()).to.deep.equal(["GET /echo", "POST /echo"]);
  });
});
