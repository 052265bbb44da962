// The merge thread (merge-helper.ts): per job, orders a run's items by target slot (stable:
// item order within a slot) while the writer finds which items create an edge; then groups
// the new edges and, when a merge pays, rewrites the target-side adjacency into the space the
// writer prepared: every list copied with its new entries (mergeLists, as the writer would),
// heads and meta written to fresh arrays. It only reads the current lists, heads and meta.
import { parentPort, workerData } from "node:worker_threads";
import { mergePays } from "./adjacency.js";
import { CONTROL_CREATED, CONTROL_GROUPS, CONTROL_JOB, CONTROL_READY, CONTROL_STATUS, CREATED_CANCELLED, CREATED_PENDING, JobStatus, type MergeJob, type NewEdges } from "./merge-helper.js";
import { mergeLists, type MergeGroups } from "./merge-lists.js";
import { groupAtTargets } from "./target-groups.js";
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
  // A job the writer gave up for a newer one answers nothing: the words are the newer job's.
  if (Atomics.load(control, CONTROL_JOB) !== job.serial) return;
  Atomics.store(control, CONTROL_STATUS, status);
  Atomics.notify(control, CONTROL_STATUS);
});
Atomics.store(control, CONTROL_READY, 1);

function runJob(job: MergeJob): JobStatus {
  if (job.fault?.kind === "throw") throw new Error("merge thread: injected fault");
  if (job.fault?.kind === "stall") Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, job.fault.ms);
  const b = job.buffers;
  const edges = job.edges;
  // Every item, by target: the writer is still finding out which ones create an edge.
  const sorted = order.sort(edges.dst, edges.items);
  const created = awaitCreated(job.serial);
  if (created < 0) return JobStatus.FAILED;
  const targets = new Uint32Array(b.sortedTargets);
  const sortedEids = new Int32Array(b.sortedEids);
  const groupSlots = new Int32Array(b.groupSlots);
  const starts = new Int32Array(b.groupStarts);
  const groups = groupNewEdges(edges, created, sorted, { targets, eids: sortedEids, groupSlots, starts });
  Atomics.store(control, CONTROL_GROUPS, groups);
  if (groups === 0 || !mergePays(job.rule.slots, job.rule.words, groups, job.rule.packed)) return JobStatus.SORTED;
  const heads = { from: job.heads >>> 2, to: job.newHeads >>> 2, metaFrom: job.meta, metaTo: job.newMeta };
  mergeLists(new Uint32Array(job.memory), heads, job.slots, job.words, job.dest >>> 2, { groupSlots, starts, groups, targets, eids: sortedEids }, null);
  return JobStatus.MERGED;
}

/** The run's count of new edges, once the writer has found them; CREATED_CANCELLED when it gave the job up (or moved on to a newer one). */
function awaitCreated(serial: number): number {
  for (;;) {
    if (Atomics.load(control, CONTROL_JOB) !== serial) return CREATED_CANCELLED;
    const created = Atomics.load(control, CONTROL_CREATED);
    if (created !== CREATED_PENDING) return created;
    Atomics.wait(control, CONTROL_CREATED, CREATED_PENDING);
  }
}

let qOfItem = new Int32Array(0);

/** groupAtTargets with this thread's scratch. */
function groupNewEdges(edges: NewEdges, created: number, sorted: Int32Array, out: Pick<MergeGroups, "targets" | "eids" | "groupSlots" | "starts">): number {
  if (qOfItem.length < edges.items) qOfItem = new Int32Array(edges.items);
  return groupAtTargets(edges, created, sorted, qOfItem, out);
}
