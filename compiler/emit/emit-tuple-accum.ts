// `t.@best += Step(d, s)` for a MinAccum/MaxAccum of tuples, written inline: the new tuple's
// fields are evaluated into locals and compared field by field with the stored tuple (the
// same order as the tuple comparison helper: the first field that differs decides), and a
// tuple record is allocated only when the new value wins. Bellman-Ford relaxes many rows that
// pass WHERE but lose to a better one of the same round; they now cost no allocation and no
// helper calls.
import type { IrExpr } from "../ir/ir.js";
import { sameIrType, type IrAccum, type IrType } from "../ir/types.js";
import { emitExpr } from "./emit-expr.js";
import { cmpValue, loadValue, makeTuple, tupleLayout } from "./emit-values.js";
import type { Expr } from "./module.js";
import type { QueryEmitter } from "./query-emitter.js";
import { wasmType } from "./wasm-types.js";

/** A field given a value of type `given` stores it as is (a vertex of any vertex type is a vertex). */
function sameValue(given: IrType, field: IrType): boolean {
  return (given.t === "vertex" && field.t === "vertex") || sameIrType(given, field);
}

/** The inline `state += Tuple(...)` for a Min/MaxAccum of that tuple type; undefined when the shape does not fit. */
export function tupleMinMaxInline(qe: QueryEmitter, a: IrAccum, state: () => Expr, value: IrExpr): Expr | undefined {
  if ((a.a !== "min" && a.a !== "max") || a.elem.t !== "tuple" || value.e !== "tuple") return undefined;
  const t = a.elem;
  if (!sameIrType(value.type, t) || value.args.length !== t.fields.length) return undefined;
  if (value.args.some((x, i) => !sameValue(x.type, t.fields[i].type))) return undefined;
  const m = qe.m;
  const cx = qe.cx;
  const layout = tupleLayout(t);
  const fields = t.fields.map((fl) => qe.f.local(wasmType(fl.type), "tuple_field"));
  const current = qe.f.local("i32", "tuple_current");
  // wins(i): the new tuple ranks before (min) or after (max) the stored one from field i on
  const wins = (i: number): Expr => {
    if (i === t.fields.length) return m.i32(0);
    const c = qe.f.local("i32", "tuple_cmp");
    const ft = t.fields[i].type;
    const decided = a.a === "min" ? m.lt("i32", c.get(), m.i32(0)) : m.gt("i32", c.get(), m.i32(0));
    return m.block(null, [c.set(cmpValue(cx, ft, fields[i].get(), loadValue(cx, ft, current.get(), layout.offsets[i]))), m.if(c.get(), decided, wins(i + 1))], "i32");
  };
  return m.seq(
    ...value.args.map((x, i) => fields[i].set(emitExpr(qe, x))),
    current.set(m.load("i32", state())),
    m.if(wins(0), m.store("i32", state(), makeTuple(cx, t, fields.map((l) => l.get())))),
  );
}
