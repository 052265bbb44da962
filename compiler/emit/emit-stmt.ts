// Statements, at query-body level and inside ACCUM / POST-ACCUM (the clause state in the
// QueryEmitter tells which): declarations, assignment and accumulation (held back until the
// clause ends where the accumulator pass says so), control flow, vertex-set assignment,
// PRINT, LOG, RETURN, RAISE and TRY.
import { Ctl, RunStatus, RuntimeError } from "../../runtime-wasm/query/abi.js";
import type { IrExpr, IrStmt, IrTarget } from "../ir/ir.js";
import { STRING, type IrAccum, type IrTupleType, type IrType } from "../ir/types.js";
import { G } from "./context.js";
import { accumAdd, accumAssign, accumInit, accumRead, accumSize, accumulateEntry, accumWriteInline, allocStates, collectionClear, collectionForEach, groupByKeyTuple, groupByOffsets, newContainer } from "./emit-accum.js";
import { alloc } from "./emit-arena.js";
import { deferWrite } from "./emit-deferred.js";
import { arrayCellOf, arrayCellState, convert, emitExpr, vertexState } from "./emit-expr.js";
import { GG } from "./emit-graph.js";
import { Entry } from "./emit-hash-table.js";
import { heapLength, heapNew, heapSorted } from "./emit-heap.js";
import { emitIntersection, emitMarkedLoop, matchIntersection } from "./emit-intersect.js";
import { emitPrint } from "./emit-print.js";
import { accumulateNested, nestedLevels } from "./emit-nested-entry.js";
import { emitPrintln, fileOpen } from "./emit-file.js";
import { emitAttrWrite, emitDelete, emitInsertEdge, emitInsertVertex } from "./emit-dml.js";
import { primeCapture, primeDeclare } from "./emit-prime.js";
import { emitSelect } from "./emit-select.js";
import { scalarText } from "./emit-builtins.js";
import { strAddress, strConcat, strLength } from "./emit-strings.js";
import { defaultValue, loadValue, makeTuple, tupleLayout } from "./emit-values.js";
import { vsetCombine, vsetFree, vsetForEach } from "./emit-vset.js";
import { ArrayHeader } from "./emit-write.js";
import type { Expr, Local } from "./module.js";
import { UnsupportedError, type QueryEmitter } from "./query-emitter.js";
import { tupleMinMaxInline } from "./emit-tuple-accum.js";
import { reservedEntryWrite } from "./parallel-maps.js";
import { wasmType } from "./wasm-types.js";

/** Exception state: the code of the exception in flight (0: none) and its message. */
export const EXC = { code: "exc_code", message: "exc_message" } as const;

export function emitStmts(qe: QueryEmitter, stmts: IrStmt[]): Expr[] {
  return stmts.map((s) => emitStmt(qe, s));
}

function block(qe: QueryEmitter, stmts: IrStmt[]): Expr {
  return qe.m.seq(qe.m.nop(), ...emitStmts(qe, stmts));
}

export function emitStmt(qe: QueryEmitter, s: IrStmt): Expr {
  const m = qe.m;
  const cx = qe.cx;
  switch (s.s) {
    case "let": {
      const v = qe.variable(s.id);
      if (qe.clause.level !== "query") qe.declareLocal(s.id);
      let value: Expr;
      if (v.type.t === "file") value = s.init ? fileOpen(qe, emitExpr(qe, s.init)) : m.i32(-1);
      else if (s.init) value = convertTo(qe, s.init, v.type);
      else if (v.type.t === "accum") value = newContainer(cx, v.type.accum);
      else value = defaultValue(cx, v.type);
      return qe.writeVar(s.id, value);
    }
    case "declAccum":
      return declareAccum(qe, s);
    case "resetAccum":
      return resetAccum(qe, s.id);
    case "assign":
    case "accumulate":
      return write(qe, s.target, s.value, s.s === "accumulate");
    case "vsetAssign":
      return assignVertexSet(qe, s.id, s.value);
    case "select":
      return emitSelect(qe, s.id, s.select);
    case "expr": {
      const e = emitExpr(qe, s.expr);
      return s.expr.type.t === "void" ? e : m.drop(e);
    }
    case "if": {
      let out: Expr | undefined = s.otherwise ? block(qe, s.otherwise) : undefined;
      for (let i = s.branches.length - 1; i >= 0; i--) out = m.if(emitExpr(qe, s.branches[i].cond), block(qe, s.branches[i].body), out);
      return out ?? m.nop();
    }
    case "while":
      return emitWhile(qe, s);
    case "forRange":
      return emitForRange(qe, s);
    case "forEach":
      return emitForEach(qe, s);
    case "break":
    case "continue": {
      const loop = qe.loops[qe.loops.length - 1];
      if (loop === undefined) throw new Error(`${s.s.toUpperCase()} outside a loop`);
      return m.br(s.s === "break" ? loop.exit : loop.next);
    }
    case "print":
      return emitPrint(qe, s);
    case "log":
      return emitLog(qe, s.cond, s.args);
    case "return":
      // A called query hands the value to its caller; run directly, the value is not part of
      // the output (gsql-semantics §9.1): it is evaluated (for its errors) and the run ends.
      if (s.value && qe.returnLocal && qe.ir.returns) return m.seq(qe.returnLocal.set(convert(qe, s.value.type, qe.ir.returns, emitExpr(qe, s.value))), m.br(qe.bodyEnd));
      if (s.value) return m.seq(m.drop(emitExpr(qe, s.value)), m.br(qe.bodyEnd));
      return m.br(qe.bodyEnd);
    case "raise":
      return raise(qe, s.exception, s.message);
    case "try":
      return emitTry(qe, s);
    case "println":
      return emitPrintln(qe, { e: "var", id: s.file, type: qe.variable(s.file).type }, s.args);
    case "insertVertex":
      return emitInsertVertex(qe, s);
    case "insertEdge":
      return emitInsertEdge(qe, s);
    case "delete":
      return emitDelete(qe, s.target);
  }
}

/** Converts a value to a variable's type where numbers differ (truncating into integers). */
function convertTo(qe: QueryEmitter, value: IrExpr, t: IrType): Expr {
  return convert(qe, value.type, t, emitExpr(qe, value));
}

function declareAccum(qe: QueryEmitter, s: Extract<IrStmt, { s: "declAccum" }>): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const decl = qe.accum(s.id);
  const a = decl.type;
  const f = qe.f;
  const init = s.init ? f.local(wasmType(s.init.type), "init") : undefined;
  const capacity = s.capacity ? f.local("i32", "capacity") : undefined;
  const setup: Expr[] = [m.nop()];
  if (init && s.init) setup.push(init.set(emitExpr(qe, s.init)));
  if (capacity && s.capacity) setup.push(capacity.set(m.convert("i64", "i32", convert(qe, s.capacity.type, { t: "scalar", name: "INT" }, emitExpr(qe, s.capacity)))));
  const sizes = (s.sizes ?? []).map((e) => {
    const l = f.local("i32", "size");
    setup.push(l.set(m.convert("i64", "i32", emitExpr(qe, e))));
    return l;
  });
  // Initialises one state: default, then the heap/array container, then the initial value.
  const initState = (state: () => Expr): Expr => {
    const parts: Expr[] = [accumInit(cx, a, state())];
    if (a.a === "heap") parts.push(m.store("i32", state(), heapNew(cx, capacity ? capacity.get() : m.i32(-1))));
    if (a.a === "array") parts.push(m.store("i32", state(), newArray(qe, a, sizes.map((l) => l.get()))));
    if (init && s.init) parts.push(accumAssign(cx, a, state(), init.get(), s.init.type));
    return m.seq(...parts);
  };
  const count = decl.scope === "global" ? m.i32(1) : m.globalGet(GG.vidBound, "i32");
  const simple = !init && a.a !== "heap" && a.a !== "array";
  const states = allocStates(cx, f, a, count, simple ? undefined : (st) => initState(() => st.get()));
  const out = [...setup, m.globalSet(qe.accumGlobal(s.id), states)];
  if (decl.scope === "vertex" && decl.primeUsed) out.push(primeDeclare(qe, s.id));
  return m.seq(...out);
}

/** reset_collection_accum: empties the global container, or every vertex's one. */
function resetAccum(qe: QueryEmitter, id: number): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const a = qe.accumType(id);
  const c = qe.f.local("i32", "reset");
  const clear = (state: Expr) => m.seq(c.set(m.load("i32", state)), m.if(c.get(), collectionClear(cx, a, c.get())));
  if (qe.accum(id).scope === "global") return clear(m.globalGet(qe.accumGlobal(id), "i32"));
  const v = qe.f.local("i32", "rv");
  return qe.f.forRange(v, m.i32(0), m.globalGet(GG.vidBound, "i32"), () => [clear(vertexState(qe, id, v.get()))]);
}

/** A new ArrayAccum container with the given dimension sizes (a negative one counts as 0). */
export function newArray(qe: QueryEmitter, a: Extract<IrAccum, { a: "array" }>, sizes: Expr[]): Expr {
  const p = qe.f.local("i32", "arr");
  return qe.m.block(null, [p.set(alloc(qe.cx, qe.m.i32(ArrayHeader.size))), ...shapeArray(qe, a, p, sizes), p.get()], "i32");
}

/**
 * `@@a.reallocate(n1, ...)`: the array's container takes the new dimension sizes and fresh
 * cells (each the element's default: the old contents are dropped, as the reference does). A
 * negative size counts as 0. The container stays where it is, so every holder of it sees the
 * new array.
 */
export function arrayReallocate(qe: QueryEmitter, a: Extract<IrAccum, { a: "array" }>, container: Expr, sizes: Expr[]): Expr {
  const p = qe.f.local("i32", "arr");
  return qe.m.block(null, [p.set(container), ...shapeArray(qe, a, p, sizes)]);
}

/** Writes the dimension sizes into the container at `p` and gives it that many fresh cells. */
function shapeArray(qe: QueryEmitter, a: Extract<IrAccum, { a: "array" }>, p: Local, sizes: Expr[]): Expr[] {
  const m = qe.m;
  if (sizes.length > 5) throw new UnsupportedError("ArrayAccum with more than five dimensions");
  const f = qe.f;
  const cells = f.local("i32", "cells");
  const size = f.local("i32", "size");
  const parts: Expr[] = [m.store("i32", p.get(), m.i32(sizes.length), ArrayHeader.dims), cells.set(m.i32(1))];
  sizes.forEach((e, i) => {
    parts.push(size.set(e), m.if(m.lt("i32", size.get(), m.i32(0)), size.set(m.i32(0))), m.store("i32", p.get(), size.get(), ArrayHeader.sizes + 4 * i), cells.set(m.mul("i32", cells.get(), size.get())));
  });
  parts.push(m.store("i32", p.get(), cells.get(), ArrayHeader.cells), m.store("i32", p.get(), allocStates(qe.cx, f, a.elem, cells.get()), ArrayHeader.data));
  return parts;
}

/** The state address a target names (accumulators), evaluated once into a local. */
function targetState(qe: QueryEmitter, t: IrTarget): { state: Expr; accum: IrAccum; vertex?: Local } {
  const m = qe.m;
  switch (t.t) {
    case "gacc": {
      const a = qe.accumType(t.id);
      if (t.indices) {
        const target: IrExpr = { e: "gacc", id: t.id, type: { t: "accum", accum: a } };
        return { state: arrayCellState(qe, target, t.indices), accum: (a as Extract<IrAccum, { a: "array" }>).elem };
      }
      return { state: m.globalGet(qe.accumGlobal(t.id), "i32"), accum: a };
    }
    case "vacc": {
      const a = qe.accumType(t.id);
      const v = qe.f.local("i32", "tv");
      const state = m.block(null, [v.set(emitExpr(qe, t.vertex)), vertexState(qe, t.id, v.get())], "i32");
      if (t.indices) {
        // a cell of the vertex's own array
        if (a.a !== "array") throw new Error("index of a non-array");
        return { state: arrayCellOf(qe, a.elem, m.load("i32", state), t.indices), accum: a.elem, vertex: v };
      }
      return { state, accum: a, vertex: v };
    }
    default:
      throw new Error("not an accumulator target");
  }
}

/** `target = value` / `target += value`, directly or held back per the clause's plan. */
function write(qe: QueryEmitter, target: IrTarget, value: IrExpr, accumulate: boolean): Expr {
  const m = qe.m;
  const cx = qe.cx;
  if (target.t === "attr") return emitAttrWrite(qe, target, value, accumulate);
  if (target.t === "var") return writeVariable(qe, target.id, value, accumulate);

  const accumId = target.id;
  // `@@bag += (a, b, a)`: a literal added to a bag keeps its repeated elements.
  const targetAccum = qe.accumType(accumId);
  if (value.e === "collection" && value.type.t === "accum" && value.type.accum.a === "set" && (targetAccum.a === "bag" || (targetAccum.a === "array" && targetAccum.elem.a === "bag"))) {
    value = { ...value, type: { t: "accum", accum: { a: "bag", elem: value.type.accum.elem } } };
  }
  const deferred = qe.clause.deferredAccums.has(accumId);
  const decl = qe.accum(accumId);
  const needsPrime = decl.scope === "vertex" && decl.primeUsed === true && qe.clause.level !== "query";
  const { state, accum, vertex } = targetState(qe, target);
  const stateLocal = qe.f.local("i32", "state");
  const setState = stateLocal.set(state);
  const vertexLocal = vertex;

  const capture = (v: () => Expr) => (needsPrime ? primeCapture(qe, accumId, v()) : m.nop());
  const tupleInline = !deferred ? tupleMinMaxInline(qe, accum, () => stateLocal.get(), value, !accumulate) : undefined;
  const partial = qe.partialColumns?.get(accumId);
  if (tupleInline && partial) {
    // a tuple Min/Max in a SELECT range (parallel-select.ts): into this thread's partial state
    if (!accumulate || !vertexLocal) throw new UnsupportedError("a write a parallel SELECT cannot split");
    return m.seq(setState, stateLocal.set(m.add("i32", partial(), m.mul("i32", vertexLocal.get(), m.i32(accumSize(accum))))), capture(() => vertexLocal.get()), tupleInline);
  }
  if (tupleInline) return m.seq(setState, vertexLocal ? capture(() => vertexLocal.get()) : m.nop(), tupleInline);

  // What one write does, given the state address and operand values.
  let operands: { expr: Expr; type: IrType }[];
  let apply: (st: Expr, ops: Expr[]) => Expr;
  const nested = value.e === "entry" ? nestedLevels(value) : undefined;
  if (nested) {
    const parts = [...nested.keys.flat(), ...nested.values];
    operands = parts.map((e) => ({ expr: emitExpr(qe, e), type: e.type }));
    const shape = { keys: nested.keys.map((k) => k.map((e) => e.type)), values: nested.values.map((e) => e.type) };
    apply = (st, ops) => accumulateNested(cx, accum, st, shape, ops);
  } else if (value.e === "entry") {
    operands = [...value.keys, ...value.values].map((e) => ({ expr: emitExpr(qe, e), type: e.type }));
    const nk = value.keys.length;
    apply = (st, ops) =>
      accumulateEntry(
        cx,
        accum,
        st,
        value.keys.map((k, i) => ({ expr: ops[i], type: k.type })),
        value.values.map((v, i) => ({ expr: ops[nk + i], type: v.type })),
      );
  } else {
    const vt = valueTypeFor(accum, value.type);
    operands = [{ expr: convert(qe, value.type, vt, emitExpr(qe, value)), type: vt }];
    apply = (st, ops) => (accumulate ? accumAdd(cx, accum, st, ops[0], vt) : accumAssign(cx, accum, st, ops[0], vt));
  }

  if (deferred) {
    // the vertex id rides in the record too when the prime must be captured at replay
    const extra = needsPrime && vertexLocal ? [{ expr: vertexLocal.get(), type: { t: "vertex" } as IrType }] : [];
    return m.seq(
      setState,
      deferWrite(qe, stateLocal.get(), [...operands, ...extra], (st, ops) => {
        const n = operands.length;
        return m.seq(extra.length ? capture(() => ops[n]) : m.nop(), apply(st, ops.slice(0, n)));
      }),
    );
  }
  if (qe.reservedMaps?.has(accumId)) {
    // a source-side map in a SELECT range (parallel-maps.ts): written in place, never grown
    if (value.e !== "entry" || nested || accum.a !== "map" || !accumulate) throw new UnsupportedError("a map write a parallel SELECT cannot split");
    return m.seq(setState, vertexLocal ? capture(() => vertexLocal.get()) : m.nop(), reservedEntryWrite(cx, qe.f, accum, stateLocal.get(), operands[0].expr, operands[1].expr, operands[1].type));
  }
  if (partial) {
    // a SELECT range one of several threads runs (parallel-select.ts): `+=` into this
    // thread's own column, folded into the accumulator when every range has run
    const inline = accumulate && value.e !== "entry" && vertexLocal ? accumWriteInline(cx, qe.f, accum, () => stateLocal.get(), operands[0].expr, operands[0].type, false) : undefined;
    if (inline === undefined) throw new UnsupportedError("a write a parallel SELECT cannot split");
    return m.seq(setState, stateLocal.set(m.add("i32", partial(), m.mul("i32", vertexLocal!.get(), m.i32(accumSize(accum))))), capture(() => vertexLocal!.get()), inline);
  }
  const inline = value.e === "entry" ? undefined : accumWriteInline(cx, qe.f, accum, () => stateLocal.get(), operands[0].expr, operands[0].type, !accumulate);
  return m.seq(
    setState,
    vertexLocal ? capture(() => vertexLocal.get()) : m.nop(),
    inline ?? apply(stateLocal.get(), operands.map((o) => o.expr)),
  );
}

/** The type a `+=`/`=` operand is converted to: the accumulator's element type for numbers. */
function valueTypeFor(a: IrAccum, given: IrType): IrType {
  switch (a.a) {
    case "sum":
    case "min":
    case "max":
    case "replace":
      return given.t === "scalar" && a.elem.t === "scalar" && given.name !== "STRING" && a.elem.name !== "STRING" ? a.elem : given;
    case "avg":
      return { t: "scalar", name: "DOUBLE" };
    case "list":
    case "set":
    case "bag":
      return given.t === "scalar" && a.elem.t === "scalar" && given.name !== a.elem.name && given.name !== "STRING" ? a.elem : given;
    default:
      return given;
  }
}

/** Variable assignment; in a clause, held back when the variable is read in it. */
function writeVariable(qe: QueryEmitter, id: number, value: IrExpr, accumulate: boolean): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const v = qe.variable(id);
  let newValue: Expr;
  if (!accumulate) newValue = convertTo(qe, value, v.type);
  else if (v.type.t === "scalar" && v.type.name === "STRING") newValue = strConcat(cx, qe.readVar(id), emitExpr(qe, value));
  else if (v.type.t === "scalar") newValue = m.add(wasmType(v.type), qe.readVar(id), convertTo(qe, value, v.type));
  else if (v.type.t === "accum") {
    const cell = qe.f.local("i32", "cell");
    return m.seq(cell.set(alloc(cx, m.i32(8))), m.store("i32", cell.get(), qe.readVar(id)), accumAdd(cx, v.type.accum, cell.get(), emitExpr(qe, value), value.type), qe.writeVar(id, m.load("i32", cell.get())));
  } else throw new UnsupportedError(`+= on a ${v.type.t} variable`);
  if (qe.clause.deferredVars.has(id)) {
    return deferWrite(qe, undefined, [{ expr: newValue, type: v.type }], (_st, ops) => qe.writeVar(id, ops[0]));
  }
  return qe.writeVar(id, newValue);
}

/** `S = value`: the variable takes a set of its own (copies of other variables' sets). */
function assignVertexSet(qe: QueryEmitter, id: number, value: IrExpr): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const fresh = value.e === "vset" ? vsetCombine(cx, "copy", emitExpr(qe, value), m.i32(0)) : emitExpr(qe, value);
  const next = qe.f.local("i32", "vs");
  const old = qe.f.local("i32", "old");
  return m.seq(next.set(fresh), old.set(qe.readVar(id)), qe.writeVar(id, next.get()), m.if(m.ne("i32", old.get(), next.get()), vsetFree(cx, old.get())));
}

function cancelCheck(qe: QueryEmitter): Expr {
  const m = qe.m;
  return m.if(m.atomicLoad("i32", m.globalGet(G.ctl, "i32"), Ctl.cancel), m.unreachable());
}

function emitWhile(qe: QueryEmitter, s: Extract<IrStmt, { s: "while" }>): Expr {
  const m = qe.m;
  const f = qe.f;
  const limit = s.limit ? f.local("i64", "limit") : undefined;
  const passes = f.local("i64", "passes");
  const setup = [passes.set(m.i64(0)), limit && s.limit ? limit.set(convert(qe, s.limit.type, { t: "scalar", name: "INT" }, emitExpr(qe, s.limit))) : m.nop()];
  const loop = f.whileLoop(
    () => {
      const cond = emitExpr(qe, s.cond);
      return limit ? m.and("i32", m.lt("i64", passes.get(), limit.get()), cond) : cond;
    },
    (labels) => {
      qe.loops.push(labels);
      try {
        return [cancelCheck(qe), passes.set(m.add("i64", passes.get(), m.i64(1))), ...emitStmts(qe, s.body)];
      } finally {
        qe.loops.pop();
      }
    },
  );
  return m.seq(...setup, loop);
}

/** FOREACH x IN RANGE[a, b].STEP(c): inclusive, any step sign; a zero step is an error. */
function emitForRange(qe: QueryEmitter, s: Extract<IrStmt, { s: "forRange" }>): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const f = qe.f;
  const INT: IrType = { t: "scalar", name: "INT" };
  if (qe.clause.level !== "query") qe.declareLocal(s.id);
  const low = f.local("i64", "lo");
  const high = f.local("i64", "hi");
  const step = f.local("i64", "step");
  const i = f.local("i64", "k");
  const next = f.label("range_next");
  const exit = f.label("range_exit");
  const top = f.label("range_top");
  qe.loops.push({ exit, next });
  let body: Expr[];
  try {
    body = emitStmts(qe, s.body);
  } finally {
    qe.loops.pop();
  }
  return m.seq(
    low.set(convert(qe, s.low.type, INT, emitExpr(qe, s.low))),
    high.set(convert(qe, s.high.type, INT, emitExpr(qe, s.high))),
    step.set(s.step ? convert(qe, s.step.type, INT, emitExpr(qe, s.step)) : m.i64(1)),
    m.if(m.eqz("i64", step.get()), cx.host("fail", [m.i32(RuntimeError.BadRangeStep)])),
    i.set(low.get()),
    m.block(exit, [
      m.loop(
        top,
        m.seq(
          m.brIf(exit, m.select(m.gt("i64", step.get(), m.i64(0)), m.gt("i64", i.get(), high.get()), m.lt("i64", i.get(), high.get()))),
          cancelCheck(qe),
          qe.writeVar(s.id, i.get()),
          m.block(next, body),
          i.set(m.add("i64", i.get(), step.get())),
          m.br(top),
        ),
      ),
    ]),
  );
}

/** FOREACH over a collection, vertex set, map (`(k, v)`) or GroupBy. */
function emitForEach(qe: QueryEmitter, s: Extract<IrStmt, { s: "forEach" }>): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const f = qe.f;
  if (qe.clause.level !== "query") for (const id of s.ids) qe.declareLocal(id);
  const body = (labels: { exit: string; next: string }, bind: Expr[], stmts: IrStmt[] = s.body): Expr[] => {
    qe.loops.push(labels);
    try {
      return [cancelCheck(qe), ...bind, ...emitStmts(qe, stmts)];
    } finally {
      qe.loops.pop();
    }
  };
  const intersection = matchIntersection(qe, s);
  if (intersection) return emitIntersection(qe, s, intersection, (labels, element, stmts) => body(labels, [qe.writeVar(s.ids[0], element)], stmts));
  const t = s.collection.type;
  if (t.t === "accum" && t.accum.a === "set") {
    const a = t.accum;
    const marked = emitMarkedLoop(qe, s, () => collectionForEach(cx, f, a, emitExpr(qe, s.collection), (item, labels) => body(labels, [qe.writeVar(s.ids[0], item.element!())])));
    if (marked) return marked;
  }
  if (t.t === "accum" && t.accum.a === "map" && s.ids.length === 2) {
    const a = t.accum;
    return collectionForEach(cx, f, a, emitExpr(qe, s.collection), (item, labels) =>
      body(labels, [qe.writeVar(s.ids[0], item.key!()), qe.writeVar(s.ids[1], accumRead(cx, a.value, item.valueState!()))]),
    );
  }
  if (t.t === "vset") {
    return vsetForEach(cx, f, emitExpr(qe, s.collection), (v, labels) => body(labels, [qe.writeVar(s.ids[0], v.get())]));
  }
  if (t.t === "accum" && (t.accum.a === "list" || t.accum.a === "set" || t.accum.a === "bag")) {
    const a = t.accum;
    return collectionForEach(cx, f, a, emitExpr(qe, s.collection), (item, labels) => body(labels, [qe.writeVar(s.ids[0], item.element!())]));
  }
  if (t.t === "accum" && t.accum.a === "heap") {
    // best first, as the heap prints
    const h = t.accum;
    const sorted = f.local("i32", "sorted");
    const heap = f.local("i32", "heap");
    const i = f.local("i32", "hi");
    return m.seq(
      heap.set(emitExpr(qe, s.collection)),
      m.if(
        heapLength(cx, heap.get()),
        m.seq(
          sorted.set(heapSorted(cx, h, heap.get())),
          f.forRange(i, m.i32(0), heapLength(cx, heap.get()), (labels) => body(labels, [qe.writeVar(s.ids[0], m.load("i32", m.add("i32", sorted.get(), m.shl("i32", i.get(), m.i32(2)))))])),
        ),
      ),
    );
  }
  if (t.t === "accum" && t.accum.a === "groupby") {
    // one variable: a tuple of the keys then the values; several: keys then values in order
    const a = t.accum;
    const keyLayout = tupleLayout(groupByKeyTuple(a));
    const { offsets } = groupByOffsets(a);
    const parts = (entry: Expr[]): Expr[] => [
      ...a.keys.map((k, i) => loadValue(cx, k.type, m.load("i32", entry[i], Entry.key), keyLayout.offsets[i])),
      ...a.values.map((v, i) => accumRead(cx, v.accum, m.add("i32", entry[a.keys.length + i], m.i32(Entry.value + offsets[i])))),
    ];
    const width = a.keys.length + a.values.length;
    const single = s.ids.length === 1 ? qe.variable(s.ids[0]).type : undefined;
    if (single !== undefined && !(single.t === "tuple" && single.fields.length === width)) throw new UnsupportedError("FOREACH over a GroupByAccum into this variable");
    if (single === undefined && s.ids.length !== width) throw new UnsupportedError("FOREACH over a GroupByAccum with this many variables");
    return collectionForEach(cx, f, a, emitExpr(qe, s.collection), (item, labels) => {
      const values = parts(Array.from({ length: width }, () => item.entry!()));
      return body(labels, single !== undefined ? [qe.writeVar(s.ids[0], makeTuple(cx, single as IrTupleType, values))] : s.ids.map((id, k) => qe.writeVar(id, values[k])));
    });
  }
  throw new UnsupportedError(`FOREACH over ${t.t === "accum" ? t.accum.a : t.t}`);
}

/** LOG(cond, args...): the arguments' text, comma-separated, to the server log. */
function emitLog(qe: QueryEmitter, cond: IrExpr, args: IrExpr[]): Expr {
  const m = qe.m;
  const cx = qe.cx;
  let text: Expr = m.i64(0);
  args.forEach((a, i) => {
    const piece = textOf(qe, a);
    text = i === 0 ? piece : strConcat(cx, strConcat(cx, text, emitExpr(qe, { e: "const", type: STRING, value: ", " })), piece);
  });
  const s = qe.f.local("i64", "log");
  return m.if(emitExpr(qe, cond), m.seq(s.set(text), cx.host("log", [strAddress(cx, s.get()), strLength(cx, s.get())])));
}

/** A scalar value's text (strings as they are); other values show as their kind. */
function textOf(qe: QueryEmitter, a: IrExpr): Expr {
  const t = a.type;
  if (t.t !== "scalar") return emitExpr(qe, { e: "const", type: STRING, value: `<${t.t}>` });
  return scalarText(qe, t.name, emitExpr(qe, a));
}

/** RAISE: records the exception and jumps to the innermost TRY's handlers, or ends the run. */
function raise(qe: QueryEmitter, exceptionId: number, message?: IrExpr): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const exc = qe.ir.exceptions.find((e) => e.id === exceptionId);
  if (!exc) throw new Error(`unknown exception #${exceptionId}`);
  cx.ensureGlobal(EXC.code, "i32");
  cx.ensureGlobal(EXC.message, "i64");
  const text = message
    ? emitExpr(qe, message)
    : emitExpr(qe, { e: "const", type: STRING, value: `Exception ${exc.name} is raised with error code ${exc.code}` });
  const handler = qe.tries[qe.tries.length - 1];
  // uncaught in a called query: back to the caller, which passes it on
  const away = handler ? m.br(handler) : qe.functionKind === "subquery" ? m.br(qe.bodyEnd) : uncaught(qe);
  return m.seq(m.globalSet(EXC.code, m.i32(exc.code)), m.globalSet(EXC.message, text), away);
}

/** An exception nobody catches: the run ends with its code and message. */
export function uncaught(qe: QueryEmitter): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const ctl = () => m.globalGet(G.ctl, "i32");
  cx.ensureGlobal(EXC.code, "i32");
  cx.ensureGlobal(EXC.message, "i64");
  return m.seq(
    m.store("i32", ctl(), m.globalGet(EXC.code, "i32"), Ctl.errorCode),
    m.store("i32", ctl(), strAddress(cx, m.globalGet(EXC.message, "i64")), Ctl.errorMessage),
    m.store("i32", ctl(), strLength(cx, m.globalGet(EXC.message, "i64")), Ctl.errorMessageLength),
    m.store("i32", ctl(), m.i32(RunStatus.UserException), Ctl.status),
    m.return(m.i32(RunStatus.UserException)),
  );
}

/** TRY body EXCEPTION WHEN e THEN ... [ELSE ...] END */
function emitTry(qe: QueryEmitter, s: Extract<IrStmt, { s: "try" }>): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const f = qe.f;
  cx.ensureGlobal(EXC.code, "i32");
  const end = f.label("try_end");
  const caught = f.label("caught");
  qe.tries.push(caught);
  let body: Expr[];
  try {
    body = emitStmts(qe, s.body);
  } finally {
    qe.tries.pop();
  }
  const code = () => m.globalGet(EXC.code, "i32");
  const handled = (stmts: Expr[]) => m.seq(m.globalSet(EXC.code, m.i32(0)), ...stmts, m.br(end));
  let dispatch: Expr = s.otherwise ? handled(emitStmts(qe, s.otherwise)) : propagate(qe);
  for (let i = s.handlers.length - 1; i >= 0; i--) {
    const h = s.handlers[i];
    const exc = qe.ir.exceptions.find((e) => e.id === h.exception);
    if (!exc) throw new Error(`unknown exception #${h.exception}`);
    dispatch = m.if(m.eq("i32", code(), m.i32(exc.code)), handled(emitStmts(qe, h.body)), dispatch);
  }
  return m.block(end, [m.block(caught, [...body, m.br(end)]), dispatch]);
}

/** An exception a TRY does not handle goes to the enclosing TRY, or to the caller, or ends the run. */
function propagate(qe: QueryEmitter): Expr {
  const outer = qe.tries[qe.tries.length - 1];
  return outer ? qe.m.br(outer) : qe.functionKind === "subquery" ? qe.m.br(qe.bodyEnd) : uncaught(qe);
}
