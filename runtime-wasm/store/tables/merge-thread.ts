// The merge thread (merge-helper.ts): per job, orders a run's new edges by target slot
// (stable: item order within a slot), groups them, and when a merge pays, rewrites the
// target-side adjacency into the space the writer prepared: every list copied with its new
// entries (mergeLists, as the writer would), heads and meta written to fresh arrays. It only
// reads the current lists, heads and meta.
import { parentPort, workerData } from "node:worker_threads";
import { mergePays } from "./adjacency.js";
import { CONTROL_GROUPS, CONTROL_READY, CONTROL_STATUS, JobStatus, type MergeJob, type NewEdges } from "./merge-helper.js";
import { mergeLists } from "./merge-lists.js";
import { RadixOrder } from "./radix-order.js";

const port = parentPort;
if (port === null) throw new Error("merge-thread.js must run in a worker thread");
const control = new Int32Array((workerData as { control: SharedArrayBuffer }).control);
const order = new RadixOrder();

port.on("message", (job: MergeJob) => {
  let status: JobStatus = JobStatus.FAILED;
  try {
    status = runJob(job);
  } catch {
    status = JobStatus.FAILED;
  }
  Atomics.store(control, CONTROL_STATUS, status);
  Atomics.notify(control, CONTROL_STATUS);
});
Atomics.store(control, CONTROL_READY, 1);

function runJob(job: MergeJob): JobStatus {
  if (job.fault?.kind === "throw") throw new Error("merge thread: injected fault");
  if (job.fault?.kind === "stall") Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, job.fault.ms);
  const b = job.buffers;
  const { keys, sources, eids, count: n } = inItemOrder(job.edges);
  const targets = new Uint32Array(b.sortedTargets);
  const sortedEids = new Int32Array(b.sortedEids);
  const groupSlots = new Int32Array(b.groupSlots);
  const starts = new Int32Array(b.groupStarts);
  const sorted = order.sort(keys, n);
  let groups = 0;
  let last = -1;
  for (let j = 0; j < n; j++) {
    const i = sorted[j];
    const key = keys[i];
    if (key !== last) {
      groupSlots[groups] = key;
      starts[groups++] = j;
      last = key;
    }
    targets[j] = sources[i];
    sortedEids[j] = eids[i];
  }
  starts[groups] = n;
  Atomics.store(control, CONTROL_GROUPS, groups);
  if (groups === 0 || !mergePays(job.rule.slots, job.rule.words, groups, job.rule.packed)) return JobStatus.SORTED;
  const heads = { from: job.heads >>> 2, to: job.newHeads >>> 2, metaFrom: job.meta, metaTo: job.newMeta };
  mergeLists(new Uint32Array(job.memory), heads, job.slots, job.words, job.dest >>> 2, { groupSlots, starts, groups, targets, eids: sortedEids }, null);
  return JobStatus.MERGED;
}

let qOfItem = new Int32Array(0);
let keys = new Int32Array(0);
let sources = new Uint32Array(0);
let eids = new Int32Array(0);

/** The new edges in item order (the order each target's list gets them in), as (target slot, source vid, eid). */
function inItemOrder(edges: NewEdges): { keys: Int32Array; sources: Uint32Array; eids: Int32Array; count: number } {
  const { items, created, undirected, dst, newTargets, newSources, newEids, newItems } = edges;
  if (qOfItem.length < items) qOfItem = new Int32Array(items);
  if (keys.length < created) {
    keys = new Int32Array(created);
    sources = new Uint32Array(created);
    eids = new Int32Array(created);
  }
  qOfItem.fill(-1, 0, items);
  for (let q = 0; q < created; q++) qOfItem[newItems[q]] = q;
  let m = 0;
  for (let k = 0; k < items; k++) {
    const q = qOfItem[k];
    if (q < 0 || (undirected && newSources[q] === newTargets[q])) continue; // a self-loop is stored once
    keys[m] = dst[k];
    sources[m] = newSources[q];
    eids[m++] = newEids[q];
  }
  return { keys, sources, eids, count: m };
}
