// Recovery from a data directory with a small key-value state standing in for the engine:
// snapshot + log replay, snapshots taken while writes go on, trimming of old files, torn
// tails, damaged snapshots (fallback only when the log covers it), the directory lock.
// A "crash image" is a copy of the directory taken while the server runs: what kill -9
// would leave, since every acknowledged record was written and fsynced before its answer.
import { expect } from "chai";
import { useTempDir } from "./temp-dir.js";
import { promises as fsp } from "node:fs";
import path from "node:path";
import { decodeCommand, encodeCommand, type CommandValue } from "../../../server/persist/command-codec.js";
import type { Persistence, PersistenceOptions } from "../../../server/persist/persistence.js";
import { recover } from "../../../server/persist/recovery.js";
import { snapshotDirName } from "../../../server/persist/snapshot/snapshot-store.js";
import { KvState, type KvCommand } from "./kv-state.js";

const quiet: PersistenceOptions = { snapshotEveryBytes: 0, snapshotOnClose: false };

/** Applies and records a command the way the engine does: same turn, then waits for durability. */
function execute(state: KvState, persistence: Persistence, command: KvCommand, ack: "all" | "none" = "all"): Promise<number> {
  state.apply(command);
  return persistence.record(command, ack);
}

async function copyWithoutLock(from: string, to: string): Promise<void> {
  await fsp.cp(from, to, { recursive: true, filter: (src) => path.basename(src) !== "LOCK" });
}

describe("persist: recovery", () => {
  const tmp = useTempDir("recover");

  it("a new directory starts empty; every recorded command is back after a restart", async () => {
    const state = new KvState();
    const { persistence, report } = await recover(tmp.dataDir, state, quiet);
    expect(report).to.include({ replayedRecords: 0, lastLsn: 0 });
    expect(report.snapshot).to.equal(undefined);
    for (let i = 0; i < 50; i++) await execute(state, persistence, { op: "put", key: `k${i % 20}`, value: i });
    await execute(state, persistence, { op: "del", key: "k3" });
    await persistence.close();

    const again = new KvState();
    const second = await recover(tmp.dataDir, again, quiet);
    expect(again.toObject()).to.deep.equal(state.toObject());
    expect(second.report).to.include({ replayedRecords: 51, lastLsn: 51 });
    expect(again.entriesAtAfterRecovery).to.equal(19);
    await second.persistence.close();
  });

  it("loads the newest snapshot and replays only the log after it", async () => {
    const state = new KvState();
    const { persistence } = await recover(tmp.dataDir, state, quiet);
    for (let i = 1; i <= 10; i++) await execute(state, persistence, { op: "put", key: `a${i}`, value: i });
    const snap = await persistence.snapshot();
    expect(snap).to.include({ lsn: 10 });
    for (let i = 1; i <= 5; i++) await execute(state, persistence, { op: "put", key: `b${i}`, value: -i });
    await persistence.close();

    const again = new KvState();
    const { persistence: p2, report } = await recover(tmp.dataDir, again, quiet);
    expect(report.snapshot?.lsn).to.equal(10);
    expect(again.replayed).to.deep.equal([11, 12, 13, 14, 15]);
    expect(again.toObject()).to.deep.equal(state.toObject());
    await p2.close();
  });

  it("a snapshot pins the state of its moment while later writes go on", async () => {
    const state = new KvState();
    const { persistence } = await recover(tmp.dataDir, state, quiet);
    for (let i = 0; i < 100; i++) await execute(state, persistence, { op: "put", key: `k${i}`, value: i });
    const pinnedAt = { ...state.toObject() };
    const snapshotting = persistence.snapshot();
    // These run while the snapshot is being written: acknowledged, but not in it.
    const later = [];
    for (let i = 0; i < 30; i++) later.push(execute(state, persistence, { op: "put", key: `k${i}`, value: 1000 + i }));
    later.push(execute(state, persistence, { op: "del", key: "k99" }));
    await Promise.all(later);
    const snap = await snapshotting;
    expect(snap?.lsn).to.equal(100);

    const crash = path.join(tmp.root, "crash");
    await copyWithoutLock(tmp.dataDir, crash);
    // The snapshot alone holds exactly the pinned moment…
    const snapOnly = new KvState();
    const { SnapshotStore } = await import("../../../server/persist/snapshot/snapshot-store.js");
    await snapOnly.restore(await new SnapshotStore(path.join(crash, "snapshots")).load({ lsn: 100, dir: path.join(crash, "snapshots", snapshotDirName(100)) }));
    expect(snapOnly.toObject()).to.deep.equal(pinnedAt);
    // …and recovery adds the later writes from the log.
    const recovered = new KvState();
    const { persistence: p2, report } = await recover(crash, recovered, quiet);
    expect(report.replayedRecords).to.equal(31);
    expect(recovered.toObject()).to.deep.equal(state.toObject());
    await p2.close();
    await persistence.close();
  });

  it("removes old snapshots and the log segments no kept snapshot needs", async () => {
    const state = new KvState();
    const { persistence } = await recover(tmp.dataDir, state, { ...quiet, segmentBytes: 300, keepSnapshots: 2 });
    const lsns: number[] = [];
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 12; i++) await execute(state, persistence, { op: "put", key: `r${round}k${i}`, value: i });
      lsns.push((await persistence.snapshot())!.lsn);
    }
    expect(lsns).to.deep.equal([12, 24, 36, 48]);
    expect((await fsp.readdir(path.join(tmp.dataDir, "snapshots"))).sort()).to.deep.equal([snapshotDirName(36), snapshotDirName(48)]);
    const segments = (await fsp.readdir(path.join(tmp.dataDir, "wal"))).sort();
    const firstKept = Number(segments[0]!.slice(0, 20));
    expect(firstKept).to.be.at.most(37);
    expect(firstKept).to.be.greaterThan(12);
    await persistence.close();
  });

  it("a clean close takes a snapshot so the next start replays nothing", async () => {
    const state = new KvState();
    const { persistence } = await recover(tmp.dataDir, state, { snapshotEveryBytes: 0 });
    for (let i = 0; i < 20; i++) await execute(state, persistence, { op: "put", key: `k${i}`, value: i });
    await persistence.close();
    const again = new KvState();
    const { persistence: p2, report } = await recover(tmp.dataDir, again, quiet);
    expect(report).to.include({ replayedRecords: 0, lastLsn: 20 });
    expect(report.snapshot?.lsn).to.equal(20);
    expect(again.toObject()).to.deep.equal(state.toObject());
    await p2.close();
  });

  it("snapshots by itself once the log grew past the threshold", async () => {
    const logged: string[] = [];
    const state = new KvState();
    const { persistence } = await recover(tmp.dataDir, state, { snapshotEveryBytes: 2000, snapshotOnClose: false, log: (l) => logged.push(l) });
    for (let i = 0; i < 100; i++) await execute(state, persistence, { op: "put", key: `key-${i}`, value: i });
    // Nobody asked for one: the log's growth started it (written in the background).
    const deadline = Date.now() + 10_000;
    while (!logged.some((l) => l.startsWith("snapshot at log position")) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await persistence.close();
    expect(logged.filter((l) => l.startsWith("snapshot at log position")).length).to.be.at.least(1);
    expect((await fsp.readdir(path.join(tmp.dataDir, "snapshots"))).length).to.be.within(1, 2);
  });

  it("ack none answers before the record is durable; sync waits for it", async () => {
    const state = new KvState();
    const { persistence } = await recover(tmp.dataDir, state, quiet);
    await execute(state, persistence, { op: "put", key: "a", value: 1 }, "none");
    expect(persistence.lastLsn).to.equal(1);
    await persistence.sync();
    const crash = path.join(tmp.root, "crash");
    await copyWithoutLock(tmp.dataDir, crash);
    const recovered = new KvState();
    const { persistence: p2 } = await recover(crash, recovered, quiet);
    expect(recovered.toObject()).to.deep.equal({ a: 1 });
    await p2.close();
    await persistence.close();
  });

  it("cuts off a torn log tail and reports it", async () => {
    const state = new KvState();
    const { persistence } = await recover(tmp.dataDir, state, quiet);
    for (let i = 0; i < 5; i++) await execute(state, persistence, { op: "put", key: `k${i}`, value: i });
    await persistence.close();
    const [segment] = await fsp.readdir(path.join(tmp.dataDir, "wal"));
    const file = path.join(tmp.dataDir, "wal", segment!);
    const size = (await fsp.stat(file)).size;
    await fsp.appendFile(file, Buffer.from([40, 0, 0, 0, 1, 2, 3]));
    const again = new KvState();
    const { persistence: p2, report } = await recover(tmp.dataDir, again, quiet);
    expect(report.tornTail).to.include({ file, offset: size, droppedBytes: 7 });
    expect(again.toObject()).to.deep.equal(state.toObject());
    await p2.close();
  });

  describe("damaged snapshots", () => {
    async function twoSnapshots(options: PersistenceOptions): Promise<KvState> {
      const state = new KvState();
      const { persistence } = await recover(tmp.dataDir, state, { ...quiet, ...options });
      for (let i = 0; i < 10; i++) await execute(state, persistence, { op: "put", key: `k${i}`, value: i });
      await persistence.snapshot();
      for (let i = 0; i < 10; i++) await execute(state, persistence, { op: "put", key: `k${i}`, value: 100 + i });
      await persistence.snapshot();
      await execute(state, persistence, { op: "del", key: "k0" });
      await persistence.close();
      return state;
    }

    async function damageNewest(): Promise<string> {
      const newest = path.join(tmp.dataDir, "snapshots", snapshotDirName(20));
      const file = path.join(newest, "values.bin");
      const bytes = await fsp.readFile(file);
      bytes[5]! ^= 0x10;
      await fsp.writeFile(file, bytes);
      return newest;
    }

    it("falls back to the older snapshot when the log still covers it", async () => {
      const state = await twoSnapshots({ keepSnapshots: 2 });
      const newest = await damageNewest();
      const again = new KvState();
      const { persistence, report } = await recover(tmp.dataDir, again, quiet);
      expect(report.snapshot?.lsn).to.equal(10);
      expect(again.replayed).to.deep.equal(Array.from({ length: 11 }, (_, i) => 11 + i));
      expect(again.toObject()).to.deep.equal(state.toObject());
      expect(report.damagedSnapshots).to.have.length(1);
      expect(report.damagedSnapshots[0]).to.include({ dir: newest, reason: "payload file values.bin fails its checksum" });
      expect(report.damagedSnapshots[0]!.movedTo).to.match(/snapshot-0+20\.damaged-\d+$/);
      await persistence.close();
    });

    it("refuses to start when no older snapshot is covered by the log", async () => {
      await twoSnapshots({ keepSnapshots: 1 });
      const newest = await damageNewest();
      try {
        await recover(tmp.dataDir, new KvState(), quiet);
        expect.fail("recovery must refuse");
      } catch (err) {
        const message = (err as Error).message;
        expect(message).to.contain(`snapshot ${newest} is damaged: payload file values.bin fails its checksum`);
        expect(message).to.contain("refuses to start rather than serve wrong data");
      }
      // Nothing was moved or removed, and the lock was given back.
      expect(await fsp.readdir(path.join(tmp.dataDir, "snapshots"))).to.deep.equal([snapshotDirName(20)]);
      expect(await fsp.readdir(tmp.dataDir)).to.not.include("LOCK");
    });
  });

  it("a log record that cannot be replayed stops the start with its position", async () => {
    const state = new KvState();
    const { persistence } = await recover(tmp.dataDir, state, quiet);
    await persistence.record({ op: "put", key: "x", value: 1 });
    await persistence.record({ op: "put", key: "y", value: 2, fail: true } as unknown as CommandValue);
    await persistence.record({ op: "put", key: "z", value: 3 });
    await persistence.close();
    try {
      await recover(tmp.dataDir, new KvState(), quiet);
      expect.fail("must refuse");
    } catch (err) {
      expect((err as Error).message).to.equal("replaying log record 2 failed: this command cannot be applied");
    }
  });

  it("a voided record is skipped; a failing last record (refused, its void lost in the crash) is skipped with a note", async () => {
    const { persistence } = await recover(tmp.dataDir, new KvState(), quiet);
    await persistence.record({ op: "put", key: "x", value: 1 });
    const refused = persistence.prepare({ op: "put", key: "y", value: 2, fail: true } as unknown as CommandValue);
    refused.refused();
    await persistence.record({ op: "put", key: "z", value: 3 });
    // The crash case: the command is durable, its void never written.
    persistence.prepare({ op: "put", key: "w", value: 4, fail: true } as unknown as CommandValue);
    await persistence.close();
    const notes: string[] = [];
    const state = new KvState();
    const { persistence: again, report } = await recover(tmp.dataDir, state, { ...quiet, log: (line) => notes.push(line) });
    expect(state.replayed).to.deep.equal([1, 4, 5]);
    expect(report.replayedRecords).to.equal(2);
    expect(report.lastLsn).to.equal(5);
    expect(notes).to.deep.equal(["log record 5, the last, was refused again on replay and is skipped (its request was never answered): this command cannot be applied"]);
    await again.close();
  });

  it("a void record that does not follow the record it voids is damage: the start is refused", async () => {
    const { persistence } = await recover(tmp.dataDir, new KvState(), quiet);
    await persistence.record({ op: "put", key: "x", value: 1 });
    await persistence.record({ op: "put", key: "y", value: 2 });
    await persistence.record({ kind: "$void", lsn: 1 });
    await persistence.close();
    try {
      await recover(tmp.dataDir, new KvState(), quiet);
      expect.fail("must refuse");
    } catch (err) {
      expect((err as Error).message).to.equal("log record 3 voids record 1, which is not the record before it: the log is damaged");
    }
  });

  it("one directory serves one server at a time", async () => {
    const { persistence } = await recover(tmp.dataDir, new KvState(), quiet);
    try {
      await recover(tmp.dataDir, new KvState(), quiet);
      expect.fail("the second open must be refused");
    } catch (err) {
      expect((err as Error).message).to.match(/data directory .* is in use by process \d+/);
    }
    await persistence.close();
    const { persistence: p2 } = await recover(tmp.dataDir, new KvState(), quiet);
    await p2.close();
  });

  it("a stale lock of a dead process is taken over", async () => {
    await fsp.mkdir(tmp.dataDir, { recursive: true });
    const { persistence } = await recover(tmp.dataDir, new KvState(), quiet);
    await persistence.close();
    await fsp.writeFile(path.join(tmp.dataDir, "LOCK"), "999999999\n");
    const { persistence: p2 } = await recover(tmp.dataDir, new KvState(), quiet);
    await p2.close();
  });

  it("refuses a non-empty directory that is not a data directory", async () => {
    await fsp.mkdir(tmp.dataDir);
    await fsp.writeFile(path.join(tmp.dataDir, "notes.txt"), "mine");
    try {
      await recover(tmp.dataDir, new KvState(), quiet);
      expect.fail("must refuse");
    } catch (err) {
      expect((err as Error).message).to.match(/is not empty and holds no wasmgraph FORMAT file/);
    }
  });

  it("command codec keeps 64-bit integers and user text exact", () => {
    const command = { op: "upsert", id: 9007199254740993n, list: [1n, -2n, 3.5], text: "\u0000n:12", s: "\u0000\u0000x", plain: "ok" };
    expect(decodeCommand(encodeCommand(command))).to.deep.equal(command);
    expect(encodeCommand({ a: 1 })[0]).to.equal("J".charCodeAt(0));
    expect(decodeCommand(encodeCommand({ a: [1, "b", null, true] }))).to.deep.equal({ a: [1, "b", null, true] });
  });

  it("command codec keeps numbers JSON cannot write (Infinity, NaN, -0) and writes typed arrays as arrays", () => {
    const command = { values: [Infinity, -Infinity, NaN, -0, 0, 1.5], text: "\u0000f:NaN", plain: "null" };
    const back = decodeCommand(encodeCommand(command)) as { values: number[]; text: string; plain: string };
    expect(encodeCommand(command)[0]).to.equal("T".charCodeAt(0));
    expect(back.values.slice(0, 2)).to.deep.equal([Infinity, -Infinity]);
    expect(Number.isNaN(back.values[2])).to.equal(true);
    expect(Object.is(back.values[3], -0)).to.equal(true);
    expect(Object.is(back.values[4], 0)).to.equal(true);
    expect(back.values[5]).to.equal(1.5);
    expect(back.text).to.equal("\u0000f:NaN");
    expect(back.plain).to.equal("null");
    const columns = { from: new Uint32Array([1, 2, 4_000_000_000]), to: new BigInt64Array([-5n, 2n ** 62n]) } as unknown as CommandValue;
    expect(decodeCommand(encodeCommand(columns))).to.deep.equal({ from: [1, 2, 4_000_000_000], to: [-5n, 2n ** 62n] });
    // A tag this version does not know is refused, not guessed.
    expect(() => decodeCommand(Buffer.from('T{"a":"\\u0000f:huge"}'))).to.throw(/unknown tagged value/);
  });
});
