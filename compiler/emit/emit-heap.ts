// HeapAccum in linear memory: a binary heap of tuple addresses ordered by the declared sort
// keys. Without a capacity the best tuple is at the root (top/pop in O(log n)); with one,
// the worst is at the root so a better newcomer evicts it in O(log k), and top/pop look for
// the best among the k kept. Printing and iteration use a sorted copy, best first.
//
//   header  [len, buffer capacity, data, limit (-1: none)]
import type { IrAccum, IrTupleType } from "../ir/types.js";
import type { EmitContext } from "./context.js";
import { alloc, allocBuffer, freeBuffer } from "./emit-arena.js";
import { cmpValue, defaultValue, loadValue, tupleLayout } from "./emit-values.js";
import type { Expr, FunctionScope, Local } from "./module.js";
import { typeTag } from "./wasm-types.js";

export const HeapHeader = { len: 0, cap: 4, data: 8, limit: 12, size: 16 } as const;

type HeapAccum = Extract<IrAccum, { a: "heap" }>;

function heapTag(h: HeapAccum): string {
  return `${typeTag(h.tuple)}_${h.keys.map((k) => `${k.field}${k.desc ? "d" : "a"}`).join("")}`;
}

/** Negative when tuple a ranks before tuple b by the heap's sort keys. */
function rankCompare(cx: EmitContext, h: HeapAccum): string {
  const m = cx.m;
  const layout = tupleLayout(h.tuple);
  return cx.helper(`heap_rank_${heapTag(h)}`, [{ name: "a", type: "i32" }, { name: "b", type: "i32" }], "i32", (f) => {
    const c = f.local("i32", "c");
    const field = (p: Expr, i: number) => loadValue(cx, h.tuple.fields[i].type, p, layout.offsets[i]);
    return [
      ...h.keys.map((k) =>
        m.seq(
          c.set(cmpValue(cx, h.tuple.fields[k.field].type, field(f.param(0).get(), k.field), field(f.param(1).get(), k.field))),
          m.if(c.get(), m.return(k.desc ? m.sub("i32", m.i32(0), c.get()) : c.get())),
        ),
      ),
      m.i32(0),
    ];
  });
}

/** 1 when tuple a must sit above tuple b: the better one rises when unbounded, the worse one when bounded. */
function above(cx: EmitContext, h: HeapAccum, heap: Local, a: Expr, b: Expr): Expr {
  const m = cx.m;
  const name = cx.helper(`heap_above_${heapTag(h)}`, [{ name: "h", type: "i32" }, { name: "a", type: "i32" }, { name: "b", type: "i32" }], "i32", (f) => {
    const c = f.local("i32", "c");
    return [
      c.set(m.call(rankCompare(cx, h), [f.param(1).get(), f.param(2).get()], "i32")),
      m.select(m.lt("i32", m.load("i32", f.param(0).get(), HeapHeader.limit), m.i32(0)), m.lt("i32", c.get(), m.i32(0)), m.gt("i32", c.get(), m.i32(0))),
    ];
  });
  return m.call(name, [heap.get(), a, b], "i32");
}

function slot(cx: EmitContext, heap: Local, i: Expr): Expr {
  const m = cx.m;
  return m.add("i32", m.load("i32", heap.get(), HeapHeader.data), m.shl("i32", i, m.i32(2)));
}

function siftUp(cx: EmitContext, h: HeapAccum): string {
  const m = cx.m;
  return cx.helper(`heap_up_${heapTag(h)}`, [{ name: "h", type: "i32" }, { name: "i", type: "i32" }], "none", (f) => {
    const [heap, i] = [f.param(0), f.param(1)];
    const parent = f.local("i32", "parent");
    const tmp = f.local("i32", "tmp");
    return f.whileLoop(
      () => m.gt("i32", i.get(), m.i32(0)),
      (l) => [
        parent.set(m.shr("i32", m.sub("i32", i.get(), m.i32(1)), m.i32(1), true)),
        m.brIf(l.exit, m.eqz("i32", above(cx, h, heap, m.load("i32", slot(cx, heap, i.get())), m.load("i32", slot(cx, heap, parent.get()))))),
        tmp.set(m.load("i32", slot(cx, heap, i.get()))),
        m.store("i32", slot(cx, heap, i.get()), m.load("i32", slot(cx, heap, parent.get()))),
        m.store("i32", slot(cx, heap, parent.get()), tmp.get()),
        i.set(parent.get()),
      ],
    );
  });
}

function siftDown(cx: EmitContext, h: HeapAccum): string {
  const m = cx.m;
  return cx.helper(`heap_down_${heapTag(h)}`, [{ name: "h", type: "i32" }, { name: "i", type: "i32" }], "none", (f) => {
    const [heap, i] = [f.param(0), f.param(1)];
    const len = f.local("i32", "len");
    const child = f.local("i32", "child");
    const tmp = f.local("i32", "tmp");
    const at = (k: Expr) => m.load("i32", slot(cx, heap, k));
    return [
      len.set(m.load("i32", heap.get(), HeapHeader.len)),
      f.whileLoop(
        () => m.lt("i32", m.add("i32", m.shl("i32", i.get(), m.i32(1)), m.i32(1)), len.get(), true),
        (l) => [
          child.set(m.add("i32", m.shl("i32", i.get(), m.i32(1)), m.i32(1))),
          m.if(
            // the right child's slot is read only when it exists (memory past `len` is not initialised)
            m.if(m.lt("i32", m.add("i32", child.get(), m.i32(1)), len.get(), true), above(cx, h, heap, at(m.add("i32", child.get(), m.i32(1))), at(child.get())), m.i32(0)),
            child.set(m.add("i32", child.get(), m.i32(1))),
          ),
          m.brIf(l.exit, m.eqz("i32", above(cx, h, heap, at(child.get()), at(i.get())))),
          tmp.set(at(i.get())),
          m.store("i32", slot(cx, heap, i.get()), at(child.get())),
          m.store("i32", slot(cx, heap, child.get()), tmp.get()),
          i.set(child.get()),
        ],
      ),
    ];
  });
}

/** A new empty heap keeping at most `limit` tuples (-1: unbounded). */
export function heapNew(cx: EmitContext, limit: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("heap_new", [{ name: "limit", type: "i32" }], "i32", (f) => {
    const p = f.local("i32", "p");
    return [
      p.set(alloc(cx, m.i32(HeapHeader.size))),
      m.memoryFill(p.get(), m.i32(0), m.i32(HeapHeader.size)),
      m.store("i32", p.get(), f.param(0).get(), HeapHeader.limit),
      p.get(),
    ];
  });
  return m.call(name, [limit], "i32");
}

/** Adds a tuple (address), evicting the worst when the heap is at its capacity. */
export function heapPush(cx: EmitContext, h: HeapAccum, heap: Expr, tuple: Expr): Expr {
  const m = cx.m;
  const name = cx.helper(`heap_push_${heapTag(h)}`, [{ name: "h", type: "i32" }, { name: "t", type: "i32" }], "none", (f) => {
    const [hp, t] = [f.param(0), f.param(1)];
    const len = f.local("i32", "len");
    const cap = f.local("i32", "cap");
    const data = f.local("i32", "data");
    const limit = f.local("i32", "limit");
    return [
      len.set(m.load("i32", hp.get(), HeapHeader.len)),
      limit.set(m.load("i32", hp.get(), HeapHeader.limit)),
      m.if(m.eqz("i32", limit.get()), m.return()),
      // full bounded heap: replace the worst (the root) if the newcomer ranks above it
      m.if(
        m.and("i32", m.ge("i32", limit.get(), m.i32(0)), m.ge("i32", len.get(), limit.get())),
        m.seq(
          m.if(
            m.lt("i32", m.call(rankCompare(cx, h), [t.get(), m.load("i32", slot(cx, hp, m.i32(0)))], "i32"), m.i32(0)),
            m.seq(m.store("i32", slot(cx, hp, m.i32(0)), t.get()), m.call(siftDown(cx, h), [hp.get(), m.i32(0)], "none")),
          ),
          m.return(),
        ),
      ),
      m.if(
        m.eq("i32", len.get(), m.load("i32", hp.get(), HeapHeader.cap)),
        m.seq(
          cap.set(m.select(m.eqz("i32", len.get()), m.i32(8), m.shl("i32", len.get(), m.i32(1)))),
          data.set(allocBuffer(cx, m.shl("i32", cap.get(), m.i32(2)))),
          m.memoryCopy(data.get(), m.load("i32", hp.get(), HeapHeader.data), m.shl("i32", len.get(), m.i32(2))),
          m.if(len.get(), freeBuffer(cx, m.load("i32", hp.get(), HeapHeader.data), m.shl("i32", len.get(), m.i32(2)))),
          m.store("i32", hp.get(), data.get(), HeapHeader.data),
          m.store("i32", hp.get(), cap.get(), HeapHeader.cap),
        ),
      ),
      m.store("i32", slot(cx, hp, len.get()), t.get()),
      m.store("i32", hp.get(), m.add("i32", len.get(), m.i32(1)), HeapHeader.len),
      m.call(siftUp(cx, h), [hp.get(), len.get()], "none"),
    ];
  });
  return m.call(name, [heap, tuple], "none");
}

/** Index of the best tuple: the root when unbounded, else found by a scan of the k kept. */
function bestIndex(cx: EmitContext, h: HeapAccum, f: FunctionScope, hp: Local): Expr[] {
  const m = cx.m;
  const best = f.local("i32", "best");
  const i = f.local("i32", "i");
  return [
    best.set(m.i32(0)),
    m.if(
      m.ge("i32", m.load("i32", hp.get(), HeapHeader.limit), m.i32(0)),
      f.forRange(i, m.i32(1), m.load("i32", hp.get(), HeapHeader.len), () => [
        m.if(m.lt("i32", m.call(rankCompare(cx, h), [m.load("i32", slot(cx, hp, i.get())), m.load("i32", slot(cx, hp, best.get()))], "i32"), m.i32(0)), best.set(i.get())),
      ]),
    ),
    best.get(),
  ];
}

/** The best tuple, or the all-defaults tuple when empty (`heap` may be 0). */
export function heapTop(cx: EmitContext, h: HeapAccum, heap: Expr): Expr {
  const m = cx.m;
  const name = cx.helper(`heap_top_${heapTag(h)}`, [{ name: "h", type: "i32" }], "i32", (f) => {
    const hp = f.param(0);
    return [
      m.if(m.or("i32", m.eqz("i32", hp.get()), m.eqz("i32", m.load("i32", hp.get(), HeapHeader.len))), m.return(defaultValue(cx, h.tuple))),
      m.load("i32", slot(cx, hp, m.block(null, bestIndex(cx, h, f, hp), "i32"))),
    ];
  });
  return m.call(name, [heap], "i32");
}

/** Removes and returns the best tuple (defaults when empty). */
export function heapPop(cx: EmitContext, h: HeapAccum, heap: Expr): Expr {
  const m = cx.m;
  const name = cx.helper(`heap_pop_${heapTag(h)}`, [{ name: "h", type: "i32" }], "i32", (f) => {
    const hp = f.param(0);
    const at = f.local("i32", "at");
    const top = f.local("i32", "top");
    const last = f.local("i32", "last");
    return [
      m.if(m.or("i32", m.eqz("i32", hp.get()), m.eqz("i32", m.load("i32", hp.get(), HeapHeader.len))), m.return(defaultValue(cx, h.tuple))),
      at.set(m.block(null, bestIndex(cx, h, f, hp), "i32")),
      top.set(m.load("i32", slot(cx, hp, at.get()))),
      last.set(m.sub("i32", m.load("i32", hp.get(), HeapHeader.len), m.i32(1))),
      m.store("i32", slot(cx, hp, at.get()), m.load("i32", slot(cx, hp, last.get()))),
      m.store("i32", hp.get(), last.get(), HeapHeader.len),
      m.if(
        m.lt("i32", at.get(), last.get(), true),
        m.seq(m.call(siftDown(cx, h), [hp.get(), at.get()], "none"), m.call(siftUp(cx, h), [hp.get(), at.get()], "none")),
      ),
      top.get(),
    ];
  });
  return m.call(name, [heap], "i32");
}

/** resize(n): a new capacity; shrinking drops the worst tuples. */
export function heapResize(cx: EmitContext, h: HeapAccum, heap: Expr, limit: Expr): Expr {
  const m = cx.m;
  const name = cx.helper(`heap_resize_${heapTag(h)}`, [{ name: "h", type: "i32" }, { name: "n", type: "i32" }], "none", (f) => {
    const [hp, n] = [f.param(0), f.param(1)];
    const sorted = f.local("i32", "sorted");
    const len = f.local("i32", "len");
    const i = f.local("i32", "i");
    return [
      // rebuild from the sorted tuples: keeps the best n, in the order of the new mode
      sorted.set(heapSorted(cx, h, hp.get())),
      len.set(m.load("i32", hp.get(), HeapHeader.len)),
      m.store("i32", hp.get(), m.i32(0), HeapHeader.len),
      m.store("i32", hp.get(), n.get(), HeapHeader.limit),
      f.forRange(i, m.i32(0), len.get(), () => [heapPush(cx, h, hp.get(), m.load("i32", m.add("i32", sorted.get(), m.shl("i32", i.get(), m.i32(2)))))]),
    ];
  });
  return m.call(name, [heap, limit], "none");
}

/**
 * A fresh array of the heap's tuple addresses sorted best first (length = the heap's len),
 * for printing and iteration. Insertion sort on a copy: heaps printed are small.
 */
export function heapSorted(cx: EmitContext, h: HeapAccum, heap: Expr): Expr {
  const m = cx.m;
  const name = cx.helper(`heap_sorted_${heapTag(h)}`, [{ name: "h", type: "i32" }], "i32", (f) => {
    const hp = f.param(0);
    const out = f.local("i32", "out");
    const len = f.local("i32", "len");
    const i = f.local("i32", "i");
    const j = f.local("i32", "j");
    const x = f.local("i32", "x");
    const at = (k: Expr) => m.add("i32", out.get(), m.shl("i32", k, m.i32(2)));
    return [
      len.set(m.load("i32", hp.get(), HeapHeader.len)),
      out.set(alloc(cx, m.shl("i32", m.add("i32", len.get(), m.i32(1)), m.i32(2)))),
      m.memoryCopy(out.get(), m.load("i32", hp.get(), HeapHeader.data), m.shl("i32", len.get(), m.i32(2))),
      f.forRange(i, m.i32(1), len.get(), () => [
        x.set(m.load("i32", at(i.get()))),
        j.set(i.get()),
        f.whileLoop(
          // slot j - 1 is read only when j > 0
          () => m.if(m.gt("i32", j.get(), m.i32(0)), m.lt("i32", m.call(rankCompare(cx, h), [x.get(), m.load("i32", at(m.sub("i32", j.get(), m.i32(1))))], "i32"), m.i32(0)), m.i32(0)),
          () => [m.store("i32", at(j.get()), m.load("i32", at(m.sub("i32", j.get(), m.i32(1))))), j.set(m.sub("i32", j.get(), m.i32(1)))],
        ),
        m.store("i32", at(j.get()), x.get()),
      ]),
      out.get(),
    ];
  });
  return m.call(name, [heap], "i32");
}

export function heapLength(cx: EmitContext, heap: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("heap_len", [{ name: "h", type: "i32" }], "i32", (f) =>
    m.if(m.eqz("i32", f.param(0).get()), m.i32(0), m.load("i32", f.param(0).get(), HeapHeader.len)),
  );
  return m.call(name, [heap], "i32");
}

export function heapClear(cx: EmitContext, heap: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("heap_clear", [{ name: "h", type: "i32" }], "none", (f) =>
    m.if(f.param(0).get(), m.store("i32", f.param(0).get(), m.i32(0), HeapHeader.len)),
  );
  return m.call(name, [heap], "none");
}

export type { IrTupleType };
