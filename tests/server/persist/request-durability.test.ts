// The durability wait of requests that may write (request-durability.ts): a request waits,
// before its answer, for every record logged while it ran, its own and any another request
// logged meanwhile (the log's positions only grow); one that saw nothing logged, and one with
// ack=none, do not wait; a streaming route's wait covers what was logged up to each call.
import { expect } from "chai";
import type { Context } from "koa";
import { durableWritesMiddleware, requestDurability, type WriteLog } from "../../../server/persist/request-durability.js";

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const fakeCtx = (query: Record<string, string> = {}) => ({ query, state: {} }) as unknown as Context;

/** A log whose appends the test makes, and the positions waited for. */
function fakeLog(): WriteLog & { append(): number; waited: number[] } {
  const log = {
    lastLsn: 0,
    waited: [] as number[],
    append: () => ++log.lastLsn,
    waitDurable: async (lsn: number) => {
      log.waited.push(lsn);
    },
  };
  return log;
}

describe("persist: request durability", () => {
  it("each request waits for the last record logged before it ended, its own or another's; overlapping requests too", async () => {
    const log = fakeLog();
    const middleware = durableWritesMiddleware(log);
    let releaseB!: () => void;
    const bHeld = new Promise<void>((resolve) => (releaseB = resolve));
    const a = middleware(fakeCtx(), async () => {
      await tick();
      log.append(); // 1
      log.append(); // 2
    });
    const b = middleware(fakeCtx(), async () => {
      await bHeld; // A ends while B still runs
      log.append(); // 3
    });
    await a;
    expect(log.waited).to.deep.equal([2]);
    releaseB();
    await b;
    expect(log.waited).to.deep.equal([2, 3]);
    // A request that wrote nothing itself but ran while a record was logged waits for it too.
    const c = middleware(fakeCtx(), async () => {
      await tick();
    });
    log.append(); // 4, logged while C runs
    await c;
    expect(log.waited).to.deep.equal([2, 3, 4]);
  });

  it("no record logged while it ran, or ack=none: no wait", async () => {
    const log = fakeLog();
    log.append();
    const middleware = durableWritesMiddleware(log);
    await middleware(fakeCtx(), async () => tick());
    await middleware(fakeCtx({ ack: "none" }), async () => {
      log.append();
    });
    expect(log.waited).to.deep.equal([]);
  });

  it("a failing request waits too: what it changed is durable before the error answers", async () => {
    const log = fakeLog();
    const middleware = durableWritesMiddleware(log);
    let failed: unknown;
    await middleware(fakeCtx(), async () => {
      log.append();
      throw new Error("refused after a write");
    }).catch((err: unknown) => (failed = err));
    expect((failed as Error).message).to.equal("refused after a write");
    expect(log.waited).to.deep.equal([1]);
  });

  it("a streaming route's wait covers what was logged up to the call, not what comes after", async () => {
    const log = fakeLog();
    const middleware = durableWritesMiddleware(log);
    const ctx = fakeCtx();
    let durability!: ReturnType<typeof requestDurability>;
    await middleware(ctx, async () => {
      // The route keeps the wait for its stream and returns at once, as the GSQL server does.
      durability = requestDurability(ctx);
    });
    expect(log.waited).to.deep.equal([]);
    log.append(); // 1: the background statements log a change
    await durability.awaitDurable();
    expect(log.waited).to.deep.equal([1]);
    await durability.awaitDurable();
    expect(log.waited).to.deep.equal([1, 1]);
    // Outside the middleware there is nothing to wait for.
    await requestDurability(fakeCtx()).awaitDurable();
    expect(log.waited).to.deep.equal([1, 1]);
  });
});
