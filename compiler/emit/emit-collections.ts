// Membership and aggregates over collection values: `x IN coll`, COUNT / SUM / MIN / MAX /
// AVG (with DISTINCT), ISEMPTY, over lists, sets, bags, SET/BAG parameters, vertex sets and
// `(a, b)` literals; UNION / INTERSECT / MINUS of sets and bags.
import type { IrExpr } from "../ir/ir.js";
import { DOUBLE, isFloatType, type IrType } from "../ir/types.js";
import { collectionForEach, collectionSize } from "./emit-accum.js";
import { Entry, HT_INSERTED, htFind, htForEach, htInsert, htNew } from "./emit-hash-table.js";
import { markedContains } from "./emit-intersect.js";
import { listFind } from "./emit-list.js";
import { cmpValue, defaultValue, eqValue, loadValue } from "./emit-values.js";
import { vsetCount, vsetForEach, vsetHas } from "./emit-vset.js";
import { convert, emitExpr } from "./emit-expr.js";
import type { Expr } from "./module.js";
import { UnsupportedError, type QueryEmitter } from "./query-emitter.js";
import { typeTag, wasmType } from "./wasm-types.js";

/** 1 when `value` is an element of `collection`. */
export function collectionContains(qe: QueryEmitter, collection: IrExpr, value: IrExpr): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const t = collection.type;
  if (t.t === "vset") return vsetHas(cx, emitExpr(qe, collection), emitExpr(qe, value));
  if (t.t !== "accum") throw new UnsupportedError(`IN on a ${t.t}`);
  const a = t.accum;
  // A literal `(a, b)`: compare with each item, no container needed.
  if (collection.e === "collection") {
    const v = qe.f.local(wasmType(value.type), "inv");
    let found: Expr = m.i32(0);
    for (let i = collection.items.length - 1; i >= 0; i--) found = m.if(eqValue(cx, value.type, v.get(), emitExpr(qe, collection.items[i])), m.i32(1), found);
    return m.block(null, [v.set(emitExpr(qe, value)), found], "i32");
  }
  const stamped = a.a === "set" ? markedContains(qe, collection, value) : undefined;
  if (stamped) return stamped;
  switch (a.a) {
    case "list":
      return listFind(cx, a.elem, emitExpr(qe, collection), emitExpr(qe, value), "contains");
    case "set":
    case "bag":
      return m.ne("i32", htFind(cx, a.elem, emitExpr(qe, collection), emitExpr(qe, value)), m.i32(0));
    default:
      throw new UnsupportedError(`IN on ${a.a}`);
  }
}

/** Number of elements of any collection value (vertex sets too). */
export function sizeOf(qe: QueryEmitter, collection: IrExpr): Expr {
  const t = collection.type;
  if (t.t === "vset") return vsetCount(qe.cx, emitExpr(qe, collection));
  if (t.t !== "accum") throw new UnsupportedError(`size of a ${t.t}`);
  return collectionSize(qe.cx, t.accum, emitExpr(qe, collection));
}

/** Visits the elements of a collection value (vertex sets: their vertices). */
export function forEachElement(qe: QueryEmitter, collection: IrExpr, body: (element: () => Expr) => Expr[]): Expr {
  const t = collection.type;
  const cx = qe.cx;
  if (t.t === "vset") return vsetForEach(cx, qe.f, emitExpr(qe, collection), (v) => body(() => v.get()));
  if (t.t !== "accum") throw new UnsupportedError(`iterating over a ${t.t}`);
  return collectionForEach(cx, qe.f, t.accum, emitExpr(qe, collection), (item) => body(item.element!));
}

function elementOf(t: IrType): IrType {
  if (t.t === "vset") return { t: "vertex" };
  if (t.t === "accum" && (t.accum.a === "list" || t.accum.a === "set" || t.accum.a === "bag")) return t.accum.elem;
  throw new UnsupportedError(`an aggregate over a ${t.t}`);
}

/**
 * COUNT/SUM/MIN/MAX/AVG over a collection, with DISTINCT counting each value once. AVG of
 * integers is an integer (truncated), of floats a DOUBLE. MIN/MAX of an empty collection is
 * the element type's default.
 */
export function aggregate(qe: QueryEmitter, fn: "count" | "sum" | "min" | "max" | "avg", collection: IrExpr, distinct: boolean, resultType: IrType): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const f = qe.f;
  const elem = elementOf(collection.type);
  const evt = wasmType(elem);
  const seen = f.local("i32", "seen");
  const n = f.local("i64", "n");
  const acc = f.local(fn === "min" || fn === "max" ? evt : wasmType(resultType), "agg");
  const x = f.local(evt, "x");
  const sum = f.local(isFloatType(elem) ? "f64" : "i64", "sum");
  const body = (element: () => Expr): Expr[] => {
    const stmts: Expr[] = [x.set(element())];
    const skip = distinct ? m.eqz("i32", m.block(null, [m.drop(htInsert(cx, elem, seen.get(), x.get())), m.globalGet(HT_INSERTED, "i32")], "i32")) : m.i32(0);
    let update: Expr;
    switch (fn) {
      case "count":
        update = m.nop();
        break;
      case "sum":
        update = acc.set(m.add(wasmType(resultType), acc.get(), convert(qe, elem, resultType, x.get())));
        break;
      case "avg":
        update = sum.set(m.add(isFloatType(elem) ? "f64" : "i64", sum.get(), convert(qe, elem, isFloatType(elem) ? DOUBLE : { t: "scalar", name: "INT" }, x.get())));
        break;
      case "min":
      case "max": {
        const c = cmpValue(cx, elem, x.get(), acc.get());
        update = m.if(m.or("i32", m.eqz("i64", n.get()), fn === "min" ? m.lt("i32", c, m.i32(0)) : m.gt("i32", c, m.i32(0))), acc.set(x.get()));
        break;
      }
    }
    stmts.push(m.if(m.eqz("i32", skip), m.seq(update, n.set(m.add("i64", n.get(), m.i64(1))))));
    return stmts;
  };
  const result = (): Expr => {
    switch (fn) {
      case "count":
        return n.get();
      case "avg":
        return isFloatType(elem)
          ? convert(qe, DOUBLE, resultType, m.if(m.eqz("i64", n.get()), m.f64(0), m.div("f64", sum.get(), m.convert("i64", "f64", n.get()))))
          : convert(qe, { t: "scalar", name: "INT" }, resultType, m.if(m.eqz("i64", n.get()), m.i64(0), m.div("i64", sum.get(), n.get())));
      default:
        return acc.get();
    }
  };
  return m.block(
    null,
    [
      n.set(m.i64(0)),
      distinct ? seen.set(htNew(cx, 0)) : m.nop(),
      fn === "sum" ? acc.set(m.constant(acc.type, 0)) : fn === "min" || fn === "max" ? acc.set(defaultValue(cx, elem)) : m.nop(),
      sum.set(m.constant(sum.type, 0)),
      forEachElement(qe, collection, body),
      result(),
    ],
    fn === "min" || fn === "max" ? evt : wasmType(resultType),
  );
}

/**
 * `a UNION|INTERSECT|MINUS b` on sets and bags: a new container of the result type (a bag
 * when either side is one). Sets: the usual set operations. Bags count copies (a set's
 * element counts once): UNION adds the counts, INTERSECT keeps the smaller count, MINUS
 * subtracts the right count from the left one.
 */
export function collectionSetOp(qe: QueryEmitter, op: "union" | "intersect" | "minus", left: IrExpr, right: IrExpr, resultType: IrType): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const [lt, rt] = [left.type, right.type];
  if (lt.t !== "accum" || rt.t !== "accum" || resultType.t !== "accum") throw new UnsupportedError(`${op.toUpperCase()} on these collections`);
  const [la, ra, res] = [lt.accum, rt.accum, resultType.accum];
  if (!(la.a === "set" || la.a === "bag") || !(ra.a === "set" || ra.a === "bag") || !(res.a === "set" || res.a === "bag")) throw new UnsupportedError(`${op.toUpperCase()} on these collections`);
  const elem = res.elem;
  const bag = res.a === "bag";
  const name = cx.helper(`coll_${op}_${la.a}_${ra.a}_${typeTag(elem)}`, [{ name: "l", type: "i32" }, { name: "r", type: "i32" }], "i32", (f) => {
    const [l, r] = [f.param(0), f.param(1)];
    const out = f.local("i32", "out");
    const n = f.local("i64", "n");
    const e = f.local("i32", "e");
    const key = (entry: Expr) => loadValue(cx, elem, entry, Entry.key);
    // copies of an element in a table entry (sets: 1)
    const copies = (a: "set" | "bag", entry: Expr) => (a === "bag" ? m.load("i64", entry, Entry.value) : m.i64(1));
    const countIn = (a: "set" | "bag", table: Expr, k: Expr) => {
      const found = f.local("i32", "found");
      return m.block(null, [found.set(htFind(cx, elem, table, k)), m.if(found.get(), copies(a, found.get()), m.i64(0))], "i64");
    };
    const add = (k: Expr, count: Expr) =>
      bag ? m.seq(n.set(count), m.if(m.gt("i64", n.get(), m.i64(0)), m.seq(e.set(htInsert(cx, elem, out.get(), k)), m.store("i64", e.get(), m.add("i64", m.load("i64", e.get(), Entry.value), n.get()), Entry.value))))
        : m.if(m.gt("i64", count, m.i64(0)), m.drop(htInsert(cx, elem, out.get(), k)));
    const body: Expr[] = [out.set(htNew(cx, bag ? 8 : 0))];
    if (op === "union") {
      body.push(htForEach(cx, f, l.get(), (entry) => [add(key(entry.get()), copies(la.a as "set" | "bag", entry.get()))]));
      body.push(htForEach(cx, f, r.get(), (entry) => [add(key(entry.get()), copies(ra.a as "set" | "bag", entry.get()))]));
    } else {
      const other = f.local("i64", "other");
      const mine = f.local("i64", "mine");
      body.push(
        htForEach(cx, f, l.get(), (entry) => [
          mine.set(copies(la.a as "set" | "bag", entry.get())),
          other.set(countIn(ra.a as "set" | "bag", r.get(), key(entry.get()))),
          add(
            key(entry.get()),
            op === "intersect"
              ? m.select(m.lt("i64", other.get(), mine.get()), other.get(), mine.get())
              : bag ? m.sub("i64", mine.get(), other.get()) : m.select(m.eqz("i64", other.get()), m.i64(1), m.i64(0)),
          ),
        ]),
      );
    }
    body.push(out.get());
    return body;
  });
  return m.call(name, [emitExpr(qe, left), emitExpr(qe, right)], "i32");
}
