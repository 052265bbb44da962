// When background snapshots are due: after the log grew by the floor (`snapshotEveryBytes`)
// or, for a big state, by a quarter of the last snapshot's size; never when turned off.
// Checked against what each record weighs, counted in the test: its encoded payload, or
// for a REST upsert 16 bytes per item.
import { expect } from "chai";
import { encodeCommand } from "../../../server/persist/command-codec.js";
import type { CommandValue } from "../../../server/persist/command-codec.js";
import type { Persistence } from "../../../server/persist/persistence.js";
import { DEFAULT_SNAPSHOT_EVERY_BYTES, ITEM_REPLAY_BYTES, replayWeight, snapshotThreshold } from "../../../server/persist/snapshot-policy.js";
import { recover } from "../../../server/persist/recovery.js";
import { KvState, type KvCommand } from "./kv-state.js";
import { useTempDir } from "./temp-dir.js";

describe("persist: snapshot policy", () => {
  const tmp = useTempDir("snapshot-policy");

  it("the threshold is the floor for small snapshots and a quarter of a big one; 0 turns it off", () => {
    expect(DEFAULT_SNAPSHOT_EVERY_BYTES).to.equal(8 * 2 ** 20);
    expect(snapshotThreshold({}, 0)).to.equal(8 * 2 ** 20);
    expect(snapshotThreshold({}, 32 * 2 ** 20)).to.equal(8 * 2 ** 20);
    expect(snapshotThreshold({}, 100 * 2 ** 20)).to.equal(25 * 2 ** 20);
    expect(snapshotThreshold({ snapshotEveryBytes: 1000 }, 3000)).to.equal(1000);
    expect(snapshotThreshold({ snapshotEveryBytes: 1000 }, 10_000)).to.equal(2500);
    expect(snapshotThreshold({ snapshotEveryBytes: 0 }, 10_000)).to.equal(Infinity);
    expect(snapshotThreshold({ snapshotEveryBytes: -5 }, 0)).to.equal(Infinity);
  });

  const flags = { newVertexOnly: false, updateVertexOnly: false, vertexMustExist: false, sourceVertexMustExist: false, targetVertexMustExist: false };
  /** An upsert batch as the REST route makes it (no body: logged as JSON), `vertices` + `edges` items. */
  function upsertBatch(vertices: number, edges: number, idLength = 8): CommandValue {
    const id = (i: number) => `v${i}`.padEnd(idLength, "-");
    return {
      kind: "upsert-batch",
      graph: "g",
      vertices: Array.from({ length: vertices }, (_, i) => ({ type: "V", id: id(i), attributes: [{ name: "score", value: i / 8, op: "=" }] })),
      edgeColumns: [{ type: "e", fromType: "V", toType: "V", from: Array.from({ length: edges }, (_, i) => id(i)), to: Array.from({ length: edges }, (_, i) => id(i + 1)) }],
      flags,
    };
  }

  it("an upsert weighs 16 bytes per item (a quarter of its bytes when more); other commands their bytes", () => {
    expect(ITEM_REPLAY_BYTES).to.equal(16);
    expect(replayWeight(upsertBatch(30, 70), 5000)).to.equal(1600);
    expect(replayWeight(upsertBatch(30, 70), 100_000)).to.equal(25_000);
    expect(replayWeight(upsertBatch(0, 0), 40)).to.equal(10);
    const load = { kind: "load-batch", graph: "g", batch: { vertices: [{}, {}], edgeRuns: [{ from: Uint32Array.of(1, 2, 3), to: Uint32Array.of(4, 5, 6) }, { from: ["a"], to: ["b"] }], vertexDeletes: [{}], edgeDeletes: [] } };
    expect(replayWeight(load as unknown as CommandValue, 100), "loading batches keep their bytes").to.equal(100);
    expect(replayWeight({ kind: "define-schema", schema: {} }, 321)).to.equal(321);
    expect(replayWeight({ op: "put", key: "k", value: 1 }, 30)).to.equal(30);
  });

  it("upserts count their items, not their bytes, towards the floor", async () => {
    const state = new KvState();
    const floor = 5000;
    const { persistence } = await recover(tmp.dataDir, state, { snapshotEveryBytes: floor, snapshotOnClose: false });
    // 100 items with 12-character ids: more payload than the floor, but 1,600 bytes of weight.
    const batch = upsertBatch(50, 50, 12);
    expect(encodeCommand(batch).length).to.be.within(floor, 4 * 1600);
    expect(replayWeight(batch, encodeCommand(batch).length)).to.equal(1600);
    for (let i = 1; i <= 3; i++) {
      await persistence.record(batch);
      expect(persistence.snapshotInProgress, `${i * 1600} bytes of weight: under the floor`).to.equal(false);
    }
    // The fourth passes the floor: the snapshot starts in that very turn.
    void persistence.record(batch);
    expect(persistence.snapshotInProgress).to.equal(true);
    await persistence.close();
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
    expect(persistence.snapshotInProgress).to.equal(false);
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
    expect(persistence.snapshotInProgress, "no snapshot while the log is under a quarter of the last one").to.equal(false);
    expect(taken).to.have.length(1);
    await writePayload(state, persistence, 1200, "d");
    await waitFor(taken, 2);
    expect(taken[1]).to.match(/^snapshot at log position \d+: \d+ bytes/);
    await persistence.close();
  });

  it("the log a restart replayed counts towards the next snapshot", async () => {
    const floor = 6000;
    const first = new KvState();
    const opened = await recover(tmp.dataDir, first, { snapshotEveryBytes: 0, snapshotOnClose: false });
    const replayed = await writePayload(first, opened.persistence, 4000, "f");
    await opened.persistence.close();

    const state = new KvState();
    const { persistence, report } = await recover(tmp.dataDir, state, { snapshotEveryBytes: floor, snapshotOnClose: false });
    expect(report.replayedBytes).to.equal(replayed);
    expect(persistence.snapshotInProgress, "a replay under the floor is not folded into a snapshot at once").to.equal(false);
    let added = 0;
    while (!persistence.snapshotInProgress) {
      const command: KvCommand = { op: "put", key: `g-${added}`, value: added };
      state.apply(command);
      added += encodeCommand(command).length;
      void persistence.record(command);
      expect(added, "the snapshot came only after a whole floor of new log").to.be.below(floor);
    }
    expect(replayed + added).to.be.at.least(floor);
    expect(replayed + added - floor).to.be.below(30);
    await persistence.close();
  });

  it("snapshotEveryBytes 0 never snapshots by itself", async () => {
    const taken: string[] = [];
    const state = new KvState();
    const { persistence } = await recover(tmp.dataDir, state, { snapshotEveryBytes: 0, snapshotOnClose: false, log: (l) => taken.push(l) });
    await writePayload(state, persistence, 50_000, "e");
    expect(persistence.snapshotInProgress).to.equal(false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(taken).to.deep.equal([]);
    await persistence.close();
  });
});
