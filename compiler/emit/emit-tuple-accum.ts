// `t.@best += Step(d, s)` for a MinAccum/MaxAccum of tuples, written inline: the new tuple's
// fields are evaluated into locals and compared field by field with the tuple the state
// holds in place (the same order as the tuple comparison helper: the first field that
// differs decides), and the fields are stored only when the new tuple wins. Bellman-Ford
// relaxes many rows that pass WHERE but lose to a better one of the same round; they cost
// no record and no helper call, and a winner writes its fields where they are read.
// `t.@best = Step(d, s)` stores the fields without building a record either.
import type { IrExpr } from "../ir/ir.js";
import { sameIrType, type IrAccum, type IrType } from "../ir/types.js";
import { inlineTuple } from "./emit-accum.js";
import { emitExpr } from "./emit-expr.js";
import { cmpValue, loadValue, storeValue, tupleLayout } from "./emit-values.js";
import type { Expr } from "./module.js";
import type { QueryEmitter } from "./query-emitter.js";
import { wasmType } from "./wasm-types.js";

/** A field given a value of type `given` stores it as is (a vertex of any vertex type is a vertex). */
function sameValue(given: IrType, field: IrType): boolean {
  return (given.t === "vertex" && field.t === "vertex") || sameIrType(given, field);
}

/**
 * The inline `state += Tuple(...)` (or `state = Tuple(...)` when `assign`) for a Min/MaxAccum
 * of that tuple type; undefined when the shape does not fit.
 */
export function tupleMinMaxInline(qe: QueryEmitter, a: IrAccum, state: () => Expr, value: IrExpr, assign = false): Expr | undefined {
  const t = inlineTuple(a);
  if (t === undefined || value.e !== "tuple") return undefined;
  if (!sameIrType(value.type, t) || value.args.length !== t.fields.length) return undefined;
  if (value.args.some((x, i) => !sameValue(x.type, t.fields[i].type))) return undefined;
  const m = qe.m;
  const cx = qe.cx;
  const layout = tupleLayout(t);
  const fields = t.fields.map((fl) => qe.f.local(wasmType(fl.type), "tuple_field"));
  const store = m.seq(...t.fields.map((fl, i) => storeValue(cx, fl.type, state(), fields[i].get(), layout.offsets[i])));
  const evaluate = value.args.map((x, i) => fields[i].set(emitExpr(qe, x)));
  if (assign) return m.seq(...evaluate, store);
  // wins(i): the new tuple ranks before (min) or after (max) the stored one from field i on
  const wins = (i: number): Expr => {
    if (i === t.fields.length) return m.i32(0);
    const c = qe.f.local("i32", "tuple_cmp");
    const ft = t.fields[i].type;
    const decided = a.a === "min" ? m.lt("i32", c.get(), m.i32(0)) : m.gt("i32", c.get(), m.i32(0));
    return m.block(null, [c.set(cmpValue(cx, ft, fields[i].get(), loadValue(cx, ft, state(), layout.offsets[i]))), m.if(c.get(), decided, wins(i + 1))], "i32");
  };
  return m.seq(...evaluate, m.if(wins(0), store));
}
