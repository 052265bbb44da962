// A query worker thread: instantiates a compiled query module over the shared graph memory,
// runs it, and turns what it wrote into the results JSON. One run at a time; the pool on
// the main thread stops a run by setting the cancel flag the module checks in its loops
// (or, as a last resort, by terminating this thread).
import { parentPort } from "node:worker_threads";
import { ArenaChunk, Ctl, HOST_MODULE, IMPORT_MEMORY, RUN_EXPORT, RUNTIME_ERROR_MESSAGES, RunStatus, RuntimeError } from "./abi.js";
import { hostImports, RunException, RunFailure, RunState } from "./host-imports.js";
import { readOutputChain } from "./output-chain.js";
import { ParallelRun } from "./parallel-run.js";
import type { FromWorker, RunOutcome, ToWorker } from "./run-types.js";

interface AttachedMemory {
  memory: WebAssembly.Memory;
  control: number;
  /** The memory's job board for SELECT helper threads. */
  board: number;
}

/** Ctl.chunkReply value meaning "no chunk could be lent". */
const NO_CHUNK = 0xffffffff;

const memories = new Map<number, AttachedMemory>();

const port = parentPort;
if (port === null) throw new Error("query-worker.js must run in a worker thread");

port.on("message", (msg: ToWorker) => {
  if (msg.kind === "attach") {
    memories.set(msg.memoryId, { memory: msg.memory, control: msg.control, board: msg.board });
    return;
  }
  try {
    runAndReply(msg);
  } catch (e) {
    reply({ kind: "done", runId: msg.runId, outcome: { kind: "error", message: `query worker failed: ${String(e)}`, ms: 0, logs: [] } });
  }
});
reply({ kind: "ready" });

function reply(msg: FromWorker): void {
  port!.postMessage(msg);
}

function runAndReply(msg: Extract<ToWorker, { kind: "run" }>): void {
  const attached = memories.get(msg.memoryId);
  if (attached === undefined) throw new Error(`memory ${msg.memoryId} was never attached`);
  const outcome = runOnce(attached, msg);
  const transfer = outcome.kind === "ok" ? [outcome.output.buffer as ArrayBuffer, ...(outcome.dml ? [outcome.dml.buffer as ArrayBuffer] : [])] : [];
  port!.postMessage({ kind: "done", runId: msg.runId, outcome } satisfies FromWorker, transfer);
}

function runOnce(attached: AttachedMemory, msg: Extract<ToWorker, { kind: "run" }>): RunOutcome {
  const { memory, control } = attached;
  const state = new RunState(memory, (bytes) => requestChunk(attached, msg.runId, bytes));
  const parallel = msg.parallel && msg.parallel.helpers > 0 ? new ParallelRun(memory, control, attached.board, msg.runTag, msg.parallel) : undefined;
  state.parallel = parallel;
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  try {
    // The parameters go at the start of the first chunk; the module allocates after them.
    const chunk = msg.chunk;
    const paramsAt = chunk + ArenaChunk.headerSize;
    new Uint8Array(memory.buffer, paramsAt, msg.params.length).set(msg.params);
    const view = new DataView(memory.buffer);
    const set = (field: number, value: number) => view.setUint32(control + field, value, true);
    for (let f = 4; f < Ctl.size; f += 4) set(f, 0);
    set(Ctl.snapshot, msg.snapshot);
    set(Ctl.params, paramsAt);
    set(Ctl.paramsLength, msg.params.length);
    set(Ctl.heapStart, align8(paramsAt + msg.params.length));
    set(Ctl.heapEnd, chunk + view.getUint32(chunk + ArenaChunk.size, true));
    set(Ctl.flags, msg.flags);
    set(Ctl.vidBound, msg.vidBound);
    set(Ctl.selectResultLimit, msg.selectResultLimit ?? 0);

    const instance = new WebAssembly.Instance(msg.module, {
      [IMPORT_MEMORY[0]]: { [IMPORT_MEMORY[1]]: memory },
      [HOST_MODULE]: hostImports(state),
    });
    parallel?.attach(instance);
    const status = (instance.exports[RUN_EXPORT] as (ctl: number) => number)(control);
    const get = (field: number) => new DataView(memory.buffer).getUint32(control + field, true);
    if (status === RunStatus.UserException) {
      const message = state.text(get(Ctl.errorMessage), get(Ctl.errorMessageLength));
      return { kind: "exception", code: get(Ctl.errorCode), message, ms: elapsed(), logs: state.logs };
    }
    // Copied out now: the arena goes back to the pool when the run ends.
    const outputFirst = get(Ctl.output);
    const output = outputFirst === 0 ? new Uint8Array(0) : readOutputChain(memory, outputFirst);
    const dmlFirst = get(Ctl.dml);
    const dml = dmlFirst === 0 ? null : readOutputChain(memory, dmlFirst);
    return { kind: "ok", output, dml, ms: elapsed(), monitor: state.timings, logs: state.logs, warnings: state.warnings, ...(parallel ? { parallel: { ...parallel.stats } } : {}) };
  } catch (e) {
    if (Atomics.load(new Int32Array(memory.buffer), (control + Ctl.cancel) >> 2) !== 0) return { kind: "timeout", ms: elapsed() };
    // A SELECT result over the limit: no data and no error (interface limits); no writes either.
    if (new DataView(memory.buffer).getUint32(control + Ctl.status, true) === RunStatus.ResultTooLarge) {
      return { kind: "ok", output: new Uint8Array(0), dml: null, ms: elapsed(), monitor: state.timings, logs: state.logs };
    }
    if (e instanceof RunException) return { kind: "exception", code: e.code, message: e.text, ms: elapsed(), logs: state.logs };
    return { kind: "error", message: errorMessage(e), ms: elapsed(), logs: state.logs };
  }
}

/**
 * Asks the main thread for an arena chunk and blocks until it answers through the control
 * block (the main thread owns the memory's allocator; this thread must not grow it).
 */
function requestChunk(attached: AttachedMemory, runId: number, bytes: number): number | undefined {
  const cell = (attached.control + Ctl.chunkReply) >> 2;
  const words = new Int32Array(attached.memory.buffer);
  Atomics.store(words, cell, 0);
  reply({ kind: "chunk", runId, bytes });
  Atomics.wait(words, cell, 0);
  const answer = Atomics.load(words, cell) >>> 0;
  return answer === NO_CHUNK ? undefined : answer;
}

function errorMessage(e: unknown): string {
  // WASMGRAPH_DEBUG_QUERIES=1: the trap's WebAssembly stack, for developers of the compiler
  if (process.env.WASMGRAPH_DEBUG_QUERIES === "1" && e instanceof Error) return `${describe(e)}\n${e.stack ?? ""}`;
  return describe(e);
}

function describe(e: unknown): string {
  if (e instanceof RunFailure) return RUNTIME_ERROR_MESSAGES[e.code] ?? RUNTIME_ERROR_MESSAGES[RuntimeError.Internal];
  if (e instanceof WebAssembly.RuntimeError) {
    if (/divide by zero/.test(e.message)) return RUNTIME_ERROR_MESSAGES[RuntimeError.DivideByZero];
    if (/out of bounds/.test(e.message)) return RUNTIME_ERROR_MESSAGES[RuntimeError.Internal];
    return `Runtime Error: ${e.message}.`;
  }
  if (e instanceof RangeError && /call stack/i.test(e.message)) return "Runtime Error: the query recursed too deeply.";
  return `Runtime Error: ${String(e)}`;
}

function align8(n: number): number {
  return (n + 7) & ~7;
}
