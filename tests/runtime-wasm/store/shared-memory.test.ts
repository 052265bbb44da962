// A worker thread reads a pinned version straight from the shared WebAssembly memory while the
// main thread keeps writing (growing the memory, moving and compacting lists): every read it
// makes sees the pinned version exactly.
import { expect } from "chai";
import { Worker } from "node:worker_threads";
import { createStore } from "../../../runtime-wasm/store/index.js";
import { edge, schemaOf, vertex } from "./fixtures.js";

function checksum(lists: number[][]): number {
  let sum = 0;
  lists.forEach((targets, local) => {
    for (const t of targets) sum = (sum + t * (local + 1)) % 1000000007;
  });
  return sum;
}

describe("store: a worker thread reading a pinned version from shared memory", () => {
  it("sees exactly the pinned version while the main thread keeps writing", async () => {
    const store = createStore(schemaOf([vertex("V", "INT", [])], [edge("E", true, [["V", "V"]])]), { initialBytes: 1 << 20 });
    const batch = (offset: number, n: number) => ({
      edgeColumns: [{ type: "E", fromType: "V", toType: "V", from: Array.from({ length: n }, (_, i) => (i * 7 + offset) % 3000), to: Array.from({ length: n }, (_, i) => (i * 13 + offset * 3) % 5000) }],
    });
    store.upsert(batch(0, 30000));
    const snap = store.snapshot();
    const vertexOrdinal = snap.layout.vertexTypes[0].ordinal;
    const edgeOrdinal = snap.layout.edgeTypes[0].ordinal;
    // The expected checksum, read through the API: per local slot (= vertex order), its targets in order.
    const lists: number[][] = [];
    for (const v of snap.vertices("V")) lists.push([...snap.edges(v)].map((e) => e.to));
    const expected = checksum(lists);

    const stop = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(new URL("./pinned-reader-worker.js", import.meta.url), {
      workerData: { memory: store.memory, header: snap.headerAddress, edgeOrdinal, vertexOrdinal, stop },
    });
    const sums: number[] = [];
    let firstRound!: () => void;
    const started = new Promise<void>((resolve) => (firstRound = resolve));
    const done = new Promise<void>((resolve, reject) => {
      worker.on("message", (m: { sum: number }) => {
        sums.push(m.sum);
        firstRound();
      });
      worker.on("error", reject);
      worker.on("exit", () => resolve());
    });
    // Writes start once the reader runs, and go on (up to a bound) until it has read several
    // times while they happen: on a busy machine the worker may get few time slices.
    await Promise.race([started, done]);
    const before = store.memoryStats().memoryBytes;
    const roundsBefore = sums.length;
    let i = 0;
    while (i < 30 || (sums.length - roundsBefore <= 3 && i < 600)) {
      i++;
      store.upsert(batch(i * 11, 4000));
      if (i % 10 === 0) store.compact();
      if (i % 7 === 0) store.deleteVertices("V", [i % 2900, (i % 2900) + 1]);
      await new Promise((r) => setTimeout(r, 2));
    }
    const roundsDuringWrites = sums.length - roundsBefore;
    Atomics.store(stop, 0, 1);
    await done;
    expect(store.memoryStats().memoryBytes).to.be.greaterThan(before);
    expect(roundsDuringWrites).to.be.greaterThan(3);
    expect(new Set(sums)).to.deep.equal(new Set([expected]));
    snap.release();
  });
});
