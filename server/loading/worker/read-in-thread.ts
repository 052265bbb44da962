// The load side of reading a file in a reader thread (reader-thread.ts): starts the thread,
// applies the batches it sends in order (one at a time, counting each in the control words
// so the thread never runs more than MAX_BATCHES_AHEAD ahead), passes on progress, and
// forwards a time limit or a user's stop. What reaches the store, and in which order, is
// what an in-thread read writes; the difference is that parsing the next chunks overlaps
// applying and logging the previous ones. A thread that finished a read cleanly stays, idle
// and unreferenced, for the next load (warmReaderThread starts one ahead of the first), so a
// load does not wait tens of milliseconds for a thread to start and load its code.
import type { Worker } from "node:worker_threads";
import { startWorker } from "../../../runtime-wasm/start-worker.js";
import { LoadError, type LoadErrorKind } from "../errors.js";
import type { Interruption, ReadProgress, SourceReadResult } from "../read-source.js";
import type { LoadBatch } from "../sink.js";
import { noteEncodedLoadBatch } from "../../persist/load-batch-codec.js";
import { CONTROL_APPLIED, CONTROL_INTERRUPT, CONTROL_WORDS, type ReaderMessage, type ReaderStart } from "./protocol.js";

/** What the reader thread is started with, less the control words this side makes. */
export type ThreadReadRequest = Omit<ReaderStart, "control">;

export interface ThreadReadHooks {
  /** Writes a batch the thread sent (after whatever the load holds unwritten). */
  write(batch: LoadBatch): Promise<void>;
  /**
   * Keeps the objects read after the last full batch, for the load's next write; `logged`, the
   * rest's log record, holds while that write is the rest alone.
   */
  keep(rest: LoadBatch, logged?: { graph: string; payload: Uint8Array }): void;
  interruption(): Interruption | undefined;
  progress(progress: ReadProgress): void;
}

const INTERRUPT_CODES: Record<Interruption, number> = { timeout: 1, aborted: 2 };

export async function readInThread(request: ThreadReadRequest, hooks: ThreadReadHooks): Promise<SourceReadResult> {
  const control = new Int32Array(new SharedArrayBuffer(CONTROL_WORDS * 4));
  const start: ReaderStart = { ...request, control: control.buffer as SharedArrayBuffer };
  const worker = takeReaderThread();
  const inbox = new Inbox(worker);
  let reusable = false;
  worker.postMessage(start);
  const forward = () => {
    const interruption = hooks.interruption();
    if (interruption !== undefined && Atomics.load(control, CONTROL_INTERRUPT) === 0) Atomics.store(control, CONTROL_INTERRUPT, INTERRUPT_CODES[interruption]);
  };
  try {
    for (;;) {
      forward();
      const message = await inbox.next(forward);
      switch (message.kind) {
        case "ready":
          break;
        case "progress":
          hooks.progress(message.progress);
          break;
        case "batch":
          if (message.logPayload !== undefined && request.logGraph !== undefined) noteEncodedLoadBatch(request.logGraph, message.batch, message.logPayload);
          await hooks.write(message.batch);
          Atomics.add(control, CONTROL_APPLIED, 1);
          Atomics.notify(control, CONTROL_APPLIED);
          // Let other requests run between batches of a long load.
          await new Promise((resolve) => setImmediate(resolve));
          break;
        case "done":
          // The thread has finished this read and waits for the next start.
          reusable = true;
          hooks.keep(message.rest, message.restPayload !== undefined && request.logGraph !== undefined ? { graph: request.logGraph, payload: message.restPayload } : undefined);
          return message.read;
        case "error": {
          const e = message.error;
          if (e.name === "LoadError") throw new LoadError(e.message, e.line, e.loadKind as LoadErrorKind | undefined);
          throw Object.assign(new Error(e.message), { name: e.name });
        }
      }
    }
  } finally {
    inbox.close();
    // Any other end (an error, a failed write) may leave the thread mid-read: it goes.
    if (!reusable || !keepIdle(worker)) await worker.terminate();
  }
}

/** The idle reader thread this process keeps, if any, and when it has loaded its code. */
let idle: Worker | undefined;
let idleReady: Promise<void> = Promise.resolve();

function startReaderThread(): Worker {
  const worker = startWorker(new URL("./reader-thread.js", import.meta.url));
  worker.on("error", () => undefined);
  worker.on("exit", () => {
    if (idle === worker) idle = undefined;
  });
  return worker;
}

/**
 * Starts the idle reader thread when there is none, so that the next file load finds it
 * ready; resolves once it has loaded its code (or stopped: a load then starts another).
 */
export function warmReaderThread(): Promise<void> {
  if (idle !== undefined) return idleReady;
  const worker = startReaderThread();
  worker.unref();
  idle = worker;
  idleReady = new Promise<void>((resolve) => {
    worker.once("message", () => resolve());
    worker.once("exit", () => resolve());
  });
  return idleReady;
}

/** The idle thread's id, if there is one (tests check which thread a load used and kept). */
export function idleReaderThreadId(): number | undefined {
  return idle?.threadId;
}

function takeReaderThread(): Worker {
  const worker = idle ?? startReaderThread();
  idle = undefined;
  worker.ref();
  return worker;
}

/** Keeps a thread that finished its read as the idle one; false when there already is one. */
function keepIdle(worker: Worker): boolean {
  if (idle !== undefined) return false;
  worker.unref();
  idle = worker;
  idleReady = Promise.resolve();
  return true;
}

/** The thread's messages in order, with its failure (or an exit before "done") as an error. */
class Inbox {
  private readonly queue: ReaderMessage[] = [];
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  private readonly ticker: NodeJS.Timeout;
  private onTick: (() => void) | undefined;
  private readonly onMessage = (m: ReaderMessage) => this.push(m);
  private readonly onError = (err: Error) => this.fail(err);
  private readonly onExit = (code: number) => this.fail(new Error(`The reader thread of the load stopped early (exit code ${code}).`));

  constructor(private readonly worker: Worker) {
    worker.on("message", this.onMessage);
    worker.on("error", this.onError);
    worker.on("exit", this.onExit);
    // While waiting, a time limit or a stop reaches the thread within a tick.
    this.ticker = setInterval(() => this.onTick?.(), 50);
    this.ticker.unref();
  }

  async next(onTick: () => void): Promise<ReaderMessage> {
    this.onTick = onTick;
    while (this.queue.length === 0) {
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    return this.queue.shift()!;
  }

  close(): void {
    clearInterval(this.ticker);
    this.worker.off("message", this.onMessage);
    this.worker.off("error", this.onError);
    this.worker.off("exit", this.onExit);
  }

  private push(m: ReaderMessage): void {
    this.queue.push(m);
    this.wake?.();
  }

  private fail(err: Error): void {
    this.failure ??= err;
    this.wake?.();
  }
}
