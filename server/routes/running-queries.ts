// The queries running now, for GET /showprocesslist/{graph} (what runs, since when, until
// when) and GET /abortquery/{graph}?requestid=ID|all (stop them). Each run of
// GET|POST /query gets a request id when it starts and leaves the list when it ends.
// Detached runs (GSQL-ASYNC: true) also keep their answer for GET /query_status and
// GET /query_result, the newest MAX_DETACHED_RESULTS of them.
import type Router from "@koa/router";
import type { Context } from "koa";
import { formatDatetime } from "../../runtime-wasm/values/index.js";
import { sendResults } from "../http/respond.js";
import { badRequest } from "../http/rest-error.js";
import type { JsonOut } from "../../runtime-wasm/values/index.js";
import type { RestServices } from "../rest-services.js";
import { addEndpoint } from "./endpoint-route.js";
import { requestGraph } from "./graph-context.js";

export interface RunningQuery {
  requestId: string;
  graph: string;
  /** The request's path and query string. */
  url: string;
  startedMs: number;
  timeoutMs: number;
  /** Stops the run; it then answers that it was aborted. */
  abort(): void;
}

/** A detached run's state (as /query_status reports it) and, once it ended, its answer. */
interface DetachedRun {
  run: RunningQuery;
  state: string;
  body?: string;
  endedMs?: number;
}

/** Finished detached results kept; the oldest go first. */
export const MAX_DETACHED_RESULTS = 1000;

export class RunningQueries {
  private readonly byId = new Map<string, RunningQuery>();
  private readonly detached = new Map<string, DetachedRun>();
  private next = 1;

  constructor(private readonly now: () => number = Date.now) {}

  /** Adds a run; returns its entry (remove it with `end`). */
  start(graph: string, url: string, timeoutMs: number, abort: () => void): RunningQuery {
    const startedMs = this.now();
    const run = { requestId: `${this.next++}.RESTPP_1_1.${startedMs}.N`, graph, url, startedMs, timeoutMs, abort };
    this.byId.set(run.requestId, run);
    return run;
  }

  end(run: RunningQuery): void {
    this.byId.delete(run.requestId);
  }

  /** Keeps a detached run's answer (`finished` resolves with its final state and envelope text). */
  detach(run: RunningQuery, finished: Promise<{ state: string; body: string }>): void {
    const entry: DetachedRun = { run, state: "running" };
    this.detached.set(run.requestId, entry);
    void finished.then(({ state, body }) => {
      Object.assign(entry, { state, body, endedMs: this.now() });
      const ended = [...this.detached.values()].filter((d) => d.body !== undefined);
      for (const old of ended.slice(0, Math.max(0, ended.length - MAX_DETACHED_RESULTS))) this.detached.delete(old.run.requestId);
    });
  }

  detachedRun(requestId: string): DetachedRun | undefined {
    return this.detached.get(requestId);
  }

  detachedOfGraph(graph: string): DetachedRun[] {
    return [...this.detached.values()].filter((d) => d.run.graph === graph);
  }

  ofGraph(graph: string): RunningQuery[] {
    return [...this.byId.values()].filter((r) => r.graph === graph);
  }

  get(requestId: string): RunningQuery | undefined {
    return this.byId.get(requestId);
  }

  /** The process-list record of a run. */
  describe(run: RunningQuery, status = "running", endedMs = this.now()): JsonOut {
    return {
      requestid: run.requestId,
      startTime: timeText(run.startedMs),
      expirationTime: timeText(run.startedMs + run.timeoutMs),
      url: run.url,
      elapsedTime: Math.max(0, endedMs - run.startedMs),
      status,
    };
  }
}

/** `YYYY-MM-DD HH:MM:SS.mmm` in UTC. */
function timeText(ms: number): string {
  return `${formatDatetime(Math.floor(ms / 1000))}.${String(ms % 1000).padStart(3, "0")}`;
}

export function registerRunningQueries(router: Router, services: RestServices, running: RunningQueries): void {
  addEndpoint(router, services, "GET /showprocesslist/{graph_name}", (ctx: Context, params) => {
    const graph = requestGraph(ctx, services.engine, params);
    sendResults(ctx, running.ofGraph(graph.name).map((r) => running.describe(r)), services.engine.apiVersion(graph));
  });
  addEndpoint(router, services, "GET /abortquery/{graph_name}", (ctx: Context, params) => {
    const graph = requestGraph(ctx, services.engine, params);
    const ids = params.requestid as string[];
    const targets = ids.includes("all") ? running.ofGraph(graph.name) : ids.map((id) => running.get(id)).filter((r): r is RunningQuery => r !== undefined && r.graph === graph.name);
    for (const r of targets) r.abort();
    sendResults(ctx, [{ aborted_queries: targets.map((r) => ({ requestid: r.requestId, url: r.url })) }], services.engine.apiVersion(graph));
  });

  addEndpoint(router, services, "GET /query_status", (ctx: Context, params) => {
    const graph = requestGraph(ctx, services.engine, params);
    const id = params.requestid as string;
    const runs = id === "all" ? running.detachedOfGraph(graph.name) : [running.detachedRun(id)].filter((d) => d !== undefined && d.run.graph === graph.name);
    if (runs.length === 0 && id !== "all") throw badRequest(`No query detached with request id ${id.slice(0, 256)} on the graph ${graph.name}.`);
    sendResults(ctx, runs.map((d) => running.describe(d!.run, d!.state, d!.endedMs)), services.engine.apiVersion(graph));
  });
  addEndpoint(router, services, "GET /query_result", (ctx: Context, params) => {
    const graph = requestGraph(ctx, services.engine, params);
    const id = params.requestid as string;
    const d = running.detachedRun(id);
    if (!d || d.run.graph !== graph.name) throw badRequest(`No query detached with request id ${id.slice(0, 256)} on the graph ${graph.name}.`);
    if (d.body === undefined) throw badRequest(`The query with request id ${id} is still running; GET /query_status tells when it ends.`);
    // The answer the query would have given had it not been detached.
    ctx.type = "application/json";
    ctx.body = d.body;
  });
}
