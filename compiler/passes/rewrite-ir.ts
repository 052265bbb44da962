// In-place rewriting of the expression slots of IR statements, shared by the passes that
// replace expressions (copy propagation, invariant hoisting, common subexpressions).
import type { IrExpr, IrSelect, IrStmt, IrTarget } from "../ir/ir.js";
import { childExprs } from "./walk-ir.js";

/**
 * Replaces every expression a statement evaluates itself with `fn(expr)`: not those of
 * nested statement lists nor of SELECT clause bodies (rewrite those blocks separately), but
 * a SELECT's own WHERE, HAVING, ORDER BY, LIMIT, sample and dynamic pattern expressions.
 */
export function mapStmtExprs(s: IrStmt, fn: (x: IrExpr) => IrExpr): void {
  switch (s.s) {
    case "let":
      if (s.init) s.init = fn(s.init);
      break;
    case "declAccum":
      if (s.init) s.init = fn(s.init);
      if (s.capacity) s.capacity = fn(s.capacity);
      if (s.sizes) s.sizes = s.sizes.map(fn);
      break;
    case "assign":
    case "accumulate":
      mapTarget(s.target, fn);
      s.value = fn(s.value);
      break;
    case "vsetAssign":
      s.value = fn(s.value);
      break;
    case "select":
      mapSelectExprs(s.select, fn);
      break;
    case "expr":
      s.expr = fn(s.expr);
      break;
    case "if":
      for (const b of s.branches) b.cond = fn(b.cond);
      break;
    case "while":
      s.cond = fn(s.cond);
      if (s.limit) s.limit = fn(s.limit);
      break;
    case "forRange":
      s.low = fn(s.low);
      s.high = fn(s.high);
      if (s.step) s.step = fn(s.step);
      break;
    case "forEach":
      s.collection = fn(s.collection);
      break;
    case "print":
      for (const it of s.items) {
        it.expr = fn(it.expr);
        if (it.projection) for (const p of it.projection) p.expr = fn(p.expr);
      }
      if (s.where) s.where = fn(s.where);
      break;
    case "println":
      s.args = s.args.map(fn);
      break;
    case "log":
      s.cond = fn(s.cond);
      s.args = s.args.map(fn);
      break;
    case "return":
      if (s.value) s.value = fn(s.value);
      break;
    case "raise":
      if (s.message) s.message = fn(s.message);
      break;
    case "insertVertex":
      s.id = fn(s.id);
      for (const a of s.attrs) a.value = fn(a.value);
      break;
    case "insertEdge":
      s.from = fn(s.from);
      s.to = fn(s.to);
      for (const a of s.attrs) a.value = fn(a.value);
      break;
    case "delete":
      s.target = fn(s.target);
      break;
    default:
      break;
  }
}

function mapTarget(t: IrTarget, fn: (x: IrExpr) => IrExpr): void {
  switch (t.t) {
    case "gacc":
      if (t.indices) t.indices = t.indices.map(fn);
      break;
    case "vacc":
      t.vertex = fn(t.vertex);
      if (t.indices) t.indices = t.indices.map(fn);
      break;
    case "attr":
      t.target = fn(t.target);
      break;
    default:
      break;
  }
}

function mapSelectExprs(sel: IrSelect, fn: (x: IrExpr) => IrExpr): void {
  if (sel.where) sel.where = fn(sel.where);
  if (sel.having) sel.having = fn(sel.having);
  for (const o of sel.orderBy) o.expr = fn(o.expr);
  if (sel.limit) sel.limit = fn(sel.limit);
  if (sel.offset) sel.offset = fn(sel.offset);
  if (sel.sample) {
    sel.sample.count = fn(sel.sample.count);
    if (sel.sample.when) sel.sample.when = fn(sel.sample.when);
  }
  for (const h of sel.hops) {
    if (h.dynamicEdges) h.dynamicEdges.expr = fn(h.dynamicEdges.expr);
    if (h.dynamicTargets) h.dynamicTargets = fn(h.dynamicTargets);
  }
}

/** A copy of `x` with `fn` applied to each direct sub-expression. */
export function mapChildren(x: IrExpr, fn: (c: IrExpr) => IrExpr): IrExpr {
  if (childExprs(x).length === 0) return x;
  switch (x.e) {
    case "vacc":
      return { ...x, vertex: fn(x.vertex) };
    case "attr":
    case "typeName":
    case "field":
      return { ...x, target: fn(x.target) };
    case "unary":
    case "convert":
      return { ...x, arg: fn(x.arg) };
    case "binary":
      return { ...x, left: fn(x.left), right: fn(x.right) };
    case "call":
    case "subquery":
    case "tuple":
      return { ...x, args: x.args.map(fn) };
    case "method":
      return { ...x, target: fn(x.target), args: x.args.map(fn) };
    case "collection":
      return { ...x, items: x.items.map(fn) };
    case "entry":
      return { ...x, keys: x.keys.map(fn), values: x.values.map(fn) };
    case "index":
      return { ...x, target: fn(x.target), indices: x.indices.map(fn) };
    case "cond":
      return { ...x, branches: x.branches.map((b) => ({ cond: fn(b.cond), value: fn(b.value) })), otherwise: fn(x.otherwise) };
    case "in":
      return { ...x, value: fn(x.value), collection: fn(x.collection) };
    case "like":
      return { ...x, value: fn(x.value), pattern: fn(x.pattern) };
    case "seed":
      return { ...x, parts: x.parts.map((p) => (p.p === "value" ? { ...p, expr: fn(p.expr) } : p)) };
    case "interval":
      return { ...x, value: fn(x.value) };
    default:
      return x;
  }
}
