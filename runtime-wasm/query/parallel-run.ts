// Parallel SELECT, the side of the thread running the query (a query worker). When the module
// asks to split a SELECT's walk (`parallelRun`), this thread takes the memory's helper job
// board (Board in abi.ts; one SELECT at a time per memory, else the walk runs here alone),
// publishes the job, runs chunks of source positions itself, and waits until every helper that
// joined has left. Helpers join only while the job is open, and only with the module already
// instantiated; whatever they do not take, this thread does, so a helper that is busy, slow to
// start or gone never changes the result, only the speed.
//
// Failures: a trap in any thread (the cancel check included) stops every thread at its next
// chunk; the job ends and the run fails as a one-thread run would (cancelled: timeout or abort;
// otherwise the helper's runtime error). A helper that dies inside a job is taken out of it by
// the main thread (select-helpers.ts), which marks the job failed.
import { Board, Ctl, PARALLEL_RANGE_EXPORT, RuntimeError } from "./abi.js";
import { RunFailure } from "./host-imports.js";
import type { RunParallel } from "./run-types.js";

/**
 * What the pool tells a run about the helpers: how many there are (0: every SELECT runs on
 * the query's thread), the smallest source set that is split, source positions per chunk (0:
 * chosen per SELECT), and the module's id among those the helpers were sent.
 */
export type ParallelSettings = RunParallel;

/** "No more chunks": beyond any source count, with room for every thread's last claim. */
const EXHAUSTED = 0x40000000;

export class ParallelRun {
  private instance?: WebAssembly.Instance;
  /** SELECT walks split so far, and chunks of them the helpers ran. */
  readonly stats = { splits: 0, helperChunks: 0 };

  constructor(
    private readonly memory: WebAssembly.Memory,
    /** This worker's control block (its cancel flag) and board address, owner tag. */
    private readonly control: number,
    private readonly board: number,
    private readonly ownerTag: number,
    private readonly settings: ParallelSettings,
  ) {}

  /** The run's own instance (set once instantiated, before the module runs). */
  attach(instance: WebAssembly.Instance): void {
    this.instance = instance;
  }

  /** Threads to split a walk over `sources` across (this one and the helpers), or 0. */
  want(sources: number): number {
    return this.settings.helpers > 0 && sources >= Math.max(1, this.settings.minSources) ? this.settings.helpers + 1 : 0;
  }

  run(range: number, block: number, sources: number): number {
    const words = new Int32Array(this.memory.buffer);
    const cell = (field: number) => (this.board + field) >> 2;
    const fn = this.instance?.exports[`${PARALLEL_RANGE_EXPORT}${range}`] as ((block: number, lo: number, hi: number, slot: number) => void) | undefined;
    if (fn === undefined || Atomics.compareExchange(words, cell(Board.owner), 0, this.ownerTag) !== 0) return 0;
    try {
      const threads = this.settings.helpers + 1;
      const chunk = this.settings.chunk > 0 ? this.settings.chunk : Math.max(16, Math.ceil(sources / (threads * 16)));
      Atomics.store(words, cell(Board.module), this.settings.moduleId);
      Atomics.store(words, cell(Board.range), range);
      Atomics.store(words, cell(Board.block), block);
      Atomics.store(words, cell(Board.count), sources);
      Atomics.store(words, cell(Board.chunk), chunk);
      Atomics.store(words, cell(Board.next), 0);
      Atomics.store(words, cell(Board.failed), 0);
      const seq = (Atomics.add(words, cell(Board.seq), 1) + 1) | 0;
      Atomics.notify(words, cell(Board.seq));
      if (this.settings.joinWaitMs) Atomics.wait(words, cell(Board.joined), Atomics.load(words, cell(Board.joined)), this.settings.joinWaitMs);
      let own: unknown;
      let ownChunks = 0;
      try {
        for (;;) {
          const lo = Atomics.add(words, cell(Board.next), chunk);
          if (lo >= sources) break;
          fn(block, lo, Math.min(sources, lo + chunk), 0);
          ownChunks++;
        }
      } catch (e) {
        own = e;
        Atomics.store(words, cell(Board.next), EXHAUSTED);
      }
      // No newcomers; then wait for the helpers inside (each stops at its chunk's end; the
      // main thread clears the cell of one that dies).
      Atomics.store(words, cell(Board.closed), seq);
      for (let k = 0; k < this.settings.helpers; k++) {
        const inJob = cell(Board.inJob + 4 * k);
        while (Atomics.load(words, inJob) === seq) Atomics.wait(words, inJob, seq, 100);
      }
      if (own !== undefined) throw own;
      const failed = Atomics.load(words, cell(Board.failed));
      if (failed !== 0) {
        // a cancelled run ends as one: the worker reports the cancel flag's reason
        if (Atomics.load(words, (this.control + Ctl.cancel) >> 2) !== 0) throw new Error("cancelled");
        throw new RunFailure(failed - 1 || RuntimeError.Internal);
      }
      this.stats.splits++;
      this.stats.helperChunks += Math.ceil(sources / chunk) - ownChunks;
      return 1;
    } finally {
      Atomics.store(words, cell(Board.owner), 0);
    }
  }
}
