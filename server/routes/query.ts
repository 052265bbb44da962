// GET|POST /query/{graph}/{name} (and /query/{name} in a single-graph deployment): runs an
// installed query. The request's parameters are checked against the query's manifest, the
// run goes to the worker pool (the server keeps answering meanwhile) with the request's
// time limit, and its graph writes are one engine command, logged before the answer like any
// other write. The answer is the envelope with one results object per PRINT.
import type Router from "@koa/router";
import type { Context } from "koa";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { QueryResult, QueryRuntime, CompiledQuery } from "../../runtime-wasm/query/query-runtime.js";
import { monitorMessage } from "../../runtime-wasm/query/monitor-log.js";
import { toJsonText, type JsonOut } from "../../runtime-wasm/values/index.js";
import { queryArguments } from "../gsql/query-arguments.js";
import { endpointNotFound } from "../http/error-middleware.js";
import { badRequest, RestError } from "../http/rest-error.js";
import { EngineError } from "../engine/engine-error.js";
import type { ApiVersion } from "../engine/engine.js";
import type { RestServices } from "../rest-services.js";
import { isReservedName, requestParameters, requestTimeoutMs } from "./query-request.js";

/** What the query route needs: the installed queries' compiled modules and the pool that runs them. */
export interface QueryEndpointServices {
  installed: { get(graph: string, name: string): CompiledQuery | undefined };
  runtime(): QueryRuntime;
  /** Where `__GQUERY__monitor=true` writes its logs (default: a folder in the system's temporary directory). */
  monitorLogDir?: string;
}

export function registerQueries(router: Router, services: RestServices, queries: QueryEndpointServices): void {
  const run = (ctx: Context) => runQuery(ctx, services, queries);
  router.register(["/query/:graph_name/:query_name", "/query/:query_name"], ["GET", "POST"], run);
}

async function runQuery(ctx: Context, services: RestServices, queries: QueryEndpointServices): Promise<void> {
  const { engine } = services;
  const graph = engine.resolveGraph(ctx.params.graph_name);
  ctx.state.graph = graph.name;
  ctx.state.apiVersion = engine.apiVersion(graph);
  const name: string = ctx.params.query_name;
  const query = queries.installed.get(graph.name, name);
  if (!query) return endpointNotFound(ctx);
  ctx.state.endpointKey = `${ctx.method} /query/${graph.name}/${name}`;

  const params = query.manifest.params;
  const search = await requestParameters(ctx, params, services.limits);
  const args = queryArguments(params, search, { strict: true, reserved: (n) => isReservedName(n) && !params.some((p) => p.name === n) });
  if (!args.ok) throw badRequest(args.message);
  const ownsTimeout = params.some((p) => p.name === "timeout");
  const timeoutMs = requestTimeoutMs(ctx, ownsTimeout ? new URLSearchParams() : search, engine.defaultTimeoutMs);
  const monitor = flag(search, "__GQUERY__monitor");

  // A client that hangs up stops its query.
  const abort = new AbortController();
  const onClose = () => {
    if (!ctx.res.writableEnded) abort.abort();
  };
  ctx.res.once("close", onClose);
  let result: QueryResult;
  try {
    result = await queries.runtime().run(engine.store, graph.name, query, args.args, {
      timeoutMs,
      signal: abort.signal,
      allActive: flag(search, "__GQUERY__USING_ALL_ACTIVE_MODE"),
      monitor,
      monitorLogDir: monitor ? (queries.monitorLogDir ?? join(tmpdir(), "wasmgraph-monitor")) : undefined,
      applyWrites: (steps) => engine.apply({ kind: "query-writes", graph: graph.name, query: name, steps }),
    });
  } finally {
    ctx.res.off("close", onClose);
  }
  answer(ctx, result, ctx.state.apiVersion, timeoutMs);
}

/** `__GQUERY__...=true`; any other value than true/false is refused. */
function flag(search: URLSearchParams, name: string): boolean {
  const value = search.getAll(name).at(-1);
  if (value === undefined) return false;
  const v = value.toLowerCase();
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0") return false;
  throw badRequest(`Parameter ${name} must be true or false, not '${value.slice(0, 40)}'.`);
}

function answer(ctx: Context, result: QueryResult, version: ApiVersion | undefined, timeoutMs: number): void {
  if (!result.ok) {
    switch (result.kind) {
      case "bad-argument":
        throw badRequest(result.message);
      case "timeout":
        throw new EngineError("timeout", "REST-3000", `The query timed out after ${timeoutMs / 1000} second${timeoutMs === 1000 ? "" : "s"} and was stopped.`);
      case "aborted":
        throw new RestError(503, "REST-5000", "The query was stopped before it finished: the client went away or the server is shutting down.");
      case "exception":
        // The query's own RAISE: a result of the query, not a failed request.
        return send(ctx, version, true, result.message, "[]", String(result.code));
      case "error":
        return send(ctx, version, true, result.message, "[]");
    }
  }
  const lines = [...result.warnings];
  if (result.monitorLog) lines.push(monitorMessage(result.monitorLog));
  send(ctx, version, false, lines.join("\n"), result.results);
}

/** The envelope as text: `results` is the run's JSON text, put in as it is (64-bit integers stay exact). */
function send(ctx: Context, version: ApiVersion | undefined, error: boolean, message: string, results: string, code?: string): void {
  const head = version ? `"version":${toJsonText(version as unknown as JsonOut)},` : "";
  const tail = code !== undefined ? `,"code":${JSON.stringify(code)}` : "";
  ctx.type = "application/json";
  ctx.body = `{${head}"error":${error},"message":${JSON.stringify(message)},"results":${results}${tail}}`;
}
