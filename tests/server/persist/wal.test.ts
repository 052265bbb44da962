// The write-ahead log: framing, group commit, durability promises, rotation, and what a
// damaged log does on open (torn tails cut off at every byte offset, bit flips, damage in
// the middle refused with the file and offset).
import { expect } from "chai";
import { promises as fsp } from "node:fs";
import os from "node:os";
import path from "node:path";
import { RECORD_HEADER_BYTES, SEGMENT_HEADER_BYTES, decodeRecordAt } from "../../../server/persist/wal/record-format.js";
import { scanSegment } from "../../../server/persist/wal/segment-scan.js";
import { WalCorruptionError, WriteAheadLog, segmentFileName } from "../../../server/persist/wal/write-ahead-log.js";
import { mulberry32 } from "../../../tools/bench/rmat.js";

const payload = (i: number) => Buffer.from(JSON.stringify({ op: "upsert", id: `v${i}`, pad: "x".repeat(i % 7) }));

async function readAll(log: WriteAheadLog, after = 0): Promise<Array<{ lsn: number; text: string }>> {
  const out: Array<{ lsn: number; text: string }> = [];
  for await (const r of log.read(after)) out.push({ lsn: r.lsn, text: r.payload.toString() });
  return out;
}

/** Appends `count` records, each in its own batch (awaited one by one). */
async function appendSeparately(log: WriteAheadLog, from: number, count: number): Promise<void> {
  for (let i = from; i < from + count; i++) await log.waitDurable(log.append(payload(i)));
}

/** Record boundaries of a segment file, read independently of the log class. */
async function recordOffsets(file: string): Promise<Array<{ offset: number; end: number; lsn: number; batchStart: number }>> {
  const bytes = await fsp.readFile(file);
  const out = [];
  let at = SEGMENT_HEADER_BYTES;
  while (at < bytes.length) {
    const r = decodeRecordAt(bytes, at);
    if (typeof r === "string") throw new Error(r);
    out.push({ offset: r.offset, end: r.end, lsn: r.lsn, batchStart: r.batchStart });
    at = r.end;
  }
  return out;
}

describe("persist: write-ahead log", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), "wasmgraph-wal-"));
  });
  afterEach(() => fsp.rm(dir, { recursive: true, force: true }));

  const segmentFile = (firstLsn = 1) => path.join(dir, segmentFileName(firstLsn));

  it("assigns consecutive positions and reads every record back, also after reopening", async () => {
    const log = await WriteAheadLog.open(dir);
    expect(log.lastLsn).to.equal(0);
    const lsns = [log.append(payload(1)), log.append(payload(2)), log.append(payload(3))];
    expect(lsns).to.deep.equal([1, 2, 3]);
    await log.sync();
    expect(await readAll(log)).to.deep.equal([1, 2, 3].map((i) => ({ lsn: i, text: payload(i).toString() })));
    expect((await readAll(log, 2)).map((r) => r.lsn)).to.deep.equal([3]);
    await log.close();

    const again = await WriteAheadLog.open(dir);
    expect(again.lastLsn).to.equal(3);
    expect(again.openReport.torn).to.equal(undefined);
    expect(again.append(payload(4))).to.equal(4);
    await again.sync();
    expect((await readAll(again)).map((r) => r.lsn)).to.deep.equal([1, 2, 3, 4]);
    await again.close();
  });

  it("group commit: an append to an idle log is written at once; the appends after it in the same turn share one batch", async () => {
    const log = await WriteAheadLog.open(dir);
    const lsns = Array.from({ length: 200 }, (_, i) => log.append(payload(i)));
    await Promise.all(lsns.map((lsn) => log.waitDurable(lsn)));
    expect(log.stats.batches).to.equal(2);
    expect(log.stats.records).to.equal(200);
    const records = await recordOffsets(segmentFile());
    expect(new Set(records.map((r) => r.batchStart))).to.deep.equal(new Set([1, 2]));
    await log.close();
  });

  it("group commit: appends arriving while a batch is being written share the next batch", async () => {
    const log = await WriteAheadLog.open(dir);
    // 20 concurrent writers, each appending 25 records and waiting for durability each time.
    const writer = async (w: number) => {
      for (let i = 0; i < 25; i++) await log.waitDurable(log.append(payload(w * 100 + i)));
    };
    await Promise.all(Array.from({ length: 20 }, (_, w) => writer(w)));
    expect(log.stats.records).to.equal(500);
    // Every batch after the first carries the writers that waited on the one before.
    expect(log.stats.batches).to.be.at.most(500 / 10);
    expect((await readAll(log)).length).to.equal(500);
    await log.close();
  });

  it("a durability promise resolves only once its record is in the file", async () => {
    const log = await WriteAheadLog.open(dir);
    const lsn = log.append(payload(1));
    // Queued in this turn; nothing is promised durable yet.
    expect(log.durableLsn).to.equal(0);
    await log.waitDurable(lsn);
    expect(log.durableLsn).to.equal(1);
    const onDisk = await recordOffsets(segmentFile());
    expect(onDisk.map((r) => r.lsn)).to.deep.equal([1]);
    await log.close();
  });

  it("ack=none: append answers at once and the record still reaches the file in order", async () => {
    const log = await WriteAheadLog.open(dir);
    for (let i = 1; i <= 5; i++) log.append(payload(i));
    expect(log.lastLsn).to.equal(5);
    expect(log.durableLsn).to.equal(0);
    await log.close();
    const again = await WriteAheadLog.open(dir);
    expect((await readAll(again)).map((r) => r.text)).to.deep.equal([1, 2, 3, 4, 5].map((i) => payload(i).toString()));
    await again.close();
  });

  it("rotates segments at the size limit, reads across them and removes old ones", async () => {
    const log = await WriteAheadLog.open(dir, { segmentBytes: 200 });
    await appendSeparately(log, 1, 20);
    const files = (await fsp.readdir(dir)).sort();
    expect(files.length).to.be.greaterThan(3);
    expect(files[0]).to.equal(segmentFileName(1));
    expect((await readAll(log)).map((r) => r.lsn)).to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 1));
    expect((await readAll(log, 13)).map((r) => r.lsn)).to.deep.equal([14, 15, 16, 17, 18, 19, 20]);

    const removed = await log.removeThrough(13);
    expect(removed.length).to.be.greaterThan(0);
    expect(log.firstAvailableLsn).to.be.at.most(14);
    expect((await readAll(log, 13)).map((r) => r.lsn)).to.deep.equal([14, 15, 16, 17, 18, 19, 20]);
    try {
      await readAll(log, 0);
      expect.fail("reading from before the oldest kept record must fail");
    } catch (err) {
      expect((err as Error).message).to.match(/starts at position \d+, but replay needs every record after position 0/);
    }
    await log.close();
    const again = await WriteAheadLog.open(dir, { segmentBytes: 200 });
    expect(again.lastLsn).to.equal(20);
    expect((await readAll(again, 13)).length).to.equal(7);
    await again.close();
  });

  it("rotate() starts a fresh segment named by the next position", async () => {
    const log = await WriteAheadLog.open(dir);
    await appendSeparately(log, 1, 3);
    await log.rotate();
    await log.rotate(); // nothing written since: no empty segment pile-up
    await appendSeparately(log, 4, 2);
    expect((await fsp.readdir(dir)).sort()).to.deep.equal([segmentFileName(1), segmentFileName(4)]);
    expect(await log.removeThrough(3)).to.deep.equal([segmentFile(1)]);
    expect((await readAll(log, 3)).map((r) => r.lsn)).to.deep.equal([4, 5]);
    await log.close();
  });

  describe("torn tails", () => {
    it("cuts the last record off when the file ends at any byte inside it", async () => {
      const seed = await WriteAheadLog.open(dir);
      await appendSeparately(seed, 1, 4);
      await seed.close();
      const pristine = await fsp.readFile(segmentFile());
      const last = (await recordOffsets(segmentFile()))[3]!;
      for (let cut = last.offset; cut < last.end; cut++) {
        await fsp.writeFile(segmentFile(), pristine.subarray(0, cut));
        const log = await WriteAheadLog.open(dir);
        expect(log.lastLsn, `cut at ${cut}`).to.equal(3);
        if (cut > last.offset) expect(log.openReport.torn?.offset).to.equal(last.offset);
        expect((await fsp.stat(segmentFile())).size).to.equal(last.offset);
        // The log continues cleanly after the cut.
        expect(log.append(payload(99))).to.equal(4);
        await log.sync();
        expect((await readAll(log)).map((r) => r.text)).to.deep.equal([1, 2, 3, 99].map((i) => payload(i).toString()));
        await log.close();
      }
    });

    it("cuts the last record off when any bit of it is flipped", async () => {
      const seed = await WriteAheadLog.open(dir);
      await appendSeparately(seed, 1, 3);
      await seed.close();
      const pristine = await fsp.readFile(segmentFile());
      const last = (await recordOffsets(segmentFile()))[2]!;
      for (let at = last.offset; at < last.end; at++) {
        for (const bit of [0x01, 0x80]) {
          const damaged = Buffer.from(pristine);
          damaged[at]! ^= bit;
          await fsp.writeFile(segmentFile(), damaged);
          const log = await WriteAheadLog.open(dir);
          expect(log.lastLsn, `flip ${bit} at ${at}`).to.equal(2);
          expect(log.openReport.torn?.offset).to.equal(last.offset);
          expect((await readAll(log)).map((r) => r.lsn)).to.deep.equal([1, 2]);
          await log.close();
        }
      }
    });

    it("a damaged record inside the final batch drops that whole batch, not earlier ones", async () => {
      const log = await WriteAheadLog.open(dir);
      await appendSeparately(log, 1, 2);
      const finalBatch = [log.append(payload(3)), log.append(payload(4)), log.append(payload(5))];
      await log.waitDurable(finalBatch[2]!);
      await log.close();
      const records = await recordOffsets(segmentFile());
      expect(records.slice(2).map((r) => r.batchStart)).to.deep.equal([3, 3, 3]);
      const bytes = await fsp.readFile(segmentFile());
      bytes[records[2]!.offset + RECORD_HEADER_BYTES]! ^= 0xff; // first record of the final batch
      await fsp.writeFile(segmentFile(), bytes);
      const again = await WriteAheadLog.open(dir);
      expect(again.lastLsn).to.equal(2);
      expect(again.openReport.torn).to.include({ offset: records[2]!.offset });
      await again.close();
    });

    it("refuses damage to an earlier batch with the file and byte offset", async () => {
      const seed = await WriteAheadLog.open(dir);
      await appendSeparately(seed, 1, 5);
      await seed.close();
      const records = await recordOffsets(segmentFile());
      const bytes = await fsp.readFile(segmentFile());
      const middle = records[2]!;
      bytes[middle.offset + RECORD_HEADER_BYTES + 3]! ^= 0x04;
      await fsp.writeFile(segmentFile(), bytes);
      const size = bytes.length;
      try {
        await WriteAheadLog.open(dir);
        expect.fail("open must refuse a damaged middle record");
      } catch (err) {
        expect(err).to.be.instanceOf(WalCorruptionError);
        const e = err as WalCorruptionError;
        expect(e.file).to.equal(segmentFile());
        expect(e.offset).to.equal(middle.offset);
        expect(e.message).to.contain(`${segmentFile()} at byte offset ${middle.offset}: checksum mismatch`);
        expect(e.message).to.contain("refuses to start");
      }
      // Refusing changes nothing on disk.
      expect((await fsp.stat(segmentFile())).size).to.equal(size);
    });

    it("refuses damage in an older segment when it is read for replay", async () => {
      const seed = await WriteAheadLog.open(dir, { segmentBytes: 150 });
      await appendSeparately(seed, 1, 12);
      await seed.close();
      const first = segmentFile(1);
      const bytes = await fsp.readFile(first);
      bytes[bytes.length - 2]! ^= 0x20;
      await fsp.writeFile(first, bytes);
      const log = await WriteAheadLog.open(dir, { segmentBytes: 150 });
      try {
        await readAll(log);
        expect.fail("replay must refuse a damaged older segment");
      } catch (err) {
        expect(err).to.be.instanceOf(WalCorruptionError);
        expect((err as Error).message).to.contain(first);
      }
      await log.close();
    });

    it("recovers a newest segment whose header was cut short by a crash", async () => {
      const seed = await WriteAheadLog.open(dir, { segmentBytes: 100 });
      await appendSeparately(seed, 1, 3);
      await seed.close();
      const files = (await fsp.readdir(dir)).sort();
      const newest = path.join(dir, files[files.length - 1]!);
      const firstLsn = Number(files[files.length - 1]!.slice(0, 20));
      await fsp.writeFile(newest, (await fsp.readFile(newest)).subarray(0, 5));
      const log = await WriteAheadLog.open(dir, { segmentBytes: 100 });
      expect(log.lastLsn).to.equal(firstLsn - 1);
      expect(log.append(payload(7))).to.equal(firstLsn);
      await log.sync();
      expect((await readAll(log)).map((r) => r.lsn)).to.deep.equal(Array.from({ length: firstLsn }, (_, i) => i + 1));
      await log.close();
    });

    it("random damage: either a clean prefix holding every earlier batch, or a refusal", async () => {
      const random = mulberry32(7);
      const seed = await WriteAheadLog.open(dir);
      await appendSeparately(seed, 1, 6);
      const last = [seed.append(payload(7)), seed.append(payload(8)), seed.append(payload(9))];
      await seed.waitDurable(last[2]!);
      await seed.close();
      const pristine = await fsp.readFile(segmentFile());
      const finalBatchOffset = (await recordOffsets(segmentFile()))[6]!.offset;
      for (let trial = 0; trial < 300; trial++) {
        const damaged = Buffer.from(pristine);
        const at = SEGMENT_HEADER_BYTES + Math.floor(random() * (damaged.length - SEGMENT_HEADER_BYTES));
        const truncate = random() < 0.3;
        const file = truncate ? damaged.subarray(0, at) : damaged;
        if (!truncate) damaged[at]! ^= 1 << Math.floor(random() * 8);
        await fsp.writeFile(segmentFile(), file);
        try {
          const log = await WriteAheadLog.open(dir);
          const texts = (await readAll(log)).map((r) => r.text);
          await log.close();
          // A shorter file is indistinguishable from a log that ended earlier: a clean prefix.
          if (!truncate) {
            expect(at, `damage at ${at} accepted`).to.be.at.least(finalBatchOffset);
            expect(texts.length).to.be.at.least(6);
          }
          expect(texts).to.deep.equal(Array.from({ length: texts.length }, (_, i) => payload(i + 1).toString()));
        } catch (err) {
          if (!(err instanceof WalCorruptionError)) throw err;
          expect(truncate).to.equal(false);
          expect(at, `damage at ${at} refused`).to.be.below(finalBatchOffset);
        }
      }
    });
  });

  it("scanSegment reports why a segment that is not a log is refused", () => {
    expect(() => scanSegment(Buffer.from("hello world, not a log segment"), "x.wal", 1, true)).to.throw(WalCorruptionError, /bad magic bytes/);
  });
});
