// LIST / SET / MAP attribute values read into the accumulators they behave as (ListAccum,
// SetAccum, MapAccum): the column holds the address of a store record [u32 byteLength]
// followed by the blob encoding of runtime-wasm/store/values/blob.ts ([u32 count] then the
// elements, or key/value pairs). Each read builds a fresh container; STRING elements point
// into the record itself (store records are immutable while the run's snapshot lives).
import type { IrAccum, IrType } from "../ir/types.js";
import type { EmitContext } from "./context.js";
import { accumAdd, accumTag, accumulateEntry, newContainer } from "./emit-accum.js";
import { alloc } from "./emit-arena.js";
import { strMake } from "./emit-strings.js";
import type { Expr, Local, ValueType } from "./module.js";
import { wasmType } from "./wasm-types.js";
import { UnsupportedError } from "./query-emitter.js";

/** Bytes of one encoded scalar, or undefined for a STRING (length-prefixed). */
function fixedWidth(t: IrType): number | undefined {
  if (t.t !== "scalar") throw new UnsupportedError(`reading attributes holding ${t.t} values`);
  switch (t.name) {
    case "INT":
    case "UINT":
    case "DATETIME":
    case "DOUBLE":
      return 8;
    case "FLOAT":
      return 4;
    case "BOOL":
      return 1;
    case "STRING":
      return undefined;
  }
}

/** Reads one encoded scalar at `p` and moves `p` past it. */
function readScalar(cx: EmitContext, t: IrType, p: Local, value: Local): Expr[] {
  const m = cx.m;
  const width = fixedWidth(t);
  if (width === undefined) {
    return [value.set(strMake(cx, m.add("i32", p.get(), m.i32(4)), m.load("i32", p.get()))), p.set(m.add("i32", p.get(), m.add("i32", m.i32(4), m.load("i32", p.get()))))];
  }
  const name = (t as { name: string }).name;
  const load =
    name === "DOUBLE" ? m.load("f64", p.get()) : name === "FLOAT" ? m.load("f32", p.get()) : name === "BOOL" ? m.loadNarrow("i32", 8, p.get()) : m.load("i64", p.get());
  return [value.set(load), p.set(m.add("i32", p.get(), m.i32(width)))];
}

/** The accumulator container holding the collection stored at record `record` (0: empty). */
export function collectionFromRecord(cx: EmitContext, a: IrAccum, record: Expr): Expr {
  const m = cx.m;
  if (a.a !== "list" && a.a !== "set" && a.a !== "bag" && a.a !== "map") throw new UnsupportedError(`reading ${a.a} attributes`);
  const name = cx.helper(`attr_${accumTag(a)}`, [{ name: "r", type: "i32" }], "i32", (f) => {
    const r = f.param(0);
    const cell = f.local("i32", "cell");
    const p = f.local("i32", "p");
    const i = f.local("i32", "i");
    const n = f.local("i32", "n");
    const body: Expr[] = a.a === "map"
      ? (() => {
          const k = f.local(wasmOf(a.key), "k");
          const v = f.local(wasmOf(valueType(a)), "v");
          return [
            ...readScalar(cx, a.key, p, k),
            ...readScalar(cx, valueType(a), p, v),
            accumulateEntry(cx, a, cell.get(), [{ expr: k.get(), type: a.key }], [{ expr: v.get(), type: valueType(a) }]),
          ];
        })()
      : (() => {
          const v = f.local(wasmOf(a.elem), "v");
          return [...readScalar(cx, a.elem, p, v), accumAdd(cx, a, cell.get(), v.get(), a.elem)];
        })();
    return [
      cell.set(alloc(cx, m.i32(8))),
      m.store("i32", cell.get(), newContainer(cx, a)),
      m.if(
        r.get(),
        m.seq(
          p.set(m.add("i32", r.get(), m.i32(4))),
          n.set(m.load("i32", p.get())),
          p.set(m.add("i32", p.get(), m.i32(4))),
          f.forRange(i, m.i32(0), n.get(), () => body),
        ),
      ),
      m.load("i32", cell.get()),
    ];
  });
  return m.call(name, [record], "i32");
}

/** The plain value type a MapAccum attribute's values are stored as. */
function valueType(a: Extract<IrAccum, { a: "map" }>): IrType {
  const v = a.value;
  if (v.a === "sum" || v.a === "min" || v.a === "max" || v.a === "replace") return v.elem;
  throw new UnsupportedError("reading MAP attributes with collection values");
}

/** The local type of a stored collection's element: scalars only (the store's blob records hold no others). */
function wasmOf(t: IrType): ValueType {
  if (t.t !== "scalar") throw new UnsupportedError(`reading attributes holding ${t.t} values`);
  return wasmType(t);
}
