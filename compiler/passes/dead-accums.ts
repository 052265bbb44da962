// Dead accumulator elimination (-OPTIMIZE): an accumulator that nothing reads (no expression,
// PRINT, RETURN or FOREACH uses its value) is dropped with every statement that only
// writes it, so a vertex accumulator no longer costs a column set up on every vertex and a
// write per row. A write stays when its value or index expressions could have an effect or
// raise an error (then the accumulator stays too). PRINT of a whole vertex set shows every
// vertex accumulator of its vertices, so such a PRINT keeps all vertex accumulators alive.
import type { IrExpr, IrQuery, IrStmt } from "../ir/ir.js";
import { allBlocks, isSafe, methodName, vertexHolders } from "./effects.js";
import { stmtExprs, targetExprs, visitExpr, visitStmts, selectExprs } from "./walk-ir.js";

export function removeDeadAccums(q: IrQuery): IrQuery {
  const vertices = vertexHolders(q);
  const read = new Set<number>();
  let vertexSetPrinted = false;
  const noteReads = (x: IrExpr) =>
    visitExpr(x, (e) => {
      if (e.e === "gacc" || e.e === "vacc") read.add(e.id);
    });
  visitStmts(q.body, (s) => {
    if (s.s === "print" && s.items.some((i) => i.expr.type.t === "vset" && i.projection === undefined)) vertexSetPrinted = true;
    // a vertex set returned to a caller may be printed there
    if (s.s === "return" && s.value?.type.t === "vset") vertexSetPrinted = true;
    const writeOnly = writeOnlyTarget(s);
    if (s.s === "assign" || s.s === "accumulate") {
      for (const x of targetExprs(s.target)) noteReads(x);
      noteReads(s.value);
    } else if (writeOnly !== undefined && s.s === "expr" && s.expr.e === "method") {
      for (const a of s.expr.args) noteReads(a);
      if (s.expr.target.e === "vacc") noteReads(s.expr.target.vertex);
    } else for (const x of stmtExprs(s)) noteReads(x);
    if (s.s === "select") for (const x of selectExprs(s.select)) noteReads(x);
  });
  const candidates = q.accums.filter((a) => !read.has(a.id) && !(vertexSetPrinted && a.scope === "vertex")).map((a) => a.id);
  // an accumulator with a write that must stay (it could fail or have an effect) stays
  const dead = new Set(candidates);
  visitStmts(q.body, (s) => {
    const id = writeOnlyTarget(s);
    if (id !== undefined && dead.has(id) && !droppable(s, vertices)) dead.delete(id);
  });
  if (dead.size === 0) return q;
  allBlocks(q.body, (block) => {
    const out = block.filter((s) => {
      const id = writeOnlyTarget(s);
      return id === undefined || !dead.has(id);
    });
    block.splice(0, block.length, ...out);
  });
  q.accums = q.accums.filter((a) => !dead.has(a.id));
  return q;
}

/** Whether removing a write-only statement changes nothing but the accumulator it writes. */
function droppable(s: IrStmt, vertices: ReadonlySet<number>): boolean {
  if (s.s === "expr") return s.expr.e === "method" && methodName(s.expr.method) === "clear" && (s.expr.target.e !== "vacc" || isSafe(s.expr.target.vertex, vertices));
  return stmtExprs(s).every((x) => isSafe(x, vertices));
}

/** The accumulator a statement only writes (declaration, reset, write, mutator call), if any. */
function writeOnlyTarget(s: IrStmt): number | undefined {
  switch (s.s) {
    case "declAccum":
    case "resetAccum":
      return s.id;
    case "assign":
    case "accumulate":
      return s.target.t === "gacc" || s.target.t === "vacc" ? s.target.id : undefined;
    case "expr":
      return s.expr.e === "method" && (s.expr.target.e === "gacc" || s.expr.target.e === "vacc") ? s.expr.target.id : undefined;
    default:
      return undefined;
  }
}
