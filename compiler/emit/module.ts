// The one door to Binaryen. Every Binaryen call the back end makes goes through this file,
// so the emitters read as intent ("add these two i64s", "loop while") rather than as API
// plumbing, and the Binaryen pitfalls live in one place:
// - it is an ES module with top-level await (importable only from ESM);
// - `i64.const` wants a BigInt at run time whatever its typings say;
// - a shared memory needs the Atomics feature (there is no Threads feature);
// - validation errors and aborts are printed to stderr (an abort in an uncaught stack would
//   print Binaryen's whole multi-megabyte source line): we capture that text and turn it
//   into an `EmitError` carrying only the useful message.
import binaryen from "binaryen";

/** The four WebAssembly number types the back end uses. */
export type ValueType = "i32" | "i64" | "f32" | "f64";
export type ResultType = ValueType | "none";
/** An expression under construction (a Binaryen ExpressionRef; opaque to emitters). */
export type Expr = number;

/** Features the emitted modules rely on; every one is enabled by default in Node.js 20. */
const FEATURES =
  binaryen.Features.Atomics |
  binaryen.Features.MutableGlobals |
  binaryen.Features.NontrappingFPToInt |
  binaryen.Features.SignExt |
  binaryen.Features.BulkMemory |
  binaryen.Features.BulkMemoryOpt |
  binaryen.Features.SIMD128 |
  binaryen.Features.Multivalue;

const BINARYEN_TYPE: Record<ResultType, binaryen.Type> = {
  i32: binaryen.i32,
  i64: binaryen.i64,
  f32: binaryen.f32,
  f64: binaryen.f64,
  none: binaryen.none,
};

const NATURAL_ALIGN: Record<ValueType, number> = { i32: 4, i64: 8, f32: 4, f64: 8 };

/** A failure inside Binaryen (invalid module, abort), with the text Binaryen printed. */
export class EmitError extends Error {
  constructor(message: string, readonly details: string) {
    super(message);
    this.name = "EmitError";
  }
}

/**
 * Runs `fn` with stderr captured. Binaryen prints validation reports and abort messages
 * there; we keep them (cut to a readable size) instead of letting them reach the console.
 */
function captureStderr<T>(fn: () => T): { value?: T; error?: unknown; text: string } {
  const chunks: string[] = [];
  const write = process.stderr.write;
  let captured = 0;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    if (captured < 64 * 1024) {
      const s = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
      chunks.push(s.slice(0, 64 * 1024 - captured));
      captured += s.length;
    }
    return true;
  }) as typeof process.stderr.write;
  try {
    return { value: fn(), text: chunks.join("") };
  } catch (error) {
    return { error, text: chunks.join("") };
  } finally {
    process.stderr.write = write;
  }
}

/** Calls into Binaryen that may abort; rethrows as a clean EmitError. */
function guarded<T>(what: string, fn: () => T): T {
  const r = captureStderr(fn);
  if (r.error !== undefined) {
    const e = r.error as { message?: unknown };
    const msg = typeof e?.message === "string" ? e.message : "internal Binaryen failure";
    throw new EmitError(`${what}: ${msg.split("\n")[0].slice(0, 500)}`, r.text);
  }
  return r.value as T;
}

/** A local variable (or parameter) of the function being built. */
export class Local {
  constructor(
    private readonly m: binaryen.Module,
    readonly index: number,
    readonly type: ValueType,
    readonly name: string,
  ) {}
  get(): Expr {
    return this.m.local.get(this.index, BINARYEN_TYPE[this.type]);
  }
  set(value: Expr): Expr {
    return this.m.local.set(this.index, value);
  }
  tee(value: Expr): Expr {
    return this.m.local.tee(this.index, value, BINARYEN_TYPE[this.type]);
  }
}

/** Labels of an enclosing loop, for BREAK (`exit`) and CONTINUE (`next`). */
export interface LoopLabels {
  exit: string;
  next: string;
}

/** Builds one function: owns its parameters, locals and label names. */
export class FunctionScope {
  private readonly locals: Local[] = [];
  private labelCount = 0;

  constructor(
    readonly module: WasmModule,
    readonly name: string,
    params: { name: string; type: ValueType }[],
  ) {
    for (const p of params) this.locals.push(new Local(module.raw, this.locals.length, p.type, p.name));
  }

  /** The i-th parameter. */
  param(i: number): Local {
    return this.locals[i];
  }

  /** A fresh local of `type`; the name is only for the text form. */
  local(type: ValueType, name = "t"): Local {
    const l = new Local(this.module.raw, this.locals.length, type, `${name}${this.locals.length}`);
    this.locals.push(l);
    return l;
  }

  /** A label unique within this function. */
  label(prefix: string): string {
    return `${prefix}${this.labelCount++}`;
  }

  /** `while (cond) body`; `body` receives the labels BREAK and CONTINUE branch to. */
  whileLoop(cond: (labels: LoopLabels) => Expr, body: (labels: LoopLabels) => Expr[]): Expr {
    const labels = { exit: this.label("exit"), next: this.label("next") };
    const m = this.module;
    return m.block(labels.exit, [
      m.loop(labels.next, m.block(null, [m.brIf(labels.exit, m.eqz("i32", cond(labels))), ...body(labels), m.br(labels.next)])),
    ]);
  }

  /** `for (i = from; i < to; i++) body` over i32 or i64 counters (signed comparison). */
  forRange(i: Local, from: Expr, to: Expr, body: (labels: LoopLabels) => Expr[]): Expr {
    const m = this.module;
    const end = this.local(i.type, "end");
    const labels = { exit: this.label("exit"), next: this.label("next") };
    const step = this.label("body");
    // CONTINUE branches to the end of `step`, where the counter is incremented.
    return m.block(labels.exit, [
      i.set(from),
      end.set(to),
      m.loop(
        labels.next + "_top",
        m.block(null, [
          m.brIf(labels.exit, m.ge(i.type, i.get(), end.get())),
          m.block(labels.next, [m.block(step, body(labels))]),
          i.set(m.add(i.type, i.get(), m.constant(i.type, 1))),
          m.br(labels.next + "_top"),
        ]),
      ),
    ]);
  }

  /** Types of the locals after the parameters, in index order. */
  varTypes(paramCount: number): binaryen.Type[] {
    return this.locals.slice(paramCount).map((l) => BINARYEN_TYPE[l.type]);
  }
}

/** Options for a module that imports a shared memory (the graph memory). */
export interface ImportedMemory {
  module: string;
  base: string;
  /** Passive data segments (e.g. string constants), copied in with `memoryInit`. */
  segments?: { name: string; data: Uint8Array }[];
}

/** A WebAssembly module under construction. */
export class WasmModule {
  readonly raw: binaryen.Module;
  private disposed = false;

  constructor() {
    this.raw = new binaryen.Module();
    this.raw.setFeatures(FEATURES);
  }

  // ---- module-level items -------------------------------------------------------------

  /** Imports a shared memory: the graph memory every query module reads and writes. */
  importSharedMemory(memory: ImportedMemory): void {
    const segments = (memory.segments ?? []).map((s) => ({ name: s.name, data: s.data, passive: true, offset: 0 }));
    // setMemory first (it defines the memory and its passive segments), then mark it imported.
    this.raw.setMemory(1, 65536, null, segments, true, false, "0");
    this.raw.addMemoryImport("0", memory.module, memory.base, true);
  }

  /** Declares an imported function. */
  importFunction(name: string, from: [module: string, base: string], params: ValueType[], result: ResultType): void {
    this.raw.addFunctionImport(name, from[0], from[1], this.tupleType(params), BINARYEN_TYPE[result]);
  }

  /** Declares an imported global. */
  importGlobal(name: string, from: [module: string, base: string], type: ValueType, mutable = false): void {
    this.raw.addGlobalImport(name, from[0], from[1], BINARYEN_TYPE[type], mutable);
  }

  /** Declares a module global with a constant initial value. */
  global(name: string, type: ValueType, initial: number | bigint = 0, mutable = true): void {
    this.raw.addGlobal(name, BINARYEN_TYPE[type], mutable, this.constant(type, initial));
  }

  /**
   * Defines a function. `build` receives a scope for locals and labels and returns the
   * body (a list is wrapped in a block; the last item is the value when `result` is not none).
   */
  func(
    name: string,
    params: { name: string; type: ValueType }[],
    result: ResultType,
    build: (f: FunctionScope) => Expr | Expr[],
    exportAs?: string,
  ): void {
    const scope = new FunctionScope(this, name, params);
    const built = build(scope);
    const body = Array.isArray(built) ? this.raw.block(null, built, BINARYEN_TYPE[result] === binaryen.none ? binaryen.none : binaryen.auto) : built;
    this.raw.addFunction(name, this.tupleType(params.map((p) => p.type)), BINARYEN_TYPE[result], scope.varTypes(params.length), body);
    if (exportAs !== undefined) this.raw.addFunctionExport(name, exportAs);
  }

  hasFunction(name: string): boolean {
    return this.raw.getFunction(name) !== 0;
  }

  exportFunction(name: string, exportAs: string): void {
    this.raw.addFunctionExport(name, exportAs);
  }

  exportGlobal(name: string, exportAs: string): void {
    this.raw.addGlobalExport(name, exportAs);
  }

  /** A function table filled with `functions` from index 0 (for indirect calls). */
  table(name: string, functions: string[]): void {
    this.raw.addTable(name, functions.length, functions.length);
    this.raw.addActiveElementSegment(name, `${name}_elems`, functions, this.i32(0));
  }

  // ---- constants ----------------------------------------------------------------------

  i32(value: number): Expr {
    return this.raw.i32.const(value | 0);
  }
  /** i64 constant; Binaryen needs a BigInt here at run time. */
  i64(value: bigint | number): Expr {
    return this.raw.i64.const(BigInt.asIntN(64, BigInt(value)) as unknown as number);
  }
  f32(value: number): Expr {
    return this.raw.f32.const(value);
  }
  f64(value: number): Expr {
    return this.raw.f64.const(value);
  }
  constant(type: ValueType, value: number | bigint): Expr {
    switch (type) {
      case "i32":
        return this.i32(Number(value));
      case "i64":
        return this.i64(value);
      case "f32":
        return this.f32(Number(value));
      case "f64":
        return this.f64(Number(value));
    }
  }

  // ---- arithmetic and comparison, by value type ----------------------------------------

  add(t: ValueType, a: Expr, b: Expr): Expr {
    return this.raw[t].add(a, b);
  }
  sub(t: ValueType, a: Expr, b: Expr): Expr {
    return this.raw[t].sub(a, b);
  }
  /**
   * Multiplication; an integer times a constant power of two is a shift (V8 then folds
   * `base + i * 8` into one scaled address, measured at 20% of a PageRank iteration).
   */
  mul(t: ValueType, a: Expr, b: Expr): Expr {
    if (t === "i32" || t === "i64") {
      const shift = powerOfTwo(b);
      if (shift !== undefined) return this.raw[t].shl(a, this.constant(t, t === "i32" ? shift : BigInt(shift)));
      const shiftA = powerOfTwo(a);
      if (shiftA !== undefined) return this.raw[t].shl(b, this.constant(t, t === "i32" ? shiftA : BigInt(shiftA)));
    }
    return this.raw[t].mul(a, b);
  }
  /** Division: integer division truncates toward zero (signed unless `unsigned`). */
  div(t: ValueType, a: Expr, b: Expr, unsigned = false): Expr {
    if (t === "f32" || t === "f64") return this.raw[t].div(a, b);
    return unsigned ? this.raw[t].div_u(a, b) : this.raw[t].div_s(a, b);
  }
  rem(t: "i32" | "i64", a: Expr, b: Expr, unsigned = false): Expr {
    return unsigned ? this.raw[t].rem_u(a, b) : this.raw[t].rem_s(a, b);
  }
  and(t: "i32" | "i64", a: Expr, b: Expr): Expr {
    return this.raw[t].and(a, b);
  }
  or(t: "i32" | "i64", a: Expr, b: Expr): Expr {
    return this.raw[t].or(a, b);
  }
  xor(t: "i32" | "i64", a: Expr, b: Expr): Expr {
    return this.raw[t].xor(a, b);
  }
  shl(t: "i32" | "i64", a: Expr, b: Expr): Expr {
    return this.raw[t].shl(a, b);
  }
  shr(t: "i32" | "i64", a: Expr, b: Expr, unsigned = false): Expr {
    return unsigned ? this.raw[t].shr_u(a, b) : this.raw[t].shr_s(a, b);
  }
  rotl(t: "i32" | "i64", a: Expr, b: Expr): Expr {
    return this.raw[t].rotl(a, b);
  }
  clz(t: "i32" | "i64", a: Expr): Expr {
    return this.raw[t].clz(a);
  }
  ctz(t: "i32" | "i64", a: Expr): Expr {
    return this.raw[t].ctz(a);
  }
  popcnt(t: "i32" | "i64", a: Expr): Expr {
    return this.raw[t].popcnt(a);
  }
  eqz(t: "i32" | "i64", a: Expr): Expr {
    return this.raw[t].eqz(a);
  }
  eq(t: ValueType, a: Expr, b: Expr): Expr {
    return this.raw[t].eq(a, b);
  }
  ne(t: ValueType, a: Expr, b: Expr): Expr {
    return this.raw[t].ne(a, b);
  }
  lt(t: ValueType, a: Expr, b: Expr, unsigned = false): Expr {
    return t === "f32" || t === "f64" ? this.raw[t].lt(a, b) : unsigned ? this.raw[t].lt_u(a, b) : this.raw[t].lt_s(a, b);
  }
  le(t: ValueType, a: Expr, b: Expr, unsigned = false): Expr {
    return t === "f32" || t === "f64" ? this.raw[t].le(a, b) : unsigned ? this.raw[t].le_u(a, b) : this.raw[t].le_s(a, b);
  }
  gt(t: ValueType, a: Expr, b: Expr, unsigned = false): Expr {
    return t === "f32" || t === "f64" ? this.raw[t].gt(a, b) : unsigned ? this.raw[t].gt_u(a, b) : this.raw[t].gt_s(a, b);
  }
  ge(t: ValueType, a: Expr, b: Expr, unsigned = false): Expr {
    return t === "f32" || t === "f64" ? this.raw[t].ge(a, b) : unsigned ? this.raw[t].ge_u(a, b) : this.raw[t].ge_s(a, b);
  }

  // ---- float-only operations -------------------------------------------------------------

  fmin(t: "f32" | "f64", a: Expr, b: Expr): Expr {
    return this.raw[t].min(a, b);
  }
  fmax(t: "f32" | "f64", a: Expr, b: Expr): Expr {
    return this.raw[t].max(a, b);
  }
  sqrt(t: "f32" | "f64", a: Expr): Expr {
    return this.raw[t].sqrt(a);
  }
  fabs(t: "f32" | "f64", a: Expr): Expr {
    return this.raw[t].abs(a);
  }
  fneg(t: "f32" | "f64", a: Expr): Expr {
    return this.raw[t].neg(a);
  }
  floor(t: "f32" | "f64", a: Expr): Expr {
    return this.raw[t].floor(a);
  }
  ceil(t: "f32" | "f64", a: Expr): Expr {
    return this.raw[t].ceil(a);
  }
  ftrunc(t: "f32" | "f64", a: Expr): Expr {
    return this.raw[t].trunc(a);
  }
  nearest(t: "f32" | "f64", a: Expr): Expr {
    return this.raw[t].nearest(a);
  }
  copysign(t: "f32" | "f64", a: Expr, b: Expr): Expr {
    return this.raw[t].copysign(a, b);
  }

  // ---- conversions ----------------------------------------------------------------------

  /**
   * Converts `value` from one value type to another: integer widening (sign- or zero-extend
   * by `unsigned`) and narrowing, integer to float, float to integer (truncating toward
   * zero and saturating, never trapping), and float width changes.
   */
  convert(from: ValueType, to: ValueType, value: Expr, unsigned = false): Expr {
    const r = this.raw;
    if (from === to) return value;
    if (from === "i32" && to === "i64") return unsigned ? r.i64.extend_u(value) : r.i64.extend_s(value);
    if (from === "i64" && to === "i32") return r.i32.wrap(value);
    if (from === "f32" && to === "f64") return r.f64.promote(value);
    if (from === "f64" && to === "f32") return r.f32.demote(value);
    if (to === "f32" || to === "f64") {
      const conv = unsigned ? r[to].convert_u : r[to].convert_s;
      return from === "i32" ? conv.i32(value) : conv.i64(value);
    }
    const trunc = unsigned ? r[to].trunc_u_sat : r[to].trunc_s_sat;
    return from === "f32" ? trunc.f32(value) : trunc.f64(value);
  }

  /** Same bits, other type (i64 <-> f64, i32 <-> f32). */
  reinterpret(to: ValueType, value: Expr): Expr {
    return this.raw[to].reinterpret(value);
  }

  /** Sign-extends the low 8/16/32 bits of an integer in place. */
  signExtend(t: "i32" | "i64", bits: 8 | 16 | 32, value: Expr): Expr {
    if (bits === 8) return this.raw[t].extend8_s(value);
    if (bits === 16) return this.raw[t].extend16_s(value);
    return this.raw.i64.extend32_s(value);
  }

  // ---- memory ---------------------------------------------------------------------------

  /** Loads a full-width value at `ptr + offset`. */
  load(t: ValueType, ptr: Expr, offset = 0): Expr {
    return this.raw[t].load(offset, NATURAL_ALIGN[t], ptr);
  }
  /** Loads 8/16/32 bits as i32 or i64, zero- or sign-extended. */
  loadNarrow(t: "i32" | "i64", bits: 8 | 16 | 32, ptr: Expr, offset = 0, signed = false): Expr {
    const r = this.raw[t] as binaryen.Module["i64"];
    if (bits === 8) return signed ? r.load8_s(offset, 1, ptr) : r.load8_u(offset, 1, ptr);
    if (bits === 16) return signed ? r.load16_s(offset, 2, ptr) : r.load16_u(offset, 2, ptr);
    return signed ? r.load32_s(offset, 4, ptr) : r.load32_u(offset, 4, ptr);
  }
  store(t: ValueType, ptr: Expr, value: Expr, offset = 0): Expr {
    return this.raw[t].store(offset, NATURAL_ALIGN[t], ptr, value);
  }
  storeNarrow(t: "i32" | "i64", bits: 8 | 16 | 32, ptr: Expr, value: Expr, offset = 0): Expr {
    const r = this.raw[t] as binaryen.Module["i64"];
    if (bits === 8) return r.store8(offset, 1, ptr, value);
    if (bits === 16) return r.store16(offset, 2, ptr, value);
    return r.store32(offset, 4, ptr, value);
  }
  atomicLoad(t: "i32" | "i64", ptr: Expr, offset = 0): Expr {
    return this.raw[t].atomic.load(offset, ptr);
  }
  atomicStore(t: "i32" | "i64", ptr: Expr, value: Expr, offset = 0): Expr {
    return this.raw[t].atomic.store(offset, ptr, value);
  }
  atomicAdd(t: "i32" | "i64", ptr: Expr, value: Expr, offset = 0): Expr {
    return this.raw[t].atomic.rmw.add(offset, ptr, value);
  }
  atomicCmpxchg(t: "i32" | "i64", ptr: Expr, expected: Expr, replacement: Expr, offset = 0): Expr {
    return this.raw[t].atomic.rmw.cmpxchg(offset, ptr, expected, replacement);
  }
  memoryCopy(dest: Expr, src: Expr, bytes: Expr): Expr {
    return this.raw.memory.copy(dest, src, bytes);
  }
  memoryFill(dest: Expr, byte: Expr, bytes: Expr): Expr {
    return this.raw.memory.fill(dest, byte, bytes);
  }
  /** Copies `bytes` of passive segment `segment` from `offset` to `dest`. */
  memoryInit(segment: string, dest: Expr, offset: Expr, bytes: Expr): Expr {
    return this.raw.memory.init(segment, dest, offset, bytes);
  }
  memorySize(): Expr {
    return this.raw.memory.size();
  }
  memoryGrow(pages: Expr): Expr {
    return this.raw.memory.grow(pages);
  }

  // ---- variables and calls --------------------------------------------------------------

  globalGet(name: string, t: ValueType): Expr {
    return this.raw.global.get(name, BINARYEN_TYPE[t]);
  }
  globalSet(name: string, value: Expr): Expr {
    return this.raw.global.set(name, value);
  }
  call(name: string, args: Expr[], result: ResultType): Expr {
    return this.raw.call(name, args, BINARYEN_TYPE[result]);
  }
  callIndirect(table: string, index: Expr, args: Expr[], params: ValueType[], result: ResultType): Expr {
    return this.raw.call_indirect(table, index, args, this.tupleType(params), BINARYEN_TYPE[result]);
  }

  // ---- control flow ---------------------------------------------------------------------

  /** A block; with `result` given, its last expression is its value. */
  block(label: string | null, body: Expr[], result: ResultType = "none"): Expr {
    return this.raw.block(label, body, result === "none" ? binaryen.none : BINARYEN_TYPE[result]);
  }
  /** A sequence of statements with no label and no value. */
  seq(...body: Expr[]): Expr {
    return body.length === 1 ? body[0] : this.raw.block(null, body, binaryen.none);
  }
  loop(label: string, body: Expr): Expr {
    return this.raw.loop(label, body);
  }
  if(cond: Expr, then: Expr, otherwise?: Expr): Expr {
    return this.raw.if(cond, then, otherwise);
  }
  br(label: string, value?: Expr): Expr {
    return this.raw.br(label, undefined, value);
  }
  brIf(label: string, cond: Expr, value?: Expr): Expr {
    return this.raw.br(label, cond, value);
  }
  switch(labels: string[], defaultLabel: string, index: Expr): Expr {
    return this.raw.switch(labels, defaultLabel, index);
  }
  /** `cond ? a : b` evaluating both arms. */
  select(cond: Expr, a: Expr, b: Expr): Expr {
    return this.raw.select(cond, a, b);
  }
  return(value?: Expr): Expr {
    return this.raw.return(value);
  }
  drop(value: Expr): Expr {
    return this.raw.drop(value);
  }
  nop(): Expr {
    return this.raw.nop();
  }
  unreachable(): Expr {
    return this.raw.unreachable();
  }

  // ---- finishing ------------------------------------------------------------------------

  /** Whether the module validates (Binaryen's report is dropped). */
  isValid(): boolean {
    const r = captureStderr(() => this.raw.validate());
    return r.error === undefined && r.value === 1;
  }

  /**
   * Expression nodes used in more than one place of a function body (one line per node).
   * Binaryen's IR must be a tree: its passes rewrite nodes in place, so a node reached twice
   * (a `local.get` built once and used twice) gets rewritten twice and the optimiser may
   * produce an invalid module. For tests; a walk over every node.
   */
  sharedExpressions(): string[] {
    const children = ["value", "ptr", "condition", "ifTrue", "ifFalse", "body", "children", "operands", "left", "right", "size", "dest", "source", "delta", "expected", "replacement"];
    const found: string[] = [];
    for (let i = 0; i < this.raw.getNumFunctions(); i++) {
      const fn = binaryen.getFunctionInfo(this.raw.getFunctionByIndex(i));
      const seen = new Set<number>();
      const walk = (e: number): void => {
        const id = e ? binaryen.getExpressionId(e) : undefined;
        // leaves without operands (binaryen.js has no info for unreachable and nop)
        if (id === undefined || id === binaryen.ConstId || id === binaryen.UnreachableId || id === binaryen.NopId) return;
        if (seen.has(e)) {
          found.push(`${fn.name}: ${binaryen.emitText(e).split("\n")[0]}`);
          return;
        }
        seen.add(e);
        const info = binaryen.getExpressionInfo(e) as unknown as Record<string, unknown>;
        for (const k of children) {
          const v = info[k];
          if (Array.isArray(v)) for (const c of v) walk(c as number);
          else if (typeof v === "number") walk(v);
        }
      };
      if (fn.body) walk(fn.body);
    }
    return found;
  }

  /** Binaryen's report when the module is invalid; undefined when it validates. */
  validationReport(): string | undefined {
    const r = captureStderr(() => this.raw.validate());
    return r.error === undefined && r.value === 1 ? undefined : r.text || String(r.error ?? "validation failed");
  }

  /** Checks the module; throws an EmitError with Binaryen's report when it is invalid. */
  validate(): void {
    const r = captureStderr(() => this.raw.validate());
    if (r.error !== undefined || r.value !== 1) {
      throw new EmitError("generated module is invalid: " + (r.text.split("\n")[0] || "validation failed"), r.text);
    }
  }

  /**
   * Runs Binaryen's optimiser. `level` 0 skips it; 1–3 map to Binaryen's -O1..-O3
   * (shrink level 0: we care about speed, and modules are small).
   */
  optimize(level: 0 | 1 | 2 | 3, inlineMaxSize = 40): void {
    if (level === 0) return;
    guarded("optimize", () => {
      const saved = { level: binaryen.getOptimizeLevel(), flexible: binaryen.getFlexibleInlineMaxSize(), oneCaller: binaryen.getOneCallerInlineMaxSize() };
      binaryen.setOptimizeLevel(level);
      binaryen.setShrinkLevel(0);
      // At least the helpers a default install inlines (Binaryen's own limit, 20, would leave
      // per-edge helpers such as the `@x'` snapshot read as calls: WCC ran 0.63x as fast).
      binaryen.setFlexibleInlineMaxSize(Math.max(inlineMaxSize, saved.flexible));
      // Binaryen would inline every function that has one caller, however big: each SELECT
      // would land in the query's run function. V8 has no on-stack replacement for
      // WebAssembly, so a function tiers up to optimised code only when it is called again;
      // the run function is called once, and a SELECT inlined into it would loop in the
      // baseline compiler's code for the whole run (measured: WCC 0.63x, triangle counting
      // 0.72x of the default install's speed). Kept out of line, each SELECT tiers up.
      binaryen.setOneCallerInlineMaxSize(inlineMaxSize);
      try {
        this.raw.optimize();
      } finally {
        binaryen.setOptimizeLevel(saved.level);
        binaryen.setFlexibleInlineMaxSize(saved.flexible);
        binaryen.setOneCallerInlineMaxSize(saved.oneCaller);
      }
    });
  }

  /**
   * Inlines small helper functions (up to `maxSize` Binaryen size units, without loops) into
   * their callers, and nothing else: V8 does not inline calls between WebAssembly functions,
   * so a per-vertex helper costs a call, while the whole optimiser costs too much install time.
   */
  inlineSmallFunctions(maxSize = 40): void {
    guarded("inline", () => {
      const saved = { level: binaryen.getOptimizeLevel(), flexible: binaryen.getFlexibleInlineMaxSize(), oneCaller: binaryen.getOneCallerInlineMaxSize() };
      binaryen.setOptimizeLevel(3);
      binaryen.setShrinkLevel(0);
      binaryen.setFlexibleInlineMaxSize(maxSize);
      // Not the big functions with one caller (each SELECT): V8 tiers a function up to its
      // optimising compiler between calls, so a loop kept in its own function gets fast code.
      binaryen.setOneCallerInlineMaxSize(maxSize);
      try {
        this.raw.runPasses(["inlining"]);
      } finally {
        binaryen.setOptimizeLevel(saved.level);
        binaryen.setFlexibleInlineMaxSize(saved.flexible);
        binaryen.setOneCallerInlineMaxSize(saved.oneCaller);
      }
    });
  }

  /** Runs named Binaryen passes (e.g. "precompute", "vacuum"). */
  runPasses(passes: string[]): void {
    guarded("runPasses", () => this.raw.runPasses(passes));
  }

  /** The binary module. Validate first: emitting an invalid module may abort. */
  binary(): Uint8Array {
    return guarded("emitBinary", () => this.raw.emitBinary());
  }

  /** The module in the WebAssembly text format. */
  text(): string {
    return guarded("emitText", () => this.raw.emitText());
  }

  /** Frees Binaryen's memory for this module; the object is unusable afterwards. */
  dispose(): void {
    if (!this.disposed) this.raw.dispose();
    this.disposed = true;
  }

  private tupleType(types: ValueType[]): binaryen.Type {
    return types.length === 0 ? binaryen.none : binaryen.createType(types.map((t) => BINARYEN_TYPE[t]));
  }
}

/** log2 of an integer constant expression that is a power of two (above 1), else undefined. */
function powerOfTwo(e: Expr): number | undefined {
  if (binaryen.getExpressionId(e) !== binaryen.ConstId) return undefined;
  const info = binaryen.getExpressionInfo(e) as binaryen.ConstInfo;
  let v: bigint;
  if (info.type === binaryen.i32) v = BigInt((info.value as number) >>> 0);
  else if (info.type === binaryen.i64) v = typeof info.value === "bigint" ? BigInt.asUintN(64, info.value) : i64Parts(info.value);
  else return undefined;
  if (v < 2n || (v & (v - 1n)) !== 0n) return undefined;
  return v.toString(2).length - 1;
}

function i64Parts(value: unknown): bigint {
  const { low, high } = value as { low: number; high: number };
  return (BigInt(high >>> 0) << 32n) | BigInt(low >>> 0);
}
