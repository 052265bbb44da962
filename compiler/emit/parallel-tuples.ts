// Parallel SELECT, Min/MaxAccum of a tuple (Bellman-Ford's `t.@best += Step(dist, parent)`):
// each thread keeps its own partial state per vertex, folded into the accumulator with the
// accumulator's own `+=` afterwards.
//
// The accumulator compares tuples field by field (emit-values.ts cmpValue), so its order is
// total when every field is a number, a boolean, a datetime or a vertex: two tuples compare
// equal only when all their fields are equal, and the minimum of a set of tuples is the same
// whatever the order they arrive in, split across threads or not. (A DOUBLE or FLOAT field
// holding NaN, or both 0.0 and -0.0, compares equal to a different value: there a
// one-thread run keeps the first of two equal tuples in row order, a split one the first in
// its fold order. Both are minima by the accumulator's own comparison.)
//
// The accumulator's default (each field's default) is not an identity of min or max, so a
// partial state starts at the tuple that ranks last: every field at its type's largest value
// for a MinAccum (smallest for a MaxAccum). Folding a partial nobody wrote changes nothing.
import type { IrAccum, IrTupleType, IrType } from "../ir/types.js";
import type { EmitContext } from "./context.js";
import { accumAdd, accumTag, inlineTuple } from "./emit-accum.js";
import { storeValue, tupleLayout } from "./emit-values.js";
import type { Expr } from "./module.js";

/** Whether a field's type gives a total order the fold may rely on. */
function orderedField(t: IrType): boolean {
  if (t.t === "vertex") return true;
  return t.t === "scalar" && ["INT", "UINT", "FLOAT", "DOUBLE", "BOOL", "DATETIME"].includes(t.name);
}

/** A Min/MaxAccum of a tuple whose partial states a split SELECT can fold exactly. */
export function splittableTuple(a: IrAccum): boolean {
  const t = inlineTuple(a);
  return t !== undefined && t.fields.every((f) => orderedField(f.type));
}

/** The value of type `t` that ranks last for a MinAccum (`last` = largest) or a MaxAccum (smallest). */
function extreme(cx: EmitContext, t: IrType, largest: boolean): Expr {
  const m = cx.m;
  if (t.t === "vertex") return m.i32(largest ? -1 : 0); // vertices compare unsigned
  const name = t.t === "scalar" ? t.name : "";
  switch (name) {
    case "INT":
    case "DATETIME":
      return m.i64(largest ? 0x7fffffffffffffffn : -0x8000000000000000n);
    case "UINT":
      return m.i64(largest ? -1 : 0);
    case "DOUBLE":
      return m.f64(largest ? Infinity : -Infinity);
    case "FLOAT":
      return m.f32(largest ? Infinity : -Infinity);
    case "BOOL":
      return m.i32(largest ? 1 : 0);
    default:
      throw new Error(`no extreme for a ${name} field`);
  }
}

/** Writes the identity of the tuple Min/Max `a` (the tuple ranking last) at `state`. */
export function tupleIdentityInit(cx: EmitContext, a: IrAccum, state: Expr): Expr {
  const m = cx.m;
  const t = inlineTuple(a) as IrTupleType;
  const layout = tupleLayout(t);
  const name = cx.helper(`par_tuple_identity_${accumTag(a)}`, [{ name: "s", type: "i32" }], "none", (f) =>
    m.seq(m.nop(), ...t.fields.map((fl, i) => storeValue(cx, fl.type, f.param(0).get(), extreme(cx, fl.type, a.a === "min"), layout.offsets[i]))),
  );
  return m.call(name, [state], "none");
}

/** `live += partial` for a tuple Min/Max: the partial state read as the tuple it holds. */
export function tupleFold(cx: EmitContext, a: IrAccum, live: Expr, partial: Expr): Expr {
  return accumAdd(cx, a, live, partial, inlineTuple(a) as IrTupleType);
}
