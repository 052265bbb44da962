// The SELECT helper threads of a query pool, on the main thread: started on the first run
// whose module has parallel SELECT ranges, attached to every graph memory the pool runs on
// (each memory has one job board), and sent each such module before its run starts. A helper
// that dies is taken out of the job it was in (the job fails, so the run reports an error
// instead of waiting for it) and replaced.
import type { Worker } from "node:worker_threads";
import { startWorker } from "../start-worker.js";
import { Board, PARALLEL_RANGE_EXPORT, RuntimeError } from "./abi.js";
import type { ToHelper } from "./select-helper.js";

/** Modules a replacement helper is sent (those of the runs most likely still going on). */
const RECENT_MODULES = 16;

interface Helper {
  index: number;
  worker: Worker;
}

interface BoardEntry {
  memoryId: number;
  memory: WebAssembly.Memory;
  board: number;
}

export class SelectHelpers {
  private readonly helpers: Helper[] = [];
  private readonly boards: BoardEntry[] = [];
  private readonly moduleIds = new WeakMap<WebAssembly.Module, number>();
  /** Modules of the latest runs, sent to a replacement helper so it joins the runs going on. */
  private readonly recent = new Map<number, WebAssembly.Module>();
  private readonly ranged = new WeakMap<WebAssembly.Module, boolean>();
  private nextModuleId = 1;
  private started = false;
  private closed = false;

  constructor(
    /** Helper threads to run (threads per SELECT minus the query's own). */
    readonly count: number,
    private readonly file = new URL("./select-helper.js", import.meta.url),
  ) {}

  /** Whether the module has SELECTs that may be split. */
  hasRanges(module: WebAssembly.Module): boolean {
    let has = this.ranged.get(module);
    if (has === undefined) {
      const exports = (WebAssembly.Module as unknown as { exports(m: WebAssembly.Module): { name: string; kind: string }[] }).exports(module);
      has = exports.some((e) => e.kind === "function" && e.name.startsWith(PARALLEL_RANGE_EXPORT));
      this.ranged.set(module, has);
    }
    return has;
  }

  /** Starts the helpers if need be and sends them the module; returns its id. */
  prepare(module: WebAssembly.Module): number {
    if (!this.started && !this.closed) {
      this.started = true;
      // a helper that cannot start leaves the SELECTs on one thread, never fails the run
      try {
        for (let i = 0; i < this.count; i++) this.helpers.push(this.spawn(i));
      } catch {
        /* fewer helpers (none): every split runs with those there are */
      }
    }
    let id = this.moduleIds.get(module);
    if (id === undefined) this.moduleIds.set(module, (id = this.nextModuleId++));
    for (const h of this.helpers) this.post(h, { kind: "module", moduleId: id, module });
    this.recent.delete(id);
    this.recent.set(id, module);
    if (this.recent.size > RECENT_MODULES) this.recent.delete(this.recent.keys().next().value as number);
    return id;
  }

  /** A memory's board, zeroed; helpers (now or when started) wait on it. */
  addBoard(memoryId: number, memory: WebAssembly.Memory, board: number): void {
    new Uint8Array(memory.buffer, board, Board.size).fill(0);
    const entry = { memoryId, memory, board };
    this.boards.push(entry);
    for (const h of this.helpers) this.post(h, { kind: "attach", ...entry });
  }

  close(): Promise<unknown> {
    this.closed = true;
    return Promise.all(this.helpers.map((h) => h.worker.terminate()));
  }

  private spawn(index: number): Helper {
    const worker = startWorker(this.file, process.execArgv, { workerData: { index } });
    const helper: Helper = { index, worker };
    for (const b of this.boards) this.post(helper, { kind: "attach", ...b });
    for (const [moduleId, module] of this.recent) this.post(helper, { kind: "module", moduleId, module });
    let gone = false;
    const onGone = () => {
      if (gone) return;
      gone = true;
      this.release(index);
      if (this.closed) return;
      // replaced after a pause: a helper that cannot start must not respawn in a tight loop
      setTimeout(() => {
        if (this.closed || this.helpers[index] !== helper) return;
        try {
          this.helpers[index] = this.spawn(index);
        } catch {
          /* stays gone: splits run with the helpers left */
        }
      }, 1000).unref();
    };
    worker.on("error", onGone);
    worker.on("exit", onGone);
    worker.unref();
    return helper;
  }

  /**
   * Frees memory `memoryId`'s board when a query worker tagged `tag` was stopped while holding
   * it, once no helper is inside its job any more (its run was cancelled first, so they stop
   * at their next source); else the board stays taken and SELECTs run on one thread.
   */
  releaseOwner(memoryId: number, tag: number): void {
    const b = this.boards.find((x) => x.memoryId === memoryId);
    if (b === undefined) return;
    const words = new Int32Array(b.memory.buffer);
    if (Atomics.load(words, (b.board + Board.owner) >> 2) !== tag) return;
    const seq = Atomics.load(words, (b.board + Board.seq) >> 2);
    for (let k = 0; k < this.count; k++) if (Atomics.load(words, (b.board + Board.inJob + 4 * k) >> 2) === seq) return;
    Atomics.compareExchange(words, (b.board + Board.owner) >> 2, tag, 0);
  }

  /** Takes a dead helper out of any job it was in: the job fails and stops waiting for it. */
  private release(index: number): void {
    for (const b of this.boards) {
      const words = new Int32Array(b.memory.buffer);
      const inJob = (b.board + Board.inJob + 4 * index) >> 2;
      if (Atomics.load(words, inJob) === 0) continue;
      // failed first: the owner, woken by the cleared cell, must see the job failed
      Atomics.compareExchange(words, (b.board + Board.failed) >> 2, 0, 1 + RuntimeError.Internal);
      Atomics.store(words, inJob, 0);
      Atomics.notify(words, inJob);
    }
  }

  private post(h: Helper, msg: ToHelper): void {
    h.worker.postMessage(msg);
  }
}
