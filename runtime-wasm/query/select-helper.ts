// A SELECT helper thread: runs chunks of the SELECT walks that query workers split
// (parallel-run.ts). It keeps the query modules the pool sends it, instantiated against each
// graph memory it is attached to, and waits on each memory's job board without blocking its
// event loop (Atomics.waitAsync), so modules and memories keep arriving between jobs. Inside a
// job it only calls the module's exported range function, which reads the graph and writes
// accumulators and result sets atomically: never the host (its host imports are stubs that
// fail).
import { parentPort, workerData } from "node:worker_threads";
import { Board, PARALLEL_RANGE_EXPORT, RuntimeError } from "./abi.js";
import { RunFailure } from "./host-imports.js";

export type ToHelper =
  | { kind: "attach"; memoryId: number; memory: WebAssembly.Memory; board: number }
  | { kind: "module"; moduleId: number; module: WebAssembly.Module };

interface AttachedBoard {
  memoryId: number;
  memory: WebAssembly.Memory;
  board: number;
  /** The last job this helper looked at. */
  lastSeq: number;
}

/** Atomics.waitAsync (Node 16+; missing from the compiler's library typings). */
type WaitAsync = (array: Int32Array, index: number, value: number) => { async: false; value: string } | { async: true; value: Promise<string> };

/** Modules kept (most recently sent last); older ones are dropped with their instances. */
const KEEP_MODULES = 64;
/** "No more chunks" (as parallel-run.ts). */
const EXHAUSTED = 0x40000000;

const helperIndex = (workerData as { index: number }).index;
const modules = new Map<number, WebAssembly.Module>();
const instances = new Map<string, WebAssembly.Instance>();

const port = parentPort;
if (port === null) throw new Error("select-helper.js must run in a worker thread");

port.on("message", (msg: ToHelper) => {
  if (msg.kind === "module") {
    modules.delete(msg.moduleId);
    modules.set(msg.moduleId, msg.module);
    while (modules.size > KEEP_MODULES) {
      const oldest = modules.keys().next().value as number;
      modules.delete(oldest);
      for (const key of [...instances.keys()]) if (key.endsWith(`:${oldest}`)) instances.delete(key);
    }
    return;
  }
  const attached: AttachedBoard = { memoryId: msg.memoryId, memory: msg.memory, board: msg.board, lastSeq: 0 };
  attached.lastSeq = Atomics.load(new Int32Array(msg.memory.buffer), (msg.board + Board.seq) >> 2);
  listen(attached);
});

/** Waits for the board's next job, serves it, and waits again. */
function listen(b: AttachedBoard): void {
  const words = new Int32Array(b.memory.buffer);
  const waited = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync(words, (b.board + Board.seq) >> 2, b.lastSeq);
  const next = () => {
    try {
      serve(b);
    } finally {
      listen(b);
    }
  };
  if (waited.async) void waited.value.then(next);
  else setImmediate(next);
}

function instanceFor(b: AttachedBoard, moduleId: number): WebAssembly.Instance | undefined {
  const key = `${b.memoryId}:${moduleId}`;
  let instance = instances.get(key);
  if (instance !== undefined) return instance;
  const module = modules.get(moduleId);
  if (module === undefined) return undefined;
  const imports: Record<string, Record<string, WebAssembly.ImportValue>> = {};
  const described = (WebAssembly.Module as unknown as { imports(m: WebAssembly.Module): { module: string; name: string; kind: string }[] }).imports(module);
  for (const imp of described) {
    const into = (imports[imp.module] ??= {});
    if (imp.kind === "memory") into[imp.name] = b.memory;
    else if (imp.kind === "function")
      // `fail` raises its runtime error as on the query's thread; ranges call nothing else
      into[imp.name] = (code: number) => {
        throw new RunFailure(imp.name === "fail" ? code : RuntimeError.Internal);
      };
  }
  instance = new WebAssembly.Instance(module, imports);
  instances.set(key, instance);
  return instance;
}

/** Joins the board's current job if it is still open, and takes chunks until none are left. */
function serve(b: AttachedBoard): void {
  const words = new Int32Array(b.memory.buffer);
  const cell = (field: number) => (b.board + field) >> 2;
  const seq = Atomics.load(words, cell(Board.seq));
  if (seq === b.lastSeq) return;
  b.lastSeq = seq;
  // In first, then checked open: the owner closes the job and then waits for every helper
  // in it, so either it sees this helper or this helper sees the job closed.
  const inJob = cell(Board.inJob + 4 * helperIndex);
  Atomics.store(words, inJob, seq);
  Atomics.add(words, cell(Board.joined), 1);
  Atomics.notify(words, cell(Board.joined));
  try {
    if (Atomics.load(words, cell(Board.seq)) !== seq || Atomics.load(words, cell(Board.closed)) === seq) return;
    const instance = instanceFor(b, Atomics.load(words, cell(Board.module)));
    const fn = instance?.exports[`${PARALLEL_RANGE_EXPORT}${Atomics.load(words, cell(Board.range))}`] as ((block: number, lo: number, hi: number, slot: number) => void) | undefined;
    if (fn === undefined) return;
    const block = Atomics.load(words, cell(Board.block));
    const count = Atomics.load(words, cell(Board.count));
    const chunk = Atomics.load(words, cell(Board.chunk));
    try {
      for (;;) {
        const lo = Atomics.add(words, cell(Board.next), chunk);
        if (lo >= count) break;
        // slot 0 is the query's thread; helper k writes the partials of slot k + 1
        fn(block, lo, Math.min(count, lo + chunk), helperIndex + 1);
      }
    } catch (e) {
      Atomics.store(words, cell(Board.next), EXHAUSTED);
      Atomics.compareExchange(words, cell(Board.failed), 0, 1 + errorCode(e));
    }
  } finally {
    Atomics.store(words, inJob, 0);
    Atomics.notify(words, inJob);
  }
}

function errorCode(e: unknown): number {
  if (e instanceof RunFailure) return e.code;
  if (e instanceof WebAssembly.RuntimeError && /divide by zero/.test(e.message)) return RuntimeError.DivideByZero;
  return RuntimeError.Internal;
}
