// Koa middleware feeding RequestStatistics: every request that reached a known endpoint
// (its route set ctx.state.endpointKey) is recorded with its latency once it finished.
import type { Context, Next } from "koa";
import type { RequestStatistics } from "./request-statistics.js";

export function statisticsMiddleware(statistics: RequestStatistics) {
  return async function recordStatistics(ctx: Context, next: Next): Promise<void> {
    const start = performance.now();
    try {
      await next();
    } finally {
      const key: string | undefined = ctx.state.endpointKey;
      if (key !== undefined) {
        statistics.record(key, ctx.state.graph, performance.now() - start, ctx.state.timedOut === true);
      }
    }
  };
}
