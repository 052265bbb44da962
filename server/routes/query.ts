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
import { isReservedName, requestParameters, requestTimeoutMs, responseLimitBytes } from "./query-request.js";

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
  const monitor = flag(search.getAll("__GQUERY__monitor").at(-1), "Parameter __GQUERY__monitor");
  const allActive = flag(search.getAll("__GQUERY__USING_ALL_ACTIVE_MODE").at(-1), "Parameter __GQUERY__USING_ALL_ACTIVE_MODE");
  const detached = flag(ctx.get("GSQL-ASYNC") || undefined, "The GSQL-ASYNC header");
  const responseLimit = responseLimitBytes(ctx);

  // Everything is checked: from here on the run is listed until it ends.
  // A client that hangs up stops its query (unless it runs detached); so does GET /abortquery.
  const abort = new AbortController();
  const onClose = () => {
    if (!ctx.res.writableEnded) abort.abort();
  };
  if (!detached) ctx.res.once("close", onClose);
  let abortedByRequest = false;
  const entry = services.running.start(graph.name, ctx.url, timeoutMs, () => {
    abortedByRequest = true;
    abort.abort();
  });
  const version: ApiVersion | undefined = ctx.state.apiVersion;
  const finished = queries
    .runtime()
    .run(engine.store, graph.name, query, args.args, {
      timeoutMs,
      signal: abort.signal,
      allActive,
      monitor,
      monitorLogDir: monitor ? (queries.monitorLogDir ?? join(tmpdir(), "wasmgraph-monitor")) : undefined,
      applyWrites: (steps) => engine.apply({ kind: "query-writes", graph: graph.name, query: name, steps }),
    })
    .then((result) => settle(result, { timeoutMs, responseLimit, abortedBy: abortedByRequest ? entry.requestId : undefined }))
    .finally(() => {
      ctx.res.off("close", onClose);
      services.running.end(entry);
    });
  if (detached) {
    services.running.detach(
      entry,
      finished.catch(failureAnswer).then((a) => ({ state: a.state, body: envelopeText(version, a) })),
    );
    ctx.type = "application/json";
    ctx.body = envelopeText(version, { status: 200, error: false, message: "The query is successfully submitted. Please check query status using the request id.", results: "[]", state: "running" }, { request_id: entry.requestId });
    return;
  }
  const a = await finished;
  ctx.status = a.status;
  ctx.state.timedOut = a.state === "timeout";
  ctx.type = "application/json";
  ctx.body = envelopeText(version, a);
}

/** How a run ended, as the HTTP answer and the state /query_status reports. */
export interface QueryAnswer {
  status: number;
  error: boolean;
  message: string;
  /** JSON text. */
  results: string;
  code?: string;
  state: "running" | "success" | "failed" | "timeout" | "aborted";
}

/** `__GQUERY__...=true`, `GSQL-ASYNC: true`; absent is false, a value other than true/false/1/0 is refused. */
function flag(value: string | undefined, what: string): boolean {
  if (value === undefined) return false;
  const v = value.toLowerCase();
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0") return false;
  throw badRequest(`${what} must be true or false, not '${value.slice(0, 40)}'.`);
}

function settle(result: QueryResult, how: { timeoutMs: number; responseLimit?: number; abortedBy?: string }): QueryAnswer {
  const failed = (status: number, state: QueryAnswer["state"], message: string, code?: string): QueryAnswer => ({ status, error: true, message, results: "[]", code, state });
  if (!result.ok) {
    switch (result.kind) {
      case "bad-argument":
        return failed(400, "failed", result.message, "REST-30000");
      case "timeout":
        return failed(504, "timeout", `The query timed out after ${how.timeoutMs / 1000} second${how.timeoutMs === 1000 ? "" : "s"} and was stopped.`, "REST-3000");
      case "aborted":
        if (how.abortedBy) return failed(200, "aborted", `The query was aborted by an abort request (request id ${how.abortedBy}).`);
        return failed(503, "aborted", "The query was stopped before it finished: the client went away or the server is shutting down.", "REST-5000");
      case "exception":
        // The query's own RAISE: a result of the query, not a failed request.
        return failed(200, "failed", result.message, String(result.code));
      case "error":
        return failed(200, "failed", result.message);
    }
  }
  const bytes = Buffer.byteLength(result.results);
  if (how.responseLimit !== undefined && bytes > how.responseLimit) {
    return failed(400, "failed", `The response (${bytes} bytes) is larger than the RESPONSE-LIMIT of ${how.responseLimit} bytes.`, "REST-4000");
  }
  const lines = [...result.warnings];
  if (result.monitorLog) lines.push(monitorMessage(result.monitorLog));
  return { status: 200, error: false, message: lines.join("\n"), results: result.results, state: "success" };
}

/** A detached run that failed outside the query (nobody waits to be answered by the error policy). */
function failureAnswer(err: unknown): QueryAnswer {
  if (err instanceof RestError || err instanceof EngineError) {
    return { status: err instanceof RestError ? err.status : 400, error: true, message: err.message, results: "[]", code: err.code, state: "failed" };
  }
  return { status: 500, error: true, message: `Internal server error: ${err instanceof Error ? err.message : String(err)}`, results: "[]", code: "REST-5000", state: "failed" };
}

/** The envelope as text: `results` is the run's JSON text, put in as it is (64-bit integers stay exact). */
function envelopeText(version: ApiVersion | undefined, a: QueryAnswer, extra: Record<string, string> = {}): string {
  const head = version ? `"version":${toJsonText(version as unknown as JsonOut)},` : "";
  const fields = [...(a.code !== undefined ? [["code", a.code]] : []), ...Object.entries(extra)].map(([k, v]) => `,${JSON.stringify(k)}:${JSON.stringify(v)}`).join("");
  return `{${head}"error":${a.error},"message":${JSON.stringify(a.message)},"results":${a.results}${fields}}`;
}
