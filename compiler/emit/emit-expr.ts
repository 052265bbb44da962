// Expressions. Each IR expression becomes one WebAssembly expression of the value type of
// its IR type (wasm-types.ts). Arithmetic follows the language: integer division truncates
// toward zero, division by zero (integer or not) is the documented run-time error, INT/UINT
// wrap at 64 bits, comparisons of UINT are unsigned, AND/OR short-circuit.
import { RuntimeError } from "../../runtime-wasm/query/abi.js";
import type { IrExpr } from "../ir/ir.js";
import { isFloatType, type IrAccum, type IrType } from "../ir/types.js";
import { alloc } from "./emit-arena.js";
import { accumAdd, accumRead, accumSize, accumView, newContainer } from "./emit-accum.js";
import { edgeRecordTypeName, readEdgeAttrDynamic, readEdgeAttrInList, readEdgeAttrStatic, readVertexAttr, vertexTypeName } from "./emit-attr.js";
import { emitCall, emitMethod } from "./emit-builtins.js";
import { collectionContains, collectionSetOp } from "./emit-collections.js";
import { paramPresent } from "./emit-params.js";
import { primeRead, primeView } from "./emit-prime.js";
import { emitSeed } from "./emit-seed.js";
import { numOp, NumOp, strConcat, strConst } from "./emit-strings.js";
import { cmpValue, eqValue, makeEdge, makeTuple, tupleLayout, loadValue } from "./emit-values.js";
import { vsetCombine } from "./emit-vset.js";
import { emitSubqueryCall } from "./emit-subquery.js";
import { edgeTypeOrdinal } from "./emit-graph.js";
import type { Expr, ValueType } from "./module.js";
import { UnsupportedError, type QueryEmitter } from "./query-emitter.js";
import { wasmType } from "./wasm-types.js";

export function emitExpr(qe: QueryEmitter, x: IrExpr): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const hoisted = qe.hoisted.get(x);
  if (hoisted) return hoisted.get();
  switch (x.e) {
    case "const":
      return constant(qe, x.type, x.value);
    case "var": {
      // An edge alias used as a value becomes an edge record.
      const edge = qe.clause.edges.get(x.id);
      if (edge !== undefined) return makeEdge(cx, edgeTypeOrdinal(cx, edge.edgeTypeKey), edge.from.get(), edge.to.get(), edge.eid.get());
      return qe.readVar(x.id);
    }
    case "gacc":
      return accumRead(cx, qe.accumType(x.id), m.globalGet(qe.accumGlobal(x.id), "i32"));
    case "vacc":
      if (x.prime || (qe.clause.snapshotAccums?.has(x.id) && !x.current)) return primeRead(qe, x.id, emitExpr(qe, x.vertex));
      return accumRead(cx, qe.accumType(x.id), vertexState(qe, x.id, emitExpr(qe, x.vertex)));
    case "attr":
      return emitAttr(qe, x);
    case "typeName":
      if (x.target.type.t === "edge") {
        const edge = x.target.e === "var" ? qe.clause.edges.get(x.target.id) : undefined;
        if (edge) return strConst(cx, edge.edgeTypeName);
        return edgeRecordTypeName(qe, emitExpr(qe, x.target));
      }
      return vertexTypeName(qe, emitExpr(qe, x.target));
    case "field": {
      const t = x.target.type;
      if (t.t !== "tuple") throw new Error("field of a non-tuple");
      return loadValue(cx, t.fields[x.index].type, tupleView(qe, x.target), tupleLayout(t).offsets[x.index]);
    }
    case "unary":
      return unary(qe, x.op, x.arg);
    case "binary":
      return binary(qe, x.op, x.left, x.right, x.type);
    case "convert":
      return convert(qe, x.arg.type, x.type, emitExpr(qe, x.arg));
    case "call":
      return emitCall(qe, x);
    case "method":
      return emitMethod(qe, x);
    case "subquery":
      return emitSubqueryCall(qe, x);
    case "tuple": {
      if (x.type.t !== "tuple") throw new Error("tuple constructor without a tuple type");
      return makeTuple(cx, x.type, x.args.map((a) => emitExpr(qe, a)));
    }
    case "collection":
      return collectionLiteral(qe, x);
    case "entry":
      throw new Error("an entry (k -> v) outside of +=");
    case "index":
      return accumRead(cx, elementAccumOf(x.target.type), arrayCellState(qe, x.target, x.indices));
    case "cond": {
      let value = emitExpr(qe, x.otherwise);
      for (let i = x.branches.length - 1; i >= 0; i--) value = m.if(emitExpr(qe, x.branches[i].cond), emitExpr(qe, x.branches[i].value), value);
      return value;
    }
    case "in": {
      const found = collectionContains(qe, x.collection, x.value);
      return x.negated ? m.eqz("i32", found) : found;
    }
    case "like": {
      const r = m.convert("i64", "i32", numOp(cx, NumOp.Like, emitExpr(qe, x.value), emitExpr(qe, x.pattern), m.f64(x.escape ? x.escape.codePointAt(0)! : 0)));
      return x.negated ? m.eqz("i32", r) : r;
    }
    case "isNull": {
      const present = paramPresent(qe, x.param);
      return x.negated ? present : m.eqz("i32", present);
    }
    case "vset":
      return qe.readVar(x.id);
    case "seed":
      return emitSeed(qe, x.parts);
    case "interval":
      throw new Error("INTERVAL outside datetime_add/datetime_sub");
  }
}

/**
 * A tuple value's record for reading its fields right away: an accumulator that keeps its
 * tuple in place is read where it is, without the copy a value read makes.
 */
function tupleView(qe: QueryEmitter, x: IrExpr): Expr {
  const m = qe.m;
  if (qe.hoisted.get(x) === undefined) {
    if (x.e === "gacc") return accumView(qe.cx, qe.accumType(x.id), m.globalGet(qe.accumGlobal(x.id), "i32"));
    if (x.e === "vacc") {
      if (x.prime || (qe.clause.snapshotAccums?.has(x.id) && !x.current)) return primeView(qe, x.id, emitExpr(qe, x.vertex));
      return accumView(qe.cx, qe.accumType(x.id), vertexState(qe, x.id, emitExpr(qe, x.vertex)));
    }
  }
  return emitExpr(qe, x);
}

/** Address of vertex accumulator `id`'s state for vertex `vertex` (an i32 vid). */
export function vertexState(qe: QueryEmitter, id: number, vertex: Expr): Expr {
  const m = qe.m;
  const size = accumSize(qe.accumType(id));
  return m.add("i32", m.globalGet(qe.accumGlobal(id), "i32"), m.mul("i32", vertex, m.i32(size)));
}

export function constant(qe: QueryEmitter, t: IrType, value: unknown): Expr {
  const m = qe.m;
  if (t.t === "scalar") {
    switch (t.name) {
      case "INT":
      case "UINT":
      case "DATETIME":
        return m.i64(BigInt(value as bigint | number));
      case "FLOAT":
        return m.f32(Number(value));
      case "DOUBLE":
        return m.f64(Number(value));
      case "BOOL":
        return m.i32(value ? 1 : 0);
      case "STRING":
        return strConst(qe.cx, String(value));
    }
  }
  if (t.t === "vertex") return m.i32(-1);
  throw new UnsupportedError(`a constant of type ${t.t}`);
}

function emitAttr(qe: QueryEmitter, x: Extract<IrExpr, { e: "attr" }>): Expr {
  if (x.element === "vertex") return readVertexAttr(qe, emitExpr(qe, x.target), x.name, x.owners.map((o) => ({ typeName: o.typeName, primaryId: o.index < 0 })), x.type);
  // An edge alias in the clause being emitted has a statically known type and an eid local.
  if (x.target.e === "var") {
    const edge = qe.clause.edges.get(x.target.id);
    if (edge) return edge.inList ? readEdgeAttrInList(qe, edge.edgeTypeName, edge.eid.get(), edge.inList, x.name, x.type) : readEdgeAttrStatic(qe, edge.edgeTypeName, edge.eid.get(), x.name, x.type);
  }
  return readEdgeAttrDynamic(qe, emitExpr(qe, x.target), x.name, x.owners, x.type);
}

function unary(qe: QueryEmitter, op: "neg" | "not" | "bitnot", arg: IrExpr): Expr {
  const m = qe.m;
  const vt = wasmType(arg.type);
  const v = emitExpr(qe, arg);
  switch (op) {
    case "neg":
      return vt === "f32" || vt === "f64" ? m.fneg(vt, v) : m.sub(vt, m.constant(vt, 0), v);
    case "not":
      return m.eqz("i32", v);
    case "bitnot":
      return m.xor(vt as "i64", v, m.constant(vt, -1));
  }
}

function binary(qe: QueryEmitter, op: string, left: IrExpr, right: IrExpr, resultType: IrType): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const t = left.type;
  const vt = wasmType(t);
  const unsigned = t.t === "scalar" && t.name === "UINT";
  switch (op) {
    case "and":
      return m.if(emitExpr(qe, left), emitExpr(qe, right), m.i32(0));
    case "or":
      return m.if(emitExpr(qe, left), m.i32(1), emitExpr(qe, right));
    case "add":
      return m.add(vt, emitExpr(qe, left), emitExpr(qe, right));
    case "sub":
      return m.sub(vt, emitExpr(qe, left), emitExpr(qe, right));
    case "mul":
      return m.mul(vt, emitExpr(qe, left), emitExpr(qe, right));
    case "div":
    case "mod":
      return divide(qe, op, vt, unsigned, emitExpr(qe, left), emitExpr(qe, right), isFloatType(t));
    case "shl":
      return m.shl(vt as "i64", emitExpr(qe, left), emitExpr(qe, right));
    case "shr":
      return m.shr(vt as "i64", emitExpr(qe, left), emitExpr(qe, right), unsigned);
    case "bitand":
      return m.and(vt as "i64", emitExpr(qe, left), emitExpr(qe, right));
    case "bitor":
      return m.or(vt as "i64", emitExpr(qe, left), emitExpr(qe, right));
    case "eq":
      return eqValue(cx, t, emitExpr(qe, left), emitExpr(qe, right));
    case "ne":
      return m.eqz("i32", eqValue(cx, t, emitExpr(qe, left), emitExpr(qe, right)));
    case "lt":
    case "le":
    case "gt":
    case "ge":
      return compare(qe, op, t, emitExpr(qe, left), emitExpr(qe, right));
    case "concat":
      return concat(qe, t, resultType, emitExpr(qe, left), emitExpr(qe, right), right.type);
    case "union":
    case "intersect":
    case "minus":
      if (t.t === "vset") return vsetCombine(cx, op, emitExpr(qe, left), emitExpr(qe, right));
      return collectionSetOp(qe, op, left, right, resultType);
  }
  throw new Error(`unknown binary operator ${op}`);
}

function compare(qe: QueryEmitter, op: "lt" | "le" | "gt" | "ge", t: IrType, a: Expr, b: Expr): Expr {
  const m = qe.m;
  const vt = wasmType(t);
  if (t.t === "scalar" && t.name !== "STRING" && t.name !== "BOOL") {
    const unsigned = t.name === "UINT";
    return m[op](vt, a, b, unsigned);
  }
  const c = cmpValue(qe.cx, t, a, b);
  return m[op]("i32", c, m.i32(0));
}

/** Division and remainder with the language's run-time error on a zero divisor. */
function divide(qe: QueryEmitter, op: "div" | "mod", vt: ValueType, unsigned: boolean, a: Expr, b: Expr, float: boolean): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const name = cx.helper(`${op}_${vt}${unsigned ? "u" : ""}`, [{ name: "a", type: vt }, { name: "b", type: vt }], vt, (f) => {
    const [x, y] = [f.param(0), f.param(1)];
    const zero = m.constant(vt, 0);
    const checks = [m.if(m.eq(vt, y.get(), zero), cx.host("fail", [m.i32(RuntimeError.DivideByZero)]))];
    if (float) {
      if (op === "div") return [...checks, m.div(vt, x.get(), y.get())];
      // fmod: x - trunc(x / y) * y
      return [...checks, m.sub(vt, x.get(), m.mul(vt, m.ftrunc(vt as "f64", m.div(vt, x.get(), y.get())), y.get()))];
    }
    const it = vt as "i64";
    if (!unsigned) {
      // INT_MIN / -1 wraps (C++ would be undefined; WebAssembly traps): negate instead.
      checks.push(m.if(m.eq(vt, y.get(), m.constant(vt, -1)), m.return(op === "div" ? m.sub(vt, zero, x.get()) : m.constant(vt, 0))));
    }
    return [...checks, op === "div" ? m.div(vt, x.get(), y.get(), unsigned) : m.rem(it, x.get(), y.get(), unsigned)];
  });
  return m.call(name, [a, b], vt);
}

/** Numeric conversion (widening or truncating toward zero). */
export function convert(qe: QueryEmitter, from: IrType, to: IrType, value: Expr): Expr {
  const m = qe.m;
  if (from.t !== "scalar" || to.t !== "scalar") return value;
  const [fv, tv] = [wasmType(from), wasmType(to)];
  if (from.name === "BOOL" && tv === "i64") return m.convert("i32", "i64", value, true);
  return m.convert(fv, tv, value, from.name === "UINT" || (to.name === "UINT" && (fv === "f32" || fv === "f64")));
}

/** `+` on strings (concatenation), lists (a new list with both), maps and bags (merged copy). */
function concat(qe: QueryEmitter, t: IrType, resultType: IrType, a: Expr, b: Expr, bt: IrType): Expr {
  const m = qe.m;
  const cx = qe.cx;
  if (t.t === "scalar" && t.name === "STRING") return strConcat(cx, a, b);
  if (resultType.t === "accum") {
    const acc = resultType.accum;
    // A temporary state cell holds the new container while both operands are added.
    const cell = qe.f.local("i32", "cell");
    return m.block(
      null,
      [
        cell.set(alloc(cx, m.i32(8))),
        m.store("i32", cell.get(), newContainer(cx, acc)),
        accumAdd(cx, acc, cell.get(), a, t),
        accumAdd(cx, acc, cell.get(), b, bt),
        m.load("i32", cell.get()),
      ],
      "i32",
    );
  }
  throw new UnsupportedError(`+ on ${t.t}`);
}

/** `[a, b]` / `(a, b)`: a new container with the items. */
function collectionLiteral(qe: QueryEmitter, x: Extract<IrExpr, { e: "collection" }>): Expr {
  const m = qe.m;
  const cx = qe.cx;
  if (x.type.t !== "accum") throw new Error("collection literal without a collection type");
  const acc = x.type.accum;
  const cell = qe.f.local("i32", "lit");
  return m.block(
    null,
    [
      cell.set(alloc(cx, m.i32(8))),
      m.store("i32", cell.get(), newContainer(cx, acc)),
      ...x.items.map((item) => accumAdd(cx, acc, cell.get(), emitExpr(qe, item), item.type)),
      m.load("i32", cell.get()),
    ],
    "i32",
  );
}

function elementAccumOf(t: IrType): IrAccum {
  if (t.t === "accum" && t.accum.a === "array") return t.accum.elem;
  throw new Error("index of a non-array");
}

/** Address of an ArrayAccum cell's state. */
export function arrayCellState(qe: QueryEmitter, target: IrExpr, indices: IrExpr[]): Expr {
  const m = qe.m;
  const cx = qe.cx;
  if (target.type.t !== "accum" || target.type.accum.a !== "array") throw new Error("index of a non-array");
  return arrayCellOf(qe, target.type.accum.elem, emitExpr(qe, target), indices);
}

/** The state address of cell `indices` of array container `array` (cells of accumulator `elem`). */
export function arrayCellOf(qe: QueryEmitter, elem: IrAccum, array: Expr, indices: IrExpr[]): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const arr = qe.f.local("i32", "arr");
  const at = qe.f.local("i32", "cell");
  const stmts: Expr[] = [arr.set(array), at.set(m.i32(0))];
  indices.forEach((ix, d) => {
    const i = m.convert("i64", "i32", emitExpr(qe, ix));
    const size = m.load("i32", arr.get(), 12 + 4 * d);
    stmts.push(at.set(m.add("i32", m.mul("i32", at.get(), size), i)));
  });
  stmts.push(
    m.if(m.ge("i32", at.get(), m.load("i32", arr.get(), 4), true), cx.host("fail", [m.i32(RuntimeError.IndexOutOfRange)])),
    m.add("i32", m.load("i32", arr.get(), 8), m.mul("i32", at.get(), m.i32(accumSize(elem)))),
  );
  return m.block(null, stmts, "i32");
}
