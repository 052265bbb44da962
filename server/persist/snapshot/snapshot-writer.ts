// The main-thread side of snapshot writing: hands a snapshot's sections to the writer thread
// (write-worker.ts) and waits for the folder to be durable. A store's pinned version goes
// over as its address in the shared memory: the worker serialises it itself, so the image
// costs the main thread (which answers requests) nothing, and the worker runs at a lower
// scheduling priority. Other sections go chunk by chunk (up to MAX_IN_FLIGHT_BYTES ahead of
// the disk), and the writing then proceeds in the worker however busy the main thread is.
import type { Worker } from "node:worker_threads";
import { startWorker } from "../../../runtime-wasm/start-worker.js";
import type { ManifestSection } from "./manifest.js";
import type { StoreImageSource } from "./snapshot-store.js";
import type { WriterReply, WriterRequest } from "./write-worker.js";

/** What one write is asked to do (SnapshotStore builds it). */
export interface WriteJob {
  parent: string;
  final: string;
  temporary: string;
  lsn: number;
  meta: Record<string, unknown>;
  sections: ReadonlyArray<{ name: string; data: Uint8Array | readonly Uint8Array[] | AsyncIterable<Uint8Array> | StoreImageSource }>;
}

/** Bytes handed to the worker and not yet on disk before the reader waits. */
const MAX_IN_FLIGHT_BYTES = 256 << 20;
/** Larger pieces are split so the worker's progress (and credit) stays fine-grained. */
const PIECE_BYTES = 8 << 20;

export class SnapshotWriter {
  private worker: Worker | undefined;
  /** One snapshot at a time: each write waits for the previous one. */
  private queue: Promise<unknown> = Promise.resolve();

  /** Writes the snapshot folder; resolves with its sections (those already there if it existed). */
  write(job: WriteJob): Promise<{ sections: ManifestSection[]; existed: boolean }> {
    const run = this.queue.then(() => this.run(job));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Starts the writer thread ahead of the first snapshot (it takes a moment to load). */
  warmUp(): void {
    this.start();
  }

  /** Stops the writer thread (after the write in progress, if any). */
  async close(): Promise<void> {
    await this.queue;
    await this.worker?.terminate();
    this.worker = undefined;
  }

  private async run(job: WriteJob): Promise<{ sections: ManifestSection[]; existed: boolean }> {
    const worker = this.start();
    worker.ref(); // a pending write must keep the process alive until the folder is durable
    let inFlight = 0;
    let wakeReader: (() => void) | undefined;
    let outcome: WriterReply | undefined;
    let settle!: (reply: WriterReply) => void;
    const finished = new Promise<WriterReply>((resolve) => (settle = resolve));
    let abortDone: (() => void) | undefined;
    const onMessage = (reply: WriterReply) => {
      if (reply.op === "written") inFlight -= reply.bytes;
      else if (reply.op === "aborted") abortDone?.();
      else {
        outcome = reply;
        settle(reply);
        // A dead thread answers no abort either.
        if (reply.op === "failed" && reply.message.startsWith("snapshot writer thread")) abortDone?.();
      }
      if (wakeReader && (inFlight <= MAX_IN_FLIGHT_BYTES / 2 || outcome)) {
        wakeReader();
        wakeReader = undefined;
      }
    };
    const onError = (err: Error) => onMessage({ op: "failed", message: `snapshot writer thread failed: ${err.message}` });
    const onExit = (code: number) => onMessage({ op: "failed", message: `snapshot writer thread exited (${code})` });
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    const send = (request: WriterRequest, transfer?: ArrayBuffer[]) => worker.postMessage(request, transfer);
    try {
      send({ op: "start", parent: job.parent, final: job.final, temporary: job.temporary });
      for (const section of job.sections) {
        if (isStoreImage(section.data)) {
          // Shared, not copied: the memory is a SharedArrayBuffer, the rest plain data.
          send({ op: "image", name: section.name, image: section.data.storeImage });
          continue;
        }
        send({ op: "open", name: section.name });
        const parts = section.data instanceof Uint8Array ? [section.data] : section.data;
        for await (const part of parts) {
          for (let at = 0; at < part.length; at += PIECE_BYTES) {
            // A copy of just this piece (never the caller's whole buffer, which may be a
            // view into a 4 GiB memory), transferred to the worker without a second copy.
            const piece = new Uint8Array(Math.min(PIECE_BYTES, part.length - at));
            piece.set(part.subarray(at, at + piece.length));
            inFlight += piece.length;
            send({ op: "chunk", bytes: piece }, [piece.buffer as ArrayBuffer]);
            if (inFlight > MAX_IN_FLIGHT_BYTES && !outcome) await new Promise<void>((resolve) => (wakeReader = resolve));
            if (outcome?.op === "failed") throw new Error(outcome.message);
          }
        }
        send({ op: "close" });
      }
      send({ op: "finish", lsn: job.lsn, meta: job.meta });
      const reply = await finished;
      if (reply.op === "failed") throw new Error(reply.message);
      if (reply.op !== "done") throw new Error(`snapshot writer answered ${reply.op}`);
      return { sections: reply.sections, existed: reply.existed };
    } catch (err) {
      // Wait until the worker has dropped the temporary folder, so nothing half-written lingers.
      await new Promise<void>((resolve) => {
        abortDone = resolve;
        send({ op: "abort" });
      });
      throw err;
    } finally {
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      worker.unref();
    }
  }

  private start(): Worker {
    if (!this.worker) {
      this.worker = startWorker(new URL("./write-worker.js", import.meta.url));
      this.worker.unref();
      this.worker.once("exit", () => (this.worker = undefined));
    }
    return this.worker;
  }
}

function isStoreImage(data: WriteJob["sections"][number]["data"]): data is StoreImageSource {
  return typeof data === "object" && data !== null && "storeImage" in data;
}
