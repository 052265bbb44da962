// Makes every REST write durable before its answer, without each route having to ask: the
// middleware notes the log's last position when a request that may write starts, and before
// Koa sends the answer waits until every record logged since then is durable (its own, and
// any another request logged meanwhile: waiting for those too costs at most the same group
// commit). A request that logged nothing, and `ack=none` (as the interface allows), do not wait.
// Code that streams its answer (statement by statement, after the route returned) calls the
// request's `awaitDurable` (ctx.state) before each piece.
//
// No async context is needed to tell whose records are whose: an AsyncLocalStorage turns on
// Node's promise tracking for the whole process, which cost every request (reads too) about
// a sixth of its CPU.
import type { Context, Next } from "koa";

/** The log requests write to: its last assigned position, and the wait for one to be durable. */
export interface WriteLog {
  readonly lastLsn: number;
  waitDurable(lsn: number): Promise<void>;
}

/** What the middleware leaves on ctx.state for routes that answer while they still write. */
export interface RequestDurability {
  /** Resolves once every record logged since the request began is durable. */
  awaitDurable(): Promise<void>;
}

/** The request's wait, or one that waits for nothing outside the middleware (no log). */
export function requestDurability(ctx: Context): RequestDurability {
  return (ctx.state.durability as RequestDurability | undefined) ?? NOTHING_TO_WAIT_FOR;
}

const NOTHING_TO_WAIT_FOR: RequestDurability = { awaitDurable: () => Promise.resolve() };

/** Koa middleware: runs the rest of the chain, then waits for what was logged meanwhile. */
export function durableWritesMiddleware(log: WriteLog) {
  return async function durableWrites(ctx: Context, next: Next): Promise<void> {
    const start = log.lastLsn;
    const loggedSince = () => {
      const last = log.lastLsn;
      return last > start ? log.waitDurable(last) : Promise.resolve();
    };
    const durability: RequestDurability = { awaitDurable: loggedSince };
    ctx.state.durability = durability;
    try {
      await next();
    } finally {
      // Also after a failure: whatever the request did change is durable before it answers.
      if (ctx.query.ack !== "none") await loggedSince();
    }
  };
}
