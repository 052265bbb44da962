// Per-source hoisting for SELECT rows. Expressions of an ACCUM clause that depend only on
// the source vertex (its attributes, accumulators, degree...) have the same value on every
// row leaving that vertex, since reads in ACCUM see the values from before the clause. They
// are computed once per source vertex, at its first row, and kept in locals: in PageRank,
// `s.@score / s.outdegree()` is evaluated once per vertex instead of once per edge. Only
// expressions every row evaluates are hoisted (not ones under IF, CASE or the right side of
// AND/OR), so an error such a computation raises happens exactly when it would per row.
import type { IrExpr, IrStmt } from "../ir/ir.js";
import { childExprs } from "../passes/walk-ir.js";

const IMPURE = new Set(["rand", "now", "gsql_uuid_v4"]);

/** Expressions of `body` worth computing once per source vertex `source` (an alias id). */
export function sourceInvariants(body: IrStmt[], source: number, locals: Set<number>): IrExpr[] {
  const found: IrExpr[] = [];
  const invariant = (x: IrExpr): boolean => {
    switch (x.e) {
      case "var":
        return x.id === source || !locals.has(x.id);
      case "call":
        if (IMPURE.has(x.fn)) return false;
        break;
      case "subquery":
      case "collection":
      case "seed":
      case "tuple":
      case "entry":
        return false;
      case "cond":
        return false;
      default:
        break;
    }
    return childExprs(x).every(invariant);
  };
  const worth = (x: IrExpr): boolean => x.e !== "const" && x.e !== "var" && x.e !== "gacc" && x.type.t === "scalar";
  const visit = (x: IrExpr): void => {
    if (invariant(x) && worth(x) && referencesSource(x, source)) {
      found.push(x);
      return;
    }
    // the right side of AND/OR and CASE branches are not always evaluated
    if (x.e === "binary" && (x.op === "and" || x.op === "or")) return visit(x.left);
    if (x.e === "cond") return;
    // a `.filter(cond)` condition runs per edge, with aliases of its own
    if (isEdgeFilter(x)) return visit(x.target);
    for (const c of childExprs(x)) visit(c);
  };
  for (const s of body) {
    switch (s.s) {
      case "accumulate":
      case "assign":
        if (s.value.e === "entry") s.value.keys.concat(s.value.values).forEach(visit);
        else visit(s.value);
        break;
      case "let":
        if (s.init) visit(s.init);
        break;
      default:
        // statements after a conditional one still run on every row, but keep it simple:
        // only the straight-line prefix of the clause is considered
        return found;
    }
  }
  return found;
}

/**
 * Parts of a SELECT's WHERE that depend only on the source vertex and cannot fail or write:
 * accumulator reads (the clause sees them as they were before it), tuple fields, numeric
 * arithmetic other than division, comparisons. They are computed once per source vertex,
 * before its edges are walked: also for a source none of whose rows passes, which is why
 * only expressions that cannot raise an error are taken. In connected components' and
 * Bellman-Ford's rounds, `s.@cc_id` / `s.@best.dist` is read once per source, not per edge.
 */
export function whereInvariants(where: IrExpr, source: number, locals: Set<number>): IrExpr[] {
  const numeric = (x: IrExpr) => (x.type.t === "scalar" && x.type.name !== "STRING" && x.type.name !== "DATETIME") || x.type.t === "vertex";
  const safe = (x: IrExpr): boolean => {
    switch (x.e) {
      case "var":
        return x.id === source || !locals.has(x.id);
      case "const":
        return true;
      case "vacc":
        return safe(x.vertex);
      case "field":
        return safe(x.target);
      case "unary":
        return numeric(x.arg) && safe(x.arg);
      case "binary":
        if (!["add", "sub", "mul", "eq", "ne", "lt", "le", "gt", "ge", "and", "or"].includes(x.op)) return false;
        return numeric(x.left) && numeric(x.right) && safe(x.left) && safe(x.right);
      default:
        return false;
    }
  };
  const found: IrExpr[] = [];
  const visit = (x: IrExpr): void => {
    if (x.e !== "const" && x.e !== "var" && numeric(x) && safe(x) && referencesSource(x, source)) {
      found.push(x);
      return;
    }
    if (isEdgeFilter(x)) return visit(x.target);
    for (const c of childExprs(x)) visit(c);
  };
  visit(where);
  return found;
}

/** `v.neighbors(...).filter(cond)` and the like: `cond` reads aliases bound per edge. */
export function isEdgeFilter(x: IrExpr): x is Extract<IrExpr, { e: "method" }> {
  return x.e === "method" && x.method === "bag.filter";
}

function referencesSource(x: IrExpr, source: number): boolean {
  if (x.e === "var" && x.id === source) return true;
  return childExprs(x).some((c) => referencesSource(c, source));
}

/** Ids of variables local to the clause (DML locals, loop variables, aliases other than the source). */
export function clauseLocals(body: IrStmt[], aliases: number[]): Set<number> {
  const ids = new Set<number>(aliases);
  const walk = (stmts: IrStmt[]) => {
    for (const s of stmts) {
      if (s.s === "let") ids.add(s.id);
      if (s.s === "forRange") ids.add(s.id);
      if (s.s === "forEach") s.ids.forEach((i) => ids.add(i));
      if (s.s === "if") {
        s.branches.forEach((b) => walk(b.body));
        if (s.otherwise) walk(s.otherwise);
      }
      if (s.s === "while" || s.s === "forRange" || s.s === "forEach") walk(s.body);
    }
  };
  walk(body);
  return ids;
}
