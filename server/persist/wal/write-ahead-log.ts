// The write-ahead log: every acknowledged change is appended here as one record before
// its answer goes out. Appends made while a write is in flight are batched into the next
// single write + fdatasync (group commit), so many concurrent requests share one fsync.
// Segments rotate at a size limit; a torn final batch is cut off on open; damage anywhere
// else is refused with the file and offset (see segment-scan.ts).
// Segments are opened with O_DSYNC where the platform has it, so one write call is also the
// sync, and an append made while the log is idle issues that write at once, in the caller's
// turn: the disk works while the caller goes on (the engine applies the command).
import { constants as fsConstants, promises as fsp } from "node:fs";
import path from "node:path";
import { ensureDirectory, fsyncDirectory } from "../durable-fs.js";
import { encodeBatch, encodeSegmentHeader, MAX_PAYLOAD_BYTES, SEGMENT_HEADER_BYTES, type WalRecord } from "./record-format.js";
import { scanSegment, WalCorruptionError, type TornTail } from "./segment-scan.js";

export { WalCorruptionError } from "./segment-scan.js";
export type { WalRecord } from "./record-format.js";

export interface WalOptions {
  /** Start a new segment once the current one holds this many bytes (default 64 MiB). */
  segmentBytes?: number;
  /** Position of the first record when the directory holds no segment yet (default 1). */
  firstLsn?: number;
  /** Bytes of payload written per batch at most, so one huge burst does not delay all (default 16 MiB). */
  maxBatchBytes?: number;
}

/** What opening found: torn tails cut off are reported so the operator can see them. */
export interface WalOpenReport {
  segments: number;
  lastLsn: number;
  torn?: TornTail & { file: string };
}

interface Segment {
  firstLsn: number;
  file: string;
}

interface DurableWaiter {
  lsn: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

const SEGMENT_NAME = /^(\d{20})\.wal$/;

/** Writes are durable when the call returns (0 where the platform has no O_DSYNC: fdatasync after each write). */
const DSYNC = fsConstants.O_DSYNC ?? 0;

export function segmentFileName(firstLsn: number): string {
  return `${String(firstLsn).padStart(20, "0")}.wal`;
}

export class WriteAheadLog {
  private queue: Uint8Array[] = [];
  private flushScheduled = false;
  /** Every file operation runs on this chain, one after another. */
  private io: Promise<void> = Promise.resolve();
  /** File operations started and not yet finished: none means the next one may start in this turn. */
  private ioInFlight = 0;
  /**
   * Set from a batch's waiters being released until the next event-loop turn: writers that
   * answered by appending again in that turn all join one batch instead of the first
   * going out alone.
   */
  private releasedThisTurn = false;
  private waiters: DurableWaiter[] = [];
  private failure: Error | undefined;
  private closed = false;
  private assignedLsn: number;
  private writtenLsn: number;
  private appended = 0;
  /** Counts for benches and tests: how well group commit batches. */
  readonly stats = { batches: 0, records: 0, bytes: 0 };

  private constructor(
    readonly dir: string,
    private segments: Segment[],
    private handle: fsp.FileHandle,
    private size: number,
    lastLsn: number,
    private readonly options: Required<Omit<WalOptions, "firstLsn">>,
    readonly openReport: WalOpenReport,
  ) {
    this.assignedLsn = lastLsn;
    this.writtenLsn = lastLsn;
  }

  /** Opens (or creates) the log in `dir`, cutting off a torn tail of the newest segment. */
  static async open(dir: string, options: WalOptions = {}): Promise<WriteAheadLog> {
    const settings = { segmentBytes: options.segmentBytes ?? 64 << 20, maxBatchBytes: options.maxBatchBytes ?? 16 << 20 };
    await ensureDirectory(dir);
    const segments = await listSegments(dir);
    if (segments.length === 0) {
      const firstLsn = options.firstLsn ?? 1;
      const segment = { firstLsn, file: path.join(dir, segmentFileName(firstLsn)) };
      const handle = await createSegmentFile(segment);
      const report = { segments: 1, lastLsn: firstLsn - 1 };
      return new WriteAheadLog(dir, [segment], handle, SEGMENT_HEADER_BYTES, firstLsn - 1, settings, report);
    }
    const last = segments[segments.length - 1]!;
    const bytes = await fsp.readFile(last.file);
    const scan = scanSegment(bytes, last.file, last.firstLsn, true);
    const handle = await fsp.open(last.file, fsConstants.O_RDWR | DSYNC);
    let size = scan.validEnd;
    if (scan.torn) {
      if (size < SEGMENT_HEADER_BYTES) {
        await handle.write(encodeSegmentHeader(last.firstLsn), 0, SEGMENT_HEADER_BYTES, 0);
        size = SEGMENT_HEADER_BYTES;
      }
      await handle.truncate(size);
      await handle.sync();
    }
    const lastLsn = scan.records.length ? scan.records[scan.records.length - 1]!.lsn : last.firstLsn - 1;
    const report: WalOpenReport = { segments: segments.length, lastLsn };
    if (scan.torn) report.torn = { ...scan.torn, file: last.file };
    return new WriteAheadLog(dir, segments, handle, size, lastLsn, settings, report);
  }

  /** Position of the last record appended (durable or not). 0 when the log was always empty. */
  get lastLsn(): number {
    return this.assignedLsn;
  }

  /** Position of the last record known to be on stable storage. */
  get durableLsn(): number {
    return this.writtenLsn;
  }

  /** Position of the oldest record still kept: records before it were removed after a snapshot. */
  get firstAvailableLsn(): number {
    return this.segments[0]!.firstLsn;
  }

  /** Why the log cannot take records any more (closed, or an I/O error); undefined while it can. */
  get unwritableReason(): string | undefined {
    if (this.failure) return this.failure.message;
    return this.closed ? "write-ahead log is closed" : undefined;
  }

  /** Payload bytes appended since the log was opened. */
  get appendedBytes(): number {
    return this.appended;
  }

  /**
   * Queues one record and returns its position at once. The record goes out with the next
   * batch; call waitDurable(lsn) to wait until it is on stable storage.
   */
  append(payload: Uint8Array): number {
    if (this.failure) throw this.failure;
    if (this.closed) throw new Error("write-ahead log is closed");
    // A longer record would read back as damage and stop the next start.
    if (payload.length > MAX_PAYLOAD_BYTES) throw new RangeError(`a log record of ${payload.length} bytes is over the limit of ${MAX_PAYLOAD_BYTES}`);
    this.queue.push(payload);
    this.appended += payload.length;
    this.assignedLsn++;
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      void this.enqueueIo(() => this.flushQueue(), !this.releasedThisTurn);
    }
    return this.assignedLsn;
  }

  /** Resolves once the record at `lsn` (and so every record before it) is durable. */
  waitDurable(lsn: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (lsn <= this.writtenLsn) return Promise.resolve();
    if (lsn > this.assignedLsn) return Promise.reject(new Error(`log position ${lsn} was never appended`));
    return new Promise((resolve, reject) => this.waiters.push({ lsn, resolve, reject }));
  }

  /** Waits until everything appended so far is durable. */
  sync(): Promise<void> {
    return this.waitDurable(this.assignedLsn);
  }

  /**
   * Reads back every record after `afterLsn`, in order, validating each. Damage found here
   * is never a torn tail (that was cut off on open), so it throws WalCorruptionError.
   */
  async *read(afterLsn: number): AsyncGenerator<WalRecord> {
    await this.sync();
    const segments = [...this.segments];
    if (segments[0]!.firstLsn > afterLsn + 1) {
      throw new Error(
        `write-ahead log in ${this.dir} starts at position ${segments[0]!.firstLsn}, ` +
          `but replay needs every record after position ${afterLsn}`,
      );
    }
    let expected = afterLsn + 1;
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i]!;
      const next = segments[i + 1];
      if (next && next.firstLsn <= expected) continue;
      if (segment.firstLsn > expected) {
        throw new WalCorruptionError(segment.file, 0, `records ${expected} to ${segment.firstLsn - 1} are missing`);
      }
      const bytes = await fsp.readFile(segment.file);
      const isCurrent = i === segments.length - 1;
      const scan = scanSegment(isCurrent ? bytes.subarray(0, this.size) : bytes, segment.file, segment.firstLsn, false);
      for (const record of scan.records) {
        if (record.lsn < expected) continue;
        expected = record.lsn + 1;
        yield { lsn: record.lsn, payload: record.payload };
      }
      if (next && expected !== next.firstLsn) {
        throw new WalCorruptionError(segment.file, scan.validEnd, `segment ends at position ${expected - 1} but the next starts at ${next.firstLsn}`);
      }
    }
  }

  /** Closes the current segment and starts a new one (when the current one holds records). */
  rotate(): Promise<void> {
    return this.enqueueIo(async () => {
      if (this.size > SEGMENT_HEADER_BYTES) await this.startNextSegment();
    });
  }

  /** Removes segments whose records all lie at or before `lsn`; the current one always stays. */
  removeThrough(lsn: number): Promise<string[]> {
    return this.enqueueIo(async () => {
      const removed: string[] = [];
      while (this.segments.length > 1 && this.segments[1]!.firstLsn - 1 <= lsn) {
        const old = this.segments.shift()!;
        await fsp.rm(old.file, { force: true });
        removed.push(old.file);
      }
      if (removed.length) await fsyncDirectory(this.dir);
      return removed;
    });
  }

  /** Writes what is queued, then closes the file. Appends after this throw. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.io;
    await this.handle.close();
    if (this.failure) throw this.failure;
  }

  /** Runs `op` after every file operation before it; at once, in this turn, when none is in progress (and `startIfIdle`). */
  private enqueueIo<T>(op: () => Promise<T>, startIfIdle = true): Promise<T> {
    const guarded = () => {
      if (this.failure) throw this.failure;
      return op();
    };
    this.ioInFlight++;
    const run = this.ioInFlight === 1 && startIfIdle ? startNow(guarded) : this.io.then(guarded);
    this.io = run.then(
      () => void this.ioInFlight--,
      (err: unknown) => {
        this.ioInFlight--;
        this.fail(err);
      },
    );
    return run;
  }

  /** One group commit: everything queued (up to maxBatchBytes) in one durable write. */
  private async flushQueue(): Promise<void> {
    this.flushScheduled = false;
    try {
      while (this.queue.length > 0 && !this.failure) {
        const batch = this.takeBatch();
        const firstLsn = this.writtenLsn + 1;
        const bytes = encodeBatch(firstLsn, batch);
        for (let written = 0; written < bytes.length; ) {
          const { bytesWritten } = await this.handle.write(bytes, written, bytes.length - written, this.size + written);
          written += bytesWritten;
        }
        if (DSYNC === 0) await this.handle.datasync();
        this.size += bytes.length;
        this.stats.batches++;
        this.stats.records += batch.length;
        this.stats.bytes += bytes.length;
        this.writtenLsn = firstLsn + batch.length - 1;
        const released = this.releaseWaiters();
        if (this.size >= this.options.segmentBytes) await this.startNextSegment();
        // Writers just released may append again in this turn: let them join the next batch
        // with those already queued, so writers in lockstep never settle into two half batches.
        if (released && this.queue.length > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } catch (err) {
      this.fail(err);
    }
  }

  private takeBatch(): Uint8Array[] {
    let count = 0;
    let bytes = 0;
    while (count < this.queue.length && (count === 0 || bytes + this.queue[count]!.length <= this.options.maxBatchBytes)) {
      bytes += this.queue[count]!.length;
      count++;
    }
    // What does not fit stays queued: the loop in flushQueue writes it as the next batch.
    return this.queue.splice(0, count);
  }

  /** Resolves the waiters of every durable record; returns whether there were any. */
  private releaseWaiters(): boolean {
    if (this.waiters.length === 0) return false;
    const still: DurableWaiter[] = [];
    for (const waiter of this.waiters) {
      if (waiter.lsn <= this.writtenLsn) waiter.resolve();
      else still.push(waiter);
    }
    if (still.length < this.waiters.length && !this.releasedThisTurn) {
      this.releasedThisTurn = true;
      setImmediate(() => (this.releasedThisTurn = false));
    }
    const released = still.length < this.waiters.length;
    this.waiters = still;
    return released;
  }

  private async startNextSegment(): Promise<void> {
    const segment = { firstLsn: this.writtenLsn + 1, file: path.join(this.dir, segmentFileName(this.writtenLsn + 1)) };
    const handle = await createSegmentFile(segment);
    await this.handle.close();
    this.handle = handle;
    this.size = SEGMENT_HEADER_BYTES;
    this.segments.push(segment);
  }

  /** After an I/O error nothing more can be promised: fail every waiter and every later append. */
  private fail(err: unknown): void {
    if (this.failure) return;
    const cause = err instanceof Error ? err : new Error(String(err));
    this.failure = new Error(`write-ahead log in ${this.dir} failed: ${cause.message}`, { cause });
    for (const waiter of this.waiters) waiter.reject(this.failure);
    this.waiters = [];
  }
}

/** Calls `op` now (it runs to its first await in this turn); a synchronous throw becomes a rejection. */
function startNow<T>(op: () => Promise<T>): Promise<T> {
  try {
    return op();
  } catch (err) {
    return Promise.reject(err);
  }
}

async function listSegments(dir: string): Promise<Segment[]> {
  const names = await fsp.readdir(dir);
  return names
    .map((name) => SEGMENT_NAME.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ firstLsn: Number(m[1]), file: path.join(dir, m[0]) }))
    .sort((a, b) => a.firstLsn - b.firstLsn);
}

/** Creates a segment holding only its header, durable together with its directory entry. */
async function createSegmentFile(segment: Segment): Promise<fsp.FileHandle> {
  const handle = await fsp.open(segment.file, fsConstants.O_RDWR | fsConstants.O_CREAT | fsConstants.O_EXCL | DSYNC);
  await handle.write(encodeSegmentHeader(segment.firstLsn), 0, SEGMENT_HEADER_BYTES, 0);
  await handle.sync();
  await fsyncDirectory(path.dirname(segment.file));
  return handle;
}
