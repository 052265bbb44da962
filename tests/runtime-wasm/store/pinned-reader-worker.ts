// Worker half of the shared-memory test: given the store's memory and a pinned version's
// header address, it walks every out-list of one (edge type, vertex type) through layout.ts
// offsets, again and again until told to stop, and reports each checksum. Started by
// shared-memory.test.ts.
import { parentPort, workerData } from "node:worker_threads";
import { ADJ, ET, VH } from "../../../runtime-wasm/store/index.js";

interface Job {
  memory: { buffer: SharedArrayBuffer };
  header: number;
  edgeOrdinal: number;
  vertexOrdinal: number;
  /** Int32Array over a SharedArrayBuffer: [0] becomes 1 when the worker should stop. */
  stop: Int32Array;
}

const job = workerData as Job;
for (let round = 0; Atomics.load(job.stop, 0) === 0; round++) {
  // The pinned version lies below the buffer's length when it was pinned: the old view suffices.
  const u32 = new Uint32Array(job.memory.buffer);
  const et = u32[(u32[(job.header + VH.EDGE_TYPE_TABLE) >>> 2] >>> 2) + job.edgeOrdinal];
  const adj = u32[(u32[(et + ET.OUT_TABLE) >>> 2] >>> 2) + job.vertexOrdinal];
  const slots = u32[(adj + ADJ.SLOT_COUNT) >>> 2];
  const heads = u32[(adj + ADJ.HEADS) >>> 2] >>> 2;
  let sum = 0;
  for (let local = 0; local < slots; local++) {
    const list = u32[heads + local * 2] >>> 2;
    const degree = u32[heads + local * 2 + 1];
    for (let i = 0; i < degree; i++) sum = (sum + u32[list + i] * (local + 1)) % 1000000007;
  }
  parentPort!.postMessage({ round, sum });
}
