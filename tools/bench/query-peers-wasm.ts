// A hand-written WebAssembly PageRank kernel reading the graph store's own adjacency arrays
// (the compacted lists of edge type E for vertex type V): the bound for what a compiled
// GSQL PageRank can reach over the same data.
import { WasmModule } from "../../compiler/emit/module.js";
import { storeLender } from "../../runtime-wasm/query/store-bridge.js";
import { ADJ, ET, VERTEX_BLOCK_SHIFT, VH, VT } from "../../runtime-wasm/store/layout.js";
import type { GraphStore } from "../../runtime-wasm/store/index.js";

/** Times of each of `iterations` passes. */
export function wasmPageRankKernel(store: GraphStore, iterations: number): { iterationMs: number[]; top: number } {
  const snap = store.snapshot();
  try {
    const view = new DataView(store.memory.buffer);
    const u32 = (a: number) => view.getUint32(a, true);
    const header = snap.headerAddress;
    const vType = snap.layout.vertexTypes.find((t) => t.key === "V")!;
    const eType = snap.layout.edgeTypes.find((t) => t.key === "E")!;
    const vth = u32(u32(header + VH.VERTEX_TYPE_TABLE) + 4 * vType.ordinal);
    const eth = u32(u32(header + VH.EDGE_TYPE_TABLE) + 4 * eType.ordinal);
    const adj = u32(u32(eth + ET.OUT_TABLE) + 4 * vType.ordinal);
    // Vertices with edges: the adjacency's slots; targets may be any vertex id of the version.
    const n = u32(adj + ADJ.SLOT_COUNT);
    const vertices = u32(header + VH.BLOCK_COUNT) << VERTEX_BLOCK_SHIFT;
    // One vertex type whose blocks are in order: a vertex's id is its local slot.
    const blocks = u32(vth + VT.BLOCKS);
    for (let b = 0; b < Math.ceil(u32(vth + VT.SLOT_COUNT) / (1 << VERTEX_BLOCK_SHIFT)); b++) {
      if (u32(blocks + 4 * b) !== b) throw new Error("bench kernel expects vertex ids equal to local slots");
    }
    const lender = storeLender(store);
    const score = lender.lend(8 * vertices);
    const recvd = lender.lend(8 * vertices);
    const m = new WasmModule();
    m.importSharedMemory({ module: "graph", base: "memory" });
    const P = (name: string) => ({ name, type: "i32" as const });
    // heads: [list address, degree] per vertex
    m.func("iterate", [P("heads"), P("score"), P("recvd"), P("n"), P("eb")], "none", (f) => {
      const [heads, sc, rc, count, eb] = [0, 1, 2, 3, 4].map((i) => f.param(i));
      const v = f.local("i32", "v");
      const i = f.local("i32", "i");
      const deg = f.local("i32", "deg");
      const list = f.local("i32", "list");
      const share = f.local("f64", "share");
      const t = f.local("i32", "t");
      // (an expression reference is a number too, so the index is always an expression)
      const at = (base: typeof sc, k: ReturnType<typeof v.get>) => m.add("i32", base.get(), m.shl("i32", k, m.i32(3)));
      return [
        f.forRange(v, m.i32(0), count.get(), () => [
          deg.set(m.load("i32", m.add("i32", heads.get(), m.shl("i32", v.get(), m.i32(3))), 4)),
          m.if(
            deg.get(),
            m.seq(
              list.set(m.load("i32", m.add("i32", heads.get(), m.shl("i32", v.get(), m.i32(3))))),
              share.set(m.div("f64", m.load("f64", at(sc, v.get())), m.convert("i32", "f64", deg.get()))),
              f.forRange(i, m.i32(0), deg.get(), () => [
                t.set(m.load("i32", m.add("i32", list.get(), m.mul("i32", i.get(), eb.get())))),
                m.store("f64", at(rc, t.get()), m.add("f64", m.load("f64", at(rc, t.get())), share.get())),
              ]),
            ),
          ),
        ]),
        f.forRange(v, m.i32(0), count.get(), () => [
          m.if(
            m.load("i32", m.add("i32", heads.get(), m.shl("i32", v.get(), m.i32(3))), 4),
            m.seq(m.store("f64", at(sc, v.get()), m.add("f64", m.f64(0.15), m.mul("f64", m.f64(0.85), m.load("f64", at(rc, v.get()))))), m.store("f64", at(rc, v.get()), m.f64(0))),
          ),
        ]),
      ];
    }, "iterate");
    m.validate();
    m.optimize(2);
    const module = new WebAssembly.Module(m.binary() as Uint8Array<ArrayBuffer>);
    m.dispose();
    const instance = new WebAssembly.Instance(module, { graph: { memory: store.memory as unknown as WebAssembly.Memory } });
    const iterate = instance.exports.iterate as (...a: number[]) => void;
    const f64 = new Float64Array(store.memory.buffer);
    f64.fill(1, score / 8, score / 8 + vertices);
    f64.fill(0, recvd / 8, recvd / 8 + vertices);
    const iterationMs: number[] = [];
    for (let k = 0; k < iterations; k++) {
      const t0 = performance.now();
      iterate(u32(adj + ADJ.HEADS), score, recvd, n, u32(adj + ADJ.ENTRY_BYTES));
      iterationMs.push(performance.now() - t0);
    }
    // The highest score, to check the kernel against the other implementations.
    let top = -Infinity;
    const scores = new Float64Array(store.memory.buffer, score, vertices);
    for (let v = 0; v < vertices; v++) if (scores[v] > top) top = scores[v];
    lender.takeBack(score, 8 * vertices);
    lender.takeBack(recvd, 8 * vertices);
    return { iterationMs, top };
  } finally {
    snap.release();
  }
}
