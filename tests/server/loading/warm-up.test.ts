// The loader's warm-up at server start (loading/warm-up.ts): a seeded skewed edge file, made
// once and reused, loaded through the reader thread into a throwaway store; a failure is
// reported to the caller and the next call tries again.
import { expect } from "chai";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { warmLoader, warmUpCsv, warmUpFileIn } from "../../../server/loading/warm-up.js";
import { idleReaderThreadId } from "../../../server/loading/worker/read-in-thread.js";
import { mergeHelperSettings } from "../../../runtime-wasm/store/tables/merge-helper.js";

describe("loader warm-up", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "wasmgraph-warm-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("its edges are seeded and skewed: the same text every time, a hub of thousands of edges, repeated edges", () => {
    const text = warmUpCsv(20000, 1 << 12);
    expect(warmUpCsv(20000, 1 << 12)).to.equal(text);
    const lines = text.trimEnd().split("\n");
    expect(lines).to.have.length(20000);
    const degree = new Map<string, number>();
    for (const line of lines) {
      expect(line).to.match(/^\d+,\d+$/);
      const from = line.split(",")[0]!;
      degree.set(from, (degree.get(from) ?? 0) + 1);
    }
    // Vertex 0 draws its sources with probability (1/4096)^(1/3) = 1/16.
    expect(degree.get("0")).to.be.within(1000, 1500);
    expect(new Set(lines).size).to.be.below(lines.length);
  });

  it("a directory it cannot write to fails the warm-up; the next call, given room, loads and keeps the reader thread", async function () {
    this.timeout(60000);
    const locked = join(dir, "locked");
    writeFileSync(locked, "a file, not a directory");
    let failed: unknown;
    await warmLoader(locked).catch((err: unknown) => (failed = err));
    expect(failed).to.be.instanceOf(Error);
    const merged = mergeHelperSettings.merged;
    await warmLoader(dir);
    expect(readFileSync(join(dir, "wasmgraph-loader-warm-up-v1.csv"), "utf8")).to.equal(warmUpCsv());
    // Its batches went through bulk linking with the merge thread, and the thread that read
    // the file waits, warm, for the next load.
    expect(mergeHelperSettings.merged).to.be.greaterThan(merged);
    expect(idleReaderThreadId()).to.not.equal(undefined);
    // Once done, later calls share the finished warm-up rather than load again.
    expect(warmLoader(dir)).to.equal(warmLoader(dir));
  });

  it("a file of its name but another size (a shared directory) is replaced before the warm-up reads it", async function () {
    this.timeout(60000);
    const other = mkdtempSync(join(tmpdir(), "wasmgraph-warm-other-"));
    try {
      writeFileSync(join(other, "wasmgraph-loader-warm-up-v1.csv"), "1,2\n".repeat(10));
      // What a server starting with this directory as its temporary one finds.
      const path = await warmUpFileIn(other);
      expect(readFileSync(path, "utf8")).to.equal(warmUpCsv());
      // Its own file (the size it counts without making the text) is used as it is.
      const inode = statSync(path).ino;
      expect(await warmUpFileIn(other)).to.equal(path);
      expect(statSync(path).ino).to.equal(inode);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
