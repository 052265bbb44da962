// Accumulator states and their operations. Every accumulator instance (a global one, one
// vertex's cell of a vertex-attached one, a MapAccum value, a GroupByAccum field, an
// ArrayAccum cell) is a state of `accumSize` bytes at some address; the functions here
// initialise, read, accumulate into (`+=`) and assign (`=`) such a state. Collection
// accumulators hold the address of their container, 0 until first written (an empty one).
//
// Semantics (gsql-semantics §3): Sum adds (strings append), Min/Max keep the smaller/larger
// (documented defaults, no "never accumulated" state), Avg keeps sum and count, And/Or are
// logical, BitwiseAnd/Or work on 64 bits; List appends, Set/Bag add, Map folds the value
// into the key's value accumulator, Heap keeps the best by its keys, GroupBy folds values
// into the key's accumulators. `+=` of a collection adds every element.
//
// A Min/MaxAccum of tuples keeps the tuple's fields in the state itself (`inlineTuple`), not
// the address of an immutable record: Bellman-Ford's `t.@best.dist` is then one load, and a
// relaxation that wins writes fields instead of allocating. Reading such a state as a value
// copies it into a fresh record (a value must not change when the accumulator does later);
// `accumView` gives the state's own address for uses that end before the next write (a
// field read, printing).
import type { IrAccum, IrTupleType, IrType } from "../ir/types.js";
import { accumValueType, isCollectionAccum, sameIrType } from "../ir/types.js";
import type { EmitContext } from "./context.js";
import { alloc, allocZeroed } from "./emit-arena.js";
import { arrayAssign, groupByAssign } from "./emit-accum-copy.js";
import { Entry, htAddNumber, htCount, htForEach, htInsert, htNew, HT_INSERTED } from "./emit-hash-table.js";
import { HeapHeader, heapLength, heapNew, heapPush } from "./emit-heap.js";
import { listElementAddress, listLength, listNew, listPush, listClear } from "./emit-list.js";
import { strConcat } from "./emit-strings.js";
import { cmpValue, defaultValue, loadValue, makeTuple, storeValue, tupleLayout } from "./emit-values.js";
import { htClear, htRelease } from "./emit-hash-table.js";
import type { Expr, FunctionScope, Local, LoopLabels } from "./module.js";
import { typeTag, wasmType } from "./wasm-types.js";

/** Bytes of one state (a multiple of 8). */
export function accumSize(a: IrAccum): number {
  const tuple = inlineTuple(a);
  if (tuple) return tupleLayout(tuple).size;
  return a.a === "avg" ? 16 : 8;
}

/** The tuple type whose fields a Min/MaxAccum state holds in place; undefined for every other accumulator. */
export function inlineTuple(a: IrAccum): IrTupleType | undefined {
  return (a.a === "min" || a.a === "max") && a.elem.t === "tuple" ? a.elem : undefined;
}

/** Copies the fields of an inline tuple state or record at `from` to `to` (both `size` bytes, 8-aligned). */
export function copyTupleBytes(cx: EmitContext, t: IrTupleType, to: Expr, from: Expr): Expr {
  const m = cx.m;
  const size = tupleLayout(t).size;
  const name = cx.helper(`tuple_copy_${typeTag(t)}`, [{ name: "to", type: "i32" }, { name: "from", type: "i32" }], "none", (f) => {
    const words: Expr[] = [];
    for (let off = 0; off < size; off += 8) words.push(m.store("i64", f.param(0).get(), m.load("i64", f.param(1).get(), off), off));
    return words;
  });
  return m.call(name, [to, from], "none");
}

/**
 * The state's value for a use that ends before the state is written again: an inline
 * tuple state's own address (no copy), otherwise the value as `accumRead` gives it.
 */
export function accumView(cx: EmitContext, a: IrAccum, state: Expr): Expr {
  return inlineTuple(a) ? state : accumRead(cx, a, state);
}

/** A short unique name of an accumulator type, for specialised helpers. */
export function accumTag(a: IrAccum): string {
  switch (a.a) {
    case "sum":
    case "min":
    case "max":
    case "list":
    case "set":
    case "bag":
    case "replace":
      return `${a.a}_${typeTag(a.elem)}`;
    case "map":
      return `map_${typeTag(a.key)}_${accumTag(a.value)}`;
    case "array":
      return `arr${a.dims}_${accumTag(a.elem)}`;
    case "heap":
      return `heap_${typeTag(a.tuple)}_${a.keys.map((k) => `${k.field}${k.desc ? "d" : "a"}`).join("")}`;
    case "groupby":
      return `gb_${a.keys.map((k) => typeTag(k.type)).join("_")}__${a.values.map((v) => accumTag(v.accum)).join("_")}`;
    case "bitand":
    case "bitor":
      return `${a.a}${a.width}`;
    default:
      return a.a;
  }
}

/** Layout of a GroupByAccum entry's value part: one state per value accumulator. */
export function groupByOffsets(a: Extract<IrAccum, { a: "groupby" }>): { offsets: number[]; size: number } {
  const offsets: number[] = [];
  let at = 0;
  for (const v of a.values) {
    offsets.push(at);
    at += accumSize(v.accum);
  }
  return { offsets, size: at };
}

/** The tuple type a GroupByAccum's keys form (its hash-table key). */
export function groupByKeyTuple(a: Extract<IrAccum, { a: "groupby" }>): Extract<IrType, { t: "tuple" }> {
  return { t: "tuple", fields: a.keys.map((k) => ({ name: k.name, type: k.type })) };
}

function minMaxDefault(cx: EmitContext, a: Extract<IrAccum, { a: "sum" | "min" | "max" }>): Expr {
  const m = cx.m;
  const t = a.elem;
  if (t.t === "scalar") {
    const min = a.a === "min";
    switch (t.name) {
      case "INT":
        return m.i64(min ? 0x7fffffffffffffffn : -0x8000000000000000n);
      case "UINT":
        return m.i64(min ? -1 : 0);
      case "FLOAT":
        return m.f32(min ? 3.4028234663852886e38 : -3.4028234663852886e38);
      case "DOUBLE":
        return m.f64(min ? Number.MAX_VALUE : -Number.MAX_VALUE);
      case "DATETIME":
        return m.i64(min ? 0x7fffffffffffffffn : -0x8000000000000000n);
      default:
        return defaultValue(cx, t);
    }
  }
  return defaultValue(cx, t);
}

/** Writes the initial state (the type's default). Containers start absent (0), heaps and arrays are made by `initContainer`. */
export function accumInit(cx: EmitContext, a: IrAccum, state: Expr): Expr {
  const m = cx.m;
  const name = cx.helper(`acc_init_${accumTag(a)}`, [{ name: "s", type: "i32" }], "none", (f) => {
    const s = f.param(0);
    switch (a.a) {
      case "sum":
      case "replace":
        return storeValue(cx, a.elem, s.get(), defaultValue(cx, a.elem));
      case "min":
      case "max":
        if (a.elem.t === "tuple") return copyTupleBytes(cx, a.elem, s.get(), minMaxDefault(cx, a));
        return storeValue(cx, a.elem, s.get(), minMaxDefault(cx, a));
      case "avg":
        return m.seq(m.store("f64", s.get(), m.f64(0)), m.store("i64", s.get(), m.i64(0), 8));
      case "and":
        return m.store("i32", s.get(), m.i32(1));
      case "or":
        return m.store("i32", s.get(), m.i32(0));
      case "bitand":
        return m.store("i64", s.get(), m.i64(-1));
      case "bitor":
        return m.store("i64", s.get(), m.i64(0));
      default:
        return m.store("i32", s.get(), m.i32(0));
    }
  });
  return m.call(name, [state], "none");
}

/** The container of a collection state, created on first need. */
export function containerOf(cx: EmitContext, a: IrAccum, state: Expr): Expr {
  const m = cx.m;
  const name = cx.helper(`acc_container_${accumTag(a)}`, [{ name: "s", type: "i32" }], "i32", (f) => {
    const s = f.param(0);
    return [
      m.if(m.eqz("i32", m.load("i32", s.get())), m.store("i32", s.get(), newContainer(cx, a))),
      m.load("i32", s.get()),
    ];
  });
  return m.call(name, [state], "i32");
}

/** A new empty container for a collection accumulator (heaps unbounded; arrays empty). */
export function newContainer(cx: EmitContext, a: IrAccum): Expr {
  const m = cx.m;
  switch (a.a) {
    case "list":
      return listNew(cx);
    case "set":
      return htNew(cx, 0);
    case "bag":
      return htNew(cx, 8);
    case "map":
      return htNew(cx, accumSize(a.value));
    case "groupby":
      return htNew(cx, groupByOffsets(a).size);
    case "heap":
      return heapNew(cx, m.i32(-1));
    default:
      return m.i32(0);
  }
}

/** Reads a state: the value for scalar accumulators, the container address (maybe 0) for collections. */
export function accumRead(cx: EmitContext, a: IrAccum, state: Expr): Expr {
  const m = cx.m;
  const tuple = inlineTuple(a);
  if (tuple) {
    const name = cx.helper(`acc_read_${accumTag(a)}`, [{ name: "s", type: "i32" }], "i32", (f) => {
      const p = f.local("i32", "p");
      return [p.set(alloc(cx, m.i32(tupleLayout(tuple).size))), copyTupleBytes(cx, tuple, p.get(), f.param(0).get()), p.get()];
    });
    return m.call(name, [state], "i32");
  }
  switch (a.a) {
    case "sum":
    case "min":
    case "max":
    case "replace":
      return loadValue(cx, a.elem, state);
    case "avg": {
      const name = cx.helper("acc_read_avg", [{ name: "s", type: "i32" }], "f64", (f) => {
        const s = f.param(0);
        const n = f.local("i64", "n");
        return [
          n.set(m.load("i64", s.get(), 8)),
          m.if(m.eqz("i64", n.get()), m.f64(0), m.div("f64", m.load("f64", s.get()), m.convert("i64", "f64", n.get()))),
        ];
      });
      return m.call(name, [state], "f64");
    }
    case "and":
    case "or":
      return m.load("i32", state);
    case "bitand":
    case "bitor":
      return m.load("i64", state);
    default:
      return m.load("i32", state);
  }
}

/**
 * `state += value` where `value` has type `vt`: an element, an entry `(k -> v)` (given as
 * its parts: see accumulateEntry), or a whole collection of elements.
 */
export function accumAdd(cx: EmitContext, a: IrAccum, state: Expr, value: Expr, vt: IrType): Expr {
  const m = cx.m;
  // A collection operand adds its elements, unless it is itself the element type (nested lists).
  const hasElements = a.a === "list" || a.a === "set" || a.a === "bag" || a.a === "map" || a.a === "heap";
  if (hasElements && vt.t === "accum" && isCollectionAccum(vt.accum) && !sameIrType(vt, elementType(a))) return accumAddAll(cx, a, state, value, vt);
  const vwt = wasmType(vt);
  const name = cx.helper(`acc_add_${accumTag(a)}`, [{ name: "s", type: "i32" }, { name: "v", type: vwt }], "none", (f) => {
    const [s, v] = [f.param(0), f.param(1)];
    switch (a.a) {
      case "sum":
        if (a.elem.t === "scalar" && a.elem.name === "STRING") return m.store("i64", s.get(), strConcat(cx, m.load("i64", s.get()), v.get()));
        return storeValue(cx, a.elem, s.get(), m.add(wasmType(a.elem), loadValue(cx, a.elem, s.get()), v.get()));
      case "min":
      case "max": {
        if (a.elem.t === "tuple") {
          const c = cmpValue(cx, a.elem, v.get(), s.get());
          return m.if(a.a === "min" ? m.lt("i32", c, m.i32(0)) : m.gt("i32", c, m.i32(0)), copyTupleBytes(cx, a.elem, s.get(), v.get()));
        }
        const cur = f.local(wasmType(a.elem), "cur");
        const c = cmpValue(cx, a.elem, v.get(), cur.get());
        let better = a.a === "min" ? m.lt("i32", c, m.i32(0)) : m.gt("i32", c, m.i32(0));
        // An unknown vertex (-1) in a MaxAccum<VERTEX> ranks below every vertex.
        if (a.a === "max" && a.elem.t === "vertex") better = m.or("i32", better, m.eq("i32", cur.get(), m.i32(-1)));
        if (a.a === "min" && a.elem.t === "vertex") better = m.and("i32", better, m.ne("i32", v.get(), m.i32(-1)));
        return [cur.set(loadValue(cx, a.elem, s.get())), m.if(better, storeValue(cx, a.elem, s.get(), v.get()))];
      }
      case "replace":
        return storeValue(cx, a.elem, s.get(), v.get());
      case "avg":
        return m.seq(
          m.store("f64", s.get(), m.add("f64", m.load("f64", s.get()), v.get())),
          m.store("i64", s.get(), m.add("i64", m.load("i64", s.get(), 8), m.i64(1)), 8),
        );
      case "and":
        return m.store("i32", s.get(), m.and("i32", m.load("i32", s.get()), v.get()));
      case "or":
        return m.store("i32", s.get(), m.or("i32", m.load("i32", s.get()), v.get()));
      case "bitand":
        return m.store("i64", s.get(), m.and("i64", m.load("i64", s.get()), v.get()));
      case "bitor":
        return m.store("i64", s.get(), m.or("i64", m.load("i64", s.get()), v.get()));
      case "list":
        return listPush(cx, a.elem, containerOf(cx, a, s.get()), v.get());
      case "set":
        return m.drop(htInsert(cx, a.elem, containerOf(cx, a, s.get()), v.get()));
      case "bag": {
        const e = f.local("i32", "e");
        return [e.set(htInsert(cx, a.elem, containerOf(cx, a, s.get()), v.get())), m.store("i64", e.get(), m.add("i64", m.load("i64", e.get(), Entry.value), m.i64(1)), Entry.value)];
      }
      case "heap":
        return heapPush(cx, a, containerOf(cx, a, s.get()), v.get());
      default:
        throw new Error(`cannot accumulate a single value into ${a.a}`);
    }
  });
  return m.call(name, [state, value], "none");
}

/**
 * `state += value` / `state = value` written inline (no helper call) for the scalar
 * accumulators the hot loops of graph algorithms use; undefined when not inlinable.
 * `state` gives a fresh address expression per call.
 */
export function accumWriteInline(cx: EmitContext, f: FunctionScope, a: IrAccum, state: () => Expr, value: Expr, vt: IrType, assign: boolean): Expr | undefined {
  const m = cx.m;
  const numeric = (t: IrType) => t.t === "scalar" && t.name !== "STRING" && t.name !== "BOOL" && t.name !== "DATETIME";
  switch (a.a) {
    case "sum":
    case "replace": {
      if (!numeric(a.elem) || !sameIrType(a.elem, vt)) return undefined;
      const w = wasmType(a.elem);
      return m.store(w, state(), assign || a.a === "replace" ? value : m.add(w, m.load(w, state()), value));
    }
    case "min":
    case "max": {
      if (!numeric(a.elem) || !sameIrType(a.elem, vt)) return undefined;
      const w = wasmType(a.elem);
      if (assign) return m.store(w, state(), value);
      const v = f.local(w, "mv");
      const unsigned = a.elem.t === "scalar" && a.elem.name === "UINT";
      const better = a.a === "min" ? m.lt(w, v.get(), m.load(w, state()), unsigned) : m.gt(w, v.get(), m.load(w, state()), unsigned);
      return m.seq(v.set(value), m.if(better, m.store(w, state(), v.get())));
    }
    case "or":
    case "and":
      if (assign) return m.store("i32", state(), value);
      return m.store("i32", state(), a.a === "or" ? m.or("i32", m.load("i32", state()), value) : m.and("i32", m.load("i32", state()), value));
    default:
      return undefined;
  }
}

/** Numbers a SumAccum adds with one wasm add (not STRING, BOOL or DATETIME). */
function numericScalar(t: IrType): boolean {
  return t.t === "scalar" && t.name !== "STRING" && t.name !== "BOOL" && t.name !== "DATETIME";
}

/** `map += (k -> v)` and `groupBy += (k1, k2 -> v1, v2)`: keys and values already evaluated. */
export function accumulateEntry(cx: EmitContext, a: IrAccum, state: Expr, keys: { expr: Expr; type: IrType }[], values: { expr: Expr; type: IrType }[]): Expr {
  const m = cx.m;
  if (a.a === "map") {
    const vt = values[0].type;
    if (a.value.a === "sum" && numericScalar(a.value.elem) && sameIrType(a.value.elem, vt)) {
      // a map of numeric sums (per-key weights, counts): one fused lookup-or-insert-and-add
      const num = a.value.elem;
      const fused = cx.helper(
        `acc_entry_${accumTag(a)}_${typeTag(vt)}`,
        [
          { name: "s", type: "i32" },
          { name: "k", type: wasmType(a.key) },
          { name: "v", type: wasmType(vt) },
        ],
        "none",
        (f) => htAddNumber(cx, a.key, num, containerOf(cx, a, f.param(0).get()), f.param(1).get(), f.param(2).get()),
      );
      return m.call(fused, [state, keys[0].expr, values[0].expr], "none");
    }
    const name = cx.helper(
      `acc_entry_${accumTag(a)}_${typeTag(vt)}`,
      [
        { name: "s", type: "i32" },
        { name: "k", type: wasmType(a.key) },
        { name: "v", type: wasmType(vt) },
      ],
      "none",
      (f) => {
        const e = f.local("i32", "e");
        return [
          e.set(htInsert(cx, a.key, containerOf(cx, a, f.param(0).get()), f.param(1).get())),
          m.if(m.globalGet(HT_INSERTED, "i32"), accumInit(cx, a.value, m.add("i32", e.get(), m.i32(Entry.value)))),
          accumAdd(cx, a.value, m.add("i32", e.get(), m.i32(Entry.value)), f.param(2).get(), vt),
        ];
      },
    );
    return m.call(name, [state, keys[0].expr, values[0].expr], "none");
  }
  if (a.a === "groupby") {
    const keyTuple = groupByKeyTuple(a);
    const { offsets } = groupByOffsets(a);
    const params = [
      { name: "s", type: "i32" as const },
      ...keys.map((k, i) => ({ name: `k${i}`, type: wasmType(k.type) })),
      ...values.map((v, i) => ({ name: `v${i}`, type: wasmType(v.type) })),
    ];
    const name = cx.helper(`acc_entry_${accumTag(a)}_${values.map((v) => typeTag(v.type)).join("_")}`, params, "none", (f) => {
      const e = f.local("i32", "e");
      const key = makeTuple(cx, keyTuple, keys.map((_, i) => f.param(1 + i).get()));
      return [
        e.set(htInsert(cx, keyTuple, containerOf(cx, a, f.param(0).get()), key)),
        m.if(m.globalGet(HT_INSERTED, "i32"), m.seq(...a.values.map((v, i) => accumInit(cx, v.accum, m.add("i32", e.get(), m.i32(Entry.value + offsets[i])))))),
        ...a.values.map((v, i) => accumAdd(cx, v.accum, m.add("i32", e.get(), m.i32(Entry.value + offsets[i])), f.param(1 + keys.length + i).get(), values[i].type)),
      ];
    });
    return m.call(name, [state, ...keys.map((k) => k.expr), ...values.map((v) => v.expr)], "none");
  }
  throw new Error(`an entry (k -> v) cannot be added to ${a.a}`);
}

/** `state += collection`: every element of a list/set/bag (bag: with its count), or every entry of a map. */
function accumAddAll(cx: EmitContext, a: IrAccum, state: Expr, value: Expr, vt: IrType): Expr {
  const m = cx.m;
  if (vt.t !== "accum") throw new Error("not a collection");
  const src = vt.accum;
  const name = cx.helper(`acc_addall_${accumTag(a)}_${accumTag(src)}`, [{ name: "s", type: "i32" }, { name: "c", type: "i32" }], "none", (f) => {
    const [s, c] = [f.param(0), f.param(1)];
    return collectionForEach(cx, f, src, c.get(), (item) => {
      if (src.a === "map" && a.a === "map") {
        return [accumulateEntryFromState(cx, a, s.get(), item)];
      }
      return [accumAdd(cx, a, s.get(), item.element!(), elementType(src))];
    });
  });
  return m.call(name, [state, value], "none");
}

/** Folds one source map entry into a map state: key, then the entry's value read as a value. */
function accumulateEntryFromState(cx: EmitContext, a: Extract<IrAccum, { a: "map" }>, state: Expr, item: CollectionItem): Expr {
  const src = item.map!;
  return accumulateEntry(cx, a, state, [{ expr: item.key!(), type: src.key }], [{ expr: accumRead(cx, src.value, item.valueState!()), type: accumValueType(src.value) }]);
}

/** The element type of a list/set/bag (or the key type of a map). */
export function elementType(a: IrAccum): IrType {
  switch (a.a) {
    case "list":
    case "set":
    case "bag":
      return a.elem;
    case "map":
      return a.key;
    case "heap":
      return a.tuple;
    default:
      throw new Error(`${a.a} has no elements`);
  }
}

/** One visited element of a collection. */
export interface CollectionItem {
  /** The element (list/set/bag/heap), fresh expression per call. */
  element?: () => Expr;
  /** Map entries: the key and the address of the value state. */
  key?: () => Expr;
  valueState?: () => Expr;
  map?: Extract<IrAccum, { a: "map" }>;
  /** GroupBy entries: the key tuple and the value part's address. */
  entry?: () => Expr;
}

/**
 * Loops over a collection value (`container` may be 0: empty), visiting bag elements as
 * many times as they were added. Lists in order, sets and maps in insertion order, heaps in
 * storage order.
 */
export function collectionForEach(
  cx: EmitContext,
  f: FunctionScope,
  a: IrAccum,
  container: Expr,
  body: (item: CollectionItem, labels: LoopLabels) => Expr[],
): Expr {
  const m = cx.m;
  switch (a.a) {
    case "list": {
      const l = f.local("i32", "lst");
      const i = f.local("i32", "li");
      return m.seq(
        l.set(container),
        m.if(
          l.get(),
          f.forRange(i, m.i32(0), listLength(cx, l.get()), (labels) => body({ element: () => loadValue(cx, a.elem, listElementAddress(cx, a.elem, l.get(), i.get())) }, labels)),
        ),
      );
    }
    case "set":
      return htForEach(cx, f, container, (e, labels) => body({ element: () => loadValue(cx, a.elem, e.get(), Entry.key) }, labels));
    case "bag": {
      const k = f.local("i64", "copies");
      return htForEach(cx, f, container, (e, labels) => [
        k.set(m.load("i64", e.get(), Entry.value)),
        // every copy of the element; BREAK leaves the whole loop, CONTINUE goes to the next copy
        f.whileLoop(
          () => m.gt("i64", k.get(), m.i64(0)),
          (inner) => [k.set(m.sub("i64", k.get(), m.i64(1))), ...body({ element: () => loadValue(cx, a.elem, e.get(), Entry.key) }, { exit: labels.exit, next: inner.next })],
        ),
      ]);
    }
    case "map":
      return htForEach(cx, f, container, (e, labels) =>
        body({ key: () => loadValue(cx, a.key, e.get(), Entry.key), valueState: () => m.add("i32", e.get(), m.i32(Entry.value)), map: a }, labels),
      );
    case "groupby":
      return htForEach(cx, f, container, (e, labels) => body({ entry: () => e.get() }, labels));
    case "heap": {
      // in storage order (not ranked): for copying a heap's tuples into another
      const h = f.local("i32", "hp");
      const i = f.local("i32", "hi");
      return m.seq(
        h.set(container),
        m.if(
          h.get(),
          f.forRange(i, m.i32(0), heapLength(cx, h.get()), (labels) =>
            body({ element: () => m.load("i32", m.add("i32", m.load("i32", h.get(), HeapHeader.data), m.shl("i32", i.get(), m.i32(2)))) }, labels),
          ),
        ),
      );
    }
    default:
      throw new Error(`cannot iterate over ${a.a}`);
  }
}

/** Number of elements (bags count every copy; maps and groupbys count keys). */
export function collectionSize(cx: EmitContext, a: IrAccum, container: Expr): Expr {
  const m = cx.m;
  switch (a.a) {
    case "list": {
      const name = cx.helper("list_size", [{ name: "l", type: "i32" }], "i32", (f) => m.if(m.eqz("i32", f.param(0).get()), m.i32(0), listLength(cx, f.param(0).get())));
      return m.call(name, [container], "i32");
    }
    case "bag": {
      const name = cx.helper("bag_size", [{ name: "b", type: "i32" }], "i32", (f) => {
        const n = f.local("i64", "n");
        return [htForEach(cx, f, f.param(0).get(), (e) => [n.set(m.add("i64", n.get(), m.load("i64", e.get(), Entry.value)))]), m.convert("i64", "i32", n.get())];
      });
      return m.call(name, [container], "i32");
    }
    case "heap":
      return heapLength(cx, container);
    case "set":
    case "map":
    case "groupby":
      return htCount(cx, container);
    default:
      throw new Error(`${a.a} has no size`);
  }
}

/**
 * Empties a collection state (keeps its container). `release`: a large hash table's buffers
 * go back to the run's free lists (`.clear()` in a query) instead of staying with it for
 * the refill that follows (assignment, reset).
 */
export function collectionClear(cx: EmitContext, a: IrAccum, container: Expr, release = false): Expr {
  switch (a.a) {
    case "list":
      return listClear(cx, container);
    case "set":
    case "bag":
    case "map":
    case "groupby":
      return release ? htRelease(cx, container) : htClear(cx, container);
    case "heap": {
      const m = cx.m;
      const name = cx.helper("heap_clear_state", [{ name: "h", type: "i32" }], "none", (f) => m.if(f.param(0).get(), m.store("i32", f.param(0).get(), m.i32(0))));
      return m.call(name, [container], "none");
    }
    default:
      throw new Error(`${a.a} cannot be cleared`);
  }
}

/** `state = value`: scalars are replaced (Avg restarts with count 1); collections are emptied, then filled. */
export function accumAssign(cx: EmitContext, a: IrAccum, state: Expr, value: Expr, vt: IrType): Expr {
  const m = cx.m;
  const name = cx.helper(`acc_assign_${accumTag(a)}_${typeTag(vt)}`, [{ name: "s", type: "i32" }, { name: "v", type: wasmType(vt) }], "none", (f) => {
    const [s, v] = [f.param(0), f.param(1)];
    switch (a.a) {
      case "avg":
        return m.seq(m.store("f64", s.get(), v.get()), m.store("i64", s.get(), m.i64(1), 8));
      case "min":
      case "max":
        if (a.elem.t === "tuple") return copyTupleBytes(cx, a.elem, s.get(), v.get());
        return storeValue(cx, a.elem, s.get(), v.get());
      case "sum":
      case "replace":
        return storeValue(cx, a.elem, s.get(), v.get());
      case "and":
      case "or":
        return m.store("i32", s.get(), v.get());
      case "bitand":
      case "bitor":
        return m.store("i64", s.get(), v.get());
      case "groupby":
        return groupByAssign(cx, a, s.get(), v.get());
      case "array":
        return arrayAssign(cx, a, s.get(), v.get());
      default: {
        const clear = m.if(m.load("i32", s.get()), collectionClear(cx, a, m.load("i32", s.get())));
        // `@list = x` with an element: the collection becomes just that element.
        if (!(vt.t === "accum" && isCollectionAccum(vt.accum))) return m.seq(clear, accumAdd(cx, a, s.get(), v.get(), vt));
        // Assigning a collection to itself keeps it.
        const same = m.eq("i32", m.load("i32", s.get()), v.get());
        return m.if(m.eqz("i32", same), m.seq(clear, accumAdd(cx, a, s.get(), f.param(1).get(), vt)));
      }
    }
  });
  return m.call(name, [state, value], "none");
}

/** Whether a fresh state of `a` is all zero bytes (so zeroed memory needs no initialising). */
export function zeroDefault(a: IrAccum): boolean {
  switch (a.a) {
    case "min":
    case "max":
    case "and":
    case "bitand":
      return false;
    case "replace":
    case "sum":
      return a.elem.t !== "vertex" && a.elem.t !== "tuple";
    default:
      return true;
  }
}

/**
 * Allocates `count` states and initialises them, in the current function: each state gets
 * `init(state)` when given, else the type's default.
 */
export function allocStates(cx: EmitContext, f: FunctionScope, a: IrAccum, count: Expr, init?: (state: Local) => Expr): Expr {
  const m = cx.m;
  const p = f.local("i32", "states");
  const n = f.local("i32", "n");
  const i = f.local("i32", "i");
  const s = f.local("i32", "s");
  const fill = init !== undefined || !zeroDefault(a);
  return m.block(
    null,
    [
      n.set(count),
      p.set(allocZeroed(cx, m.mul("i32", n.get(), m.i32(accumSize(a))))),
      fill
        ? f.forRange(i, m.i32(0), n.get(), () => [s.set(m.add("i32", p.get(), m.mul("i32", i.get(), m.i32(accumSize(a))))), init ? init(s) : accumInit(cx, a, s.get())])
        : m.nop(),
      p.get(),
    ],
    "i32",
  );
}
