// The reader thread of a large file load: reads and parses the file through the compiled job
// (the same readSource the request thread uses) while the load applies and logs the batches
// it sent before, so parsing and writing run on two cores. Batches go out in file order, at
// the same chunk ends as an in-thread read would write them. The thread reads one file per
// start message and then waits for the next, so a process keeps one ready (read-in-thread.ts)
// and a load does not wait for a thread to start and load its code.
import { parentPort } from "node:worker_threads";
import { graphView } from "../../../runtime-wasm/schema/lookup.js";
import { compileJob } from "../compile/job.js";
import { LoadError } from "../errors.js";
import { readSource, type Interruption } from "../read-source.js";
import { batchLimit, batchSize, emptyBatch, type IdColumn, type LoadBatch } from "../sink.js";
import { TypedBatch } from "./typed-batch.js";
import { encodeLoadBatchCommand } from "../../persist/load-batch-codec.js";
import { CONTROL_APPLIED, CONTROL_INTERRUPT, MAX_BATCHES_AHEAD, type ReaderMessage, type ReaderStart } from "./protocol.js";

const port = parentPort!;
const post = (message: ReaderMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

async function readFile(start: ReaderStart): Promise<void> {
  const control = new Int32Array(start.control);
  const view = graphView(start.schema, start.plan.graph);
  if (!view) throw new LoadError(`Graph ${start.plan.graph} does not exist.`);
  const js = compileJob(start.plan, view).sources.find((s) => s.variable === start.variable);
  if (!js) throw new LoadError(`The loading job ${start.plan.name} has no LOAD statement reading the file variable ${start.variable}.`);
  // Each chunk's objects go to a small batch of their own, then into the typed batch.
  let chunk = emptyBatch();
  const batch = new TypedBatch();
  let sent = 0;
  let held = start.heldObjects;
  const read = await readSource(js, { kind: "path", path: start.path }, start.sourceName, start.options, {
    batch: () => chunk,
    interruption: () => INTERRUPTIONS[Atomics.load(control, CONTROL_INTERRUPT)],
    chunkDone: async (progress) => {
      batch.add(chunk);
      chunk = emptyBatch();
      post({ kind: "progress", progress });
      if (held + batch.size < batchLimit(start.flushObjects, sent)) return;
      held = 0;
      waitForRoom(control, sent);
      const { message, transfer } = batchMessage(start, batch.take());
      post(message, transfer);
      sent++;
    },
  });
  batch.add(chunk);
  const rest = batch.take();
  // The rest goes out encoded too: when the load writes it as it is, the log takes this payload.
  const restMessage = batchSize(rest) > 0 ? batchMessage(start, rest) : undefined;
  post({ kind: "done", read, rest, restPayload: restMessage?.message.logPayload }, restMessage?.transfer);
}

/**
 * A batch as it crosses to the applying thread: its log record encoded here (that work leaves
 * the applying thread), and id columns of numbers as Float64Array (typed-batch.ts makes most
 * of them so; an array of numbers would be copied value by value on both sides). The record's
 * and the columns' memory is handed over (`transfer`), not copied: this thread is done with them.
 */
function batchMessage(start: ReaderStart, batch: LoadBatch): { message: Extract<ReaderMessage, { kind: "batch" }>; transfer: ArrayBuffer[] } {
  const transfer: ArrayBuffer[] = [];
  let logPayload: Uint8Array | undefined;
  if (start.logGraph !== undefined) {
    const encoded = encodeLoadBatchCommand({ kind: "load-batch", graph: start.logGraph, batch });
    logPayload = new Uint8Array(encoded.buffer, encoded.byteOffset, encoded.byteLength);
    // A small record may sit in Node's shared Buffer pool: that one is copied.
    if (encoded.buffer.byteLength > Buffer.poolSize) transfer.push(encoded.buffer as ArrayBuffer);
  }
  for (const run of batch.edgeRuns) {
    run.from = numberColumn(run.from);
    run.to = numberColumn(run.to);
    if (run.from instanceof Float64Array) transfer.push(run.from.buffer as ArrayBuffer);
    if (run.to instanceof Float64Array) transfer.push(run.to.buffer as ArrayBuffer);
  }
  return { message: { kind: "batch", batch, logPayload }, transfer };
}

function numberColumn(column: IdColumn): IdColumn {
  if (!Array.isArray(column)) return column;
  const packed = new Float64Array(column.length);
  for (let i = 0; i < column.length; i++) {
    const id = column[i];
    if (typeof id !== "number") return column;
    packed[i] = id;
  }
  return packed;
}

const INTERRUPTIONS: (Interruption | undefined)[] = [undefined, "timeout", "aborted"];

/** Blocks while MAX_BATCHES_AHEAD sent batches are not applied yet (memory stays bounded). */
function waitForRoom(control: Int32Array, sent: number): void {
  for (;;) {
    const applied = Atomics.load(control, CONTROL_APPLIED);
    if (sent - applied < MAX_BATCHES_AHEAD) return;
    Atomics.wait(control, CONTROL_APPLIED, applied, 1000);
  }
}

function describe(err: unknown): Extract<ReaderMessage, { kind: "error" }>["error"] {
  if (err instanceof LoadError) return { name: err.name, message: err.message, line: err.line, loadKind: err.kind };
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { name: "Error", message: String(err) };
}

// One read at a time: the load sends the next start only after this one's "done" or "error".
port.on("message", (start: ReaderStart) => {
  readFile(start).catch((err: unknown) => post({ kind: "error", error: describe(err) }));
});
post({ kind: "ready" });

