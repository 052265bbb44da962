// The queries running now, for GET /showprocesslist/{graph} (what runs, since when, until
// when) and GET /abortquery/{graph}?requestid=ID|all (stop them). Each run of
// GET|POST /query gets a request id when it starts and leaves the list when it ends.
import type Router from "@koa/router";
import type { Context } from "koa";
import { formatDatetime } from "../../runtime-wasm/values/index.js";
import { sendResults } from "../http/respond.js";
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

export class RunningQueries {
  private readonly byId = new Map<string, RunningQuery>();
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

  ofGraph(graph: string): RunningQuery[] {
    return [...this.byId.values()].filter((r) => r.graph === graph);
  }

  get(requestId: string): RunningQuery | undefined {
    return this.byId.get(requestId);
  }

  /** The process-list record of a run. */
  describe(run: RunningQuery): JsonOut {
    return {
      requestid: run.requestId,
      startTime: timeText(run.startedMs),
      expirationTime: timeText(run.startedMs + run.timeoutMs),
      url: run.url,
      elapsedTime: Math.max(0, this.now() - run.startedMs),
      status: "running",
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
}
