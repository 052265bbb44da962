// When background snapshots are due: after the log grew by the floor (`snapshotEveryBytes`)
// or, for a big state, by a quarter of the last snapshot's size; never when turned off.
// Checked against the bytes each record adds (its encoded payload), counted in the test.
import { expect } from "chai";
import { encodeCommand } from "../../../server/persist/command-codec.js";
import { DEFAULT_SNAPSHOT_EVERY_BYTES, snapshotThreshold, type Persistence } from "../../../server/persist/persistence.js";
import { recover } from "../../../server/persist/recovery.js";
import { KvState, type KvCommand } from "./kv-state.js";
import { useTempDir } from "./temp-dir.js";

describe("persist: snapshot policy", () => {
  const tmp = useTempDir("snapshot-policy");

  it("the threshold is the floor for small snapshots and a quarter of a big one; 0 turns it off", () => {
    expect(DEFAULT_SNAPSHOT_EVERY_BYTES).to.equal(16 * 2 ** 20);
    expect(snapshotThreshold({}, 0)).to.equal(16 * 2 ** 20);
    expect(snapshotThreshold({}, 64 * 2 ** 20)).to.equal(16 * 2 ** 20);
    expect(snapshotThreshold({}, 100 * 2 ** 20)).to.equal(25 * 2 ** 20);
    expect(snapshotThreshold({ snapshotEveryBytes: 1000 }, 3000)).to.equal(1000);
    expect(snapshotThreshold({ snapshotEveryBytes: 1000 }, 10_000)).to.equal(2500);
    expect(snapshotThreshold({ snapshotEveryBytes: 0 }, 10_000)).to.equal(Infinity);
    expect(snapshotThreshold({ snapshotEveryBytes: -5 }, 0)).to.equal(Infinity);
  });

  /** Applies and logs puts of `bytes` of payload in all (the last may go a little over); returns the bytes logged. */
  async function writePayload(state: KvState, persistence: Persistence, bytes: number, tag: string): Promise<number> {
    let logged = 0;
    for (let i = 0; logged < bytes; i++) {
      const command: KvCommand = { op: "put", key: `${tag}-${i}`, value: i };
      state.apply(command);
      logged += encodeCommand(command).length;
      await persistence.record(command);
    }
    return logged;
  }

  async function waitFor(lines: string[], count: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (lines.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(lines).to.have.length(count);
  }

  it("a small state snapshots once the log grew by the floor, not before", async () => {
    const taken: string[] = [];
    const state = new KvState();
    const floor = 6000;
    const { persistence } = await recover(tmp.dataDir, state, { snapshotEveryBytes: floor, snapshotOnClose: false, log: (l) => taken.push(l) });
    const below = await writePayload(state, persistence, floor - 200, "a");
    expect(below).to.be.below(floor);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(taken).to.deep.equal([]);
    await writePayload(state, persistence, 300, "b");
    await waitFor(taken, 1);
    expect(taken[0]).to.match(/^snapshot at log position \d+: \d+ bytes/);
    await persistence.close();
  });

  it("after a big snapshot the next waits for a quarter of its size in log, far past the floor", async () => {
    const setup = new KvState();
    const first = await recover(tmp.dataDir, setup, { snapshotEveryBytes: 0, snapshotOnClose: false });
    // Some 4,000 entries: their snapshot is ~60 KB, so a quarter of it is ~15 times the floor.
    await writePayload(setup, first.persistence, 120_000, "big-key");
    await first.persistence.close();

    const taken: string[] = [];
    const state = new KvState();
    const floor = 1000;
    // The replay was longer than the floor: recovery folds it into a snapshot at once.
    const { persistence } = await recover(tmp.dataDir, state, { snapshotEveryBytes: floor, snapshotOnClose: false, log: (l) => taken.push(l) });
    await waitFor(taken, 1);
    const snapshotBytes = Number(/: (\d+) bytes/.exec(taken[0]!)![1]);
    const quarter = snapshotBytes / 4;
    expect(quarter).to.be.above(10 * floor);

    await writePayload(state, persistence, quarter - 1000, "c");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(taken, "no snapshot while the log is under a quarter of the last one").to.have.length(1);
    await writePayload(state, persistence, 1200, "d");
    await waitFor(taken, 2);
    expect(taken[1]).to.match(/^snapshot at log position \d+: \d+ bytes/);
    await persistence.close();
  });

  it("snapshotEveryBytes 0 never snapshots by itself", async () => {
    const taken: string[] = [];
    const state = new KvState();
    const { persistence } = await recover(tmp.dataDir, state, { snapshotEveryBytes: 0, snapshotOnClose: false, log: (l) => taken.push(l) });
    await writePayload(state, persistence, 50_000, "e");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(taken).to.deep.equal([]);
    await persistence.close();
  });
});
