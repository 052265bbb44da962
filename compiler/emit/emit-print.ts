// PRINT: one output object per executed PRINT, one key per item (gsql-semantics §8). A
// vertex set prints as an array of vertex records with the stored attributes and every
// vertex-attached accumulator of the query (`@name`), or with the projected expressions
// instead (`S[S.a, S.@b AS k]`). `PRINT ... WHERE c` keeps the vertices for which c holds;
// with no vertex set among the items, a false condition prints nothing.
import { Out } from "../../runtime-wasm/query/abi.js";
import type { IrExpr, IrPrintItem, IrStmt } from "../ir/ir.js";
import { emitExpr, vertexState } from "./emit-expr.js";
import { outKey, outTag, outVertexRecord } from "./emit-output.js";
import { writeAccumState, writeValue } from "./emit-write.js";
import { vsetForEach } from "./emit-vset.js";
import { CALL_DEPTH } from "./emit-subquery.js";
import { emitPrintln } from "./emit-file.js";
import { childExprs } from "../passes/walk-ir.js";
import type { Expr } from "./module.js";
import { UnsupportedError, type QueryEmitter } from "./query-emitter.js";

export function emitPrint(qe: QueryEmitter, s: Extract<IrStmt, { s: "print" }>): Expr {
  const m = qe.m;
  const cx = qe.cx;
  if (s.toCsv !== undefined) return printToCsv(qe, s, s.toCsv);
  s = { ...s, items: oldStyleProjections(qe, s.items) };
  const hasSets = s.items.some((it) => it.expr.type.t === "vset");
  const body: Expr[] = [outTag(cx, Out.PrintBegin)];
  for (const item of s.items) {
    body.push(outKey(cx, item.key));
    body.push(item.expr.type.t === "vset" ? printVertexSet(qe, item, hasSets ? s.where : undefined) : printValue(qe, item.expr));
  }
  body.push(outTag(cx, Out.End));
  const print = s.where && !hasSets ? m.if(emitExpr(qe, s.where), m.seq(...body)) : m.seq(...body);
  // a called query's PRINT does not reach the results
  cx.ensureGlobal(CALL_DEPTH, "i32");
  return m.if(m.eqz("i32", m.globalGet(CALL_DEPTH, "i32")), print);
}

/**
 * PRINT ... TO_CSV f: one line of the items' values; when the items read a vertex set's
 * vertices (`PRINT S.name TO_CSV f`), one line per vertex of the set.
 */
function printToCsv(qe: QueryEmitter, s: Extract<IrStmt, { s: "print" }>, file: number): Expr {
  const m = qe.m;
  const exprs = s.items.map((it) => it.expr);
  if (exprs.some((x) => x.type.t === "vset")) throw new UnsupportedError("printing a whole vertex set to a file");
  const sets = new Set<number>();
  exprs.forEach((x) => setsRead(qe, x, sets));
  if (s.where) setsRead(qe, s.where, sets);
  const line = () => {
    const l = emitPrintln(qe, { e: "var", id: file, type: qe.variable(file).type }, exprs);
    return s.where ? m.if(emitExpr(qe, s.where), l) : l;
  };
  if (sets.size === 0) return line();
  if (sets.size > 1) throw new UnsupportedError("PRINT ... TO_CSV over several vertex sets");
  const id = [...sets][0];
  return vsetForEach(qe.cx, qe.f, qe.readVar(id), (v) => {
    const restore = qe.bindLocal(id, v);
    try {
      return [line()];
    } finally {
      restore();
    }
  });
}

/**
 * Vertex-set variables an expression reads as "each vertex of the set": the set's name as
 * the vertex of an attribute, accumulator, `.type` or vertex function (`S.name`, `S.@n`),
 * not as a set (`S.size()`).
 */
function setsRead(qe: QueryEmitter, x: IrExpr, into: Set<number>): Set<number> {
  const isSetName = (t: IrExpr) => (t.e === "var" || t.e === "vset") && qe.variable(t.id).kind === "vset";
  const walk = (e: IrExpr): void => {
    const target =
      e.e === "attr" || e.e === "typeName" ? e.target : e.e === "vacc" ? e.vertex : e.e === "method" && e.method.startsWith("vertex.") ? e.target : undefined;
    if (target && isSetName(target)) into.add((target as { id: number }).id);
    childExprs(e).forEach(walk);
  };
  walk(x);
  return into;
}

/**
 * The old style `PRINT S.name, S.@n` prints like `PRINT S[S.name, S.@n]`: consecutive items
 * reading the same vertex set become one projection keyed by the set's name.
 */
function oldStyleProjections(qe: QueryEmitter, items: IrPrintItem[]): IrPrintItem[] {
  const out: IrPrintItem[] = [];
  for (const item of items) {
    const sets = item.projection || item.expr.type.t === "vset" ? new Set<number>() : setsRead(qe, item.expr, new Set());
    if (sets.size !== 1) {
      out.push(item);
      continue;
    }
    const id = [...sets][0];
    const last = out[out.length - 1];
    if (last && last.projectionVar === id && last.projection && last.key === qe.variable(id).name) {
      last.projection.push({ key: item.key, expr: item.expr });
      continue;
    }
    out.push({ key: qe.variable(id).name, expr: { e: "vset", id, type: { t: "vset" } }, projection: [{ key: item.key, expr: item.expr }], projectionVar: id });
  }
  return out;
}

/** A value; an accumulator prints as its state (a bitwise accumulator as its bits). */
function printValue(qe: QueryEmitter, x: IrExpr): Expr {
  const m = qe.m;
  const cx = qe.cx;
  if (x.e === "gacc") return writeAccumState(cx, qe.accumType(x.id), m.globalGet(qe.accumGlobal(x.id), "i32"));
  if (x.e === "vacc" && !x.prime) return writeAccumState(cx, qe.accumType(x.id), vertexState(qe, x.id, emitExpr(qe, x.vertex)));
  return writeValue(cx, x.type, emitExpr(qe, x));
}

/** A vertex set as an array of vertex records, in the set's order. */
function printVertexSet(qe: QueryEmitter, item: IrPrintItem, where: IrPrintItem["expr"] | undefined): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const vertexAccums = qe.ir.accums.filter((a) => a.scope === "vertex");
  const loop = vsetForEach(cx, qe.f, emitExpr(qe, item.expr), (v) => {
    // Inside the projection (and WHERE), the set's name stands for the current vertex.
    const restore = item.projectionVar !== undefined ? qe.bindLocal(item.projectionVar, v) : () => {};
    try {
      const record: Expr[] = [];
      if (item.projection) {
        record.push(outVertexRecord(cx, v.get(), false));
        for (const p of item.projection) record.push(outKey(cx, p.key), printValue(qe, p.expr));
      } else {
        record.push(outVertexRecord(cx, v.get(), true));
        for (const a of vertexAccums) record.push(outKey(cx, `@${a.name}`), writeAccumState(cx, a.type, vertexState(qe, a.id, v.get())));
      }
      record.push(outTag(cx, Out.End));
      const cond = where ? emitExpr(qe, where) : undefined;
      return [cond ? m.if(cond, m.seq(...record)) : m.seq(...record)];
    } finally {
      restore();
    }
  });
  return m.seq(outTag(cx, Out.ArrayBegin), loop, outTag(cx, Out.End));
}
