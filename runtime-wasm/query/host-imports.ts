// The host functions a query module imports (HOST_FUNCTIONS in abi.ts), bound to one run.
// They run in the worker thread, synchronously, inside the module's call stack.
import { JSON_ON_ARRAY, JsonOp, MathOp, RuntimeError, type HostFunctionName } from "./abi.js";
import { jsonGet, parseJsonOf, type JsonGetter } from "./host-json.js";
import { datetimeOp, formatValue, HostOpError, numberOp, stringOp } from "./host-strings.js";
import { invalidVertexIdsWarning, type SelectTiming } from "./run-types.js";
import { readFileRows } from "./file-rows.js";

/** Thrown through the module to end a run with a built-in runtime error. */
export class RunFailure extends Error {
  constructor(readonly code: number) {
    super(`runtime error ${code}`);
    this.name = "RunFailure";
  }
}

/** Thrown through the module for an uncaught user exception raised inside a SELECT. */
export class RunException extends Error {
  constructor(
    readonly code: number,
    readonly text: string,
  ) {
    super(text);
    this.name = "RunException";
  }
}

/** What the host functions of one run read and record. */
export class RunState {
  readonly logs: string[] = [];
  readonly warnings: string[] = [];
  /** Rows of the file SelectVertex read last. */
  fileRows: [string, string][] = [];
  /** The last strOp/format result, waiting for strTake. */
  pendingText: Buffer = Buffer.alloc(0);
  readonly timings: SelectTiming[] = [];
  private readonly selectStarted = new Map<number, number>();

  /** Splits SELECT walks across helper threads (parallel-run.ts); none: every walk runs here. */
  parallel?: { want(sources: number): number; run(range: number, block: number, sources: number): number };

  constructor(
    readonly memory: WebAssembly.Memory,
    /** Asks for another arena chunk (blocking); undefined when none can be had. */
    private readonly requestChunk: (bytes: number) => number | undefined,
  ) {}

  lendChunk(bytes: number): number {
    const chunk = this.requestChunk(bytes);
    if (chunk === undefined) throw new RunFailure(RuntimeError.OutOfMemory);
    return chunk;
  }

  selectBegin(index: number): void {
    this.selectStarted.set(index, performance.now());
  }

  selectEnd(index: number, resultSize: number): void {
    const start = this.selectStarted.get(index);
    if (start !== undefined) this.timings.push({ select: index, ms: performance.now() - start, resultSize });
  }

  text(address: number, length: number): string {
    return Buffer.from(this.memory.buffer, address, length).toString("utf8");
  }

  /** Keeps `text` for the module's next strTake; returns its byte length. */
  stash(text: string): number {
    this.pendingText = Buffer.from(text, "utf8");
    return this.pendingText.length;
  }

  take(address: number): void {
    new Uint8Array(this.memory.buffer, address, this.pendingText.length).set(this.pendingText);
  }
}

/** Runs a host operation, turning its argument errors into run failures. */
function guard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof HostOpError) throw new RunFailure(e.code);
    throw e;
  }
}

type HostFunction = (...args: never[]) => unknown;

/** The `rt` import object for one run. */
export function hostImports(state: RunState): Record<HostFunctionName, HostFunction> {
  return {
    arenaChunk: (bytes: number) => state.lendChunk(bytes >>> 0),
    parallelWant: (sources: number) => state.parallel?.want(sources >>> 0) ?? 0,
    parallelRun: (range: number, block: number, sources: number) => state.parallel?.run(range >>> 0, block >>> 0, sources >>> 0) ?? 0,
    fail: (code: number) => {
      throw new RunFailure(code);
    },
    selectBegin: (index: number) => state.selectBegin(index),
    selectEnd: (index: number, size: number) => state.selectEnd(index, size >>> 0),
    log: (address: number, length: number) => {
      state.logs.push(state.text(address >>> 0, length >>> 0));
    },
    fileRows: (p: number, pl: number, c: number, cl: number, t: number, tl: number, s: number, sl: number, header: number) => {
      state.fileRows = guard(() => readFileRows(state.text(p >>> 0, pl >>> 0), state.text(c >>> 0, cl >>> 0), state.text(t >>> 0, tl >>> 0), state.text(s >>> 0, sl >>> 0), header !== 0));
      return state.fileRows.length;
    },
    fileCell: (row: number, part: number) => state.stash(state.fileRows[row >>> 0]![part === 0 ? 0 : 1]),
    invalidVertexIds: (count: number, address: number, length: number) => {
      state.warnings.push(invalidVertexIdsWarning(count >>> 0, state.text(address >>> 0, length >>> 0)));
    },
    strOp: (op: number, a: number, al: number, b: number, bl: number, c: number, cl: number, x: number, y: number) =>
      state.stash(guard(() => stringOp(op, state.text(a >>> 0, al >>> 0), state.text(b >>> 0, bl >>> 0), state.text(c >>> 0, cl >>> 0), x, y))),
    format: (kind: number, bits: bigint) => state.stash(guard(() => formatValue(kind, bits))),
    strTake: (address: number) => state.take(address >>> 0),
    numOp: (op: number, a: number, al: number, b: number, bl: number, x: number, y: number) =>
      guard(() => numberOp(op, state.text(a >>> 0, al >>> 0), state.text(b >>> 0, bl >>> 0), x, y)),
    datetimeOp: (op: number, epoch: bigint, amount: bigint) => guard(() => datetimeOp(op, epoch, amount)),
    raise: (code: number, address: number, length: number) => {
      throw new RunException(code, state.text(address >>> 0, length >>> 0));
    },
    json: (op: number, a: number, al: number, k: number, kl: number, index: bigint) =>
      guard(() => json(state, op, state.text(a >>> 0, al >>> 0), state.text(k >>> 0, kl >>> 0), index)),
    nowSeconds: () => BigInt(Math.floor(Date.now() / 1000)),
    random: () => Math.random(),
    math: (op: number, a: number, b: number) => math(op, a, b),
  };
}

const GETTERS: Record<number, JsonGetter> = {
  [JsonOp.GetInt]: "int", [JsonOp.GetDouble]: "double", [JsonOp.GetBool]: "bool", [JsonOp.GetString]: "string",
  [JsonOp.GetObject]: "object", [JsonOp.GetArray]: "array", [JsonOp.ContainsKey]: "contains", [JsonOp.Size]: "size",
};

/** The `json` host function: text results are stashed for strTake (their length returned). */
function json(state: RunState, op: number, text: string, key: string, index: bigint): bigint {
  if (op === JsonOp.ParseObject || op === JsonOp.ParseArray) return BigInt(state.stash(parseJsonOf(op === JsonOp.ParseObject ? "object" : "array", text)));
  const getter = GETTERS[op & (JSON_ON_ARRAY - 1)];
  if (getter === undefined) throw new RunFailure(RuntimeError.Internal);
  const i = index < 0n || index > BigInt(Number.MAX_SAFE_INTEGER) ? -1 : Number(index);
  const r = jsonGet(op & JSON_ON_ARRAY ? "array" : "object", getter, text, key, i);
  if (typeof r === "string") return BigInt(state.stash(r));
  if (typeof r === "number") {
    const v = new DataView(new ArrayBuffer(8));
    v.setFloat64(0, r);
    return v.getBigInt64(0);
  }
  return r;
}

function math(op: number, a: number, b: number): number {
  switch (op) {
    case MathOp.Pow:
      return Math.pow(a, b);
    case MathOp.Exp:
      return Math.exp(a);
    case MathOp.Log:
      return Math.log(a);
    case MathOp.Log2:
      return Math.log2(a);
    case MathOp.Log10:
      return Math.log10(a);
    case MathOp.Sin:
      return Math.sin(a);
    case MathOp.Cos:
      return Math.cos(a);
    case MathOp.Tan:
      return Math.tan(a);
    case MathOp.Asin:
      return Math.asin(a);
    case MathOp.Acos:
      return Math.acos(a);
    case MathOp.Atan:
      return Math.atan(a);
    case MathOp.Atan2:
      return Math.atan2(a, b);
    case MathOp.Sinh:
      return Math.sinh(a);
    case MathOp.Cosh:
      return Math.cosh(a);
    case MathOp.Tanh:
      return Math.tanh(a);
    case MathOp.Fmod:
      return a % b;
    case MathOp.Round:
      return roundDecimal(a, b, Math.round);
    case MathOp.Trunc:
      return roundDecimal(a, b, Math.trunc);
    default:
      throw new RunFailure(RuntimeError.Internal);
  }
}

/**
 * Rounds at `digits` decimal places (negative: left of the point) on the decimal text of
 * the value, so round(2.15, 1) is 2.2 as in the documentation, half away from zero.
 */
function roundDecimal(x: number, digits: number, mode: (v: number) => number): number {
  if (!Number.isFinite(x)) return x;
  const d = Math.trunc(digits);
  const text = String(Math.abs(x));
  const shifted = text.includes("e") ? Math.abs(x) * 10 ** d : Number(`${text}e${d}`);
  const r = mode === Math.round ? Math.floor(shifted + 0.5) : Math.trunc(shifted);
  return Math.sign(x) * (String(r).includes("e") ? r * 10 ** -d : Number(`${r}e${-d}`));
}
