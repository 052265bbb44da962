// The write-tracking context of requests: each request waits for exactly the records it
// wrote, also when tracked requests overlap and one ends while another is still running,
// and nothing is noted outside a request.
import { expect } from "chai";
import type { Context } from "koa";
import { durableWritesMiddleware, noteRequestWrite, awaitRequestWrites } from "../../../server/persist/request-durability.js";

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const fakeCtx = (query: Record<string, string> = {}) => ({ query }) as unknown as Context;

describe("persist: request write tracking", () => {
  it("overlapping requests each wait for their own last record, before and after the other ends", async () => {
    const waited: number[] = [];
    const middleware = durableWritesMiddleware(async (lsn) => {
      waited.push(lsn);
    });
    let releaseB!: () => void;
    const bHeld = new Promise<void>((resolve) => (releaseB = resolve));
    const a = middleware(fakeCtx(), async () => {
      await tick();
      noteRequestWrite(5);
      noteRequestWrite(3); // an older position does not lower the wait
    });
    const b = middleware(fakeCtx(), async () => {
      noteRequestWrite(7);
      await bHeld; // A ends while B still runs
      await tick();
      noteRequestWrite(9);
    });
    await a;
    expect(waited).to.deep.equal([5]);
    releaseB();
    await b;
    expect(waited).to.deep.equal([5, 9]);
    // Outside any request nothing is noted and nothing is awaited.
    noteRequestWrite(11);
    await awaitRequestWrites();
    // A later request is tracked again, from zero.
    await middleware(fakeCtx(), async () => {
      await tick();
      noteRequestWrite(12);
    });
    expect(waited).to.deep.equal([5, 9, 12]);
    // A request that wrote nothing, and one with ack=none, do not wait.
    await middleware(fakeCtx(), async () => tick());
    await middleware(fakeCtx({ ack: "none" }), async () => noteRequestWrite(13));
    expect(waited).to.deep.equal([5, 9, 12]);
  });
});
