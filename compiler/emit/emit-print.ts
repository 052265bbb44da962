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
import type { Expr } from "./module.js";
import { UnsupportedError, type QueryEmitter } from "./query-emitter.js";

export function emitPrint(qe: QueryEmitter, s: Extract<IrStmt, { s: "print" }>): Expr {
  const m = qe.m;
  const cx = qe.cx;
  if (s.toCsv !== undefined) throw new UnsupportedError("PRINT ... TO_CSV");
  const hasSets = s.items.some((it) => it.expr.type.t === "vset");
  const body: Expr[] = [outTag(cx, Out.PrintBegin)];
  for (const item of s.items) {
    body.push(outKey(cx, item.key));
    body.push(item.expr.type.t === "vset" ? printVertexSet(qe, item, hasSets ? s.where : undefined) : printValue(qe, item.expr));
  }
  body.push(outTag(cx, Out.End));
  if (s.where && !hasSets) return m.if(emitExpr(qe, s.where), m.seq(...body));
  return m.seq(...body);
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
