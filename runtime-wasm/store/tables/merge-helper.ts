// The writer's second core for bulk linking: a thread that sorts a run's items by target
// while the writer sorts them by source and finds which ones create an edge, then merges the
// new edges into the target-side adjacency (merge-thread.ts) while the writer merges the
// source side. The thread works on the shared store memory, but only reads what the writer
// leaves alone until the join (the adjacency's current lists, heads and meta) and only writes
// space the writer set aside for it (Adjacency.prepareMerge): nothing a reader or the writer
// sees changes until the writer takes the result (Adjacency.adoptPreparedMerge), after the
// join and before the version is published. A thread that fails or does not answer in time
// costs nothing but the time: the writer does the work itself, as without the thread.
import type { Worker } from "node:worker_threads";
import { startWorker } from "../../start-worker.js";
import type { PreparedMerge } from "./adjacency.js";
import type { MergeGroups } from "./merge-lists.js";

/** Control words: the thread's state, the group count of the last job, its new edges (CREATED_*), and its serial number. */
export const CONTROL_STATUS = 0;
export const CONTROL_GROUPS = 1;
export const CONTROL_READY = 2;
export const CONTROL_CREATED = 3;
export const CONTROL_JOB = 4;
const CONTROL_WORDS = 8;

/** CONTROL_CREATED until the writer knows how many edges the run creates (then that count ≥ 0). */
export const CREATED_PENDING = -1;
/** CONTROL_CREATED when the writer gives the job up before it knew (the thread stops, FAILED). */
export const CREATED_CANCELLED = -2;

export const JobStatus = {
  PENDING: 0,
  /** Sorted and merged into the prepared space. */
  MERGED: 1,
  /** Sorted only: a merge did not pay for so few lists (the writer appends list by list). */
  SORTED: 2,
  FAILED: 3,
} as const;
export type JobStatus = (typeof JobStatus)[keyof typeof JobStatus];

/**
 * A run's items and (once the writer has found them: CONTROL_CREATED) its new edges as bulk
 * linking finds them (link-edges.ts), in shared memory: the thread puts them in item order itself.
 */
export interface NewEdges {
  /** Items of the run. */
  items: number;
  /** An undirected type stores a self-loop once (not again at its target). */
  undirected: boolean;
  /** Per item: its target slot. */
  dst: Int32Array;
  /** Per new edge (in the order found; written before CONTROL_CREATED is): target vid, source vid, eid, and the item that created it. */
  newTargets: Uint32Array;
  newSources: Uint32Array;
  newEids: Int32Array;
  newItems: Int32Array;
}

/** The shared arrays a job's result is written to: the target side's entries sorted and grouped by slot. */
export interface JobBuffers {
  sortedTargets: SharedArrayBuffer;
  sortedEids: SharedArrayBuffer;
  groupSlots: SharedArrayBuffer;
  groupStarts: SharedArrayBuffer;
}

export interface MergeJob {
  /**
   * The job's number (CONTROL_JOB holds the newest's). A job whose writer moved on without
   * releasing it (CONTROL_JOB changed) stops and reports nothing: the status words are the
   * newer job's.
   */
  serial: number;
  memory: SharedArrayBuffer;
  control: SharedArrayBuffer;
  buffers: JobBuffers;
  edges: NewEdges;
  rule: PreparedMerge["rule"];
  slots: number;
  words: 1 | 2;
  heads: number;
  meta: Int32Array;
  newHeads: number;
  newMeta: Int32Array;
  dest: number;
  /** Tests: make the thread fail ("throw") or answer late ("stall" milliseconds first). */
  fault?: { kind: "throw" } | { kind: "stall"; ms: number };
}

/** Knobs for tests; the defaults are what a load uses. */
export const mergeHelperSettings = {
  /** Whether runs are merged in the thread at all. */
  enabled: true,
  /** Runs with fewer new edges than this are linked on the writer alone (a job's round trip costs more). */
  minEntries: 32768,
  /** How long the writer waits for a job before doing the work itself. */
  timeoutMs: 30_000,
  /** The fault of the next job (tests). */
  nextFault: undefined as MergeJob["fault"],
  /** Jobs done in the thread (tests check the thread did the work). */
  merged: 0,
  /** Jobs the writer redid itself after the thread failed or was too late. */
  recovered: 0,
};

/** A job handed to the thread, until its join. */
export interface PendingJob {
  helper: MergeHelper;
  prepared: PreparedMerge;
}

/** What the join gives: the entries sorted and grouped (for MERGED or SORTED), or nothing (the writer redoes the work). */
export type JoinResult = { status: typeof JobStatus.MERGED | typeof JobStatus.SORTED; groups: MergeGroups } | { status: typeof JobStatus.FAILED };

class MergeHelper {
  readonly control = new Int32Array(new SharedArrayBuffer(CONTROL_WORDS * 4));
  private readonly worker: Worker;
  private buffers: JobBuffers | null = null;
  /** Capacity of `buffers`, in entries. */
  private capacity = 0;
  private serial = 0;
  broken = false;

  constructor() {
    this.worker = startWorker(new URL("./merge-thread.js", import.meta.url), process.execArgv, { workerData: { control: this.control.buffer } });
    this.worker.on("error", () => (this.broken = true));
    this.worker.on("exit", () => (this.broken = true));
    this.worker.unref();
  }

  get ready(): boolean {
    return !this.broken && Atomics.load(this.control, CONTROL_READY) === 1;
  }

  /** Room for the results of `count` new edges. */
  private fit(count: number): void {
    if (this.capacity >= count) return;
    const size = Math.max(count, this.capacity * 2);
    const sab = (words: number) => new SharedArrayBuffer(words * 4);
    this.buffers = { sortedTargets: sab(size), sortedEids: sab(size), groupSlots: sab(size + 1), groupStarts: sab(size + 1) };
    this.capacity = size;
  }

  post(memory: SharedArrayBuffer, prepared: PreparedMerge, edges: NewEdges): void {
    this.fit(edges.items);
    const fault = mergeHelperSettings.nextFault;
    mergeHelperSettings.nextFault = undefined;
    const serial = ++this.serial;
    Atomics.store(this.control, CONTROL_STATUS, JobStatus.PENDING);
    Atomics.store(this.control, CONTROL_CREATED, CREATED_PENDING);
    Atomics.store(this.control, CONTROL_JOB, serial);
    // Wakes a job of an earlier run still waiting for its release: it sees it is not the newest.
    Atomics.notify(this.control, CONTROL_CREATED);
    const job: MergeJob = {
      serial,
      memory,
      control: this.control.buffer as SharedArrayBuffer,
      buffers: this.buffers!,
      edges,
      rule: prepared.rule,
      slots: prepared.slots,
      words: prepared.words,
      heads: prepared.heads.addr,
      meta: prepared.meta,
      newHeads: prepared.newHeads.addr,
      newMeta: prepared.newMeta,
      dest: prepared.region.addr,
      fault,
    };
    this.worker.postMessage(job);
  }

  /** Lets the job go on with the run's `created` new edges (or stop: CREATED_CANCELLED). */
  release(created: number): void {
    Atomics.store(this.control, CONTROL_CREATED, created);
    Atomics.notify(this.control, CONTROL_CREATED);
  }

  /** Waits for the job; JobStatus.PENDING when it did not finish in time. */
  wait(): JobStatus {
    const deadline = performance.now() + mergeHelperSettings.timeoutMs;
    for (;;) {
      const status = Atomics.load(this.control, CONTROL_STATUS) as JobStatus;
      if (status !== JobStatus.PENDING) return status;
      const left = deadline - performance.now();
      if (left <= 0) return JobStatus.PENDING;
      Atomics.wait(this.control, CONTROL_STATUS, JobStatus.PENDING, left);
    }
  }

  groups(): MergeGroups {
    const b = this.buffers!;
    return {
      groupSlots: new Int32Array(b.groupSlots),
      starts: new Int32Array(b.groupStarts),
      groups: Atomics.load(this.control, CONTROL_GROUPS),
      targets: new Uint32Array(b.sortedTargets),
      eids: new Int32Array(b.sortedEids),
    };
  }

  /** Give up on a thread that did not answer: it may still run, so nothing it was given is reused. */
  abandon(): void {
    this.broken = true;
    void this.worker.terminate();
  }
}

/** One thread per process, shared by every store (one writer at a time: jobs never overlap). */
let helper: MergeHelper | null = null;

/**
 * The thread, when it is up and a job of `count` entries is worth handing to it; else null
 * (and the thread is started for the next runs when it is not).
 */
export function mergeHelperFor(count: number): MergeHelper | null {
  if (!mergeHelperSettings.enabled || count < mergeHelperSettings.minEntries) return null;
  if (helper === null || helper.broken) {
    helper = new MergeHelper();
    return null;
  }
  return helper.ready ? helper : null;
}

/** Whether the thread is up (tests wait for it). */
export function mergeHelperReady(): boolean {
  return helper !== null && helper.ready;
}

/** Start the thread ahead of a run of `count` edges, so that it is up by the time the run's merges come. */
export function warmMergeHelper(count: number): void {
  if (mergeHelperSettings.enabled && count >= mergeHelperSettings.minEntries && (helper === null || helper.broken)) helper = new MergeHelper();
}

/**
 * Hand a run's items and the target side's prepared merge to the thread, which sorts the items
 * by target until `releaseMerge` tells it which of them created an edge.
 */
export function postMerge(h: MergeHelper, memory: SharedArrayBuffer, prepared: PreparedMerge, edges: NewEdges): PendingJob {
  h.post(memory, prepared, edges);
  return { helper: h, prepared };
}

/** The run's new edges are written (NewEdges): `created` of them. The thread goes on to group and merge them. */
export function releaseMerge(job: PendingJob, created: number): void {
  job.helper.release(created);
}

/**
 * Give a job up before its release (the run created no edge, or linking failed): the thread
 * stops after its sort. Returns whether the prepared space may be given back (false when the
 * thread did not answer in time and was abandoned with it).
 */
export function cancelMerge(job: PendingJob): boolean {
  job.helper.release(CREATED_CANCELLED);
  if (job.helper.wait() !== JobStatus.PENDING) return true;
  job.helper.abandon();
  return false;
}

/**
 * Wait for a job. A thread that failed has stopped touching the prepared space, which the
 * caller gives back; one that did not answer in time is abandoned with the space it was
 * given (the caller must not give it back: the thread may still write there).
 */
export function joinMerge(job: PendingJob): JoinResult & { spaceReusable: boolean } {
  const status = job.helper.wait();
  if (status === JobStatus.MERGED || status === JobStatus.SORTED) {
    mergeHelperSettings.merged++;
    return { status, groups: job.helper.groups(), spaceReusable: true };
  }
  mergeHelperSettings.recovered++;
  if (status === JobStatus.PENDING) {
    job.helper.abandon();
    return { status: JobStatus.FAILED, spaceReusable: false };
  }
  return { status: JobStatus.FAILED, spaceReusable: true };
}

export type { MergeHelper };
