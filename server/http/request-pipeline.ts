// The two layers every REST request passes through, kept few because each layer costs every
// request (a promise, a closure, a frame): the front door (statistics, the error envelope, the
// not-found answer) and the dispatch (the route matched once, the durable-writes context only
// for requests that may write). Authentication, when on, sits between them.
import type { Context, Middleware, Next } from "koa";
import type Router from "@koa/router";
import type { RequestStatistics } from "../statistics/request-statistics.js";
import { answerError, endpointNotFound } from "./error-middleware.js";
import type { RouteTable } from "./route-table.js";

/**
 * The outermost layer: runs the request, turns a failure into the envelope, answers 404
 * REST-1000 when no route answered, and records the request for GET /statistics (every
 * request that reached a known endpoint: its route set ctx.state.endpointKey) with its
 * latency, once its answer is final.
 */
export function frontDoor(statistics: RequestStatistics, log: (line: string) => void): Middleware {
  return async function frontDoor(ctx: Context, next: Next): Promise<void> {
    const start = performance.now();
    try {
      await next();
    } catch (err) {
      answerError(ctx, err, log);
    }
    if (ctx.body === undefined && ctx.status === 404) endpointNotFound(ctx);
    const state = ctx.state as { endpointKey?: string; graph?: string; timedOut?: boolean };
    if (state.endpointKey !== undefined) statistics.record(state.endpointKey, state.graph, performance.now() - start, state.timedOut === true);
  };
}

/**
 * The innermost layer: the matched route runs (inside `durableWrites` when it may write),
 * or nothing does and the front door answers 404. Carries the router where tools that list
 * an application's routes look for it.
 */
export function routeDispatch(routes: RouteTable, router: Router, durableWrites?: Middleware): Middleware & { router: Router } {
  const dispatch = (ctx: Context, next: Next) => {
    const match = routes.matchRequest(ctx);
    if (match === undefined) return next();
    if (durableWrites !== undefined && match.mayWrite) return durableWrites(ctx, () => routes.run(ctx, match, next));
    return routes.run(ctx, match, next);
  };
  return Object.assign(dispatch, { router });
}
