// Loops over sets that test membership many times, the inner loops of triangle counting
// and of neighbourhood-overlap measures written the natural way:
//
// * Marked sets. `FOREACH t IN S DO ... x IN S ... END` over a SetAccum<VERTEX> that the
//   loop cannot change: before the loop, every element of S is stamped into a
//   vertex-indexed array with a fresh epoch, and each `x IN S` inside becomes one load and
//   compare instead of a hash lookup. One set is marked at a time.
// * Intersections. `FOREACH x IN A DO IF x IN B THEN body END END` over two SetAccum values
//   visits the elements of A ∩ B. When the body cannot tell in which order those elements
//   come (it only folds into order-independent accumulators: integer sums, min, max,
//   and/or), the loop walks the smaller of the two sets and looks each element up in the
//   other: the same visits, min(|A|, |B|) lookups instead of |A|.
import type { IrExpr, IrStmt } from "../ir/ir.js";
import type { IrAccum, IrType } from "../ir/types.js";
import { sameIrType } from "../ir/types.js";
import { elementType } from "./emit-accum.js";
import { Entry, htCount, htFind, htForEach } from "./emit-hash-table.js";
import { allocZeroed } from "./emit-arena.js";
import { emitExpr } from "./emit-expr.js";
import { GG } from "./emit-graph.js";
import { loadValue } from "./emit-values.js";
import type { Expr, LoopLabels } from "./module.js";
import type { QueryEmitter } from "./query-emitter.js";
import { wasmType } from "./wasm-types.js";

/** The parts of an intersection loop: the probed set B and the statements run per common element. */
export interface IntersectionLoop {
  probed: IrExpr;
  body: IrStmt[];
}

/** Recognises an intersection loop whose body is order-independent; undefined otherwise. */
export function matchIntersection(qe: QueryEmitter, s: Extract<IrStmt, { s: "forEach" }>): IntersectionLoop | undefined {
  if (s.ids.length !== 1 || !isSet(s.collection.type) || !pure(s.collection)) return undefined;
  if (s.body.length !== 1) return undefined;
  const test = s.body[0];
  if (test.s !== "if" || test.branches.length !== 1 || test.otherwise !== undefined) return undefined;
  const cond = test.branches[0].cond;
  if (cond.e !== "in" || cond.negated || cond.value.e !== "var" || cond.value.id !== s.ids[0]) return undefined;
  const probed = cond.collection;
  if (markedSet(qe, probed) !== undefined) return undefined;
  if (!isSet(probed.type) || !sameIrType(probed.type, s.collection.type) || !pure(probed) || mentionsVar(probed, s.ids[0])) return undefined;
  if (!test.branches[0].body.every((st) => orderIndependent(qe, st))) return undefined;
  return { probed, body: test.branches[0].body };
}

function isSet(t: IrType): boolean {
  return t.t === "accum" && t.accum.a === "set";
}

/** Expressions that read only (variables, accumulators, attributes) and cannot fail or write. */
function pure(e: IrExpr): boolean {
  switch (e.e) {
    case "const":
    case "var":
    case "gacc":
      return true;
    case "vacc":
      return pure(e.vertex);
    case "attr":
      return pure(e.target);
    case "unary":
      return pure(e.arg);
    case "convert":
      return pure(e.arg);
    case "binary":
      // division and modulo can fail on zero: keep them where the source put them
      return e.op !== "div" && e.op !== "mod" && pure(e.left) && pure(e.right);
    default:
      return false;
  }
}

function mentionsVar(e: IrExpr, id: number): boolean {
  if (e.e === "var") return e.id === id;
  return Object.values(e).some((v) => (Array.isArray(v) ? v.some((x) => isExpr(x) && mentionsVar(x, id)) : isExpr(v) && mentionsVar(v, id)));
}

function isExpr(v: unknown): v is IrExpr {
  return typeof v === "object" && v !== null && "e" in v && "type" in v;
}

/** A `+=` into an accumulator whose result does not depend on the order of the additions. */
function orderIndependent(qe: QueryEmitter, s: IrStmt): boolean {
  if (s.s !== "accumulate" || (s.target.t !== "gacc" && s.target.t !== "vacc")) return false;
  if (s.target.indices !== undefined || !pure(s.value)) return false;
  if (s.target.t === "vacc" && !pure(s.target.vertex)) return false;
  return commutative(qe.accumType(s.target.id), s.value.type);
}

function commutative(a: IrAccum, value: IrType): boolean {
  const integer = (t: IrType) => t.t === "scalar" && (t.name === "INT" || t.name === "UINT");
  switch (a.a) {
    case "sum":
      // float sums round differently in another order
      return integer(a.elem) && sameIrType(a.elem, value);
    case "min":
    case "max":
    case "or":
    case "and":
    case "bitand":
    case "bitor":
      return true;
    default:
      return false;
  }
}

/**
 * Emits an intersection loop: the smaller set is walked (A on a tie), the other probed;
 * `visit(labels, element)` emits the per-element body with the loop variable bound.
 */
export function emitIntersection(
  qe: QueryEmitter,
  s: Extract<IrStmt, { s: "forEach" }>,
  loop: IntersectionLoop,
  visit: (labels: LoopLabels, element: Expr, body: IrStmt[]) => Expr[],
): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const f = qe.f;
  const elem = elementType((s.collection.type as Extract<IrType, { t: "accum" }>).accum);
  const walked = f.local("i32", "walked");
  const probed = f.local("i32", "probed");
  const swap = f.local("i32", "swap");
  const key = f.local(wasmType(elem), "common");
  return m.seq(
    walked.set(emitExpr(qe, s.collection)),
    probed.set(emitExpr(qe, loop.probed)),
    m.if(
      m.lt("i32", htCount(cx, probed.get()), htCount(cx, walked.get()), true),
      m.seq(swap.set(walked.get()), walked.set(probed.get()), probed.set(swap.get())),
    ),
    // an empty probed set meets nothing
    m.if(
      probed.get(),
      htForEach(cx, f, walked.get(), (entry, labels) => [
        key.set(loadValue(cx, elem, entry.get(), Entry.key)),
        m.if(htFind(cx, elem, probed.get(), key.get()), m.seq(m.nop(), ...visit(labels, key.get(), loop.body))),
      ]),
    ),
  );
}

// ---------------------------------------------------------------- marked sets

/** The set a loop nest has stamped: its expression (as a key) and the epoch it used. */
interface Marked {
  key: string;
  accums: Set<number>;
  vars: Set<number>;
}

const marking = new WeakMap<QueryEmitter, Marked>();
const MARKS = "set_marks";
const MARKS_CAPACITY = "set_marks_capacity";
const MARK_EPOCH = "set_mark_epoch";

function exprKey(e: IrExpr): string {
  return JSON.stringify(e, (k, v: unknown) => (k === "type" ? undefined : typeof v === "bigint" ? `${v}n` : v));
}

/** The marking in force for `collection`, when this set is the one stamped. */
function markedSet(qe: QueryEmitter, collection: IrExpr): Marked | undefined {
  const mk = marking.get(qe);
  return mk !== undefined && mk.key === exprKey(collection) ? mk : undefined;
}

/** Accumulator and variable ids an expression reads. */
function reads(e: IrExpr, accums: Set<number>, vars: Set<number>): void {
  if (e.e === "gacc" || e.e === "vacc") accums.add(e.id);
  if (e.e === "var") vars.add(e.id);
  for (const v of Object.values(e)) {
    if (Array.isArray(v)) for (const x of v) if (isExpr(x)) reads(x, accums, vars);
    if (isExpr(v)) reads(v, accums, vars);
  }
}

/** Whether `stmts` test membership in the set `key` somewhere. */
function probes(stmts: IrStmt[], key: string): boolean {
  const inExpr = (e: IrExpr): boolean =>
    (e.e === "in" && exprKey(e.collection) === key) || Object.values(e).some((v) => (Array.isArray(v) ? v.some((x) => isExpr(x) && inExpr(x)) : isExpr(v) && inExpr(v)));
  return stmts.some((s) => {
    switch (s.s) {
      case "if":
        return s.branches.some((b) => inExpr(b.cond) || probes(b.body, key)) || (s.otherwise !== undefined && probes(s.otherwise, key));
      case "forEach":
        return inExpr(s.collection) || probes(s.body, key);
      case "forRange":
        return probes(s.body, key);
      case "accumulate":
      case "assign":
      case "let":
        return false;
      default:
        return false;
    }
  });
}

/** Methods that only read their target. */
const ACCESSORS = new Set(["size", "contains", "containsKey", "get", "top"]);

/** Statements that cannot change the set (no writes to what it reads, no calls, no SELECT, no DML). */
function leavesUnchanged(stmts: IrStmt[], accums: Set<number>, vars: Set<number>): boolean {
  const safe = (e: IrExpr): boolean => {
    if (e.e === "subquery" || (e.e === "method" && !ACCESSORS.has(e.method))) return false;
    return Object.values(e).every((v) => (Array.isArray(v) ? v.every((x) => !isExpr(x) || safe(x)) : !isExpr(v) || safe(v)));
  };
  return stmts.every((s) => {
    switch (s.s) {
      case "if":
        return s.branches.every((b) => safe(b.cond) && leavesUnchanged(b.body, accums, vars)) && (s.otherwise === undefined || leavesUnchanged(s.otherwise, accums, vars));
      case "forEach":
        return safe(s.collection) && leavesUnchanged(s.body, accums, vars);
      case "forRange":
        return !vars.has(s.id) && safe(s.low) && safe(s.high) && (s.step === undefined || safe(s.step)) && leavesUnchanged(s.body, accums, vars);
      case "accumulate":
      case "assign": {
        const t = s.target;
        if (t.t === "attr") return false;
        if (t.t === "var" ? vars.has(t.id) : accums.has(t.id)) return false;
        // a collection held in a variable might be the stamped set's container
        if (t.t === "var" && s.value.type.t === "accum") return false;
        if (t.t === "vacc" && !safe(t.vertex)) return false;
        return safe(s.value) && (t.t === "var" || t.indices === undefined || t.indices.every(safe));
      }
      case "let":
        return !vars.has(s.id) && (s.init === undefined || safe(s.init));
      case "break":
      case "continue":
        return true;
      default:
        return false;
    }
  });
}

/**
 * For a FOREACH over a SetAccum<VERTEX> whose body tests membership in that same set and
 * cannot change it: stamps the set and emits the loop (`loop()`) with those tests reading
 * the stamps. Undefined when the loop does not qualify.
 */
export function emitMarkedLoop(qe: QueryEmitter, s: Extract<IrStmt, { s: "forEach" }>, loop: () => Expr): Expr | undefined {
  const t = s.collection.type;
  if (marking.has(qe) || t.t !== "accum" || t.accum.a !== "set" || t.accum.elem.t !== "vertex" || !pure(s.collection)) return undefined;
  const key = exprKey(s.collection);
  if (!probes(s.body, key)) return undefined;
  const accums = new Set<number>();
  const vars = new Set<number>(s.ids);
  reads(s.collection, accums, vars);
  for (const id of s.ids) vars.add(id);
  if (!leavesUnchanged(s.body, accums, vars)) return undefined;
  const m = qe.m;
  const set = qe.f.local("i32", "marked");
  const stamp = markHelper(qe);
  marking.set(qe, { key, accums, vars });
  try {
    const body = loop();
    return m.seq(
      set.set(emitExpr(qe, s.collection)),
      m.call(stamp, [set.get()], "none"),
      body,
    );
  } finally {
    marking.delete(qe);
  }
}

/** `mark_set(set)`: a fresh epoch, then every element's stamp set to it. */
function markHelper(qe: QueryEmitter): string {
  const m = qe.m;
  const cx = qe.cx;
  cx.ensureGlobal(MARKS, "i32");
  cx.ensureGlobal(MARKS_CAPACITY, "i32");
  cx.ensureGlobal(MARK_EPOCH, "i32");
  return cx.helper("mark_set", [{ name: "set", type: "i32" }], "none", (f) => {
    const v = f.local("i32", "v");
    return [
      m.if(
        m.lt("i32", m.globalGet(MARKS_CAPACITY, "i32"), m.globalGet(GG.vidBound, "i32"), true),
        m.seq(m.globalSet(MARKS, allocZeroed(cx, m.shl("i32", m.globalGet(GG.vidBound, "i32"), m.i32(2)))), m.globalSet(MARKS_CAPACITY, m.globalGet(GG.vidBound, "i32"))),
      ),
      m.globalSet(MARK_EPOCH, m.add("i32", m.globalGet(MARK_EPOCH, "i32"), m.i32(1))),
      // before the epoch wraps round to the zero of unstamped vertices, start over
      m.if(
        m.ge("i32", m.globalGet(MARK_EPOCH, "i32"), m.i32(0x7fffffff), true),
        m.seq(m.memoryFill(m.globalGet(MARKS, "i32"), m.i32(0), m.shl("i32", m.globalGet(MARKS_CAPACITY, "i32"), m.i32(2))), m.globalSet(MARK_EPOCH, m.i32(1))),
      ),
      htForEach(cx, f, f.param(0).get(), (e) => [
        v.set(m.load("i32", e.get(), Entry.key)),
        m.if(m.lt("i32", v.get(), m.globalGet(MARKS_CAPACITY, "i32"), true), m.store("i32", m.add("i32", m.globalGet(MARKS, "i32"), m.shl("i32", v.get(), m.i32(2))), m.globalGet(MARK_EPOCH, "i32"))),
      ]),
    ];
  });
}

/**
 * `value IN collection` read from the stamps when `collection` is the marked set; undefined
 * otherwise. Vertices outside the stamp array (an unknown vertex) are looked up in the set.
 */
export function markedContains(qe: QueryEmitter, collection: IrExpr, value: IrExpr): Expr | undefined {
  if (markedSet(qe, collection) === undefined) return undefined;
  const m = qe.m;
  const cx = qe.cx;
  const v = qe.f.local("i32", "probe");
  return m.block(
    null,
    [
      v.set(emitExpr(qe, value)),
      m.if(
        m.lt("i32", v.get(), m.globalGet(MARKS_CAPACITY, "i32"), true),
        m.eq("i32", m.load("i32", m.add("i32", m.globalGet(MARKS, "i32"), m.shl("i32", v.get(), m.i32(2)))), m.globalGet(MARK_EPOCH, "i32")),
        m.ne("i32", htFind(cx, { t: "vertex" }, emitExpr(qe, collection), v.get()), m.i32(0)),
      ),
    ],
    "i32",
  );
}
