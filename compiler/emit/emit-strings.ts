// STRING values in generated code: an i64 holding the address (low 32 bits) and byte length
// (high 32 bits) of UTF-8 bytes anywhere in the graph memory: a string constant, a stored
// attribute, or text the run built in its arena. Comparison, hashing and concatenation run
// in WebAssembly; the rarer text functions are host calls (StrOp, NumOp in the ABI).
import { FormatKind, NumOp, StrOp } from "../../runtime-wasm/query/abi.js";
import { G, type EmitContext } from "./context.js";
import { alloc } from "./emit-arena.js";
import type { Expr } from "./module.js";

/** A string value from an address and a byte length (both i32). */
export function strMake(cx: EmitContext, address: Expr, length: Expr): Expr {
  const m = cx.m;
  return m.or("i64", m.convert("i32", "i64", address, true), m.shl("i64", m.convert("i32", "i64", length, true), m.i64(32)));
}

export function strAddress(cx: EmitContext, s: Expr): Expr {
  return cx.m.convert("i64", "i32", s);
}

export function strLength(cx: EmitContext, s: Expr): Expr {
  const m = cx.m;
  return m.convert("i64", "i32", m.shr("i64", s, m.i64(32), true));
}

/** A string constant (copied into the arena by the prologue). */
export function strConst(cx: EmitContext, text: string): Expr {
  const m = cx.m;
  if (text === "") return m.i64(0);
  const { offset, length } = cx.stringConstant(text);
  return strMake(cx, m.add("i32", m.globalGet(G.strings, "i32"), m.i32(offset)), m.i32(length));
}

/** A string held in the store: the address of a [u32 length][bytes] record, 0 for "". */
export function strFromRecord(cx: EmitContext, record: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("str_from_record", [{ name: "r", type: "i32" }], "i64", (f) => {
    const r = f.param(0);
    return m.if(m.eqz("i32", r.get()), m.i64(0), strMake(cx, m.add("i32", r.get(), m.i32(4)), m.load("i32", r.get())));
  });
  return m.call(name, [record], "i64");
}

/** 1 when the two strings hold the same bytes. */
export function strEq(cx: EmitContext, a: Expr, b: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("str_eq", [{ name: "a", type: "i64" }, { name: "b", type: "i64" }], "i32", (f) => {
    const [a, b] = [f.param(0), f.param(1)];
    return [
      m.if(m.eq("i64", a.get(), b.get()), m.return(m.i32(1))),
      m.if(m.ne("i32", strLength(cx, a.get()), strLength(cx, b.get())), m.return(m.i32(0))),
      m.eqz("i32", strCmp(cx, a.get(), b.get())),
    ];
  });
  return m.call(name, [a, b], "i32");
}

/** -1, 0 or 1: byte-wise (UTF-8 code order) comparison, a prefix first. */
export function strCmp(cx: EmitContext, a: Expr, b: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("str_cmp", [{ name: "a", type: "i64" }, { name: "b", type: "i64" }], "i32", (f) => {
    const [a, b] = [f.param(0), f.param(1)];
    const pa = f.local("i32", "pa");
    const pb = f.local("i32", "pb");
    const n = f.local("i32", "n");
    const i = f.local("i32", "i");
    const ca = f.local("i32", "ca");
    const cb = f.local("i32", "cb");
    const la = f.local("i32", "la");
    const lb = f.local("i32", "lb");
    return [
      pa.set(strAddress(cx, a.get())),
      pb.set(strAddress(cx, b.get())),
      la.set(strLength(cx, a.get())),
      lb.set(strLength(cx, b.get())),
      n.set(m.select(m.lt("i32", la.get(), lb.get(), true), la.get(), lb.get())),
      f.forRange(i, m.i32(0), n.get(), () => [
        ca.set(m.loadNarrow("i32", 8, m.add("i32", pa.get(), i.get()))),
        cb.set(m.loadNarrow("i32", 8, m.add("i32", pb.get(), i.get()))),
        m.if(m.ne("i32", ca.get(), cb.get()), m.return(m.select(m.lt("i32", ca.get(), cb.get(), true), m.i32(-1), m.i32(1)))),
      ]),
      m.select(m.lt("i32", la.get(), lb.get(), true), m.i32(-1), m.select(m.gt("i32", la.get(), lb.get(), true), m.i32(1), m.i32(0))),
    ];
  });
  return m.call(name, [a, b], "i32");
}

/** FNV-1a over the bytes, as an i32. */
export function strHash(cx: EmitContext, s: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("str_hash", [{ name: "s", type: "i64" }], "i32", (f) => {
    const p = f.local("i32", "p");
    const i = f.local("i32", "i");
    const h = f.local("i32", "h");
    return [
      p.set(strAddress(cx, f.param(0).get())),
      h.set(m.i32(0x811c9dc5 | 0)),
      f.forRange(i, m.i32(0), strLength(cx, f.param(0).get()), () => [
        h.set(m.mul("i32", m.xor("i32", h.get(), m.loadNarrow("i32", 8, m.add("i32", p.get(), i.get()))), m.i32(0x01000193))),
      ]),
      h.get(),
    ];
  });
  return m.call(name, [s], "i32");
}

/** a + b in a fresh arena string. */
export function strConcat(cx: EmitContext, a: Expr, b: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("str_concat", [{ name: "a", type: "i64" }, { name: "b", type: "i64" }], "i64", (f) => {
    const [a, b] = [f.param(0), f.param(1)];
    const la = f.local("i32", "la");
    const lb = f.local("i32", "lb");
    const p = f.local("i32", "p");
    return [
      la.set(strLength(cx, a.get())),
      lb.set(strLength(cx, b.get())),
      m.if(m.eqz("i32", lb.get()), m.return(a.get())),
      m.if(m.eqz("i32", la.get()), m.return(b.get())),
      p.set(alloc(cx, m.add("i32", la.get(), lb.get()))),
      m.memoryCopy(p.get(), strAddress(cx, a.get()), la.get()),
      m.memoryCopy(m.add("i32", p.get(), la.get()), strAddress(cx, b.get()), lb.get()),
      strMake(cx, p.get(), m.add("i32", la.get(), lb.get())),
    ];
  });
  return m.call(name, [a, b], "i64");
}

/** Copies a result the host is holding (of byte length `length`) into a fresh arena string. */
export function takeHostText(cx: EmitContext, length: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("str_take", [{ name: "n", type: "i32" }], "i64", (f) => {
    const p = f.local("i32", "p");
    return [
      m.if(m.eqz("i32", f.param(0).get()), m.return(m.i64(0))),
      p.set(alloc(cx, f.param(0).get())),
      cx.host("strTake", [p.get()]),
      strMake(cx, p.get(), f.param(0).get()),
    ];
  });
  return m.call(name, [length], "i64");
}

/** A string operation done by the host (StrOp), on up to three strings and two numbers (f64). */
export function strOp(cx: EmitContext, op: StrOp, strings: Expr[], x: Expr = cx.m.f64(0), y: Expr = cx.m.f64(0)): Expr {
  const m = cx.m;
  const name = cx.helper(
    "str_op",
    [
      { name: "op", type: "i32" },
      { name: "a", type: "i64" },
      { name: "b", type: "i64" },
      { name: "c", type: "i64" },
      { name: "x", type: "f64" },
      { name: "y", type: "f64" },
    ],
    "i64",
    (f) => {
      const parts = [1, 2, 3].flatMap((i) => [strAddress(cx, f.param(i).get()), strLength(cx, f.param(i).get())]);
      return takeHostText(cx, cx.host("strOp", [f.param(0).get(), ...parts, f.param(4).get(), f.param(5).get()]));
    },
  );
  const args = [strings[0] ?? m.i64(0), strings[1] ?? m.i64(0), strings[2] ?? m.i64(0)];
  return m.call(name, [m.i32(op), ...args, x, y], "i64");
}

/** A number computed by the host from two strings and two numbers (NumOp); i64. */
export function numOp(cx: EmitContext, op: NumOp, a: Expr, b: Expr = cx.m.i64(0), x: Expr = cx.m.f64(0), y: Expr = cx.m.f64(0)): Expr {
  const m = cx.m;
  const name = cx.helper(
    "num_op",
    [
      { name: "op", type: "i32" },
      { name: "a", type: "i64" },
      { name: "b", type: "i64" },
      { name: "x", type: "f64" },
      { name: "y", type: "f64" },
    ],
    "i64",
    (f) =>
      cx.host("numOp", [
        f.param(0).get(),
        strAddress(cx, f.param(1).get()),
        strLength(cx, f.param(1).get()),
        strAddress(cx, f.param(2).get()),
        strLength(cx, f.param(2).get()),
        f.param(3).get(),
        f.param(4).get(),
      ]),
  );
  return m.call(name, [m.i32(op), a, b, x, y], "i64");
}

/** A scalar value as text (FormatKind; `bits` is the i64 image of the value). */
export function formatToString(cx: EmitContext, kind: FormatKind, bits: Expr): Expr {
  if (kind === FormatKind.Int || kind === FormatKind.Uint) return formatInteger(cx, bits, kind === FormatKind.Int);
  return takeHostText(cx, cx.host("format", [cx.m.i32(kind), bits]));
}

/**
 * An INT or UINT as decimal text, written in WebAssembly: to_string of a vertex's numeric
 * id, or a number joined to a string, runs once per vertex or edge in path-building
 * queries, where a host call per value (and the copy of its text back) dominated.
 */
function formatInteger(cx: EmitContext, bits: Expr, signed: boolean): Expr {
  const m = cx.m;
  const name = cx.helper(signed ? "format_int" : "format_uint", [{ name: "bits", type: "i64" }], "i64", (f) => {
    const value = f.param(0);
    const rest = f.local("i64", "rest");
    const end = f.local("i32", "end");
    const at = f.local("i32", "at");
    const negative = f.local("i32", "negative");
    // 20 digits hold any u64; one more byte for the sign
    return [
      end.set(m.add("i32", alloc(cx, m.i32(24)), m.i32(24))),
      at.set(end.get()),
      negative.set(signed ? m.lt("i64", value.get(), m.i64(0)) : m.i32(0)),
      // |INT64_MIN| is 2^63, which the unsigned division below handles
      rest.set(m.select(negative.get(), m.sub("i64", m.i64(0), value.get()), value.get())),
      m.loop(
        "digit",
        m.block(null, [
          at.set(m.sub("i32", at.get(), m.i32(1))),
          m.storeNarrow("i32", 8, at.get(), m.add("i32", m.i32(48), m.convert("i64", "i32", m.rem("i64", rest.get(), m.i64(10), true)))),
          rest.set(m.div("i64", rest.get(), m.i64(10), true)),
          m.brIf("digit", m.ne("i64", rest.get(), m.i64(0))),
        ]),
      ),
      m.if(negative.get(), m.seq(at.set(m.sub("i32", at.get(), m.i32(1))), m.storeNarrow("i32", 8, at.get(), m.i32(45)))),
      strMake(cx, at.get(), m.sub("i32", end.get(), at.get())),
    ];
  });
  return m.call(name, [bits], "i64");
}

export { NumOp, StrOp };
