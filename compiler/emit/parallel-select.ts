// Parallel SELECT: a SELECT whose walk over its source vertices may be split into ranges run
// by several threads at once, each thread with its own instance of the same module over the
// same graph memory and the same pinned snapshot.
//
// Only a walk proven safe is split (`parallelEligible`): one plain hop, nothing held back by
// the accumulator plan, and an ACCUM clause made of `v.@a += x` into order-independent vertex
// accumulators (numeric Sum, Min, Max, Or, And; Min/Max of tuples of ordered fields, see
// parallel-tuples.ts) and `s.@m += (k -> x)` into MapAccums of the source vertex (written in
// place, see parallel-maps.ts), under IF at most, with expressions that read and compute but
// neither allocate, call the host nor trap (no integer division but by a safe constant, no
// float-to-int conversion). The walk is then emitted a second time as the exported function
// `par_range_<k>(block, lo, hi, slot)`, checked once built to reach no host function (but
// `fail`), allocator or global write, else dropped and the SELECT stays sequential.
//
// Each thread (slot) writes into its own partial columns, initialised to the accumulators'
// identities, and its own result sets: plain stores, no atomics (a locked read-modify-write
// per edge cost 4x the whole edge loop). When every range has run, the SELECT's thread folds
// the partials into the accumulators with the accumulators' own `+=` and ORs the sets
// together. Reads in the clause never see the partials: the plan makes a clause read an
// accumulator it writes only through its pre-clause copy, which a split SELECT takes whole.
//
// Module globals (accumulator columns, the snapshot's addresses, query variables) live per
// instance, so the SELECT saves all of them into a capture block with the source list, the
// thread count, the partial columns and sets, and each range restores them first. POST-ACCUM,
// HAVING, ORDER BY and the rest of the SELECT run on the query's own thread as before.
import binaryen from "binaryen";
import { PARALLEL_RANGE_EXPORT } from "../../runtime-wasm/query/abi.js";
import type { IrExpr, IrSelect, IrStmt } from "../ir/ir.js";
import type { IrType } from "../ir/types.js";
import { allocBuffer, freeBuffer } from "./emit-arena.js";
import type { EmitContext } from "./context.js";
import { accumInit, accumSize, accumWriteInline, inlineTuple } from "./emit-accum.js";
import { GG } from "./emit-graph.js";
import { splittableTuple, tupleFold, tupleIdentityInit } from "./parallel-tuples.js";
import { entryOperands, inPlaceMaps, inPlaceMapWrite, reserveMaps, type InPlaceMap } from "./parallel-maps.js";
import { vsetCount, vsetForEach, vsetFree, vsetNew, vsetToList, vsetUnionInto } from "./emit-vset.js";
import { wasmType } from "./wasm-types.js";
import { visitStmts } from "../passes/walk-ir.js";
import type { IrAccum } from "../ir/types.js";
import type { Expr, FunctionScope, Local } from "./module.js";
import type { QueryEmitter } from "./query-emitter.js";

/** Saves every mutable global of the module at an address; `RESTORE` loads them back. */
const SAVE = "par_save_globals";
const RESTORE = "par_restore_globals";
/** Bytes the saved globals take (an immutable global set when the module is finished). */
const GLOBALS_BYTES = "par_globals_bytes";

interface ParallelState {
  ranges: number;
}
const states = new WeakMap<EmitContext, ParallelState>();

function stateOf(cx: EmitContext): ParallelState {
  let s = states.get(cx);
  if (s === undefined) states.set(cx, (s = { ranges: 0 }));
  return s;
}

// ---- which SELECTs ---------------------------------------------------------------------

function plainScalar(t: IrType): boolean {
  return t.t === "scalar" && t.name !== "STRING";
}

/** Values a range may compute: numbers, booleans, vertices (ids). */
function valueType(t: IrType): boolean {
  return plainScalar(t) || t.t === "vertex";
}

const PURE_CALLS = new Set(["abs", "sqrt", "getvid", "sign", "square", "degrees", "radians", "pi"]);

/** Whether evaluating `x` only reads memory and computes (no allocation, host call or trap). */
function pureExpr(qe: QueryEmitter, x: IrExpr): boolean {
  switch (x.e) {
    case "const":
      return valueType(x.type);
    case "var":
      return valueType(x.type) || x.type.t === "edge";
    case "gacc":
      return plainScalar(x.type) && !isCollectionOrTuple(qe, x.id);
    case "vacc":
      // A relaxation's read of the live value (passes/relaxation.ts) lets one thread skip
      // most rows; split, each range would see only the value from before the SELECT and
      // pass them all (conn_comp ran 2.3x slower on two threads than on one).
      if (x.current) return false;
      return plainScalar(x.type) && !isCollectionOrTuple(qe, x.id) && pureExpr(qe, x.vertex);
    case "attr":
      return plainScalar(x.type) && !x.primaryId && pureExpr(qe, x.target);
    case "field": {
      // a field of a tuple Min/Max kept in the vertex's state: one load, from the pre-clause copy
      const t = x.target;
      return valueType(x.type) && t.e === "vacc" && !t.current && inlineTuple(qe.accumType(t.id)) !== undefined && pureExpr(qe, t.vertex);
    }
    case "unary":
      return valueType(x.type) && pureExpr(qe, x.arg);
    case "binary": {
      if (!valueType(x.type) || !valueType(x.left.type) || !valueType(x.right.type)) return false;
      // integer division and remainder trap on zero (and division on -1): only by other constants
      const floating = x.type.t === "scalar" && (x.type.name === "DOUBLE" || x.type.name === "FLOAT");
      const safeDivisor = x.right.e === "const" && typeof x.right.value === "bigint" && x.right.value !== 0n && x.right.value !== -1n;
      if ((x.op === "div" || x.op === "mod") && !floating && !safeDivisor) return false;
      if (x.op !== "add" && x.op !== "sub" && x.op !== "mul" && x.op !== "div" && x.op !== "mod" && x.op !== "eq" && x.op !== "ne" && x.op !== "lt" && x.op !== "le" && x.op !== "gt" && x.op !== "ge" && x.op !== "and" && x.op !== "or" && x.op !== "bitand" && x.op !== "bitor") return false;
      return pureExpr(qe, x.left) && pureExpr(qe, x.right);
    }
    case "convert": {
      const from = x.arg.type;
      const floatToInt = from.t === "scalar" && (from.name === "DOUBLE" || from.name === "FLOAT") && x.type.t === "scalar" && x.type.name !== "DOUBLE" && x.type.name !== "FLOAT";
      return !floatToInt && plainScalar(x.type) && plainScalar(from) && pureExpr(qe, x.arg);
    }
    case "call":
      return PURE_CALLS.has(x.fn) && !x.distinct && valueType(x.type) && x.args.every((a) => pureExpr(qe, a));
    case "method":
      // outdegree() over edge types named in the query (not at run time)
      return x.method === "vertex.outdegree" && x.args.every((a) => a.e === "const") && pureExpr(qe, x.target);
    case "cond":
      return valueType(x.type) && x.branches.every((b) => pureExpr(qe, b.cond) && pureExpr(qe, b.value)) && pureExpr(qe, x.otherwise);
    default:
      return false;
  }
}

function isCollectionOrTuple(qe: QueryEmitter, id: number): boolean {
  const a = qe.accumType(id);
  return !(a.a === "sum" || a.a === "min" || a.a === "max" || a.a === "or" || a.a === "and" || a.a === "avg" || a.a === "replace") || ("elem" in a && a.elem.t !== "scalar");
}

/** Accumulators a range writes into partial columns: order-independent numeric scalars. */
function splittable(a: IrAccum): boolean {
  const numeric = (t: IrType) => t.t === "scalar" && (t.name === "INT" || t.name === "UINT" || t.name === "FLOAT" || t.name === "DOUBLE");
  if (a.a === "or" || a.a === "and" || splittableTuple(a)) return true;
  return (a.a === "sum" || a.a === "min" || a.a === "max") && numeric(a.elem);
}

function pureStmts(qe: QueryEmitter, sel: IrSelect, body: IrStmt[]): boolean {
  return body.every((st) => {
    if (st.s === "accumulate") {
      if (st.target.t !== "vacc" || st.target.indices) return false;
      const decl = qe.accum(st.target.id);
      if (inPlaceMapWrite(qe, sel, st)) return entryOperands(st.value).every((x) => pureExpr(qe, x));
      if (decl.scope !== "vertex" || !splittable(decl.type) || !pureExpr(qe, st.target.vertex)) return false;
      // a tuple Min/Max takes a tuple built in place from computed fields (emit-tuple-accum.ts)
      if (inlineTuple(decl.type)) return st.value.e === "tuple" && st.value.args.every((x) => pureExpr(qe, x));
      return pureExpr(qe, st.value);
    }
    if (st.s === "if") return st.branches.every((b) => pureExpr(qe, b.cond) && pureStmts(qe, sel, b.body)) && (st.otherwise === undefined || pureStmts(qe, sel, st.otherwise));
    return false;
  });
}

/** Whether the SELECT's walk over its sources may run as ranges on several threads. */
export function parallelEligible(qe: QueryEmitter, sel: IrSelect): boolean {
  if (sel.hops.length !== 1 || sel.sample) return false;
  const hop = sel.hops[0]!;
  if (hop.repeat || hop.dynamicEdges || hop.dynamicTargets) return false;
  const plan = sel.accumPlan;
  if (plan && (plan.bufferedAccums.length > 0 || plan.bufferedVars.length > 0)) return false;
  if (sel.where && !pureExpr(qe, sel.where)) return false;
  return pureStmts(qe, sel, sel.accum);
}

// ---- the range function ----------------------------------------------------------------

/** A SELECT's range function: its export index, the accumulators it writes, the result sets. */
export interface ParallelRange {
  index: number;
  name: string;
  accums: { id: number; accum: IrAccum }[];
  /** Source-side maps the ranges write in place (parallel-maps.ts). */
  maps: InPlaceMap[];
  /** Aliases whose vertex sets the walk fills, in block order. */
  sets: number[];
}

/** Capture block: [list, threads, partial column per accumulator..., set array per alias...], then the globals. */
function headerBytes(range: { accums: unknown[]; sets: unknown[] }): number {
  return (8 + 4 * range.accums.length + 4 * range.sets.length + 7) & ~7;
}

function writtenAccums(qe: QueryEmitter, sel: IrSelect): { id: number; accum: IrAccum }[] {
  const ids = new Set<number>();
  visitStmts(sel.accum, (st) => {
    if (st.s === "accumulate" && st.target.t === "vacc" && qe.accumType(st.target.id).a !== "map") ids.add(st.target.id);
  });
  return [...ids].map((id) => ({ id, accum: qe.accumType(id) }));
}

/**
 * Builds the SELECT's exported range function. `walk` emits one source vertex's work in
 * function `f` with the result sets in `sets`, its accumulator writes going to the slot's
 * partial columns (`qe.partialColumns`). Undefined when the function turns out to reach
 * something a helper thread must not do.
 */
export function emitParallelRange(
  qe: QueryEmitter,
  sel: IrSelect,
  setIds: number[],
  walk: (f: FunctionScope, sets: Map<number, Local>, v: Local) => Expr[],
): ParallelRange | undefined {
  const m = qe.m;
  const state = stateOf(qe.cx);
  const index = state.ranges;
  const name = `${PARALLEL_RANGE_EXPORT}${index}`;
  const accums = writtenAccums(qe, sel);
  const shape = { accums, sets: setIds };
  const params = [
    { name: "block", type: "i32" as const },
    { name: "lo", type: "i32" as const },
    { name: "hi", type: "i32" as const },
    { name: "slot", type: "i32" as const },
  ];
  const maps = inPlaceMaps(qe, sel);
  const saved = qe.partialColumns;
  const savedMaps = qe.reservedMaps;
  try {
    m.func(name, params, "none", (f) =>
      qe.inFunction(f, () => {
        const block = f.param(0);
        const slot = f.param(3);
        const list = f.local("i32", "list");
        const i = f.local("i32", "i");
        const v = f.local("i32", "v");
        const setup: Expr[] = [m.call(RESTORE, [m.add("i32", block.get(), m.i32(headerBytes(shape)))], "none"), list.set(m.load("i32", block.get()))];
        const columns = new Map<number, () => Expr>();
        accums.forEach((a, j) => {
          const column = f.local("i32", `part_${a.id}`);
          const stride = m.mul("i32", m.globalGet(GG.vidBound, "i32"), m.i32(accumSize(a.accum)));
          setup.push(column.set(m.add("i32", m.load("i32", block.get(), 8 + 4 * j), m.mul("i32", slot.get(), stride))));
          columns.set(a.id, () => column.get());
        });
        const sets = new Map<number, Local>();
        setIds.forEach((id, k) => {
          const local = f.local("i32", `set_${id}`);
          sets.set(id, local);
          setup.push(local.set(m.load("i32", m.add("i32", m.load("i32", block.get(), 8 + 4 * accums.length + 4 * k), m.shl("i32", slot.get(), m.i32(2))))));
        });
        qe.partialColumns = columns;
        qe.reservedMaps = new Set(maps.map((mp) => mp.id));
        return [
          ...setup,
          f.forRange(i, f.param(1).get(), f.param(2).get(), () => [v.set(m.load("i32", m.add("i32", list.get(), m.shl("i32", m.add("i32", i.get(), m.i32(1)), m.i32(2))))), ...walk(f, sets, v)]),
        ];
      }),
    );
  } catch (e) {
    if (m.hasFunction(name)) m.raw.removeFunction(name);
    if (e instanceof Error && e.name === "UnsupportedError") return undefined;
    throw e;
  } finally {
    qe.partialColumns = saved;
    qe.reservedMaps = savedMaps;
  }
  if (!helperSafe(qe.cx, name)) {
    m.raw.removeFunction(name);
    return undefined;
  }
  m.exportFunction(name, name);
  state.ranges++;
  return { index, name, accums, maps, sets: setIds };
}

/**
 * The SELECT's side, for `threads` threads (0: not split): when `ready`, sets up the partial
 * columns and sets, captures the state, runs the ranges and folds the partials in; `ran`
 * becomes 1 when they ran, else the caller walks the sources itself.
 */
export function parallelDispatch(qe: QueryEmitter, f: FunctionScope, sel: IrSelect, range: ParallelRange, src: Local, sets: Map<number, Local>, ready: Expr, threads: Local, ran: Local): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const list = f.local("i32", "par_list");
  const block = f.local("i32", "par_block");
  const n = f.local("i32", "par_n");
  const t = f.local("i32", "par_t");
  const v = f.local("i32", "par_v");
  const arr = f.local("i32", "par_sets");
  const base = f.local("i32", "par_base");
  const header = headerBytes(range);
  const bound = () => m.globalGet(GG.vidBound, "i32");
  const bytes = () => m.add("i32", m.i32(header), m.globalGet(GLOBALS_BYTES, "i32"));
  const columnBytes = (a: IrAccum) => m.mul("i32", m.mul("i32", threads.get(), bound()), m.i32(accumSize(a)));
  const columnAt = (j: number) => m.load("i32", block.get(), 8 + 4 * j);
  const setsAt = (k: number) => m.load("i32", block.get(), 8 + 4 * range.accums.length + 4 * k);
  const setup: Expr[] = [];
  const fold: Expr[] = [];
  const release: Expr[] = [];
  range.accums.forEach(({ id, accum }, j) => {
    const size = accumSize(accum);
    const part = () => m.add("i32", columnAt(j), m.mul("i32", v.get(), m.i32(size)));
    // the identity: 0 for Sum and Or (a fill), the type's extreme for Min/Max, true for And,
    // the tuple ranking last for a tuple Min/Max
    const zero = accum.a === "sum" || accum.a === "or";
    const tuple = inlineTuple(accum) !== undefined;
    const identity = () => (tuple ? tupleIdentityInit(cx, accum, part()) : accumInit(cx, accum, part()));
    setup.push(
      m.store("i32", block.get(), allocBuffer(cx, columnBytes(accum)), 8 + 4 * j),
      zero ? m.memoryFill(columnAt(j), m.i32(0), columnBytes(accum)) : f.forRange(v, m.i32(0), m.mul("i32", threads.get(), bound()), () => [identity()]),
    );
    // every thread's partial, folded in with the accumulator's own `+=` (slot after slot)
    const live = () => m.add("i32", m.globalGet(qe.accumGlobal(id), "i32"), m.mul("i32", m.sub("i32", v.get(), base.get()), m.i32(size)));
    const elem: IrType = accum.a === "or" || accum.a === "and" ? { t: "scalar", name: "BOOL" } : (accum as unknown as { elem: IrType }).elem;
    const w = tuple ? "i32" : wasmType(elem);
    const add = tuple ? tupleFold(cx, accum, live(), part()) : accumWriteInline(cx, f, accum, live, m.load(w, part()), elem, false);
    if (add === undefined) throw new Error("no plain += for a split accumulator");
    // a Sum slot nobody added to holds 0: skipped, so a -0.0 total keeps its sign
    const bits = w === "f32" || w === "i32" ? "i32" : "i64";
    const touched = accum.a === "sum" ? m.ne(bits, m.load(bits, part()), m.constant(bits, 0)) : m.i32(1);
    // Writes only at an alias whose vertices the slot records (BF's `t.@best`, SELECT t): a
    // slot's partial differs from the identity only at members of its set, so the fold visits
    // those rather than every vertex
    const k = range.sets.indexOf(writtenAlias(sel, id) ?? -1);
    const slotSet = () => m.load("i32", m.add("i32", setsAt(k), m.shl("i32", t.get(), m.i32(2))));
    fold.push(
      f.forRange(t, m.i32(0), threads.get(), () => [
        base.set(m.mul("i32", t.get(), bound())),
        k >= 0
          ? vsetForEach(cx, f, slotSet(), (member) => [v.set(m.add("i32", base.get(), member.get())), m.if(touched, add)])
          : f.forRange(v, base.get(), m.add("i32", base.get(), bound()), () => [m.if(touched, add)]),
      ]),
    );
    release.push(freeBuffer(cx, columnAt(j), columnBytes(accum)));
  });
  range.sets.forEach((id, k) => {
    setup.push(
      arr.set(allocBuffer(cx, m.shl("i32", threads.get(), m.i32(2)))),
      f.forRange(t, m.i32(0), threads.get(), () => [m.store("i32", m.add("i32", arr.get(), m.shl("i32", t.get(), m.i32(2))), vsetNew(cx))]),
      m.store("i32", block.get(), arr.get(), 8 + 4 * range.accums.length + 4 * k),
    );
    const slotSet = () => m.load("i32", m.add("i32", setsAt(k), m.shl("i32", t.get(), m.i32(2))));
    fold.push(f.forRange(t, m.i32(0), threads.get(), () => [vsetUnionInto(cx, sets.get(id)!.get(), slotSet())]));
    release.push(
      f.forRange(t, m.i32(0), threads.get(), () => [vsetFree(cx, slotSet())]),
      freeBuffer(cx, setsAt(k), m.shl("i32", threads.get(), m.i32(2))),
    );
  });
  return m.seq(
    ran.set(m.i32(0)),
    m.if(
      ready,
      m.seq(
        list.set(vsetToList(cx, src.get())),
        n.set(m.load("i32", list.get())),
        block.set(allocBuffer(cx, bytes())),
        m.store("i32", block.get(), list.get()),
        m.store("i32", block.get(), threads.get(), 4),
        ...setup,
        reserveMaps(qe, f, sel, range.maps, list),
        m.call(SAVE, [m.add("i32", block.get(), m.i32(header))], "none"),
        ran.set(cx.host("parallelRun", [m.i32(range.index), block.get(), n.get()])),
        m.if(ran.get(), m.seq(m.nop(), ...fold)),
        ...release,
        freeBuffer(cx, block.get(), bytes()),
        freeBuffer(cx, list.get(), m.shl("i32", m.add("i32", n.get(), m.i32(1)), m.i32(2))),
      ),
    ),
  );
}

/** The alias every ACCUM write to accumulator `id` names as its vertex, if they all name one. */
function writtenAlias(sel: IrSelect, id: number): number | undefined {
  const aliases = new Set<number | undefined>();
  visitStmts(sel.accum, (st) => {
    if (st.s === "accumulate" && st.target.t === "vacc" && st.target.id === id) aliases.add(st.target.vertex.e === "var" ? st.target.vertex.id : undefined);
  });
  return aliases.size === 1 ? [...aliases][0] : undefined;
}

/** Asks the host how many threads to split a walk over the source set's vertices across (0: none). */
export function parallelWanted(qe: QueryEmitter, src: Local): Expr {
  return qe.cx.host("parallelWant", [vsetCount(qe.cx, src.get())]);
}

/** Defines the global save/restore pair once every global is known (module finish). */
export function finishParallel(cx: EmitContext): void {
  if (!states.has(cx)) return;
  const m = cx.m;
  const globals: { name: string; type: "i32" | "i64" | "f32" | "f64" }[] = [];
  for (let i = 0; i < m.raw.getNumGlobals(); i++) {
    const info = binaryen.getGlobalInfo(m.raw.getGlobalByIndex(i));
    if (!info.mutable || info.module) continue;
    const type = info.type === binaryen.i32 ? "i32" : info.type === binaryen.i64 ? "i64" : info.type === binaryen.f32 ? "f32" : info.type === binaryen.f64 ? "f64" : undefined;
    if (type === undefined) throw new Error(`global ${info.name} of an unexpected type`);
    globals.push({ name: info.name, type });
  }
  m.global(GLOBALS_BYTES, "i32", Math.max(8, globals.length * 8), false);
  m.func(SAVE, [{ name: "at", type: "i32" }], "none", (f) => m.seq(m.nop(), ...globals.map((g, k) => m.store(g.type, f.param(0).get(), m.globalGet(g.name, g.type), 8 * k))));
  m.func(RESTORE, [{ name: "at", type: "i32" }], "none", (f) => m.seq(m.nop(), ...globals.map((g, k) => m.globalSet(g.name, m.load(g.type, f.param(0).get(), 8 * k)))));
}

// ---- the check -------------------------------------------------------------------------

/** Helpers a range must never reach: the allocator and free lists, output streams. */
const FORBIDDEN = /alloc|free|arena|out_|dml|init_strings/;

/**
 * Whether function `name` and everything it calls stay off the host, the allocator and the
 * module's globals (the restore of the captured globals aside): what helper threads run must
 * only read memory and write accumulators and result sets.
 */
function helperSafe(cx: EmitContext, name: string): boolean {
  const m = cx.m;
  // `rt_fail` ends the run with a runtime error and never returns: helpers raise it too
  const seen = new Set<string>([RESTORE, "rt_fail"]);
  const children = ["value", "ptr", "condition", "ifTrue", "ifFalse", "body", "children", "operands", "left", "right", "size", "dest", "source", "delta", "expected", "replacement"];
  const visitFunction = (fn: string): boolean => {
    if (seen.has(fn)) return true;
    seen.add(fn);
    if (FORBIDDEN.test(fn) && fn !== name) return false;
    const ref = m.raw.getFunction(fn);
    if (ref === 0) return false;
    const info = binaryen.getFunctionInfo(ref);
    if (info.module) return false; // an import: a host function
    return info.body === 0 || visit(info.body);
  };
  const visit = (e: number): boolean => {
    if (!e) return true;
    const id = binaryen.getExpressionId(e);
    if (id === binaryen.ConstId || id === binaryen.UnreachableId || id === binaryen.NopId) return true;
    if (id === binaryen.GlobalSetId || id === binaryen.MemoryGrowId || id === binaryen.CallIndirectId) return false;
    const info = binaryen.getExpressionInfo(e) as unknown as Record<string, unknown>;
    if (id === binaryen.CallId && !visitFunction(info.target as string)) return false;
    for (const k of children) {
      const v = info[k];
      if (Array.isArray(v)) {
        for (const c of v) if (!visit(c as number)) return false;
      } else if (typeof v === "number" && !visit(v)) return false;
    }
    return true;
  };
  return visitFunction(name);
}
