// Compaction while the store is left alone. Writes leave edge lists in delta space (spare
// capacity, lists moved to chunks, merged arrays with room to grow), and entry-ordered
// attribute copies (tables/entry-copies.ts) exist only for packed lists; both are what
// `store.compact()` restores. A server never calls it on its own during writes, so this
// watcher does: once no write has changed the store for `idleMs`, it compacts the edge types
// `store.compactionDue()` names. Queries keep running meanwhile (they read pinned versions);
// REST requests wait for the main thread as they would for a write. After a compaction that
// took t ms the watcher stays quiet for 20 t, so a trickle of writes with pauses never
// spends more than about 5% of the main thread here.
import type { CompactionStats, GraphStore } from "../../runtime-wasm/store/index.js";

export interface IdleCompactionOptions {
  /** Milliseconds without a change before compacting (default 2000). */
  idleMs?: number;
  /** How often the store's version is looked at (default 250 ms). */
  checkMs?: number;
  log?: (line: string) => void;
}

const QUIET_FACTOR = 20;
const FAILURE_PAUSE_MS = 60_000;

export class IdleCompaction {
  private readonly idleMs: number;
  private readonly checkMs: number;
  private timer: NodeJS.Timeout | undefined;
  private seenStore: GraphStore | undefined;
  private seenVersion = -1;
  /** The seen version was found to need nothing: no need to ask the store again until it changes. */
  private settled = false;
  private changedAt = 0;
  private quietUntil = 0;

  constructor(
    private readonly store: () => GraphStore | undefined,
    private readonly options: IdleCompactionOptions = {},
  ) {
    this.idleMs = options.idleMs ?? 2000;
    this.checkMs = options.checkMs ?? 250;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.check(), this.checkMs);
    this.timer.unref(); // never keeps a process alive
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One look at the store: compacts when it has been idle long enough and has work. */
  check(now = performance.now()): CompactionStats | undefined {
    const store = this.store();
    if (!store) return undefined;
    if (store !== this.seenStore || store.version !== this.seenVersion) {
      this.seenStore = store;
      this.seenVersion = store.version;
      this.settled = false;
      this.changedAt = now;
      return undefined;
    }
    if (this.settled || now - this.changedAt < this.idleMs || now < this.quietUntil) return undefined;
    const due = store.compactionDue();
    if (due.length === 0) {
      this.settled = true;
      return undefined;
    }
    try {
      const stats = store.compact(due);
      this.quietUntil = now + stats.millis * QUIET_FACTOR;
      return stats;
    } catch (err) {
      // Out of memory for the fresh arrays, say: the store is unchanged; try again later.
      this.options.log?.(`idle compaction failed: ${(err as Error).message}`);
      this.quietUntil = now + FAILURE_PAUSE_MS;
      return undefined;
    } finally {
      // Its own publish is no write.
      this.seenVersion = store.version;
    }
  }
}
