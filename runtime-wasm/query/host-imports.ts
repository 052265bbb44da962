// The host functions a query module imports (HOST_FUNCTIONS in abi.ts), bound to one run.
// They run in the worker thread, synchronously, inside the module's call stack.
import { formatDouble, formatFloat } from "../values/index.js";
import { MathOp, RuntimeError, type HostFunctionName } from "./abi.js";
import type { SelectTiming } from "./run-types.js";

/** Thrown through the module to end a run with a built-in runtime error. */
export class RunFailure extends Error {
  constructor(readonly code: number) {
    super(`runtime error ${code}`);
    this.name = "RunFailure";
  }
}

/** What the host functions of one run read and record. */
export class RunState {
  readonly logs: string[] = [];
  readonly timings: SelectTiming[] = [];
  private readonly selectStarted = new Map<number, number>();

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

  /** Writes `text` as UTF-8 at `address` (at most `capacity` bytes); returns the byte length. */
  writeText(text: string, address: number, capacity: number): number {
    const bytes = Buffer.from(text, "utf8");
    const n = Math.min(bytes.length, capacity);
    new Uint8Array(this.memory.buffer, address, n).set(bytes.subarray(0, n));
    return n;
  }
}

type HostFunction = (...args: never[]) => unknown;

/** The `rt` import object for one run. */
export function hostImports(state: RunState): Record<HostFunctionName, HostFunction> {
  return {
    arenaChunk: (bytes: number) => state.lendChunk(bytes >>> 0),
    fail: (code: number) => {
      throw new RunFailure(code);
    },
    selectBegin: (index: number) => state.selectBegin(index),
    selectEnd: (index: number, size: number) => state.selectEnd(index, size >>> 0),
    log: (address: number, length: number) => {
      state.logs.push(state.text(address >>> 0, length >>> 0));
    },
    formatFloat: (x: number, isDouble: number, address: number, capacity: number) =>
      state.writeText(isDouble ? formatDouble(x) : formatFloat(x), address >>> 0, capacity >>> 0),
    nowSeconds: () => BigInt(Math.floor(Date.now() / 1000)),
    random: () => Math.random(),
    math: (op: number, a: number, b: number) => math(op, a, b),
  };
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
    default:
      throw new RunFailure(RuntimeError.Internal);
  }
}
