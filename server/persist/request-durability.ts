// Makes every REST write durable before its answer, without each route having to ask:
// the engine records commands in the turn it applies them, the record's log position is
// noted in the request's async context, and this middleware waits for that position to be
// durable before Koa sends the response. `ack=none` skips the wait, as the interface allows.
// Code that streams its answer (statement by statement) calls awaitRequestWrites() itself.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Context, Next } from "koa";

interface RequestWrites {
  lsn: number;
  waitDurable(lsn: number): Promise<void>;
}

const requestWrites = new AsyncLocalStorage<RequestWrites>();

/** Notes that the current request wrote the record at `lsn` (no effect outside a request). */
export function noteRequestWrite(lsn: number): void {
  const writes = requestWrites.getStore();
  if (writes && lsn > writes.lsn) writes.lsn = lsn;
}

/** Resolves once every record the current request wrote so far is durable. */
export function awaitRequestWrites(): Promise<void> {
  const writes = requestWrites.getStore();
  return writes && writes.lsn > 0 ? writes.waitDurable(writes.lsn) : Promise.resolve();
}

/** Koa middleware: runs the rest of the chain in a write-tracking context, then waits. */
export function durableWritesMiddleware(waitDurable: (lsn: number) => Promise<void>) {
  return async function durableWrites(ctx: Context, next: Next): Promise<void> {
    const writes: RequestWrites = { lsn: 0, waitDurable };
    try {
      await requestWrites.run(writes, next);
    } finally {
      // Also after a failure: whatever the request did change is durable before it answers.
      if (writes.lsn > 0 && ctx.query.ack !== "none") await waitDurable(writes.lsn);
    }
  };
}
