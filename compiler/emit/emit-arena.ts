// The run's arena allocator, generated into every module: bump allocation in the arena
// chunks the host lends (ArenaChunk in the ABI), asking for another chunk when one is full.
// Buffers that containers outgrow go back to per-size-class free lists and are reused.
// Memory from a reused chunk is not zeroed: `allocZeroed` is for memory read before written.
import { ArenaChunk, Ctl } from "../../runtime-wasm/query/abi.js";
import { G, type EmitContext } from "./context.js";
import type { Expr } from "./module.js";

/** Free-list heads per power-of-two size class 2^4 .. 2^31, in a table in the arena. */
const FREE_CLASSES = 28;
const MIN_CLASS_LOG = 4;

/** Run prologue: take the free part of the first chunk from the control block. */
export function initArena(cx: EmitContext): Expr {
  const m = cx.m;
  const ctl = () => m.globalGet(G.ctl, "i32");
  return m.seq(
    m.globalSet(G.heapPtr, m.load("i32", ctl(), Ctl.heapStart)),
    m.globalSet(G.heapEnd, m.load("i32", ctl(), Ctl.heapEnd)),
    m.globalSet(G.freeLists, allocZeroed(cx, m.i32(FREE_CLASSES * 4))),
  );
}

/**
 * The least size of the next chunk asked for: it doubles with every chunk from 2 MiB up to
 * 64 MiB, so a run that allocates N bytes asks the host O(log N) times rather than once per
 * MiB. Each ask blocks the run until the main thread answers, which on a busy machine can
 * take a scheduler time slice (shortest_path_any_wt on the bench graph asked 32 times).
 */
const NEXT_CHUNK = "arena_next_chunk";
const FIRST_GROWTH = 2 << 20;
const MAX_GROWTH = 64 << 20;

/** `alloc(bytes) -> address`, 8-byte aligned, contents undefined. */
export function alloc(cx: EmitContext, bytes: Expr): Expr {
  const m = cx.m;
  cx.ensureGlobal(NEXT_CHUNK, "i32", FIRST_GROWTH);
  const name = cx.helper("alloc", [{ name: "bytes", type: "i32" }], "i32", (f) => {
    const size = f.param(0);
    const p = f.local("i32", "p");
    const chunk = f.local("i32", "chunk");
    const next = () => m.globalGet(NEXT_CHUNK, "i32");
    return [
      size.set(m.and("i32", m.add("i32", size.get(), m.i32(7)), m.i32(-8))),
      p.set(m.globalGet(G.heapPtr, "i32")),
      // Unsigned compare: addresses may be above 2 GiB.
      m.if(
        m.gt("i32", m.add("i32", p.get(), size.get()), m.globalGet(G.heapEnd, "i32"), true),
        m.seq(
          chunk.set(cx.host("arenaChunk", [m.select(m.gt("i32", size.get(), next(), true), size.get(), next())])),
          m.if(m.lt("i32", next(), m.i32(MAX_GROWTH), true), m.globalSet(NEXT_CHUNK, m.shl("i32", next(), m.i32(1)))),
          p.set(m.add("i32", chunk.get(), m.i32(ArenaChunk.headerSize))),
          m.globalSet(G.heapEnd, m.add("i32", chunk.get(), m.load("i32", chunk.get(), ArenaChunk.size))),
        ),
      ),
      m.globalSet(G.heapPtr, m.add("i32", p.get(), size.get())),
      p.get(),
    ];
  });
  return m.call(name, [bytes], "i32");
}

/** `allocZeroed(bytes) -> address` with every byte 0. */
export function allocZeroed(cx: EmitContext, bytes: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("alloc_zeroed", [{ name: "bytes", type: "i32" }], "i32", (f) => {
    const p = f.local("i32", "p");
    return [p.set(alloc(cx, f.param(0).get())), m.memoryFill(p.get(), m.i32(0), f.param(0).get()), p.get()];
  });
  return m.call(name, [bytes], "i32");
}

/** Address of the free-list head of size class `cls` (the table is set up by initArena). */
function freeHead(cx: EmitContext, cls: Expr): Expr {
  const m = cx.m;
  return m.add("i32", m.globalGet(G.freeLists, "i32"), m.shl("i32", cls, m.i32(2)));
}

/** Size class of a buffer of `bytes` (rounded up to a power of two, at least 16). */
function sizeClass(cx: EmitContext, bytes: Expr): Expr {
  const m = cx.m;
  // class = max(0, 32 - clz(bytes - 1) - MIN_CLASS_LOG)
  return m.sub("i32", m.sub("i32", m.i32(32), m.clz("i32", m.sub("i32", bytes, m.i32(1)))), m.i32(MIN_CLASS_LOG));
}

/**
 * `allocBuffer(bytes) -> address` for container storage: the size is rounded up to a power
 * of two and reused from the free list of that class when possible. Give it back with
 * `freeBuffer(address, bytes)` using the same `bytes`.
 */
export function allocBuffer(cx: EmitContext, bytes: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("alloc_buffer", [{ name: "bytes", type: "i32" }], "i32", (f) => {
    const cls = f.local("i32", "cls");
    const head = f.local("i32", "head");
    return [
      cls.set(sizeClass(cx, m.select(m.lt("i32", f.param(0).get(), m.i32(16), true), m.i32(16), f.param(0).get()))),
      head.set(m.load("i32", freeHead(cx, cls.get()))),
      m.if(
        m.ne("i32", head.get(), m.i32(0)),
        m.seq(m.store("i32", freeHead(cx, cls.get()), m.load("i32", head.get())), m.return(head.get())),
      ),
      alloc(cx, m.shl("i32", m.i32(1), m.add("i32", cls.get(), m.i32(MIN_CLASS_LOG)))),
    ];
  });
  return m.call(name, [bytes], "i32");
}

/** Returns a buffer from `allocBuffer` to its free list. */
export function freeBuffer(cx: EmitContext, address: Expr, bytes: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("free_buffer", [{ name: "p", type: "i32" }, { name: "bytes", type: "i32" }], "none", (f) => {
    const cls = f.local("i32", "cls");
    return [
      cls.set(sizeClass(cx, m.select(m.lt("i32", f.param(1).get(), m.i32(16), true), m.i32(16), f.param(1).get()))),
      m.store("i32", f.param(0).get(), m.load("i32", freeHead(cx, cls.get()))),
      m.store("i32", freeHead(cx, cls.get()), f.param(0).get()),
    ];
  });
  return m.call(name, [address, bytes], "none");
}
