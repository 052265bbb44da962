// The pool of query worker threads, on the main thread. Runs queue here and go to the first
// idle worker, so a long query never blocks the server and several run at once. Each run
// may carry a timeout and an abort signal: either sets the run's cancel flag in shared
// memory (the module checks it in every loop and stops); a run that does not stop within
// the grace period has its worker terminated and replaced.
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import { startWorker } from "../start-worker.js";
import { Board, Ctl, MAX_SELECT_HELPERS } from "./abi.js";
import type { ParallelSettings } from "./parallel-run.js";
import { SelectHelpers } from "./select-helpers.js";
import { ArenaChunks } from "./arena-chunks.js";
import { growingLender, MemoryExhausted, type MemoryLender } from "./memory-lender.js";
import type { FromWorker, RunOutcome, RunRequest, ToWorker } from "./run-types.js";

export interface QueryPoolOptions {
  /** Worker threads (default: the number of cores, at least 2). */
  workers?: number;
  /**
   * Threads one SELECT may use (parallel SELECT: the query's worker plus helper threads
   * shared by the pool; one SELECT at a time uses them; 1 turns it off). Default:
   * WASMGRAPH_SELECT_THREADS, else the number of cores. Only SELECTs the compiler proved
   * safe to split are split.
   */
  selectThreads?: number;
  /** Smallest source set a SELECT is split for (default 4096). */
  parallelMinSources?: number;
  /** Source vertices per chunk of a split SELECT (default: chosen per SELECT). */
  parallelChunk?: number;
  /** Tests: how long a split SELECT waits for a helper to join before starting alone. */
  parallelJoinWaitMs?: number;
  /** How long a cancelled run may take to notice before its worker is terminated. */
  graceMs?: number;
  /** The workers' program (default: query-worker.js beside this file). */
  workerFile?: URL;
}

export interface RunControl {
  /** Milliseconds before the run is stopped and reported as a timeout (0/undefined: none). */
  timeoutMs?: number;
  /** Aborting stops the run and reports it as aborted. */
  signal?: AbortSignal;
}

interface MemoryEntry {
  id: number;
  /** Address of this memory's control region: one Ctl block per worker slot. */
  controlBase: number;
  chunks: ArenaChunks;
}

interface PendingRun {
  memory: WebAssembly.Memory;
  request: RunRequest;
  control: RunControl;
  resolve: (outcome: RunOutcome) => void;
}

interface ActiveRun extends PendingRun {
  runId: number;
  started: number;
  /** Why the run was asked to stop, once it was. */
  stopReason?: "timeout" | "aborted";
  timers: NodeJS.Timeout[];
  onAbort?: () => void;
  /** Arena chunks lent to the run. */
  chunks: number[];
}

interface Slot {
  index: number;
  worker: Worker;
  attached: Set<number>;
  run?: ActiveRun;
  /** Whether the worker finished a run (a worker failing before that may not start at all). */
  served: boolean;
  /** Failed before serving a run; waiting for its replacement (no runs go to it). */
  broken: boolean;
  /** Tag of the latest run: the owner of a helper job board while that run splits a SELECT. */
  runTag?: number;
}

/** The workers' control blocks, then the helpers' job board. */
const CONTROL_BLOCKS_BYTES = 65536;
const CONTROL_REGION_BYTES = CONTROL_BLOCKS_BYTES + Board.size;
const MAX_WORKERS = CONTROL_BLOCKS_BYTES / Ctl.size;
/** Ctl.chunkReply value meaning "no chunk could be lent". */
const NO_CHUNK = 0xffffffff;

export class QueryPool {
  private readonly slots: Slot[] = [];
  private readonly queue: PendingRun[] = [];
  private readonly memories = new Map<WebAssembly.Memory, MemoryEntry>();
  private readonly lenders = new Map<WebAssembly.Memory, MemoryLender>();
  private nextRunId = 1;
  private closed = false;
  private readonly graceMs: number;
  private readonly workerFile: URL;
  /** Workers in a row that failed before serving a run: sets the wait before the next try. */
  private startFailures = 0;
  /** Parallel SELECT: the helper threads and when to split. */
  private readonly helpers: SelectHelpers;
  private readonly parallelMinSources: number;
  private readonly parallelChunk: number;
  private readonly parallelJoinWaitMs: number;

  constructor(options: QueryPoolOptions = {}) {
    const n = Math.min(MAX_WORKERS, Math.max(1, options.workers ?? Math.max(2, availableParallelism())));
    this.graceMs = options.graceMs ?? 1000;
    this.workerFile = options.workerFile ?? new URL("./query-worker.js", import.meta.url);
    // WASMGRAPH_PARALLEL_FORCE=1 (tests): every eligible SELECT is split, in chunks of 2 sources
    const force = process.env.WASMGRAPH_PARALLEL_FORCE === "1";
    const envThreads = Number(process.env.WASMGRAPH_SELECT_THREADS ?? "");
    const threads = options.selectThreads ?? (Number.isInteger(envThreads) && envThreads > 0 ? envThreads : force ? 3 : availableParallelism());
    this.helpers = new SelectHelpers(Math.min(MAX_SELECT_HELPERS, Math.max(0, threads - 1)));
    this.parallelMinSources = options.parallelMinSources ?? (force ? 0 : 4096);
    this.parallelChunk = options.parallelChunk ?? (force ? 2 : 0);
    this.parallelJoinWaitMs = options.parallelJoinWaitMs ?? (force ? 20 : 0);
    for (let i = 0; i < n; i++) this.slots.push(this.spawn(i));
  }

  /**
   * Says who owns `memory`: runs borrow their arena chunks and the control region from
   * `lender` (by default the pool grows the memory itself, for memories nobody else owns).
   */
  registerMemory(memory: WebAssembly.Memory, lender: MemoryLender): void {
    if (this.memories.has(memory)) throw new Error("register a memory before its first run");
    this.lenders.set(memory, lender);
  }

  /** Runs a query module over `memory`; resolves when it ends, however it ends. */
  run(memory: WebAssembly.Memory, request: RunRequest, control: RunControl = {}): Promise<RunOutcome> {
    if (this.closed) return Promise.resolve({ kind: "error", message: "the query pool is closed", ms: 0, logs: [] });
    if (control.signal?.aborted) return Promise.resolve({ kind: "aborted", ms: 0 });
    return new Promise((resolve) => {
      this.queue.push({ memory, request, control, resolve });
      this.dispatch();
    });
  }

  /** Runs in progress. */
  get busy(): number {
    return this.slots.filter((s) => s.run !== undefined).length;
  }

  /** Runs waiting for a worker. */
  get queued(): number {
    return this.queue.length;
  }

  /** Stops every worker; runs in progress and queued end as aborted. */
  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.resolve({ kind: "aborted", ms: 0 });
    await this.helpers.close();
    await Promise.all(
      this.slots.map(async (slot) => {
        if (slot.run) this.finish(slot, { kind: "aborted", ms: performance.now() - slot.run.started });
        await slot.worker.terminate();
      }),
    );
  }

  private spawn(index: number): Slot {
    const worker = startWorker(this.workerFile);
    const slot: Slot = { index, worker, attached: new Set(), served: false, broken: false };
    worker.on("message", (msg: FromWorker) => {
      if (msg.kind === "done" && slot.run?.runId === msg.runId) {
        slot.served = true;
        this.startFailures = 0;
        this.finish(slot, msg.outcome);
      } else if (msg.kind === "chunk") this.lendChunk(slot, msg.runId, msg.bytes);
    });
    worker.on("error", (err) => {
      if (slot.served) {
        if (slot.run) this.finish(slot, { kind: "error", message: `query worker failed: ${err.message}`, ms: 0, logs: [] });
        this.replace(slot);
        return;
      }
      // A worker that fails before serving a run would most likely fail the same way again
      // (a missing or broken program): once no worker is left, the runs waiting get the error; and the next try waits
      // 100 ms, doubling up to 10 s, instead of respawning in a tight loop.
      slot.broken = true;
      const message = `query worker failed: ${err.message}`;
      if (slot.run) this.finish(slot, { kind: "error", message, ms: 0, logs: [] });
      if (this.slots.every((s) => s.broken)) for (const p of this.queue.splice(0)) p.resolve({ kind: "error", message, ms: 0, logs: [] });
      const wait = Math.min(10_000, 100 * 2 ** this.startFailures++);
      setTimeout(() => this.replace(slot), wait).unref();
    });
    worker.unref();
    return slot;
  }

  private replace(slot: Slot): void {
    if (this.closed) return;
    void slot.worker.terminate();
    // a worker stopped inside a split SELECT leaves the job board taken: free it
    if (slot.runTag !== undefined) for (const entry of this.memories.values()) this.helpers.releaseOwner(entry.id, slot.runTag);
    const fresh = this.spawn(slot.index);
    this.slots[slot.index] = fresh;
    this.dispatch();
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.run !== undefined || slot.broken) continue;
      this.start(slot, this.queue.shift()!);
    }
  }

  private start(slot: Slot, pending: PendingRun): void {
    let entry: MemoryEntry;
    let chunk: number;
    try {
      entry = this.memoryEntry(pending.memory);
      chunk = entry.chunks.take(pending.request.params.length + 4096);
    } catch (e) {
      pending.resolve({ kind: "error", message: e instanceof MemoryExhausted ? "Runtime Error: the query ran out of memory." : String(e), ms: 0, logs: [] });
      return;
    }
    const control = entry.controlBase + slot.index * Ctl.size;
    if (!slot.attached.has(entry.id)) {
      this.post(slot, { kind: "attach", memoryId: entry.id, memory: pending.memory, control, board: entry.controlBase + CONTROL_BLOCKS_BYTES });
      slot.attached.add(entry.id);
    }
    Atomics.store(new Int32Array(pending.memory.buffer), (control + Ctl.cancel) >> 2, 0);
    const run: ActiveRun = { ...pending, runId: this.nextRunId++, started: performance.now(), timers: [], chunks: [chunk] };
    slot.run = run;
    slot.runTag = run.runId | 1;
    const { timeoutMs, signal } = pending.control;
    if (timeoutMs !== undefined && timeoutMs > 0) run.timers.push(setTimeout(() => this.stop(slot, run, "timeout"), timeoutMs));
    if (signal) {
      run.onAbort = () => this.stop(slot, run, "aborted");
      signal.addEventListener("abort", run.onAbort, { once: true });
    }
    slot.worker.ref();
    let parallel: ParallelSettings | undefined;
    if (this.helpers.count > 0 && this.helpers.hasRanges(pending.request.module)) {
      parallel = { helpers: this.helpers.count, minSources: this.parallelMinSources, chunk: this.parallelChunk, moduleId: this.helpers.prepare(pending.request.module), ...(this.parallelJoinWaitMs ? { joinWaitMs: this.parallelJoinWaitMs } : {}) };
    }
    this.post(slot, { kind: "run", runId: run.runId, runTag: slot.runTag, memoryId: entry.id, chunk, ...pending.request, ...(parallel ? { parallel } : {}) });
  }

  /** Answers a worker's blocking request for one more arena chunk. */
  private lendChunk(slot: Slot, runId: number, bytes: number): void {
    const run = slot.run;
    if (run === undefined || run.runId !== runId) return;
    const entry = this.memoryEntry(run.memory);
    let answer = NO_CHUNK;
    if (!run.stopReason) {
      try {
        answer = entry.chunks.take(bytes);
        run.chunks.push(answer);
      } catch {
        answer = NO_CHUNK;
      }
    }
    const words = new Int32Array(run.memory.buffer);
    const cell = (entry.controlBase + slot.index * Ctl.size + Ctl.chunkReply) >> 2;
    Atomics.store(words, cell, answer | 0);
    Atomics.notify(words, cell);
  }

  private post(slot: Slot, msg: ToWorker): void {
    slot.worker.postMessage(msg);
  }

  /** Asks the run to stop; terminates its worker if it has not stopped after the grace period. */
  private stop(slot: Slot, run: ActiveRun, reason: "timeout" | "aborted"): void {
    if (slot.run !== run || run.stopReason) return;
    run.stopReason = reason;
    const control = this.memoryEntry(run.memory).controlBase + slot.index * Ctl.size;
    Atomics.store(new Int32Array(run.memory.buffer), (control + Ctl.cancel) >> 2, 1);
    run.timers.push(
      setTimeout(() => {
        if (slot.run !== run) return;
        this.finish(slot, { kind: reason, ms: performance.now() - run.started });
        this.replace(slot);
      }, this.graceMs),
    );
  }

  private finish(slot: Slot, outcome: RunOutcome): void {
    const run = slot.run;
    if (run === undefined) return;
    slot.run = undefined;
    for (const t of run.timers) clearTimeout(t);
    this.memoryEntry(run.memory).chunks.giveBack(run.chunks);
    if (run.onAbort) run.control.signal?.removeEventListener("abort", run.onAbort);
    slot.worker.unref();
    // A run that ended because we asked it to is reported by the reason we asked.
    const final: RunOutcome = run.stopReason && outcome.kind !== "ok" ? { kind: run.stopReason, ms: performance.now() - run.started } : outcome;
    run.resolve(final);
    this.dispatch();
  }

  private memoryEntry(memory: WebAssembly.Memory): MemoryEntry {
    let entry = this.memories.get(memory);
    if (entry === undefined) {
      const lender = this.lenders.get(memory) ?? growingLender(memory);
      const controlBase = lender.lend(CONTROL_REGION_BYTES);
      entry = { id: this.memories.size + 1, controlBase, chunks: new ArenaChunks(memory, lender) };
      this.memories.set(memory, entry);
      this.helpers.addBoard(entry.id, memory, controlBase + CONTROL_BLOCKS_BYTES);
    }
    return entry;
  }
}
