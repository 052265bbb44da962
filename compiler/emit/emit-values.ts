// Operations every value type needs in generated code: its default, loading and storing it
// in records and containers, hashing, equality and ordering. Tuples are immutable records
// [field, field, ...] (fields at their natural alignment); EDGE values are 16-byte records
// [edge type ordinal, from vid, to vid, eid].
import type { IrTupleType, IrType } from "../ir/types.js";
import type { EmitContext } from "./context.js";
import { alloc } from "./emit-arena.js";
import { strCmp, strEq, strHash } from "./emit-strings.js";
import type { Expr, ValueType } from "./module.js";
import { typeTag, valueWidth, wasmType } from "./wasm-types.js";

export const EdgeRecord = { type: 0, from: 4, to: 8, eid: 12, size: 16 } as const;

export interface TupleLayout {
  offsets: number[];
  size: number;
}

export function tupleLayout(t: IrTupleType): TupleLayout {
  const offsets: number[] = [];
  let at = 0;
  for (const f of t.fields) {
    const w = valueWidth(f.type);
    at = Math.ceil(at / w) * w;
    offsets.push(at);
    at += w;
  }
  return { offsets, size: Math.max(8, Math.ceil(at / 8) * 8) };
}

export function loadValue(cx: EmitContext, t: IrType, address: Expr, offset = 0): Expr {
  return cx.m.load(wasmType(t), address, offset);
}

export function storeValue(cx: EmitContext, t: IrType, address: Expr, value: Expr, offset = 0): Expr {
  return cx.m.store(wasmType(t), address, value, offset);
}

/** The default value of `t` (gsql-semantics §1.1). */
export function defaultValue(cx: EmitContext, t: IrType): Expr {
  const m = cx.m;
  switch (t.t) {
    case "vertex":
      return m.i32(-1);
    case "tuple":
      return defaultTuple(cx, t);
    default:
      return m.constant(wasmType(t), 0);
  }
}

/** One shared all-defaults record per tuple type (tuples are immutable, so sharing is safe). */
function defaultTuple(cx: EmitContext, t: IrTupleType): Expr {
  const m = cx.m;
  const tag = typeTag(t);
  const cache = `tuple_default_${tag}`;
  cx.ensureGlobal(cache, "i32");
  const name = cx.helper(cache, [], "i32", (f) => {
    const p = f.local("i32", "p");
    const layout = tupleLayout(t);
    return [
      m.if(m.ne("i32", m.globalGet(cache, "i32"), m.i32(0)), m.return(m.globalGet(cache, "i32"))),
      p.set(alloc(cx, m.i32(layout.size))),
      ...t.fields.map((fl, i) => storeValue(cx, fl.type, p.get(), defaultValue(cx, fl.type), layout.offsets[i])),
      m.globalSet(cache, p.get()),
      p.get(),
    ];
  });
  return m.call(name, [], "i32");
}

/** A 32-bit hash of a value. */
export function hashValue(cx: EmitContext, t: IrType, v: Expr): Expr {
  const m = cx.m;
  switch (t.t) {
    case "scalar":
      if (t.name === "STRING") return strHash(cx, v);
      return mixHash(cx, bitsOf(cx, wasmType(t), v));
    case "json":
      return strHash(cx, v);
    case "vertex":
    case "file":
    case "vset":
    case "accum":
      return mixHash(cx, m.convert("i32", "i64", v, true));
    case "edge":
      return cx.m.call(edgeHelpers(cx).hash, [v], "i32");
    case "tuple":
      return m.call(tupleHelpers(cx, t).hash, [v], "i32");
    case "void":
      return m.i32(0);
  }
}

/** 1 when two values of `t` are equal. */
export function eqValue(cx: EmitContext, t: IrType, a: Expr, b: Expr): Expr {
  const m = cx.m;
  switch (t.t) {
    case "scalar":
      if (t.name === "STRING") return strEq(cx, a, b);
      return m.eq(wasmType(t), a, b);
    case "tuple":
      return m.call(tupleHelpers(cx, t).eq, [a, b], "i32");
    case "edge":
      return m.call(edgeHelpers(cx).eq, [a, b], "i32");
    case "json":
      return strEq(cx, a, b);
    default:
      return m.eq(wasmType(t), a, b);
  }
}

/** -1, 0 or 1 ordering two values of `t` (numbers, strings by bytes, vertices by internal id, tuples field by field). */
export function cmpValue(cx: EmitContext, t: IrType, a: Expr, b: Expr): Expr {
  const m = cx.m;
  if ((t.t === "scalar" && t.name === "STRING") || t.t === "json") return strCmp(cx, a, b);
  if (t.t === "tuple") return m.call(tupleHelpers(cx, t).cmp, [a, b], "i32");
  const vt = wasmType(t);
  const unsigned = (t.t === "scalar" && t.name === "UINT") || t.t === "vertex" || t.t === "edge";
  const name = cx.helper(`cmp_${vt}${unsigned ? "u" : ""}`, [{ name: "a", type: vt }, { name: "b", type: vt }], "i32", (f) => {
    const [x, y] = [f.param(0).get(), f.param(1).get()];
    return m.sub("i32", m.gt(vt, x, y, unsigned), m.lt(vt, f.param(0).get(), f.param(1).get(), unsigned));
  });
  return m.call(name, [a, b], "i32");
}

/** The bits of a number as i64 (for hashing and formatting). */
export function bitsOf(cx: EmitContext, vt: ValueType, v: Expr): Expr {
  const m = cx.m;
  switch (vt) {
    case "i64":
      return v;
    case "i32":
      return m.convert("i32", "i64", v, true);
    case "f32":
      return m.convert("i32", "i64", m.reinterpret("i32", v), true);
    case "f64":
      return m.reinterpret("i64", v);
  }
}

/** A well-mixed 32-bit hash of 64 bits. */
export function mixHash(cx: EmitContext, bits: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("mix_hash", [{ name: "x", type: "i64" }], "i32", (f) => {
    const x = f.param(0);
    return [
      x.set(m.mul("i64", m.xor("i64", x.get(), m.shr("i64", x.get(), m.i64(33), true)), m.i64(0xff51afd7ed558ccdn))),
      x.set(m.mul("i64", m.xor("i64", x.get(), m.shr("i64", x.get(), m.i64(33), true)), m.i64(0xc4ceb9fe1a85ec53n))),
      m.convert("i64", "i32", m.xor("i64", x.get(), m.shr("i64", x.get(), m.i64(33), true))),
    ];
  });
  return m.call(name, [bits], "i32");
}

interface ValueHelpers {
  hash: string;
  eq: string;
  cmp: string;
}

function tupleHelpers(cx: EmitContext, t: IrTupleType): ValueHelpers {
  const m = cx.m;
  const tag = typeTag(t);
  const layout = tupleLayout(t);
  const field = (p: Expr, i: number) => loadValue(cx, t.fields[i].type, p, layout.offsets[i]);
  const hash = cx.helper(`hash_${tag}`, [{ name: "p", type: "i32" }], "i32", (f) => {
    const h = f.local("i32", "h");
    return [
      h.set(m.i32(17)),
      ...t.fields.map((fl, i) => h.set(m.add("i32", m.mul("i32", h.get(), m.i32(31)), hashValue(cx, fl.type, field(f.param(0).get(), i))))),
      h.get(),
    ];
  });
  const eq = cx.helper(`eq_${tag}`, [{ name: "a", type: "i32" }, { name: "b", type: "i32" }], "i32", (f) => [
    m.if(m.eq("i32", f.param(0).get(), f.param(1).get()), m.return(m.i32(1))),
    ...t.fields.map((fl, i) => m.if(m.eqz("i32", eqValue(cx, fl.type, field(f.param(0).get(), i), field(f.param(1).get(), i))), m.return(m.i32(0)))),
    m.i32(1),
  ]);
  const cmp = cx.helper(`cmp_${tag}`, [{ name: "a", type: "i32" }, { name: "b", type: "i32" }], "i32", (f) => {
    const c = f.local("i32", "c");
    return [
      ...t.fields.map((fl, i) => m.seq(c.set(cmpValue(cx, fl.type, field(f.param(0).get(), i), field(f.param(1).get(), i))), m.if(c.get(), m.return(c.get())))),
      m.i32(0),
    ];
  });
  return { hash, eq, cmp };
}

function edgeHelpers(cx: EmitContext): { hash: string; eq: string } {
  const m = cx.m;
  const word = (p: Expr, off: number) => m.load("i32", p, off);
  const hash = cx.helper("hash_edge", [{ name: "p", type: "i32" }], "i32", (f) =>
    mixHash(
      cx,
      m.or(
        "i64",
        m.shl("i64", m.convert("i32", "i64", m.xor("i32", word(f.param(0).get(), EdgeRecord.type), m.mul("i32", word(f.param(0).get(), EdgeRecord.from), m.i32(0x9e3779b1 | 0))), true), m.i64(32)),
        m.convert("i32", "i64", m.xor("i32", word(f.param(0).get(), EdgeRecord.to), word(f.param(0).get(), EdgeRecord.eid)), true),
      ),
    ),
  );
  const eq = cx.helper("eq_edge", [{ name: "a", type: "i32" }, { name: "b", type: "i32" }], "i32", (f) => {
    const a = () => f.param(0).get();
    const b = () => f.param(1).get();
    const same = (off: number) => m.eq("i32", word(a(), off), word(b(), off));
    return m.and("i32", m.and("i32", same(EdgeRecord.type), same(EdgeRecord.eid)), m.and("i32", same(EdgeRecord.from), same(EdgeRecord.to)));
  });
  return { hash, eq };
}

/** A new tuple record from field values. */
export function makeTuple(cx: EmitContext, t: IrTupleType, fields: Expr[]): Expr {
  const m = cx.m;
  const layout = tupleLayout(t);
  const tag = typeTag(t);
  const name = cx.helper(
    `make_${tag}`,
    t.fields.map((f, i) => ({ name: `f${i}`, type: wasmType(f.type) })),
    "i32",
    (f) => {
      const p = f.local("i32", "p");
      return [p.set(alloc(cx, m.i32(layout.size))), ...t.fields.map((fl, i) => storeValue(cx, fl.type, p.get(), f.param(i).get(), layout.offsets[i])), p.get()];
    },
  );
  return m.call(name, fields, "i32");
}

/** A new edge record. */
export function makeEdge(cx: EmitContext, type: Expr, from: Expr, to: Expr, eid: Expr): Expr {
  const m = cx.m;
  const name = cx.helper(
    "make_edge",
    [
      { name: "t", type: "i32" },
      { name: "f", type: "i32" },
      { name: "to", type: "i32" },
      { name: "e", type: "i32" },
    ],
    "i32",
    (f) => {
      const p = f.local("i32", "p");
      return [
        p.set(alloc(cx, m.i32(EdgeRecord.size))),
        m.store("i32", p.get(), f.param(0).get(), EdgeRecord.type),
        m.store("i32", p.get(), f.param(1).get(), EdgeRecord.from),
        m.store("i32", p.get(), f.param(2).get(), EdgeRecord.to),
        m.store("i32", p.get(), f.param(3).get(), EdgeRecord.eid),
        p.get(),
      ];
    },
  );
  return m.call(name, [type, from, to, eid], "i32");
}
