// Generic traversal of IR statements and expressions, shared by the passes.
import type { IrExpr, IrSelect, IrStmt, IrTarget } from "../ir/ir.js";

/** Every direct sub-expression of an expression. */
export function childExprs(x: IrExpr): IrExpr[] {
  switch (x.e) {
    case "vacc":
      return [x.vertex];
    case "attr":
    case "typeName":
    case "field":
      return [x.target];
    case "unary":
    case "convert":
      return [x.arg];
    case "binary":
      return [x.left, x.right];
    case "call":
    case "subquery":
    case "tuple":
      return x.args;
    case "method":
      return [x.target, ...x.args];
    case "collection":
      return x.items;
    case "entry":
      return [...x.keys, ...x.values];
    case "index":
      return [x.target, ...x.indices];
    case "cond":
      return [...x.branches.flatMap((b) => [b.cond, b.value]), x.otherwise];
    case "in":
      return [x.value, x.collection];
    case "like":
      return [x.value, x.pattern];
    case "seed":
      return x.parts.flatMap((p) => (p.p === "value" ? [p.expr] : []));
    case "interval":
      return [x.value];
    default:
      return [];
  }
}

/** Visits an expression tree, parents first. */
export function visitExpr(x: IrExpr, fn: (x: IrExpr) => void): void {
  fn(x);
  for (const c of childExprs(x)) visitExpr(c, fn);
}

export function targetExprs(t: IrTarget): IrExpr[] {
  switch (t.t) {
    case "var":
      return [];
    case "gacc":
      return t.indices ?? [];
    case "vacc":
      return [t.vertex, ...(t.indices ?? [])];
    case "attr":
      return [t.target];
  }
}

/** Expressions a statement evaluates itself (not those of nested statements or SELECTs). */
export function stmtExprs(s: IrStmt): IrExpr[] {
  switch (s.s) {
    case "let":
      return s.init ? [s.init] : [];
    case "declAccum":
      return [s.init, s.capacity, ...(s.sizes ?? [])].filter((x): x is IrExpr => x !== undefined);
    case "assign":
    case "accumulate":
      return [...targetExprs(s.target), s.value];
    case "vsetAssign":
      return [s.value];
    case "expr":
      return [s.expr];
    case "if":
      return s.branches.map((b) => b.cond);
    case "while":
      return [s.cond, ...(s.limit ? [s.limit] : [])];
    case "forRange":
      return [s.low, s.high, ...(s.step ? [s.step] : [])];
    case "forEach":
      return [s.collection];
    case "print":
      return [...s.items.flatMap((i) => [i.expr, ...(i.projection ?? []).map((p) => p.expr)]), ...(s.where ? [s.where] : [])];
    case "println":
    case "log":
      return s.s === "log" ? [s.cond, ...s.args] : s.args;
    case "return":
      return s.value ? [s.value] : [];
    case "raise":
      return s.message ? [s.message] : [];
    case "insertVertex":
      return [s.id, ...s.attrs.map((a) => a.value)];
    case "insertEdge":
      return [s.from, s.to, ...s.attrs.map((a) => a.value)];
    case "delete":
      return [s.target];
    default:
      return [];
  }
}

/** Nested statement lists of a statement (not SELECT clauses). */
export function childBodies(s: IrStmt): IrStmt[][] {
  switch (s.s) {
    case "if":
      return [...s.branches.map((b) => b.body), ...(s.otherwise ? [s.otherwise] : [])];
    case "while":
    case "forRange":
    case "forEach":
      return [s.body];
    case "try":
      return [s.body, ...s.handlers.map((h) => h.body), ...(s.otherwise ? [s.otherwise] : [])];
    default:
      return [];
  }
}

/** Every expression a SELECT evaluates outside its clauses' statements. */
export function selectExprs(sel: IrSelect): IrExpr[] {
  return [
    ...(sel.where ? [sel.where] : []),
    ...(sel.having ? [sel.having] : []),
    ...sel.orderBy.map((o) => o.expr),
    ...(sel.limit ? [sel.limit] : []),
    ...(sel.offset ? [sel.offset] : []),
    ...(sel.sample ? [sel.sample.count, ...(sel.sample.when ? [sel.sample.when] : [])] : []),
    ...sel.hops.flatMap((h) => [...(h.dynamicEdges ? [h.dynamicEdges.expr] : []), ...(h.dynamicTargets ? [h.dynamicTargets] : [])]),
  ];
}

/** Visits every statement, including nested ones and SELECT clause statements. */
export function visitStmts(stmts: IrStmt[], fn: (s: IrStmt) => void): void {
  for (const s of stmts) {
    fn(s);
    for (const b of childBodies(s)) visitStmts(b, fn);
    if (s.s === "select") {
      visitStmts(s.select.accum, fn);
      for (const p of s.select.postAccum) visitStmts(p.body, fn);
    }
  }
}
