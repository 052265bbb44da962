// Accumulator writes and vertex-set insertions safe against other threads running the same
// SELECT over other source ranges (parallel-select.ts): the order-independent scalar
// accumulators become one atomic read-modify-write (integer Sum, Or, And) or a
// compare-and-swap loop (floating-point Sum, Min, Max), and a vertex set's bit is set with an
// atomic OR whose old value says whether the count goes up. Results equal the one-thread
// ones exactly for integers, Min, Max, Or and And; a floating-point Sum adds the same terms
// in another order, so it may differ from the one-thread result in its last bits.
import type { IrAccum, IrType } from "../ir/types.js";
import type { EmitContext } from "./context.js";
import { GG } from "./emit-graph.js";
import type { Expr, FunctionScope } from "./module.js";
import { VS } from "./emit-vset.js";
import { wasmType } from "./wasm-types.js";

/** Element types the atomic writes handle (the accumulator's element, as accumWriteInline). */
function numeric(t: IrType): boolean {
  return t.t === "scalar" && (t.name === "INT" || t.name === "UINT" || t.name === "FLOAT" || t.name === "DOUBLE");
}

/** Whether `+= value` into accumulator `a` has an atomic form here. */
export function atomicAccumulates(a: IrAccum): boolean {
  switch (a.a) {
    case "sum":
    case "min":
    case "max":
      return numeric(a.elem);
    case "or":
    case "and":
      return true;
    default:
      return false;
  }
}

/**
 * `state += value` done atomically, or undefined when the accumulator has no atomic form.
 * `value` is already converted to the accumulator's element type.
 */
export function accumAddAtomic(cx: EmitContext, f: FunctionScope, a: IrAccum, state: () => Expr, value: Expr): Expr | undefined {
  const m = cx.m;
  if (!atomicAccumulates(a)) return undefined;
  if (a.a === "or" || a.a === "and") {
    return m.drop(a.a === "or" ? m.raw.i32.atomic.rmw.or(0, state(), value) : m.raw.i32.atomic.rmw.and(0, state(), value));
  }
  const elem = (a as unknown as { elem: IrType }).elem;
  const w = wasmType(elem);
  if (a.a === "sum" && (w === "i64" || w === "i32")) return m.drop(m.atomicAdd(w, state(), value));
  // the state's bits as an integer of the same width, for the compare-and-swap
  const bits: "i32" | "i64" = w === "f32" || w === "i32" ? "i32" : "i64";
  const v = f.local(w, "av");
  const old = f.local(bits, "aold");
  const next = f.local(w, "anew");
  const asValue = (x: Expr): Expr => (w === bits ? x : m.reinterpret(w, x));
  const asBits = (x: Expr): Expr => (w === bits ? x : m.reinterpret(bits, x));
  const label = f.label("cas");
  const unsigned = elem.t === "scalar" && elem.name === "UINT";
  let body: Expr;
  if (a.a === "sum") {
    body = m.seq(next.set(m.add(w, asValue(old.get()), v.get())), m.brIf(label, m.ne(bits, m.atomicCmpxchg(bits, state(), old.get(), asBits(next.get())), old.get())));
  } else {
    // as the plain write: the new value is stored only when it is strictly better
    const better = a.a === "min" ? m.lt(w, v.get(), asValue(old.get()), unsigned) : m.gt(w, v.get(), asValue(old.get()), unsigned);
    body = m.if(better, m.brIf(label, m.ne(bits, m.atomicCmpxchg(bits, state(), old.get(), asBits(v.get())), old.get())));
  }
  return m.seq(v.set(value), m.loop(label, m.seq(old.set(m.atomicLoad(bits, state())), body)));
}

/** Adds a vertex to a set (atomically: other threads add to it too); -1 and ids past the bound are ignored. */
export function vsetAddAtomic(cx: EmitContext, f: FunctionScope, set: () => Expr, vid: () => Expr): Expr {
  const m = cx.m;
  const b = f.local("i64", "vs_bit");
  const word = m.add("i32", m.load("i32", set(), VS.bitmap), m.shl("i32", m.shr("i32", vid(), m.i32(6), true), m.i32(3)));
  return m.if(
    m.lt("i32", vid(), m.globalGet(GG.vidBound, "i32"), true),
    m.seq(
      b.set(m.shl("i64", m.i64(1), m.convert("i32", "i64", m.and("i32", vid(), m.i32(63)), true))),
      m.if(
        m.eqz("i64", m.and("i64", m.raw.i64.atomic.rmw.or(0, word, b.get()), b.get())),
        m.drop(m.atomicAdd("i32", set(), m.i32(1), VS.count)),
      ),
    ),
  );
}
