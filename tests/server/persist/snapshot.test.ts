// Snapshot files: round trips of binary and JSON payloads, atomic publication (temporary
// folders never count), retention, and every kind of damage refused with a clear reason.
import { expect } from "chai";
import { promises as fsp } from "node:fs";
import os from "node:os";
import path from "node:path";
import { decodeManifest, encodeManifest, MANIFEST_FILE } from "../../../server/persist/snapshot/manifest.js";
import { chunkStream } from "../../../server/persist/snapshot/chunk-stream.js";
import { SnapshotCorruptionError, SnapshotStore, snapshotDirName } from "../../../server/persist/snapshot/snapshot-store.js";
import { mulberry32 } from "../../../tools/bench/rmat.js";

function randomBytes(n: number, seed: number): Uint8Array {
  const random = mulberry32(seed);
  return Uint8Array.from({ length: n }, () => Math.floor(random() * 256));
}

describe("persist: snapshot files", () => {
  let dir: string;
  let store: SnapshotStore;
  beforeEach(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), "wasmgraph-snap-"));
    store = new SnapshotStore(path.join(dir, "snapshots"));
  });
  afterEach(async () => {
    await store.close();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  const region = randomBytes(10_000, 1);
  const catalog = Buffer.from(JSON.stringify({ graphs: { social: { vertices: ["Person"] } }, jsonApi: "v2" }));

  async function writeSample(lsn = 42) {
    return store.write({
      lsn,
      sections: [
        { name: "catalog.json", data: catalog },
        { name: "store-0.bin", data: region },
        { name: "store-1.bin", data: [region.subarray(0, 3), region.subarray(3, 9000), new Uint8Array(0), region.subarray(9000)] },
      ],
      meta: { storeFormat: 3 },
    });
  }

  it("round trips binary and JSON sections, split or whole, with the manifest's position and meta", async () => {
    const written = await writeSample();
    expect(written).to.deep.equal({ lsn: 42, dir: path.join(store.dir, snapshotDirName(42)), bytes: catalog.length + 20_000 });
    expect(await store.list()).to.deep.equal([{ lsn: 42, dir: written.dir }]);
    const loaded = await store.load(written);
    expect(loaded.manifest.lsn).to.equal(42);
    expect(loaded.manifest.meta).to.deep.equal({ storeFormat: 3 });
    expect([...loaded.sections.keys()]).to.deep.equal(["catalog.json", "store-0.bin", "store-1.bin"]);
    expect((await loaded.sections.get("catalog.json")!.read()).equals(catalog)).to.equal(true);
    expect(Buffer.from(region).equals((await loaded.sections.get("store-0.bin")!.read()))).to.equal(true);
    expect(Buffer.from(region).equals((await loaded.sections.get("store-1.bin")!.read()))).to.equal(true);
  });

  it("writes a section straight from shared memory (what a shared WebAssembly.Memory holds)", async () => {
    const view = new Uint8Array(new SharedArrayBuffer(65536), 100, 5000);
    view.set(region.subarray(0, 5000));
    const written = await store.write({ lsn: 1, sections: [{ name: "mem.bin", data: view }] });
    const loaded = await store.load(written);
    expect((await loaded.sections.get("mem.bin")!.read()).equals(Buffer.from(region.subarray(0, 5000)))).to.equal(true);
  });

  it("writes a streamed section chunk by chunk", async () => {
    async function* serialise() {
      for (let at = 0; at < region.length; at += 1234) {
        await new Promise((resolve) => setImmediate(resolve));
        yield region.subarray(at, at + 1234);
      }
    }
    const written = await store.write({ lsn: 3, sections: [{ name: "store.bin", data: serialise() }] });
    expect(written.bytes).to.equal(region.length);
    const loaded = await store.load(written);
    expect((await loaded.sections.get("store.bin")!.read()).equals(Buffer.from(region))).to.equal(true);
  });

  it("a snapshot that fails while being written leaves no complete folder", async () => {
    async function* failing() {
      yield region.subarray(0, 100);
      throw new Error("serialisation failed");
    }
    try {
      await store.write({ lsn: 8, sections: [{ name: "catalog.json", data: catalog }, { name: "store.bin", data: failing() }] });
      expect.fail("the write must fail");
    } catch (err) {
      expect((err as Error).message).to.equal("serialisation failed");
    }
    expect(await store.list()).to.deep.equal([]);
    // The writer removed its temporary folder; a crash would have left it for removeIncomplete.
    expect(await fsp.readdir(store.dir)).to.deep.equal([]);
  });

  it("chunkStream: a sink-driven producer written as a section, one chunk in flight at a time", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const buffer = new Uint8Array(1000); // reused by the producer for every chunk
    const stream = chunkStream(async (sink) => {
      for (let at = 0; at < region.length; at += 1000) {
        buffer.set(region.subarray(at, at + 1000));
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await sink(buffer.subarray(0, Math.min(1000, region.length - at)));
        inFlight--;
      }
    });
    const written = await store.write({ lsn: 4, sections: [{ name: "store.bin", data: stream }] });
    expect(maxInFlight).to.equal(1);
    const loaded = await store.load(written);
    expect((await loaded.sections.get("store.bin")!.read()).equals(Buffer.from(region))).to.equal(true);
  });

  it("chunkStream: a producer failure fails the snapshot; abort stops the producer", async () => {
    const failing = chunkStream(async (sink) => {
      await sink(region.subarray(0, 10));
      throw new Error("store image failed");
    });
    try {
      await store.write({ lsn: 5, sections: [{ name: "store.bin", data: failing }] });
      expect.fail("must fail");
    } catch (err) {
      expect((err as Error).message).to.equal("store image failed");
    }
    let stoppedWith = "";
    const abandoned = chunkStream(async (sink) => {
      try {
        for (;;) await sink(region.subarray(0, 10));
      } catch (err) {
        stoppedWith = (err as Error).message;
      }
    });
    await new Promise((resolve) => setImmediate(resolve));
    abandoned.abort("snapshot failed elsewhere");
    await new Promise((resolve) => setImmediate(resolve));
    expect(stoppedWith).to.equal("snapshot failed elsewhere");
  });

  it("lists newest first, ignores and removes temporary folders a crash left behind", async () => {
    await writeSample(5);
    await writeSample(17);
    const partial = path.join(store.dir, snapshotDirName(30) + ".tmp");
    await fsp.mkdir(partial);
    await fsp.writeFile(path.join(partial, "store-0.bin"), "half");
    expect((await store.list()).map((e) => e.lsn)).to.deep.equal([17, 5]);
    expect(await store.removeIncomplete()).to.deep.equal([partial]);
    expect((await fsp.readdir(store.dir)).sort()).to.deep.equal([snapshotDirName(5), snapshotDirName(17)]);
  });

  it("a second snapshot of the same position keeps the first", async () => {
    const first = await writeSample(9);
    const manifestBefore = await fsp.readFile(path.join(first.dir, MANIFEST_FILE), "utf8");
    const again = await store.write({ lsn: 9, sections: [{ name: "other.bin", data: new Uint8Array(3) }] });
    expect(again.dir).to.equal(first.dir);
    expect(await fsp.readFile(path.join(first.dir, MANIFEST_FILE), "utf8")).to.equal(manifestBefore);
  });

  it("prune keeps the newest N", async () => {
    for (const lsn of [3, 8, 12, 20]) await writeSample(lsn);
    const removed = await store.prune(2);
    expect(removed.map((e) => e.lsn)).to.deep.equal([8, 3]);
    expect((await store.list()).map((e) => e.lsn)).to.deep.equal([20, 12]);
    expect((await fsp.readdir(store.dir)).sort()).to.deep.equal([snapshotDirName(12), snapshotDirName(20)]);
  });

  it("a prune cut off mid-delete leaves a .removing folder, never listed and removed at the next start", async () => {
    for (const lsn of [4, 11]) await writeSample(lsn);
    // What a kill between prune's rename and its delete leaves: the old folder, partly
    // emptied, under its removing name (and one from an even earlier kill under the same name).
    const cut = path.join(store.dir, snapshotDirName(4) + ".removing");
    await fsp.rename(path.join(store.dir, snapshotDirName(4)), cut);
    await fsp.rm(path.join(cut, MANIFEST_FILE));
    expect((await store.list()).map((e) => e.lsn)).to.deep.equal([11]);
    await writeSample(4); // the same position written again, then pruned over the leftover
    expect((await store.prune(1)).map((e) => e.lsn)).to.deep.equal([4]);
    expect((await fsp.readdir(store.dir)).sort()).to.deep.equal([snapshotDirName(11)]);
    await fsp.mkdir(cut);
    expect(await store.removeIncomplete()).to.deep.equal([cut]);
    expect((await fsp.readdir(store.dir)).sort()).to.deep.equal([snapshotDirName(11)]);
  });

  it("refuses bad section names", async () => {
    for (const name of ["../x", "a/b", "", MANIFEST_FILE, ".hidden"]) {
      try {
        await store.write({ lsn: 1, sections: [{ name, data: new Uint8Array(1) }] });
        expect.fail(`'${name}' must be refused`);
      } catch (err) {
        expect((err as Error).message).to.contain("invalid or repeated snapshot section name");
      }
    }
  });

  describe("damage is detected and named", () => {
    async function expectDamaged(reason: RegExp): Promise<void> {
      const [entry] = await store.list();
      try {
        await store.load(entry!);
        expect.fail("a damaged snapshot must be refused");
      } catch (err) {
        expect(err).to.be.instanceOf(SnapshotCorruptionError);
        expect((err as Error).message).to.contain(`snapshot ${entry!.dir} is damaged: `);
        expect((err as Error).message).to.match(reason);
      }
    }

    it("every single flipped bit in a payload", async () => {
      const written = await store.write({ lsn: 1, sections: [{ name: "store-0.bin", data: region.subarray(0, 64) }] });
      const file = path.join(written.dir, "store-0.bin");
      const pristine = await fsp.readFile(file);
      for (let at = 0; at < pristine.length; at++) {
        const damaged = Buffer.from(pristine);
        damaged[at]! ^= 1 << (at % 8);
        await fsp.writeFile(file, damaged);
        await expectDamaged(/payload file store-0\.bin fails its checksum/);
      }
    });

    it("a truncated, missing or extended payload", async () => {
      const written = await writeSample();
      const file = path.join(written.dir, "store-0.bin");
      await fsp.truncate(file, 9999);
      await expectDamaged(/store-0\.bin holds 9999 bytes, the MANIFEST says 10000/);
      await fsp.appendFile(file, "xy");
      await expectDamaged(/store-0\.bin holds 10001 bytes/);
      await fsp.rm(file);
      await expectDamaged(/payload file store-0\.bin is missing/);
    });

    it("a damaged, cut or missing manifest", async () => {
      const written = await writeSample();
      const file = path.join(written.dir, MANIFEST_FILE);
      const pristine = await fsp.readFile(file, "utf8");
      await fsp.writeFile(file, pristine.replace('"lsn":42', '"lsn":43'));
      await expectDamaged(/manifest checksum mismatch/);
      await fsp.writeFile(file, pristine.slice(0, pristine.length - 5));
      await expectDamaged(/manifest is incomplete/);
      await fsp.writeFile(file, pristine.split("\n")[0] + "\n");
      await expectDamaged(/manifest is incomplete/);
      await fsp.rm(file);
      await expectDamaged(/its MANIFEST is missing/);
    });

    it("a manifest whose position disagrees with its folder", async () => {
      const written = await writeSample(42);
      const renamed = path.join(store.dir, snapshotDirName(50));
      await fsp.rename(written.dir, renamed);
      await expectDamaged(/MANIFEST covers log position 42, the folder name 50/);
    });
  });

  it("manifest decoding rejects other formats and versions", () => {
    const base = { format: "wasmgraph-snapshot" as const, version: 1, lsn: 1, createdAt: "", meta: {}, sections: [] };
    expect(decodeManifest(encodeManifest(base))).to.deep.equal(base);
    expect(decodeManifest(encodeManifest({ ...base, version: 2 }))).to.match(/format version 2 is not supported/);
    expect(decodeManifest(encodeManifest({ ...base, format: "other" as "wasmgraph-snapshot" }))).to.equal("not a wasmgraph snapshot manifest");
    const badSection = { ...base, sections: [{ name: "../etc", bytes: 1, crc32: 0 }] };
    expect(decodeManifest(encodeManifest(badSection))).to.equal("manifest section entry is invalid");
  });
});
