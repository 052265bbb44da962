// What the heavier passes need to know about IR expressions and statements before moving,
// merging or dropping them: whether an expression can be evaluated at another time or not at
// all without a visible difference (no side effect, no run-time error, no dependence on
// when it runs), what it reads, and what a stretch of statements writes.
import type { IrExpr, IrQuery, IrStmt } from "../ir/ir.js";
import { childExprs, childBodies, stmtExprs, visitExpr, visitStmts } from "./walk-ir.js";

/** Built-in functions that return the same value for the same arguments and never fail. */
const SAFE_CALLS = new Set(["abs", "sqrt", "ceil", "floor", "round", "trunc", "square", "sign", "pi", "degrees", "radians", "getvid"]);

/** Built-in methods (by name; ids are `receiver.name`) that only read their receiver and never fail. */
const SAFE_METHODS = new Set(["size", "outdegree", "contains", "containskey"]);

/** A method id's name (`list.clear` → `clear`). */
export function methodName(id: string): string {
  return id.slice(id.lastIndexOf(".") + 1);
}

/**
 * Whether evaluating `x` has no effect but its value and cannot raise a run-time error:
 * such an expression may be evaluated earlier, once instead of several times, or not at all.
 * Division only by a non-zero constant; no sub-query calls, no clock or random numbers, no
 * element access that may be out of range; vertex accumulators and degrees only of the
 * variables in `vertices` (SELECT aliases and parameters, which always hold a vertex).
 * Attribute reads qualify: a vertex or edge without the attribute reads its default, and
 * graph writes are applied only after the query, so an attribute keeps its value throughout.
 */
export function isSafe(x: IrExpr, vertices: ReadonlySet<number>): boolean {
  switch (x.e) {
    case "vacc":
      if (!(x.vertex.e === "var" && vertices.has(x.vertex.id))) return false;
      break;
    case "const":
    case "var":
    case "gacc":
    case "attr":
    case "typeName":
    case "field":
    case "unary":
    case "convert":
    case "cond":
    case "isNull":
    case "in":
      break;
    case "binary":
      if (x.op === "div" || x.op === "mod") {
        if (!(x.right.e === "const" && x.right.value !== 0 && x.right.value !== 0n)) return false;
      } else if (x.op === "union" || x.op === "intersect" || x.op === "minus" || x.op === "concat") return false;
      break;
    case "call":
      if (!SAFE_CALLS.has(x.fn)) return false;
      break;
    case "method":
      if (!SAFE_METHODS.has(methodName(x.method))) return false;
      if (x.target.type.t === "vertex" && !(x.target.e === "var" && vertices.has(x.target.id))) return false;
      break;
    default:
      return false;
  }
  return childExprs(x).every((c) => isSafe(c, vertices));
}

/** The variables that always hold a vertex: SELECT aliases and vertex parameters. */
export function vertexHolders(q: IrQuery): Set<number> {
  return new Set(q.vars.filter((v) => (v.kind === "alias" || v.kind === "param") && v.type.t === "vertex").map((v) => v.id));
}

/** Scalar (number, boolean, string, datetime) or vertex: values that copy by value. */
export function isPlainValue(x: IrExpr): boolean {
  return x.type.t === "scalar" || x.type.t === "vertex";
}

/** Variables (including vertex-set variables) and accumulators an expression reads. */
export interface Reads {
  vars: Set<number>;
  accums: Set<number>;
}

export function readsOf(x: IrExpr, into: Reads = { vars: new Set(), accums: new Set() }): Reads {
  visitExpr(x, (e) => {
    if (e.e === "var" || e.e === "vset") into.vars.add(e.id);
    else if (e.e === "gacc" || e.e === "vacc") into.accums.add(e.id);
    else if (e.e === "isNull") into.vars.add(e.param);
  });
  return into;
}

/** What a list of statements (and everything nested in them, SELECT clauses included) writes. */
export interface Writes {
  vars: Set<number>;
  accums: Set<number>;
}

export function writesOf(stmts: IrStmt[], into: Writes = { vars: new Set(), accums: new Set() }): Writes {
  visitStmts(stmts, (s) => addStmtWrites(s, into));
  return into;
}

/** The writes of one statement itself (not of statements nested in it). */
export function addStmtWrites(s: IrStmt, into: Writes): void {
  switch (s.s) {
    case "let":
    case "vsetAssign":
    case "select":
    case "forRange":
      into.vars.add(s.id);
      break;
    case "forEach":
      for (const id of s.ids) into.vars.add(id);
      break;
    case "declAccum":
    case "resetAccum":
      into.accums.add(s.id);
      break;
    case "assign":
    case "accumulate":
      if (s.target.t === "var") into.vars.add(s.target.id);
      else if (s.target.t === "gacc" || s.target.t === "vacc") into.accums.add(s.target.id);
      break;
    default:
      break;
  }
  // a method call may change its receiver (clear, remove, pop, update, ...)
  for (const x of stmtExprs(s))
    visitExpr(x, (e) => {
      if (e.e === "method" && !SAFE_METHODS.has(methodName(e.method))) {
        if (e.target.e === "gacc" || e.target.e === "vacc") into.accums.add(e.target.id);
        else if (e.target.e === "var") into.vars.add(e.target.id);
      }
    });
}

export function intersects(reads: Reads, writes: Writes): boolean {
  for (const v of reads.vars) if (writes.vars.has(v)) return true;
  for (const a of reads.accums) if (writes.accums.has(a)) return true;
  return false;
}

/** Worth keeping in a variable rather than computing again: a scalar built by some operation. */
export function worthKeeping(x: IrExpr): boolean {
  return x.type.t === "scalar" && x.e !== "const" && x.e !== "var" && x.e !== "gacc" && x.e !== "isNull";
}

/** A stable text key of an expression (equal keys: the same computation). */
export function exprKey(x: IrExpr): string {
  return JSON.stringify(x, (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : v));
}

/** An id no variable, accumulator or exception of the query uses yet. */
export function freshIdAllocator(q: IrQuery): () => number {
  let next = 1 + Math.max(0, ...q.vars.map((v) => v.id), ...q.accums.map((a) => a.id), ...q.exceptions.map((e) => e.id));
  return () => next++;
}

/** Every statement list of a query, SELECT clause bodies included (for passes that rewrite lists in place). */
export function allBlocks(body: IrStmt[], fn: (block: IrStmt[], kind: "query" | "clause") => void, kind: "query" | "clause" = "query"): void {
  fn(body, kind);
  for (const s of body) {
    for (const b of childBodies(s)) allBlocks(b, fn, kind);
    if (s.s === "select") {
      allBlocks(s.select.accum, fn, "clause");
      for (const p of s.select.postAccum) allBlocks(p.body, fn, "clause");
    }
  }
}
