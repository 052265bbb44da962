// The typed output stream (Out tags in the ABI), generated into every module that prints:
// items are appended to a chain of output chunks in the arena; the host formats the chain
// as JSON after the run. An item never spans two chunks.
import { Ctl, Out, OutputChunk } from "../../runtime-wasm/query/abi.js";
import { G, type EmitContext } from "./context.js";
import { alloc } from "./emit-arena.js";
import type { Expr, ValueType } from "./module.js";

const OUTPUT_CHUNK_BYTES = 64 * 1024;

/** Reserves `bytes` in the stream and returns where to write them. */
export function outReserve(cx: EmitContext, bytes: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("out_reserve", [{ name: "n", type: "i32" }], "i32", (f) => {
    const n = f.param(0);
    const size = f.local("i32", "size");
    const c = f.local("i32", "c");
    const p = f.local("i32", "p");
    const pos = () => m.globalGet(G.outPos, "i32");
    const cur = () => m.globalGet(G.outChunk, "i32");
    return [
      m.if(
        m.gt("i32", m.add("i32", pos(), n.get()), m.globalGet(G.outEnd, "i32"), true),
        m.seq(
          size.set(m.add("i32", n.get(), m.i32(OUTPUT_CHUNK_BYTES))),
          c.set(alloc(cx, size.get())),
          m.store("i32", c.get(), m.i32(0), OutputChunk.next),
          m.store("i32", c.get(), m.i32(0), OutputChunk.used),
          m.if(
            m.ne("i32", cur(), m.i32(0)),
            m.seq(
              m.store("i32", cur(), m.sub("i32", pos(), m.add("i32", cur(), m.i32(OutputChunk.headerSize))), OutputChunk.used),
              m.store("i32", cur(), c.get(), OutputChunk.next),
            ),
            m.globalSet(G.outFirst, c.get()),
          ),
          m.globalSet(G.outChunk, c.get()),
          m.globalSet(G.outPos, m.add("i32", c.get(), m.i32(OutputChunk.headerSize))),
          m.globalSet(G.outEnd, m.add("i32", c.get(), size.get())),
        ),
      ),
      p.set(pos()),
      m.globalSet(G.outPos, m.add("i32", p.get(), n.get())),
      p.get(),
    ];
  });
  return m.call(name, [bytes], "i32");
}

/** Run epilogue: seal the last chunk of the output and of the DML log; publish both chains. */
export function finishOutput(cx: EmitContext): Expr {
  const m = cx.m;
  const seal = (field: number) =>
    m.seq(
      m.if(
        m.ne("i32", m.globalGet(G.outChunk, "i32"), m.i32(0)),
        m.store("i32", m.globalGet(G.outChunk, "i32"), m.sub("i32", m.globalGet(G.outPos, "i32"), m.add("i32", m.globalGet(G.outChunk, "i32"), m.i32(OutputChunk.headerSize))), OutputChunk.used),
      ),
      m.store("i32", m.globalGet(G.ctl, "i32"), m.globalGet(G.outFirst, "i32"), field),
    );
  return m.seq(seal(Ctl.output), swapStreams(cx), seal(Ctl.dml), swapStreams(cx));
}

/** Exchanges the output stream and the DML log: writers always write to the "out" globals. */
export function swapStreams(cx: EmitContext): Expr {
  const m = cx.m;
  const pairs: [string, string][] = [
    [G.outFirst, G.dmlFirst],
    [G.outChunk, G.dmlChunk],
    [G.outPos, G.dmlPos],
    [G.outEnd, G.dmlEnd],
  ];
  const name = cx.helper("swap_streams", [], "none", (f) => {
    const t = f.local("i32", "t");
    return pairs.flatMap(([a, b]) => [t.set(m.globalGet(a, "i32")), m.globalSet(a, m.globalGet(b, "i32")), m.globalSet(b, t.get())]);
  });
  return m.call(name, [], "none");
}

/** A tag with no operand (PrintBegin, ObjectBegin, ArrayBegin, End, NoVertex). */
export function outTag(cx: EmitContext, tag: Out): Expr {
  const m = cx.m;
  const name = cx.helper("out_tag", [{ name: "tag", type: "i32" }], "none", (f) => m.storeNarrow("i32", 8, outReserve(cx, m.i32(1)), f.param(0).get()));
  return m.call(name, [m.i32(tag)], "none");
}

/** A tag followed by one number operand of wasm type `t` (or an 8-bit operand for Bool). */
export function outTagValue(cx: EmitContext, tag: Out, t: ValueType | "u8", value: Expr): Expr {
  const m = cx.m;
  const width = t === "u8" ? 1 : t === "i32" || t === "f32" ? 4 : 8;
  const vt: ValueType = t === "u8" ? "i32" : t;
  const name = cx.helper(`out_tag_${t}`, [{ name: "tag", type: "i32" }, { name: "v", type: vt }], "none", (f) => {
    const p = f.local("i32", "p");
    const store = t === "u8" ? m.storeNarrow("i32", 8, p.get(), f.param(1).get(), 1) : m.raw[vt].store(1, 1, p.get(), f.param(1).get());
    return [p.set(outReserve(cx, m.i32(1 + width))), m.storeNarrow("i32", 8, p.get(), f.param(0).get()), store];
  });
  return m.call(name, [m.i32(tag), value], "none");
}

/** A key from the manifest's key table. */
export function outKey(cx: EmitContext, text: string): Expr {
  return outTagValue(cx, Out.Key, "i32", cx.m.i32(cx.keyIndex(text)));
}

/** A tag followed by a u32 length and the bytes of string `s` (i64: address | length << 32). */
export function outTagString(cx: EmitContext, tag: Out, s: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("out_tag_string", [{ name: "tag", type: "i32" }, { name: "s", type: "i64" }], "none", (f) => {
    const p = f.local("i32", "p");
    const len = f.local("i32", "len");
    return [
      len.set(m.convert("i64", "i32", m.shr("i64", f.param(1).get(), m.i64(32), true))),
      p.set(outReserve(cx, m.add("i32", len.get(), m.i32(5)))),
      m.storeNarrow("i32", 8, p.get(), f.param(0).get()),
      m.raw.i32.store(1, 1, p.get(), len.get()),
      m.memoryCopy(m.add("i32", p.get(), m.i32(5)), m.convert("i64", "i32", f.param(1).get()), len.get()),
    ];
  });
  return m.call(name, [m.i32(tag), s], "none");
}

/** A vertex record header: internal id and whether the stored attributes are included. */
export function outVertexRecord(cx: EmitContext, vertex: Expr, withAttributes: boolean): Expr {
  const m = cx.m;
  const name = cx.helper("out_vertex_record", [{ name: "v", type: "i32" }, { name: "attrs", type: "i32" }], "none", (f) => {
    const p = f.local("i32", "p");
    return [
      p.set(outReserve(cx, m.i32(6))),
      m.storeNarrow("i32", 8, p.get(), m.i32(Out.VertexRecord)),
      m.raw.i32.store(1, 1, p.get(), f.param(0).get()),
      m.storeNarrow("i32", 8, p.get(), f.param(1).get(), 5),
    ];
  });
  return m.call(name, [vertex, m.i32(withAttributes ? 1 : 0)], "none");
}

/** An edge record: edge type index, from, to, slot. */
export function outEdge(cx: EmitContext, type: Expr, from: Expr, to: Expr, slot: Expr): Expr {
  const m = cx.m;
  const name = cx.helper(
    "out_edge",
    [
      { name: "t", type: "i32" },
      { name: "f", type: "i32" },
      { name: "to", type: "i32" },
      { name: "s", type: "i32" },
    ],
    "none",
    (f) => {
      const p = f.local("i32", "p");
      return [
        p.set(outReserve(cx, m.i32(17))),
        m.storeNarrow("i32", 8, p.get(), m.i32(Out.Edge)),
        ...[0, 1, 2, 3].map((i) => m.raw.i32.store(1 + 4 * i, 1, p.get(), f.param(i).get())),
      ];
    },
  );
  return m.call(name, [type, from, to, slot], "none");
}
