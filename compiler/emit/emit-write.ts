// Writing values into the typed output stream, as PRINT shows them (gsql-semantics §8):
// numbers by type, DATETIME as text (as epoch seconds directly inside a bag or as a map
// value, as the reference prints them), vertices as ids, edges as edge records, tuples as
// objects, List/Set/Bag/Array as arrays, MapAccum as an object keyed by the key's text,
// HeapAccum (best first) and GroupByAccum as arrays of objects, bitwise accumulators as
// 64-character strings of 0 and 1.
import { writeJson } from "./emit-json.js";
import { Out } from "../../runtime-wasm/query/abi.js";
import type { IrAccum, IrType } from "../ir/types.js";
import type { EmitContext } from "./context.js";
import { accumRead, accumSize, accumView, accumTag, collectionForEach, groupByKeyTuple, groupByOffsets } from "./emit-accum.js";
import { alloc } from "./emit-arena.js";
import { Entry } from "./emit-hash-table.js";
import { heapLength, heapSorted } from "./emit-heap.js";
import { outEdge, outKey, outTag, outTagString, outTagValue } from "./emit-output.js";
import { strMake } from "./emit-strings.js";
import { EdgeRecord, loadValue, tupleLayout } from "./emit-values.js";
import type { Expr } from "./module.js";
import { typeTag } from "./wasm-types.js";

export interface WriteStyle {
  /** DATETIME as epoch seconds (elements of bags, values of maps). */
  datetimeEpoch?: boolean;
}

/** Writes a value of type `t`. */
export function writeValue(cx: EmitContext, t: IrType, value: Expr, style: WriteStyle = {}): Expr {
  const m = cx.m;
  switch (t.t) {
    case "scalar":
      switch (t.name) {
        case "INT":
          return outTagValue(cx, Out.Int, "i64", value);
        case "UINT":
          return outTagValue(cx, Out.Uint, "i64", value);
        case "FLOAT":
          return outTagValue(cx, Out.Float, "f32", value);
        case "DOUBLE":
          return outTagValue(cx, Out.Double, "f64", value);
        case "BOOL":
          return outTagValue(cx, Out.Bool, "u8", value);
        case "STRING":
          return outTagString(cx, Out.String, value);
        case "DATETIME":
          return outTagValue(cx, style.datetimeEpoch ? Out.DatetimeEpoch : Out.Datetime, "i64", value);
      }
      break;
    case "vertex": {
      const name = cx.helper("write_vertex", [{ name: "v", type: "i32" }], "none", (f) =>
        m.if(m.eq("i32", f.param(0).get(), m.i32(-1)), outTag(cx, Out.NoVertex), outTagValue(cx, Out.VertexId, "i32", f.param(0).get())),
      );
      return m.call(name, [value], "none");
    }
    case "edge": {
      const name = cx.helper("write_edge", [{ name: "e", type: "i32" }], "none", (f) => {
        const e = () => f.param(0).get();
        return m.if(
          m.eqz("i32", e()),
          m.seq(outTag(cx, Out.ObjectBegin), outTag(cx, Out.End)),
          outEdge(cx, m.load("i32", e(), EdgeRecord.type), m.load("i32", e(), EdgeRecord.from), m.load("i32", e(), EdgeRecord.to), m.load("i32", e(), EdgeRecord.eid)),
        );
      });
      return m.call(name, [value], "none");
    }
    case "tuple": {
      const layout = tupleLayout(t);
      const name = cx.helper(`write_${typeTag(t)}_${t.fields.map((f) => f.name).join("_")}`, [{ name: "p", type: "i32" }], "none", (f) => [
        outTag(cx, Out.ObjectBegin),
        ...t.fields.map((fl, i) => m.seq(outKey(cx, fl.name), writeValue(cx, fl.type, loadValue(cx, fl.type, f.param(0).get(), layout.offsets[i])))),
        outTag(cx, Out.End),
      ]);
      return m.call(name, [value], "none");
    }
    case "accum":
      return writeContainer(cx, t.accum, value);
    case "json":
      return writeJson(cx, t, value);
    default:
      break;
  }
  throw new Error(`a ${t.t} value cannot be printed`);
}

/** Writes the state of an accumulator (its value). */
export function writeAccumState(cx: EmitContext, a: IrAccum, state: Expr, style: WriteStyle = {}): Expr {
  const m = cx.m;
  switch (a.a) {
    case "sum":
    case "min":
    case "max":
    case "replace":
      return writeValue(cx, a.elem, accumView(cx, a, state), style);
    case "avg":
      return outTagValue(cx, Out.Double, "f64", accumRead(cx, a, state));
    case "and":
    case "or":
      return outTagValue(cx, Out.Bool, "u8", accumRead(cx, a, state));
    case "bitand":
    case "bitor":
      return outTagString(cx, Out.String, bitString(cx, m.load("i64", state)));
    default:
      return writeContainer(cx, a, m.load("i32", state));
  }
}

/** The 64-character 0/1 text of a bitwise accumulator (most significant bit first). */
function bitString(cx: EmitContext, bits: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("bit_string", [{ name: "x", type: "i64" }], "i64", (f) => {
    const p = f.local("i32", "p");
    const i = f.local("i32", "i");
    return [
      p.set(alloc(cx, m.i32(64))),
      f.forRange(i, m.i32(0), m.i32(64), () => [
        m.storeNarrow(
          "i32",
          8,
          m.add("i32", p.get(), i.get()),
          m.add("i32", m.i32(48), m.convert("i64", "i32", m.and("i64", m.shr("i64", f.param(0).get(), m.convert("i32", "i64", m.sub("i32", m.i32(63), i.get()), true), true), m.i64(1)))),
        ),
      ]),
      strMake(cx, p.get(), m.i32(64)),
    ];
  });
  return m.call(name, [bits], "i64");
}

/** Writes a collection (container address; 0 = empty). */
export function writeContainer(cx: EmitContext, a: IrAccum, container: Expr): Expr {
  const m = cx.m;
  const name = cx.helper(`write_${accumTag(a)}`, [{ name: "c", type: "i32" }], "none", (f) => {
    const c = () => f.param(0).get();
    switch (a.a) {
      case "list":
      case "set":
      case "bag":
        return [
          outTag(cx, Out.ArrayBegin),
          collectionForEach(cx, f, a, c(), (item) => [writeValue(cx, a.elem, item.element!(), { datetimeEpoch: a.a === "bag" })]),
          outTag(cx, Out.End),
        ];
      case "map":
        return [
          outTag(cx, Out.ObjectBegin),
          collectionForEach(cx, f, a, c(), (item) => [outTag(cx, Out.KeyOf), writeValue(cx, a.key, item.key!()), writeAccumState(cx, a.value, item.valueState!(), { datetimeEpoch: true })]),
          outTag(cx, Out.End),
        ];
      case "heap": {
        const sorted = f.local("i32", "sorted");
        const i = f.local("i32", "i");
        return [
          outTag(cx, Out.ArrayBegin),
          m.if(
            c(),
            m.seq(
              sorted.set(heapSorted(cx, a, c())),
              f.forRange(i, m.i32(0), heapLength(cx, c()), () => [writeValue(cx, a.tuple, m.load("i32", m.add("i32", sorted.get(), m.shl("i32", i.get(), m.i32(2)))))]),
            ),
          ),
          outTag(cx, Out.End),
        ];
      }
      case "groupby": {
        const keyTuple = groupByKeyTuple(a);
        const keyLayout = tupleLayout(keyTuple);
        const { offsets } = groupByOffsets(a);
        return [
          outTag(cx, Out.ArrayBegin),
          collectionForEach(cx, f, a, c(), (item) => [
            outTag(cx, Out.ObjectBegin),
            ...a.keys.map((k, i) => m.seq(outKey(cx, k.name), writeValue(cx, k.type, loadValue(cx, k.type, m.load("i32", item.entry!(), Entry.key), keyLayout.offsets[i])))),
            ...a.values.map((v, i) => m.seq(outKey(cx, v.name), writeAccumState(cx, v.accum, m.add("i32", item.entry!(), m.i32(Entry.value + offsets[i]))))),
            outTag(cx, Out.End),
          ]),
          outTag(cx, Out.End),
        ];
      }
      case "array":
        return writeArrayAccum(cx, a, c());
      default:
        throw new Error(`${a.a} is not a collection`);
    }
  });
  return m.call(name, [container], "none");
}

/** ArrayAccum: nested arrays by dimension. Header [dims, total cells, data, size per dim...]. */
export const ArrayHeader = { dims: 0, cells: 4, data: 8, sizes: 12, size: 32 } as const;

function writeArrayAccum(cx: EmitContext, a: Extract<IrAccum, { a: "array" }>, container: Expr): Expr {
  const m = cx.m;
  const name = cx.helper(`write_array_level_${accumTag(a)}`, [{ name: "c", type: "i32" }, { name: "dim", type: "i32" }, { name: "base", type: "i32" }], "none", (f) => {
    const [c, dim, base] = [f.param(0), f.param(1), f.param(2)];
    const i = f.local("i32", "i");
    const stride = f.local("i32", "stride");
    const d = f.local("i32", "d");
    const size = (k: Expr) => m.load("i32", m.add("i32", c.get(), m.shl("i32", k, m.i32(2))), ArrayHeader.sizes);
    return [
      outTag(cx, Out.ArrayBegin),
      // cells per element at this level
      stride.set(m.i32(1)),
      f.forRange(d, m.add("i32", dim.get(), m.i32(1)), m.load("i32", c.get(), ArrayHeader.dims), () => [stride.set(m.mul("i32", stride.get(), size(d.get())))]),
      f.forRange(i, m.i32(0), size(dim.get()), () => [
        m.if(
          m.eq("i32", m.add("i32", dim.get(), m.i32(1)), m.load("i32", c.get(), ArrayHeader.dims)),
          writeAccumState(cx, a.elem, m.add("i32", m.load("i32", c.get(), ArrayHeader.data), m.mul("i32", m.add("i32", base.get(), i.get()), m.i32(accumSize(a.elem))))),
          m.call(`write_array_level_${accumTag(a)}`, [c.get(), m.add("i32", dim.get(), m.i32(1)), m.add("i32", base.get(), m.mul("i32", i.get(), stride.get()))], "none"),
        ),
      ]),
      outTag(cx, Out.End),
    ];
  });
  const top = cx.helper(`write_array_${accumTag(a)}`, [{ name: "c", type: "i32" }], "none", (f) =>
    m.if(m.eqz("i32", f.param(0).get()), m.seq(outTag(cx, Out.ArrayBegin), outTag(cx, Out.End)), m.call(name, [f.param(0).get(), m.i32(0), m.i32(0)], "none")),
  );
  return m.call(top, [container], "none");
}
