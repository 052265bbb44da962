// The durability layer a running engine talks to: records each applied command in the
// write-ahead log (resolving once it is durable, or at once for ack=none), takes snapshots
// in the background when the log has grown, and trims old snapshots and log segments.
// Created by recover() (recovery.ts), which first brings the state back from disk.
import { RestError } from "../http/rest-error.js";
import { encodeCommand, type CommandValue } from "./command-codec.js";
import type { DataDirectory } from "./data-directory.js";
import type { PersistentState } from "./persistent-state.js";
import type { SnapshotEntry, SnapshotStore } from "./snapshot/snapshot-store.js";
import { durableWritesMiddleware } from "./request-durability.js";
import { replayWeight, snapshotThreshold } from "./snapshot-policy.js";
import { voidRecord } from "./void-record.js";
import { MAX_PAYLOAD_BYTES } from "./wal/record-format.js";
import type { WriteAheadLog } from "./wal/write-ahead-log.js";

/** all: answer after the change is durable. none: answer at once (the interface's ack=none). */
export type Ack = "all" | "none";

export interface PersistenceOptions {
  /**
   * Snapshot in the background once the log grew by this many bytes since the last
   * snapshot, or by a quarter of that snapshot's size if more (default 8 MiB; 0: never
   * automatically). REST upserts count their items, as replaying them costs (snapshot-policy.ts).
   */
  snapshotEveryBytes?: number;
  /** Complete snapshots kept: the newest plus older ones to fall back on (default 2). */
  keepSnapshots?: number;
  /** Snapshot on a clean close when the log grew since the last one, so the next start is fast (default true). */
  snapshotOnClose?: boolean;
  /** Size at which a log segment is closed and a new one started (default 64 MiB). */
  segmentBytes?: number;
  /** Largest encoded change accepted (default and most: 1 GiB, what a log record can hold). */
  maxRecordBytes?: number;
  /** When another server holds the data directory, wait for it to stop instead of failing. */
  waitForLock?: boolean;
  /** Where background events (snapshots taken, failures) are reported. */
  log?: (line: string) => void;
}

/**
 * A change that cannot be (or was not) made durable. A RestError, so clients get the
 * interface's envelope with this message: status 503 when the log failed, 413 when the
 * change is too large to log.
 */
export class DurabilityError extends RestError {
  constructor(message: string, status = 503) {
    super(status, status === 503 ? "REST-5000" : "REST-30000", message);
    this.name = "DurabilityError";
  }
}

export interface SnapshotResult extends SnapshotEntry {
  bytes: number;
  millis: number;
}

export class Persistence {
  private running: Promise<SnapshotResult | undefined> | undefined;
  /** Log growth since opening, as snapshot-policy.ts weighs it, and its value at the last snapshot. */
  private loggedWeight = 0;
  private weightAtLastSnapshot = 0;
  private closed = false;

  constructor(
    readonly dataDir: DataDirectory,
    private readonly log: WriteAheadLog,
    private readonly snapshots: SnapshotStore,
    private readonly state: PersistentState,
    private readonly options: PersistenceOptions,
    private lastSnapshotLsn: number,
    private lastSnapshotBytes: number,
    /** Bytes of log recovery replayed after the snapshot: they count towards the next one. */
    replayedBytes = 0,
  ) {
    this.loggedWeight = replayedBytes;
    if (snapshotThreshold(options, lastSnapshotBytes) !== Infinity || (options.snapshotOnClose ?? true)) snapshots.warmUp();
  }

  /** Position of the last recorded command. */
  get lastLsn(): number {
    return this.log.lastLsn;
  }

  /** Whether a snapshot is being taken now (one starts in the turn its threshold is passed). */
  get snapshotInProgress(): boolean {
    return this.running !== undefined;
  }

  /** Group-commit counters of the log (batches, records, bytes written). */
  get logStats(): Readonly<WriteAheadLog["stats"]> {
    return this.log.stats;
  }

  /**
   * Records a command the engine has just applied. Call it in the same synchronous turn as
   * the apply, so log order is apply order and a snapshot never sees half a command.
   * Resolves with the command's log position once it is durable (ack "all"), or at once
   * (ack "none"). Throws if the log can no longer be written: the change must not be
   * acknowledged then.
   */
  record(command: CommandValue, ack: Ack = "all"): Promise<number> {
    const lsn = this.append(command);
    return ack === "none" ? Promise.resolve(lsn) : this.log.waitDurable(lsn).then(() => lsn);
  }

  /**
   * Appends a command without waiting and returns its log position. Inside an HTTP request
   * the position is noted, so the durability middleware waits for it before answering.
   */
  append(command: CommandValue): number {
    return this.prepare(command)();
  }

  /**
   * The first half of append, for callers that apply a command between the two: checks the
   * log can take it, encodes it and appends it now (throwing DurabilityError, with nothing
   * appended, when it cannot be logged), so its write and sync run on the disk while the
   * caller applies it. Call the returned step once the command applied (it returns the log
   * position), or its `refused` when the apply threw: that appends a void record, and replay
   * skips both. Either in the same turn as this call.
   */
  prepare(command: CommandValue): (() => number) & { refused: () => void } {
    this.assertWritable();
    const payload = encodeCommand(command);
    const limit = Math.min(this.options.maxRecordBytes ?? MAX_PAYLOAD_BYTES, MAX_PAYLOAD_BYTES);
    if (payload.length > limit) {
      throw new DurabilityError(
        `This change is ${payload.length} bytes once encoded for the write-ahead log, more than its limit of ${limit} bytes; send it in smaller requests.`,
        413,
      );
    }
    const lsn = this.log.append(payload);
    this.loggedWeight += replayWeight(command, payload.length);
    const applied = () => {
      this.snapshotIfDue();
      return lsn;
    };
    // The refusal answers only once the void is durable too (the request waits for it), so
    // a client told "refused" never finds the command applied after a crash.
    const refused = () => {
      const voided = encodeCommand(voidRecord(lsn));
      this.loggedWeight += voided.length;
      this.log.append(voided);
    };
    return Object.assign(applied, { refused });
  }

  /**
   * Throws when changes can no longer be made durable (the log failed or is closed): the
   * engine checks this before changing anything, so the server turns read-only rather than
   * acknowledge what it cannot keep.
   */
  assertWritable(): void {
    const reason = this.closed ? "the data directory is closed" : this.log.unwritableReason;
    if (reason) throw new DurabilityError(`Changes cannot be made durable, so none are accepted: ${reason}`);
  }

  /** Resolves once the record at `lsn` (and every one before it) is durable. */
  waitDurable(lsn: number): Promise<void> {
    return this.log.waitDurable(lsn);
  }

  /** Koa middleware that holds each response until the request's writes are durable (unless ack=none). */
  requestMiddleware() {
    const log = this.log;
    return durableWritesMiddleware({
      get lastLsn() {
        return log.lastLsn;
      },
      waitDurable: (lsn) =>
        log.waitDurable(lsn).catch((err: unknown) => {
          throw new DurabilityError(`The change was applied but could not be made durable and may be lost on restart: ${messageOf(err)}`);
        }),
    });
  }

  /** Waits until every recorded command is durable (also those recorded with ack "none"). */
  sync(): Promise<void> {
    return this.log.sync();
  }

  /**
   * Takes a snapshot now, in the background of reads and writes: the state is pinned in
   * this turn, then written while commands go on. Concurrent calls share one snapshot.
   * Resolves with undefined when nothing changed since the last snapshot.
   */
  snapshot(): Promise<SnapshotResult | undefined> {
    if (!this.running) {
      this.running = this.takeSnapshot().finally(() => {
        this.running = undefined;
        // Writes went on while it was written: if they already make the next one due, start it.
        if (!this.closed) this.snapshotIfDue();
      });
    }
    return this.running;
  }

  /** Finishes a running snapshot, takes a last one if configured, and closes the log. */
  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.running?.catch(() => undefined);
      if ((this.options.snapshotOnClose ?? true) && this.log.lastLsn > this.lastSnapshotLsn) {
        await this.snapshot().catch((err: unknown) => this.report(`snapshot on close failed: ${messageOf(err)}`));
      }
      this.closed = true;
      await this.log.close();
    } finally {
      this.closed = true;
      await this.snapshots.close();
      await this.dataDir.release();
    }
  }

  private snapshotIfDue(): void {
    if (this.running) return;
    if (this.loggedWeight - this.weightAtLastSnapshot < snapshotThreshold(this.options, this.lastSnapshotBytes)) return;
    this.snapshot().catch((err: unknown) => this.report(`background snapshot failed: ${messageOf(err)}`));
  }

  private async takeSnapshot(): Promise<SnapshotResult | undefined> {
    const started = performance.now();
    // Read the position and pin the state in the same turn: they describe the same moment.
    const lsn = this.log.lastLsn;
    if (lsn === this.lastSnapshotLsn) return undefined;
    const pinned = this.state.pin();
    this.weightAtLastSnapshot = this.loggedWeight;
    try {
      // New records go to a fresh segment, so the ones before can be removed later as a whole.
      await this.log.rotate();
      // Never let a snapshot hold a change the log might still lose.
      await this.log.waitDurable(lsn);
      const written = await this.snapshots.write({ lsn, sections: pinned.sections, meta: pinned.meta });
      this.lastSnapshotLsn = lsn;
      this.lastSnapshotBytes = written.bytes;
      await this.trim();
      const result = { ...written, millis: performance.now() - started };
      this.report(`snapshot at log position ${lsn}: ${written.bytes} bytes in ${result.millis.toFixed(0)} ms`);
      return result;
    } finally {
      pinned.release?.();
    }
  }

  /** Old snapshots beyond the kept ones go, then log segments none of the kept ones needs. */
  private async trim(): Promise<void> {
    await this.snapshots.prune(this.options.keepSnapshots ?? 2);
    const kept = await this.snapshots.list();
    const oldest = kept[kept.length - 1];
    if (oldest) await this.log.removeThrough(oldest.lsn);
  }

  private report(line: string): void {
    this.options.log?.(line);
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
