// The hash table behind SetAccum, BagAccum, MapAccum and GroupByAccum: entries kept in
// insertion order (so output and iteration order are deterministic) plus, once a table holds
// more than SMALL_CAPACITY entries, an open-addressing index of entry numbers. Small tables
// (most per-vertex sets and maps) have no index: a lookup scans their few entries, which
// costs less than hashing and touches one buffer. Each index slot carries a tag next to the
// entry number, so a probe compares without visiting the entry: the key itself for keys
// that are one i32 compared by value (vertices), else the key's hash. Functions are
// specialised per key type (hashing, equality); the value part is opaque bytes whose size
// the header records.
//
//   header  [count, used, capacity, entries, index (0: none), indexMask, entrySize, 0]
//   entry   [u32 hash, u32 live] [key: 8 bytes] [value: entrySize - 16 bytes]
//   index   8 bytes per slot: [n: 0 empty, TOMBSTONE removed, else entry number + 1] [tag]
import { RuntimeError } from "../../runtime-wasm/query/abi.js";
import type { IrType } from "../ir/types.js";
import type { EmitContext } from "./context.js";
import { alloc, allocBuffer, freeBuffer } from "./emit-arena.js";
import { defaultValue, eqValue, hashValue, loadValue, storeValue } from "./emit-values.js";
import type { Expr, FunctionScope, Local } from "./module.js";
import { typeTag, wasmType } from "./wasm-types.js";

export const HT = { count: 0, used: 4, cap: 8, entries: 12, index: 16, mask: 20, entrySize: 24, size: 32 } as const;
export const Entry = { hash: 0, live: 4, key: 8, value: 16 } as const;
const TOMBSTONE = -1;
/** Tables up to this capacity keep no index. */
export const SMALL_CAPACITY = 8;
const SLOT_BYTES = 8;
const Slot = { n: 0, tag: 4 } as const;
/** Set after ht_insert: 1 when the key was new (its value bytes are then zeroed). */
export const HT_INSERTED = "ht_inserted";

/** Entry size for a value part of `valueBytes`. */
export function entrySize(valueBytes: number): number {
  return Entry.value + Math.ceil(valueBytes / 8) * 8;
}

/** Keys that are one i32 compared by value: the index slot's tag is the key itself. */
function directKey(key: IrType): boolean {
  return wasmType(key) === "i32" && key.t !== "tuple" && key.t !== "edge";
}

/** The hash a table uses for `key`: a cheap multiplicative mix for direct keys. */
function keyHash(cx: EmitContext, key: IrType, k: Expr): Expr {
  const m = cx.m;
  if (!directKey(key)) return hashValue(cx, key, k);
  const name = cx.helper("hash_i32", [{ name: "k", type: "i32" }], "i32", (f) => {
    const h = f.local("i32", "h");
    return [h.set(m.mul("i32", f.param(0).get(), m.i32(0x9e3779b1 | 0))), m.xor("i32", h.get(), m.shr("i32", h.get(), m.i32(16), true))];
  });
  return m.call(name, [k], "i32");
}

/** Where a table's index slots keep their tag, read from an entry when the index is rebuilt. */
function tagOffset(key: IrType): number {
  return directKey(key) ? Entry.key : Entry.hash;
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

/** Slot address in the index for a hash after some probe steps. */
function slotAddress(cx: EmitContext, t: Local, hash: Expr): Expr {
  const m = cx.m;
  return m.add("i32", m.load("i32", t.get(), HT.index), m.shl("i32", m.and("i32", hash, m.load("i32", t.get(), HT.mask)), m.i32(3)));
}

function entryAddress(cx: EmitContext, t: Local, n: Expr): Expr {
  const m = cx.m;
  // a fresh read of `t` per use: Binaryen's passes need every expression node used once
  return m.add("i32", m.load("i32", t.get(), HT.entries), m.mul("i32", n, m.load("i32", t.get(), HT.entrySize)));
}

/** Bytes of a table's index (0 when it has none). */
function indexBytes(cx: EmitContext, t: Expr): Expr {
  const m = cx.m;
  return m.mul("i32", m.add("i32", m.load("i32", t, HT.mask), m.i32(1)), m.i32(SLOT_BYTES));
}

/**
 * Rebuilds entries (dropping removed ones) with room for twice the live count, or for
 * `least` entries when that is more, and the index when that capacity is past
 * SMALL_CAPACITY. `tagAt`: where an entry keeps its tag.
 */
function htGrow(cx: EmitContext, tagAt: number): string {
  const m = cx.m;
  return cx.helper(`ht_grow_${tagAt}`, [{ name: "t", type: "i32" }, { name: "least", type: "i32" }], "none", (f) => {
    const t = f.param(0);
    const least = f.param(1);
    const cap = f.local("i32", "cap");
    const size = f.local("i32", "size");
    const entries = f.local("i32", "entries");
    const index = f.local("i32", "index");
    const i = f.local("i32", "i");
    const out = f.local("i32", "out");
    const e = f.local("i32", "e");
    const h = f.local("i32", "h");
    const slot = f.local("i32", "slot");
    const esize = f.local("i32", "esize");
    const indexed = f.local("i32", "indexed");
    const newSlot = () => m.add("i32", index.get(), m.shl("i32", m.and("i32", h.get(), m.sub("i32", size.get(), m.i32(1))), m.i32(3)));
    return [
      esize.set(m.load("i32", t.get(), HT.entrySize)),
      cap.set(m.select(m.lt("i32", m.load("i32", t.get(), HT.count), m.i32(4), true), m.i32(8), m.shl("i32", m.load("i32", t.get(), HT.count), m.i32(1)))),
      m.if(m.gt("i32", least.get(), cap.get(), true), cap.set(least.get())),
      entries.set(allocBuffer(cx, m.mul("i32", cap.get(), esize.get()))),
      indexed.set(m.gt("i32", cap.get(), m.i32(SMALL_CAPACITY), true)),
      // index: a power of two at least twice the capacity (size 1, mask 0, without one)
      size.set(m.select(indexed.get(), m.shl("i32", m.i32(1), m.sub("i32", m.i32(33), m.clz("i32", m.sub("i32", cap.get(), m.i32(1))))), m.i32(1))),
      index.set(m.i32(0)),
      m.if(
        indexed.get(),
        m.seq(index.set(allocBuffer(cx, m.mul("i32", size.get(), m.i32(SLOT_BYTES)))), m.memoryFill(index.get(), m.i32(0), m.mul("i32", size.get(), m.i32(SLOT_BYTES)))),
      ),
      f.forRange(i, m.i32(0), m.load("i32", t.get(), HT.used), () => [
        e.set(m.add("i32", m.load("i32", t.get(), HT.entries), m.mul("i32", i.get(), esize.get()))),
        m.if(
          m.load("i32", e.get(), Entry.live),
          m.seq(
            m.memoryCopy(m.add("i32", entries.get(), m.mul("i32", out.get(), esize.get())), e.get(), esize.get()),
            m.if(
              indexed.get(),
              m.seq(
                h.set(m.load("i32", e.get(), Entry.hash)),
                // linear probing into the fresh index (no tombstones there)
                m.loop("reprobe", m.seq(slot.set(newSlot()), m.if(m.load("i32", slot.get(), Slot.n), m.seq(h.set(m.add("i32", h.get(), m.i32(1))), m.br("reprobe"))))),
                m.store("i32", slot.get(), m.add("i32", out.get(), m.i32(1)), Slot.n),
                m.store("i32", slot.get(), m.load("i32", e.get(), tagAt), Slot.tag),
              ),
            ),
            out.set(m.add("i32", out.get(), m.i32(1))),
          ),
        ),
      ]),
      m.if(m.load("i32", t.get(), HT.cap), freeBuffer(cx, m.load("i32", t.get(), HT.entries), m.mul("i32", m.load("i32", t.get(), HT.cap), esize.get()))),
      m.if(m.load("i32", t.get(), HT.index), freeBuffer(cx, m.load("i32", t.get(), HT.index), indexBytes(cx, t.get()))),
      m.store("i32", t.get(), entries.get(), HT.entries),
      m.store("i32", t.get(), index.get(), HT.index),
      m.store("i32", t.get(), m.sub("i32", size.get(), m.i32(1)), HT.mask),
      m.store("i32", t.get(), cap.get(), HT.cap),
      m.store("i32", t.get(), out.get(), HT.used),
    ];
  });
}

/**
 * The lookup shared by find/insert/remove: calls `onMatch(slot, entry)` for the entry
 * holding the key (`slot` is 0 in a table without index) and falls through when the key is
 * absent. `h` holds the key's hash.
 */
function lookup(cx: EmitContext, f: FunctionScope, key: IrType, t: Local, k: Local, h: Local, onMatch: (slot: Local, entry: Local) => Expr): Expr {
  const m = cx.m;
  const slot = f.local("i32", "slot");
  const n = f.local("i32", "n");
  const e = f.local("i32", "e");
  const step = f.local("i32", "step");
  const i = f.local("i32", "i");
  const esize = f.local("i32", "esize");
  const again = f.label("probe");
  const absent = f.label("absent");
  const direct = directKey(key);
  const keyEquals = (entry: Expr) => eqValue(cx, key, loadValue(cx, key, entry, Entry.key), k.get());
  // small table: scan the live entries
  const scan = m.seq(
    slot.set(m.i32(0)),
    esize.set(m.load("i32", t.get(), HT.entrySize)),
    e.set(m.load("i32", t.get(), HT.entries)),
    f.forRange(i, m.i32(0), m.load("i32", t.get(), HT.used), () => [
      m.if(
        m.and("i32", m.load("i32", e.get(), Entry.live), direct ? keyEquals(e.get()) : m.eq("i32", m.load("i32", e.get(), Entry.hash), h.get())),
        direct ? onMatch(slot, e) : m.if(keyEquals(e.get()), onMatch(slot, e)),
      ),
      e.set(m.add("i32", e.get(), esize.get())),
    ]),
  );
  const tagMatches = m.eq("i32", m.load("i32", slot.get(), Slot.tag), direct ? k.get() : h.get());
  const probe = m.seq(
    step.set(h.get()),
    m.loop(
      again,
      m.seq(
        slot.set(slotAddress(cx, t, step.get())),
        n.set(m.load("i32", slot.get(), Slot.n)),
        m.brIf(absent, m.eqz("i32", n.get())),
        m.if(
          m.and("i32", m.ne("i32", n.get(), m.i32(TOMBSTONE)), tagMatches),
          m.seq(e.set(entryAddress(cx, t, m.sub("i32", n.get(), m.i32(1)))), direct ? onMatch(slot, e) : m.if(keyEquals(e.get()), onMatch(slot, e))),
        ),
        step.set(m.add("i32", step.get(), m.i32(1))),
        m.br(again),
      ),
    ),
  );
  return m.block(absent, [m.if(m.load("i32", t.get(), HT.index), probe, scan)]);
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
      // direct keys in a small table need no hash
      directKey(key) ? m.if(m.load("i32", t.get(), HT.index), h.set(keyHash(cx, key, kk.get()))) : h.set(keyHash(cx, key, kk.get())),
      lookup(cx, f, key, t, kk, h, (_slot, e) => m.return(e.get())),
      m.i32(0),
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
    return [
      m.globalSet(HT_INSERTED, m.i32(0)),
      h.set(keyHash(cx, key, kk.get())),
      lookup(cx, f, key, t, kk, h, (_slot, found) => m.return(found.get())),
      ...appendEntry(cx, f, key, t, kk, h, e),
      m.globalSet(HT_INSERTED, m.i32(1)),
      e.get(),
    ];
  });
  return m.call(name, [table, k], "i32");
}

/**
 * htInsert into a table htReserve made room in, for a writer that may neither allocate nor
 * set globals (a parallel SELECT's range): the entry's address, plus 1 when the key was new.
 */
export function htInsertReserved(cx: EmitContext, key: IrType, table: Expr, k: Expr): Expr {
  const m = cx.m;
  const name = cx.helper(`ht_insert_reserved_${typeTag(key)}`, [{ name: "t", type: "i32" }, { name: "k", type: wasmType(key) }], "i32", (f) => {
    const [t, kk] = [f.param(0), f.param(1)];
    const h = f.local("i32", "h");
    const e = f.local("i32", "ne");
    return [
      h.set(keyHash(cx, key, kk.get())),
      lookup(cx, f, key, t, kk, h, (_slot, found) => m.return(found.get())),
      ...appendEntry(cx, f, key, t, kk, h, e, true),
      m.or("i32", e.get(), m.i32(1)),
    ];
  });
  return m.call(name, [table, k], "i32");
}

/** Makes room in `table` for `extra` more entries, so that many inserts need not grow it. */
export function htReserve(cx: EmitContext, key: IrType, table: Expr, extra: Expr): Expr {
  const m = cx.m;
  const name = cx.helper(`ht_reserve_${tagOffset(key)}`, [{ name: "t", type: "i32" }, { name: "n", type: "i32" }], "none", (f) => {
    const [t, n] = [f.param(0), f.param(1)];
    return m.if(
      m.lt("i32", m.sub("i32", m.load("i32", t.get(), HT.cap), m.load("i32", t.get(), HT.used)), n.get(), true),
      m.call(htGrow(cx, tagOffset(key)), [t.get(), m.add("i32", m.load("i32", t.get(), HT.count), n.get())], "none"),
    );
  });
  return m.call(name, [table, extra], "none");
}

/**
 * `table[k] += v` for a table whose value part is one number of type `num` (a MapAccum of
 * a numeric SumAccum): the lookup, the insert when the key is new and the addition in one
 * call, where the general path calls the insert, the value's initialiser and its adder.
 * A new entry holds 0 + v, the SumAccum's default plus the operand.
 */
export function htAddNumber(cx: EmitContext, key: IrType, num: IrType, table: Expr, k: Expr, v: Expr, reserved = false): Expr {
  const m = cx.m;
  const w = wasmType(num);
  const name = cx.helper(`ht_add${reserved ? "_reserved" : ""}_${typeTag(key)}_${typeTag(num)}`, [{ name: "t", type: "i32" }, { name: "k", type: wasmType(key) }, { name: "v", type: w }], "none", (f) => {
    const [t, kk, vv] = [f.param(0), f.param(1), f.param(2)];
    const h = f.local("i32", "h");
    const e = f.local("i32", "ne");
    return [
      h.set(keyHash(cx, key, kk.get())),
      lookup(cx, f, key, t, kk, h, (_slot, found) =>
        m.seq(storeValue(cx, num, found.get(), m.add(w, loadValue(cx, num, found.get(), Entry.value), vv.get()), Entry.value), m.return()),
      ),
      ...appendEntry(cx, f, key, t, kk, h, e, reserved),
      storeValue(cx, num, e.get(), m.add(w, defaultValue(cx, num), vv.get()), Entry.value),
    ];
  });
  return m.call(name, [table, k, v], "none");
}

/**
 * Appends a zeroed entry for key `kk` (hash in `h`) and indexes it; its address ends in `e`.
 * In a `reserved` table (htReserve made room first) a full table is an internal error
 * rather than a reason to grow: the writer may not allocate.
 */
function appendEntry(cx: EmitContext, f: FunctionScope, key: IrType, t: Local, kk: Local, h: Local, e: Local, reserved = false): Expr[] {
  const m = cx.m;
  const full = m.eq("i32", m.load("i32", t.get(), HT.used), m.load("i32", t.get(), HT.cap));
  return [
    m.if(full, reserved ? cx.host("fail", [m.i32(RuntimeError.Internal)]) : m.call(htGrow(cx, tagOffset(key)), [t.get(), m.i32(0)], "none")),
    e.set(entryAddress(cx, t, m.load("i32", t.get(), HT.used))),
    m.memoryFill(e.get(), m.i32(0), m.load("i32", t.get(), HT.entrySize)),
    m.store("i32", e.get(), h.get(), Entry.hash),
    m.store("i32", e.get(), m.i32(1), Entry.live),
    storeValue(cx, key, e.get(), kk.get(), Entry.key),
    m.store("i32", t.get(), m.add("i32", m.load("i32", t.get(), HT.used), m.i32(1)), HT.used),
    m.store("i32", t.get(), m.add("i32", m.load("i32", t.get(), HT.count), m.i32(1)), HT.count),
    // claim the first empty or removed slot on the probe path
    m.if(m.load("i32", t.get(), HT.index), m.seq(...probeForFree(cx, f, t, h, m.load("i32", t.get(), HT.used), m.load("i32", e.get(), tagOffset(key))))),
  ];
}

function probeForFree(cx: EmitContext, f: FunctionScope, t: Local, h: Local, entryNumberPlusOne: Expr, tag: Expr): Expr[] {
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
          n.set(m.load("i32", slot.get(), Slot.n)),
          m.if(
            m.or("i32", m.eqz("i32", n.get()), m.eq("i32", n.get(), m.i32(TOMBSTONE))),
            m.seq(m.store("i32", slot.get(), entryNumberPlusOne, Slot.n), m.store("i32", slot.get(), tag, Slot.tag), m.br(placed)),
          ),
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
      h.set(keyHash(cx, key, kk.get())),
      lookup(cx, f, key, t, kk, h, (slot, e) =>
        m.seq(
          m.if(slot.get(), m.store("i32", slot.get(), m.i32(TOMBSTONE), Slot.n)),
          m.store("i32", e.get(), m.i32(0), Entry.live),
          m.store("i32", t.get(), m.sub("i32", m.load("i32", t.get(), HT.count), m.i32(1)), HT.count),
          m.return(m.i32(1)),
        ),
      ),
      m.i32(0),
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
        m.if(m.load("i32", t.get(), HT.index), m.memoryFill(m.load("i32", t.get(), HT.index), m.i32(0), indexBytes(cx, t.get()))),
        m.store("i32", t.get(), m.i32(0), HT.count),
        m.store("i32", t.get(), m.i32(0), HT.used),
      ),
    );
  });
  return m.call(name, [table], "none");
}

/**
 * Empties the table like htClear, but an indexed table (past SMALL_CAPACITY) gives its entry
 * and index buffers back to the run's free lists and starts over empty: what a query empties
 * with `.clear()` is often a per-vertex map that many vertices fill in turn (label counts),
 * and keeping every vertex's largest buffers would hold the sum of all of them, where giving
 * them back lets the next vertices reuse the same memory. Small tables keep their buffer.
 */
export function htRelease(cx: EmitContext, table: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("ht_release", [{ name: "t", type: "i32" }], "none", (f) => {
    const t = f.param(0);
    return m.if(
      m.and("i32", m.ne("i32", t.get(), m.i32(0)), m.ne("i32", m.load("i32", t.get(), HT.index), m.i32(0))),
      m.seq(
        freeBuffer(cx, m.load("i32", t.get(), HT.entries), m.mul("i32", m.load("i32", t.get(), HT.cap), m.load("i32", t.get(), HT.entrySize))),
        freeBuffer(cx, m.load("i32", t.get(), HT.index), indexBytes(cx, t.get())),
        m.store("i32", t.get(), m.i32(0), HT.count),
        m.store("i32", t.get(), m.i32(0), HT.used),
        m.store("i32", t.get(), m.i32(0), HT.cap),
        m.store("i32", t.get(), m.i32(0), HT.entries),
        m.store("i32", t.get(), m.i32(0), HT.index),
        m.store("i32", t.get(), m.i32(0), HT.mask),
      ),
      htClear(cx, t.get()),
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
