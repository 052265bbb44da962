// SAMPLE (gsql-semantics §4.2, V1): per source vertex for which `WHEN` holds, keep a uniform
// random subset of the edges its (single) hop matches, before WHERE sees the rows:
//   SAMPLE n EDGE | TARGET    min(n, degree) edges
//   SAMPLE n% EDGE | TARGET   ceil(degree * n / 100) edges (at least one when n > 0)
// `degree` counts the edges of every edge type the hop matches. TARGET samples the same way as
// EDGE (an edge per target: the store keeps one edge per pair and type unless the type has a
// discriminator). PINNED picks the same subset for a vertex every time (the choice hashes the
// vertex id); otherwise each source draws a fresh seed from the host's random source.
// Selection sampling (Knuth's algorithm S) keeps exactly the wanted count in one pass.
import type { IrSelect } from "../ir/ir.js";
import { INT } from "../ir/types.js";
import { convert, emitExpr } from "./emit-expr.js";
import type { Expr, FunctionScope, Local } from "./module.js";
import type { QueryEmitter } from "./query-emitter.js";

export interface SampleState {
  /** Per source, once its degree (edges of all matched types) is known: sets the quota. */
  start(degree: Expr): Expr;
  /** Per matched edge, in order: 1 when the edge is kept (advances the sampler). */
  keep(): Expr;
}

export function sampleState(qe: QueryEmitter, f: FunctionScope, sample: NonNullable<IrSelect["sample"]>, source: Local): SampleState {
  const m = qe.m;
  const total = f.local("i32", "sample_total");
  const need = f.local("i32", "sample_need");
  const seen = f.local("i32", "sample_seen");
  const seed = f.local("i64", "sample_seed");
  const count = f.local("i64", "sample_count");
  const x = f.local("i64", "sample_x");
  // the count, clamped to [0, degree]
  const clamped = () => m.select(m.lt("i64", count.get(), m.i64(0)), m.i32(0), m.select(m.gt("i64", count.get(), m.convert("i32", "i64", total.get())), total.get(), m.convert("i64", "i32", count.get())));
  return {
    start: (degree) =>
      m.seq(
        total.set(degree),
        seen.set(m.i32(0)),
        count.set(convert(qe, sample.count.type, INT, emitExpr(qe, sample.count))),
        // n% of the degree, rounded up: (degree * n + 99) / 100
        sample.percent ? count.set(m.div("i64", m.add("i64", m.mul("i64", m.convert("i32", "i64", total.get()), count.get()), m.i64(99)), m.i64(100))) : m.nop(),
        need.set(clamped()),
        sample.when ? m.if(m.eqz("i32", emitExpr(qe, sample.when)), need.set(total.get())) : m.nop(),
        seed.set(
          sample.pinned
            ? m.mul("i64", m.convert("i32", "i64", source.get(), true), m.i64(0x9e3779b97f4a7c15n))
            : m.xor("i64", m.reinterpret("i64", qe.cx.host("random", [])), m.convert("i32", "i64", source.get(), true)),
        ),
      ),
    keep: () =>
      m.block(
        null,
        [
          // u in [0, 1) from a splitmix64 step of (seed, seen); keep when u * remaining < need
          x.set(m.add("i64", seed.get(), m.mul("i64", m.convert("i32", "i64", m.add("i32", seen.get(), m.i32(1)), true), m.i64(0xbf58476d1ce4e5b9n)))),
          x.set(m.mul("i64", m.xor("i64", x.get(), m.shr("i64", x.get(), m.i64(31), true)), m.i64(0x94d049bb133111ebn))),
          x.set(m.xor("i64", x.get(), m.shr("i64", x.get(), m.i64(29), true))),
          m.if(
            m.lt(
              "f64",
              m.mul("f64", m.mul("f64", m.convert("i64", "f64", m.shr("i64", x.get(), m.i64(11), true), true), m.f64(2 ** -53)), m.convert("i32", "f64", m.sub("i32", total.get(), seen.get()))),
              m.convert("i32", "f64", need.get()),
            ),
            m.block(null, [need.set(m.sub("i32", need.get(), m.i32(1))), seen.set(m.add("i32", seen.get(), m.i32(1))), m.i32(1)], "i32"),
            m.block(null, [seen.set(m.add("i32", seen.get(), m.i32(1))), m.i32(0)], "i32"),
          ),
        ],
        "i32",
      ),
  };
}
