// The hash table behind SetAccum, BagAccum, MapAccum and GroupByAccum: entries kept in
// insertion order (so output and iteration order are deterministic) plus an open-addressing
// index of entry numbers. Functions are specialised per key type (hashing and equality);
// the value part is opaque bytes whose size the header records.
//
//   header  [count, used, capacity, entries, index, indexMask, entrySize, 0]
//   entry   [u32 hash, u32 live] [key: 8 bytes] [value: entrySize - 16 bytes]
//   index   u32 per slot: 0 empty, TOMBSTONE removed, else entry number + 1
import type { IrType } from "../ir/types.js";
import type { EmitContext } from "./context.js";
import { alloc, allocBuffer, freeBuffer } from "./emit-arena.js";
import { eqValue, hashValue, loadValue, storeValue } from "./emit-values.js";
import type { Expr, FunctionScope, Local } from "./module.js";
import { typeTag, wasmType } from "./wasm-types.js";

export const HT = { count: 0, used: 4, cap: 8, entries: 12, index: 16, mask: 20, entrySize: 24, size: 32 } as const;
export const Entry = { hash: 0, live: 4, key: 8, value: 16 } as const;
const TOMBSTONE = -1;
/** Set after ht_insert: 1 when the key was new (its value bytes are then zeroed). */
export const HT_INSERTED = "ht_inserted";

/** Entry size for a value part of `valueBytes`. */
export function entrySize(valueBytes: number): number {
  return Entry.value + Math.ceil(valueBytes / 8) * 8;
}

/** A new empty table whose entries carry `valueBytes` of value. */
export function htNew(cx: EmitContext, valueBytes: number): Expr {
  const m = cx.m;
  const name = cx.helper("ht_new", [{ name: "esize", type: "i32" }], "i32", (f) => {
    const p = f.local("i32", "p");
    return [
      p.set(alloc(cx, m.i32(HT.size))),
      m.memoryFill(p.get(), m.i32(0), m.i32(HT.size)),
      m.store("i32", p.get(), f.param(0).get(), HT.entrySize),
      p.get(),
    ];
  });
  return m.call(name, [m.i32(entrySize(valueBytes))], "i32");
}

export function htCount(cx: EmitContext, table: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("ht_count", [{ name: "t", type: "i32" }], "i32", (f) =>
    m.if(m.eqz("i32", f.param(0).get()), m.i32(0), m.load("i32", f.param(0).get(), HT.count)),
  );
  return m.call(name, [table], "i32");
}

/** Slot address in the index for a hash after `probe` steps. */
function slotAddress(cx: EmitContext, t: Local, hash: Expr): Expr {
  const m = cx.m;
  return m.add("i32", m.load("i32", t.get(), HT.index), m.shl("i32", m.and("i32", hash, m.load("i32", t.get(), HT.mask)), m.i32(2)));
}

function entryAddress(cx: EmitContext, t: Local, n: Expr): Expr {
  const m = cx.m;
  // a fresh read of `t` per use: Binaryen's passes need every expression node used once
  return m.add("i32", m.load("i32", t.get(), HT.entries), m.mul("i32", n, m.load("i32", t.get(), HT.entrySize)));
}

/** Rebuilds entries (dropping removed ones) and index with room for twice the live count. */
function htGrow(cx: EmitContext): string {
  const m = cx.m;
  return cx.helper("ht_grow", [{ name: "t", type: "i32" }], "none", (f) => {
    const t = f.param(0);
    const cap = f.local("i32", "cap");
    const size = f.local("i32", "size");
    const entries = f.local("i32", "entries");
    const index = f.local("i32", "index");
    const i = f.local("i32", "i");
    const out = f.local("i32", "out");
    const e = f.local("i32", "e");
    const h = f.local("i32", "h");
    const esize = f.local("i32", "esize");
    return [
      esize.set(m.load("i32", t.get(), HT.entrySize)),
      cap.set(m.select(m.lt("i32", m.load("i32", t.get(), HT.count), m.i32(4), true), m.i32(8), m.shl("i32", m.load("i32", t.get(), HT.count), m.i32(1)))),
      entries.set(allocBuffer(cx, m.mul("i32", cap.get(), esize.get()))),
      // index: a power of two at least twice the capacity
      size.set(m.shl("i32", m.i32(1), m.sub("i32", m.i32(33), m.clz("i32", m.sub("i32", cap.get(), m.i32(1)))))),
      index.set(allocBuffer(cx, m.shl("i32", size.get(), m.i32(2)))),
      m.memoryFill(index.get(), m.i32(0), m.shl("i32", size.get(), m.i32(2))),
      f.forRange(i, m.i32(0), m.load("i32", t.get(), HT.used), () => [
        e.set(m.add("i32", m.load("i32", t.get(), HT.entries), m.mul("i32", i.get(), esize.get()))),
        m.if(
          m.load("i32", e.get(), Entry.live),
          m.seq(
            m.memoryCopy(m.add("i32", entries.get(), m.mul("i32", out.get(), esize.get())), e.get(), esize.get()),
            h.set(m.load("i32", e.get(), Entry.hash)),
            // linear probing into the fresh index (no tombstones there)
            m.loop(
              "reprobe",
              m.seq(
                m.if(
                  m.load("i32", m.add("i32", index.get(), m.shl("i32", m.and("i32", h.get(), m.sub("i32", size.get(), m.i32(1))), m.i32(2)))),
                  m.seq(h.set(m.add("i32", h.get(), m.i32(1))), m.br("reprobe")),
                ),
              ),
            ),
            m.store("i32", m.add("i32", index.get(), m.shl("i32", m.and("i32", h.get(), m.sub("i32", size.get(), m.i32(1))), m.i32(2))), m.add("i32", out.get(), m.i32(1))),
            out.set(m.add("i32", out.get(), m.i32(1))),
          ),
        ),
      ]),
      m.if(
        m.load("i32", t.get(), HT.cap),
        m.seq(
          freeBuffer(cx, m.load("i32", t.get(), HT.entries), m.mul("i32", m.load("i32", t.get(), HT.cap), esize.get())),
          freeBuffer(cx, m.load("i32", t.get(), HT.index), m.shl("i32", m.add("i32", m.load("i32", t.get(), HT.mask), m.i32(1)), m.i32(2))),
        ),
      ),
      m.store("i32", t.get(), entries.get(), HT.entries),
      m.store("i32", t.get(), index.get(), HT.index),
      m.store("i32", t.get(), m.sub("i32", size.get(), m.i32(1)), HT.mask),
      m.store("i32", t.get(), cap.get(), HT.cap),
      m.store("i32", t.get(), out.get(), HT.used),
    ];
  });
}

/**
 * The probe loop shared by find/insert/remove: walks the index from the key's hash until an
 * empty slot, calling `onMatch(slot, entry)` for the entry holding the key.
 */
function probe(cx: EmitContext, f: FunctionScope, key: IrType, t: Local, k: Local, h: Local, onMatch: (slot: Local, entry: Local) => Expr, onEmpty: (slot: Local) => Expr): Expr[] {
  const m = cx.m;
  const slot = f.local("i32", "slot");
  const n = f.local("i32", "n");
  const e = f.local("i32", "e");
  const step = f.local("i32", "step");
  const again = f.label("probe");
  return [
    step.set(h.get()),
    m.loop(
      again,
      m.seq(
        slot.set(slotAddress(cx, t, step.get())),
        n.set(m.load("i32", slot.get())),
        m.if(m.eqz("i32", n.get()), onEmpty(slot)),
        m.if(
          m.ne("i32", n.get(), m.i32(TOMBSTONE)),
          m.seq(
            e.set(entryAddress(cx, t, m.sub("i32", n.get(), m.i32(1)))),
            m.if(
              m.and("i32", m.eq("i32", m.load("i32", e.get(), Entry.hash), h.get()), eqValue(cx, key, loadValue(cx, key, e.get(), Entry.key), k.get())),
              onMatch(slot, e),
            ),
          ),
        ),
        step.set(m.add("i32", step.get(), m.i32(1))),
        m.br(again),
      ),
    ),
    m.unreachable(),
  ];
}

/** Address of the entry holding `key`, or 0 (`table` may be 0: empty). */
export function htFind(cx: EmitContext, key: IrType, table: Expr, k: Expr): Expr {
  const m = cx.m;
  const vt = wasmType(key);
  const name = cx.helper(`ht_find_${typeTag(key)}`, [{ name: "t", type: "i32" }, { name: "k", type: vt }], "i32", (f) => {
    const [t, kk] = [f.param(0), f.param(1)];
    const h = f.local("i32", "h");
    return [
      m.if(m.eqz("i32", t.get()), m.return(m.i32(0))),
      m.if(m.eqz("i32", m.load("i32", t.get(), HT.cap)), m.return(m.i32(0))),
      h.set(hashValue(cx, key, kk.get())),
      ...probe(cx, f, key, t, kk, h, (_slot, e) => m.return(e.get()), () => m.return(m.i32(0))),
    ];
  });
  return m.call(name, [table, k], "i32");
}

/** Address of the entry for `key`, added (value zeroed, HT_INSERTED = 1) when missing. */
export function htInsert(cx: EmitContext, key: IrType, table: Expr, k: Expr): Expr {
  const m = cx.m;
  const vt = wasmType(key);
  cx.ensureGlobal(HT_INSERTED, "i32");
  const name = cx.helper(`ht_insert_${typeTag(key)}`, [{ name: "t", type: "i32" }, { name: "k", type: vt }], "i32", (f) => {
    const [t, kk] = [f.param(0), f.param(1)];
    const h = f.local("i32", "h");
    const e = f.local("i32", "ne");
    const existing = f.local("i32", "found");
    return [
      m.globalSet(HT_INSERTED, m.i32(0)),
      h.set(hashValue(cx, key, kk.get())),
      existing.set(htFind(cx, key, t.get(), kk.get())),
      m.if(existing.get(), m.return(existing.get())),
      m.if(m.eq("i32", m.load("i32", t.get(), HT.used), m.load("i32", t.get(), HT.cap)), m.call(htGrow(cx), [t.get()], "none")),
      e.set(entryAddress(cx, t, m.load("i32", t.get(), HT.used))),
      m.memoryFill(e.get(), m.i32(0), m.load("i32", t.get(), HT.entrySize)),
      m.store("i32", e.get(), h.get(), Entry.hash),
      m.store("i32", e.get(), m.i32(1), Entry.live),
      storeValue(cx, key, e.get(), kk.get(), Entry.key),
      m.store("i32", t.get(), m.add("i32", m.load("i32", t.get(), HT.used), m.i32(1)), HT.used),
      m.store("i32", t.get(), m.add("i32", m.load("i32", t.get(), HT.count), m.i32(1)), HT.count),
      // claim the first empty or removed slot on the probe path
      ...probeForFree(cx, f, t, h, m.load("i32", t.get(), HT.used)),
      m.globalSet(HT_INSERTED, m.i32(1)),
      e.get(),
    ];
  });
  return m.call(name, [table, k], "i32");
}

function probeForFree(cx: EmitContext, f: FunctionScope, t: Local, h: Local, entryNumberPlusOne: Expr): Expr[] {
  const m = cx.m;
  const slot = f.local("i32", "fslot");
  const step = f.local("i32", "fstep");
  const n = f.local("i32", "fn");
  const placed = f.label("placed");
  const again = f.label("free");
  return [
    step.set(h.get()),
    m.block(placed, [
      m.loop(
        again,
        m.seq(
          slot.set(slotAddress(cx, t, step.get())),
          n.set(m.load("i32", slot.get())),
          m.if(m.or("i32", m.eqz("i32", n.get()), m.eq("i32", n.get(), m.i32(TOMBSTONE))), m.seq(m.store("i32", slot.get(), entryNumberPlusOne), m.br(placed))),
          step.set(m.add("i32", step.get(), m.i32(1))),
          m.br(again),
        ),
      ),
    ]),
  ];
}

/** Removes `key`; 1 when it was there. */
export function htRemove(cx: EmitContext, key: IrType, table: Expr, k: Expr): Expr {
  const m = cx.m;
  const vt = wasmType(key);
  const name = cx.helper(`ht_remove_${typeTag(key)}`, [{ name: "t", type: "i32" }, { name: "k", type: vt }], "i32", (f) => {
    const [t, kk] = [f.param(0), f.param(1)];
    const h = f.local("i32", "h");
    return [
      m.if(m.eqz("i32", t.get()), m.return(m.i32(0))),
      m.if(m.eqz("i32", m.load("i32", t.get(), HT.cap)), m.return(m.i32(0))),
      h.set(hashValue(cx, key, kk.get())),
      ...probe(
        cx,
        f,
        key,
        t,
        kk,
        h,
        (slot, e) =>
          m.seq(
            m.store("i32", slot.get(), m.i32(TOMBSTONE)),
            m.store("i32", e.get(), m.i32(0), Entry.live),
            m.store("i32", t.get(), m.sub("i32", m.load("i32", t.get(), HT.count), m.i32(1)), HT.count),
            m.return(m.i32(1)),
          ),
        () => m.return(m.i32(0)),
      ),
    ];
  });
  return m.call(name, [table, k], "i32");
}

/** Empties the table (keeps its buffers). */
export function htClear(cx: EmitContext, table: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("ht_clear", [{ name: "t", type: "i32" }], "none", (f) => {
    const t = f.param(0);
    return m.if(
      m.and("i32", m.ne("i32", t.get(), m.i32(0)), m.ne("i32", m.load("i32", t.get(), HT.cap), m.i32(0))),
      m.seq(
        m.memoryFill(m.load("i32", t.get(), HT.index), m.i32(0), m.shl("i32", m.add("i32", m.load("i32", t.get(), HT.mask), m.i32(1)), m.i32(2))),
        m.store("i32", t.get(), m.i32(0), HT.count),
        m.store("i32", t.get(), m.i32(0), HT.used),
      ),
    );
  });
  return m.call(name, [table], "none");
}

/**
 * Loops over the live entries of `table` in insertion order; `body` gets the entry address.
 * BREAK/CONTINUE labels of the loop are passed on.
 */
export function htForEach(cx: EmitContext, f: FunctionScope, table: Expr, body: (entry: Local, labels: { exit: string; next: string }) => Expr[]): Expr {
  const m = cx.m;
  const t = f.local("i32", "tbl");
  const i = f.local("i32", "i");
  const e = f.local("i32", "ent");
  return m.seq(
    t.set(table),
    m.if(
      m.ne("i32", t.get(), m.i32(0)),
      f.forRange(i, m.i32(0), m.load("i32", t.get(), HT.used), (labels) => [
        e.set(entryAddress(cx, t, i.get())),
        m.brIf(labels.next, m.eqz("i32", m.load("i32", e.get(), Entry.live))),
        ...body(e, labels),
      ]),
    ),
  );
}
