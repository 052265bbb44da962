// Vertex sets: a bitmap over the snapshot's vertex ids plus a count, and, for the result of
// an ordered SELECT, the list of its vertices in order. Membership, insertion and the set
// operators work on the bitmap (64 vertices per word); iteration scans it word by word, or
// follows the list when the set is ordered.
//
//   header  [count, bitmap, words (u64 words in the bitmap), order list, order length]
import { VERTEX_BLOCK_SHIFT, VT } from "../../runtime-wasm/store/layout.js";
import type { EmitContext } from "./context.js";
import { alloc, allocBuffer, freeBuffer } from "./emit-arena.js";
import { GG } from "./emit-graph.js";
import type { Expr, FunctionScope, Local, LoopLabels } from "./module.js";

export const VS = { count: 0, bitmap: 4, words: 8, order: 12, orderLen: 16, size: 24 } as const;

/** u64 words for the snapshot's vertex id bound. */
function wordsForBound(cx: EmitContext): Expr {
  const m = cx.m;
  return m.shr("i32", m.add("i32", m.globalGet(GG.vidBound, "i32"), m.i32(63)), m.i32(6), true);
}

/** A new empty vertex set. */
export function vsetNew(cx: EmitContext): Expr {
  const m = cx.m;
  const name = cx.helper("vset_new", [], "i32", (f) => {
    const p = f.local("i32", "p");
    const words = f.local("i32", "words");
    return [
      words.set(wordsForBound(cx)),
      p.set(alloc(cx, m.i32(VS.size))),
      m.memoryFill(p.get(), m.i32(0), m.i32(VS.size)),
      m.store("i32", p.get(), words.get(), VS.words),
      m.store("i32", p.get(), allocBuffer(cx, m.add("i32", m.shl("i32", words.get(), m.i32(3)), m.i32(8))), VS.bitmap),
      m.memoryFill(m.load("i32", p.get(), VS.bitmap), m.i32(0), m.shl("i32", words.get(), m.i32(3))),
      p.get(),
    ];
  });
  return m.call(name, [], "i32");
}

/** Gives the set's memory back (the set must not be used afterwards). */
export function vsetFree(cx: EmitContext, set: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("vset_free", [{ name: "s", type: "i32" }], "none", (f) => {
    const s = f.param(0);
    return m.if(
      s.get(),
      m.seq(
        freeBuffer(cx, m.load("i32", s.get(), VS.bitmap), m.add("i32", m.shl("i32", m.load("i32", s.get(), VS.words), m.i32(3)), m.i32(8))),
        m.if(m.load("i32", s.get(), VS.order), freeBuffer(cx, m.load("i32", s.get(), VS.order), m.shl("i32", m.load("i32", s.get(), VS.orderLen), m.i32(2)))),
      ),
    );
  });
  return m.call(name, [set], "none");
}

function wordAddress(cx: EmitContext, set: Expr, vid: Expr): Expr {
  const m = cx.m;
  return m.add("i32", m.load("i32", set, VS.bitmap), m.shl("i32", m.shr("i32", vid, m.i32(6), true), m.i32(3)));
}

function bit(cx: EmitContext, vid: Expr): Expr {
  const m = cx.m;
  return m.shl("i64", m.i64(1), m.convert("i32", "i64", m.and("i32", vid, m.i32(63)), true));
}

/** Adds a vertex; returns 1 when it was not in the set yet. Ignores -1 (no vertex). */
export function vsetAdd(cx: EmitContext, set: Expr, vid: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("vset_add", [{ name: "s", type: "i32" }, { name: "v", type: "i32" }], "i32", (f) => {
    const [s, v] = [f.param(0), f.param(1)];
    const w = f.local("i32", "w");
    const word = f.local("i64", "word");
    const b = f.local("i64", "b");
    return [
      m.if(m.ge("i32", v.get(), m.globalGet(GG.vidBound, "i32"), true), m.return(m.i32(0))),
      w.set(wordAddress(cx, s.get(), v.get())),
      word.set(m.load("i64", w.get())),
      b.set(bit(cx, v.get())),
      m.if(m.ne("i64", m.and("i64", word.get(), b.get()), m.i64(0)), m.return(m.i32(0))),
      m.store("i64", w.get(), m.or("i64", word.get(), b.get())),
      m.store("i32", s.get(), m.add("i32", m.load("i32", s.get(), VS.count), m.i32(1)), VS.count),
      m.i32(1),
    ];
  });
  return m.call(name, [set, vid], "i32");
}

/**
 * `vsetAdd` written out in place (no call: it runs once per matched row in the hot loop of a
 * SELECT), result dropped. `set` and `vid` are read more than once: pass local reads.
 */
export function vsetAddInline(cx: EmitContext, f: FunctionScope, set: () => Expr, vid: () => Expr): Expr {
  const m = cx.m;
  const w = f.local("i32", "vs_w");
  const word = f.local("i64", "vs_word");
  const b = f.local("i64", "vs_bit");
  return m.if(
    m.lt("i32", vid(), m.globalGet(GG.vidBound, "i32"), true),
    m.seq(
      w.set(wordAddress(cx, set(), vid())),
      word.set(m.load("i64", w.get())),
      b.set(bit(cx, vid())),
      m.if(
        m.eqz("i64", m.and("i64", word.get(), b.get())),
        m.seq(m.store("i64", w.get(), m.or("i64", word.get(), b.get())), m.store("i32", set(), m.add("i32", m.load("i32", set(), VS.count), m.i32(1)), VS.count)),
      ),
    ),
  );
}

/** 1 when the vertex is in the set. */
export function vsetHas(cx: EmitContext, set: Expr, vid: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("vset_has", [{ name: "s", type: "i32" }, { name: "v", type: "i32" }], "i32", (f) => {
    const [s, v] = [f.param(0), f.param(1)];
    return m.if(
      m.ge("i32", v.get(), m.shl("i32", m.load("i32", s.get(), VS.words), m.i32(6)), true),
      m.i32(0),
      m.convert("i64", "i32", m.and("i64", m.shr("i64", m.load("i64", wordAddress(cx, s.get(), v.get())), m.convert("i32", "i64", m.and("i32", v.get(), m.i32(63)), true), true), m.i64(1))),
    );
  });
  return m.call(name, [set, vid], "i32");
}

export function vsetCount(cx: EmitContext, set: Expr): Expr {
  return cx.m.load("i32", set, VS.count);
}

/** Empties the set. */
export function vsetClear(cx: EmitContext, set: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("vset_clear", [{ name: "s", type: "i32" }], "none", (f) => {
    const s = f.param(0);
    return [
      m.memoryFill(m.load("i32", s.get(), VS.bitmap), m.i32(0), m.shl("i32", m.load("i32", s.get(), VS.words), m.i32(3))),
      m.store("i32", s.get(), m.i32(0), VS.count),
      m.store("i32", s.get(), m.i32(0), VS.orderLen),
      m.store("i32", s.get(), m.i32(0), VS.order),
    ];
  });
  return m.call(name, [set], "none");
}

/** `op` of two sets into a new set (unordered). */
export function vsetCombine(cx: EmitContext, op: "union" | "intersect" | "minus" | "copy", a: Expr, b: Expr): Expr {
  const m = cx.m;
  const name = cx.helper(`vset_${op}`, [{ name: "a", type: "i32" }, { name: "b", type: "i32" }], "i32", (f) => {
    const [sa, sb] = [f.param(0), f.param(1)];
    const out = f.local("i32", "out");
    const i = f.local("i32", "i");
    const x = f.local("i64", "x");
    const count = f.local("i32", "count");
    const word = (s: Local) => m.load("i64", m.add("i32", m.load("i32", s.get(), VS.bitmap), m.shl("i32", i.get(), m.i32(3))));
    const combined = () => {
      switch (op) {
        case "union":
          return m.or("i64", word(sa), word(sb));
        case "intersect":
          return m.and("i64", word(sa), word(sb));
        case "minus":
          return m.and("i64", word(sa), m.xor("i64", word(sb), m.i64(-1)));
        case "copy":
          return word(sa);
      }
    };
    return [
      out.set(vsetNew(cx)),
      f.forRange(i, m.i32(0), m.load("i32", out.get(), VS.words), () => [
        x.set(combined()),
        m.store("i64", m.add("i32", m.load("i32", out.get(), VS.bitmap), m.shl("i32", i.get(), m.i32(3))), x.get()),
        count.set(m.add("i32", count.get(), m.convert("i64", "i32", m.popcnt("i64", x.get())))),
      ]),
      m.store("i32", out.get(), count.get(), VS.count),
      out.get(),
    ];
  });
  return m.call(name, [a, b], "i32");
}

/** ORs set `b`'s bitmap into set `a` (same vertex id bound) and recounts `a`. */
export function vsetUnionInto(cx: EmitContext, a: Expr, b: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("vset_union_into", [{ name: "a", type: "i32" }, { name: "b", type: "i32" }], "none", (f) => {
    const [sa, sb] = [f.param(0), f.param(1)];
    const i = f.local("i32", "i");
    const x = f.local("i64", "x");
    const count = f.local("i32", "count");
    const word = (s: Local) => m.add("i32", m.load("i32", s.get(), VS.bitmap), m.shl("i32", i.get(), m.i32(3)));
    return [
      f.forRange(i, m.i32(0), m.load("i32", sa.get(), VS.words), () => [
        x.set(m.or("i64", m.load("i64", word(sa)), m.load("i64", word(sb)))),
        m.store("i64", word(sa), x.get()),
        count.set(m.add("i32", count.get(), m.convert("i64", "i32", m.popcnt("i64", x.get())))),
      ]),
      m.store("i32", sa.get(), count.get(), VS.count),
    ];
  });
  return m.call(name, [a, b], "none");
}

/** Adds every live vertex of a type (its type header address; 0 = type absent) to the set. */
export function vsetAddType(cx: EmitContext, set: Expr, typeHeader: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("vset_add_type", [{ name: "s", type: "i32" }, { name: "th", type: "i32" }], "none", (f) => {
    const [s, th] = [f.param(0), f.param(1)];
    const blocks = f.local("i32", "blocks");
    const k = f.local("i32", "k");
    const j = f.local("i32", "j");
    const src = f.local("i32", "src");
    const dst = f.local("i32", "dst");
    const x = f.local("i64", "x");
    const old = f.local("i64", "old");
    // One vertex block is 1024 ids = 16 words; the alive bitmap over local slots has the
    // same 16 words per block, in the type's block order.
    return m.if(
      th.get(),
      m.seq(
        blocks.set(m.shr("i32", m.add("i32", m.load("i32", th.get(), VT.SLOT_COUNT), m.i32((1 << VERTEX_BLOCK_SHIFT) - 1)), m.i32(VERTEX_BLOCK_SHIFT), true)),
        f.forRange(k, m.i32(0), blocks.get(), () => [
          src.set(m.add("i32", m.load("i32", th.get(), VT.ALIVE), m.shl("i32", k.get(), m.i32(VERTEX_BLOCK_SHIFT - 3)))),
          dst.set(
            m.add("i32", m.load("i32", s.get(), VS.bitmap), m.shl("i32", m.load("i32", m.add("i32", m.load("i32", th.get(), VT.BLOCKS), m.shl("i32", k.get(), m.i32(2)))), m.i32(VERTEX_BLOCK_SHIFT - 3))),
          ),
          f.forRange(j, m.i32(0), m.i32(1 << (VERTEX_BLOCK_SHIFT - 6)), () => [
            x.set(aliveWord(cx, th.get(), k.get(), j.get(), src.get())),
            old.set(m.load("i64", m.add("i32", dst.get(), m.shl("i32", j.get(), m.i32(3))))),
            m.store("i64", m.add("i32", dst.get(), m.shl("i32", j.get(), m.i32(3))), m.or("i64", old.get(), x.get())),
            m.store(
              "i32",
              s.get(),
              m.add("i32", m.load("i32", s.get(), VS.count), m.convert("i64", "i32", m.popcnt("i64", m.and("i64", x.get(), m.xor("i64", old.get(), m.i64(-1)))))),
              VS.count,
            ),
          ]),
        ]),
      ),
    );
  });
  return m.call(name, [set, typeHeader], "none");
}

/**
 * Word j of block k of a type's alive bitmap, with bits beyond the slot count cleared (the
 * bitmap's last block may be partly allocated).
 */
function aliveWord(cx: EmitContext, th: Expr, k: Expr, j: Expr, src: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("alive_word", [{ name: "th", type: "i32" }, { name: "k", type: "i32" }, { name: "j", type: "i32" }, { name: "src", type: "i32" }], "i64", (f) => {
    const [t, kk, jj, s] = [f.param(0), f.param(1), f.param(2), f.param(3)];
    const first = f.local("i32", "first");
    const slots = f.local("i32", "slots");
    return [
      // local slot of the word's first bit
      first.set(m.add("i32", m.shl("i32", kk.get(), m.i32(VERTEX_BLOCK_SHIFT)), m.shl("i32", jj.get(), m.i32(6)))),
      slots.set(m.load("i32", t.get(), VT.SLOT_COUNT)),
      m.if(m.ge("i32", first.get(), slots.get(), true), m.return(m.i64(0))),
      m.if(
        m.lt("i32", m.sub("i32", slots.get(), first.get()), m.i32(64), true),
        m.return(
          m.and(
            "i64",
            m.load("i64", m.add("i32", s.get(), m.shl("i32", jj.get(), m.i32(3)))),
            m.sub("i64", m.shl("i64", m.i64(1), m.convert("i32", "i64", m.sub("i32", slots.get(), first.get()), true)), m.i64(1)),
          ),
        ),
      ),
      m.load("i64", m.add("i32", s.get(), m.shl("i32", jj.get(), m.i32(3)))),
    ];
  });
  return m.call(name, [th, k, j, src], "i64");
}

/** Adds every live vertex of the snapshot. */
export function vsetAddAll(cx: EmitContext, set: Expr, typeHeaders: Expr[]): Expr {
  const m = cx.m;
  return m.seq(...typeHeaders.map((th) => vsetAddType(cx, set, th)));
}

/**
 * Loops over the set's vertices: in order when the set is ordered, else by increasing id.
 * `body` gets the vertex id; BREAK/CONTINUE use the labels passed.
 */
export function vsetForEach(cx: EmitContext, f: FunctionScope, set: Expr, body: (v: Local, labels: LoopLabels) => Expr[]): Expr {
  const m = cx.m;
  const s = f.local("i32", "set");
  const v = f.local("i32", "v");
  const list = f.local("i32", "list");
  const i = f.local("i32", "i");
  const n = f.local("i32", "n");
  // The bitmap is walked through a list of its ids built first, so one loop body serves both
  // orders (and the body may change the set it iterates without disturbing the walk).
  return m.seq(
    s.set(set),
    list.set(vsetToList(cx, s.get())),
    n.set(m.load("i32", list.get())),
    f.forRange(i, m.i32(0), n.get(), (labels) => [v.set(m.load("i32", m.add("i32", list.get(), m.shl("i32", m.add("i32", i.get(), m.i32(1)), m.i32(2))))), ...body(v, labels)]),
    freeBuffer(cx, list.get(), m.shl("i32", m.add("i32", n.get(), m.i32(1)), m.i32(2))),
  );
}

/** A buffer [count, vid, vid, ...] of the set's vertices in iteration order (free with freeBuffer). */
export function vsetToList(cx: EmitContext, set: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("vset_to_list", [{ name: "s", type: "i32" }], "i32", (f) => {
    const s = f.param(0);
    const out = f.local("i32", "out");
    const n = f.local("i32", "n");
    const w = f.local("i32", "w");
    const bits = f.local("i64", "bits");
    const at = f.local("i32", "at");
    return [
      n.set(m.load("i32", s.get(), VS.count)),
      out.set(allocBuffer(cx, m.shl("i32", m.add("i32", n.get(), m.i32(1)), m.i32(2)))),
      m.store("i32", out.get(), n.get()),
      m.if(
        m.load("i32", s.get(), VS.order),
        m.seq(m.memoryCopy(m.add("i32", out.get(), m.i32(4)), m.load("i32", s.get(), VS.order), m.shl("i32", n.get(), m.i32(2))), m.return(out.get())),
      ),
      at.set(m.add("i32", out.get(), m.i32(4))),
      f.forRange(w, m.i32(0), m.load("i32", s.get(), VS.words), () => [
        bits.set(m.load("i64", m.add("i32", m.load("i32", s.get(), VS.bitmap), m.shl("i32", w.get(), m.i32(3))))),
        f.whileLoop(
          () => m.ne("i64", bits.get(), m.i64(0)),
          () => [
            m.store("i32", at.get(), m.add("i32", m.shl("i32", w.get(), m.i32(6)), m.convert("i64", "i32", m.ctz("i64", bits.get())))),
            at.set(m.add("i32", at.get(), m.i32(4))),
            bits.set(m.and("i64", bits.get(), m.sub("i64", bits.get(), m.i64(1)))),
          ],
        ),
      ]),
      out.get(),
    ];
  });
  return m.call(name, [set], "i32");
}

/** Makes the set ordered: its vertices in the order of `list` (a [count, vid...] buffer it takes over). */
export function vsetSetOrder(cx: EmitContext, set: Expr, list: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("vset_set_order", [{ name: "s", type: "i32" }, { name: "l", type: "i32" }], "none", (f) => {
    const [s, l] = [f.param(0), f.param(1)];
    const n = f.local("i32", "n");
    const buf = f.local("i32", "buf");
    return [
      n.set(m.load("i32", l.get())),
      buf.set(allocBuffer(cx, m.shl("i32", m.select(n.get(), n.get(), m.i32(1)), m.i32(2)))),
      m.memoryCopy(buf.get(), m.add("i32", l.get(), m.i32(4)), m.shl("i32", n.get(), m.i32(2))),
      m.store("i32", s.get(), buf.get(), VS.order),
      m.store("i32", s.get(), n.get(), VS.orderLen),
    ];
  });
  return m.call(name, [set, list], "none");
}
