// Reading the graph from generated code, following the store's memory layout
// (runtime-wasm/store/layout.ts): the pinned version header, vid -> (type, local slot)
// through the block tables, attribute columns, and per-type adjacency lists. Schema
// elements are referred to by name at compile time and bound to the snapshot's ordinals
// when the run starts (the manifest's bindings); the prologue caches every address a run
// needs in globals.
import { Ctl } from "../../runtime-wasm/query/abi.js";
import { UNBOUND } from "../../runtime-wasm/query/manifest.js";
import { ADJ, COL, ET, VERTEX_BLOCK_MASK, VERTEX_BLOCK_SHIFT, VH, VT } from "../../runtime-wasm/store/layout.js";
import { G, type EmitContext } from "./context.js";
import type { Expr } from "./module.js";

/** Globals describing the pinned version. */
export const GG = {
  header: "g_header",
  blockType: "g_block_type",
  blockIndex: "g_block_index",
  blockCount: "g_block_count",
  vidBound: "g_vid_bound",
  vertexTypeTable: "g_vt_table",
  edgeTypeTable: "g_et_table",
  /** Address of the parameter block (bindings first). */
  params: "g_params",
} as const;

const INIT_GRAPH = "init_graph";

export function declareGraphGlobals(cx: EmitContext): void {
  for (const name of Object.values(GG)) cx.ensureGlobal(name, "i32");
}

/** Prologue call: reads the version header and binds the schema elements (defined at finish). */
export function graphPrologue(cx: EmitContext): Expr {
  return cx.m.call(INIT_GRAPH, [], "none");
}

function bindingGlobal(i: number): string {
  return `b_${i}`;
}

/** Vertex type: its header address in this version (0 when the type is absent). */
export function vertexTypeHeader(cx: EmitContext, typeKey: string): Expr {
  const i = cx.bind({ kind: "vertexType", key: typeKey });
  return cx.m.globalGet(cx.ensureGlobal(`vth_${i}`, "i32"), "i32");
}

/** Vertex type ordinal (UNBOUND when absent). */
export function vertexTypeOrdinal(cx: EmitContext, typeKey: string): Expr {
  const i = cx.bind({ kind: "vertexType", key: typeKey });
  cx.ensureGlobal(`vth_${i}`, "i32");
  return cx.m.globalGet(cx.ensureGlobal(bindingGlobal(i), "i32"), "i32");
}

export function edgeTypeHeader(cx: EmitContext, typeKey: string): Expr {
  const i = cx.bind({ kind: "edgeType", key: typeKey });
  return cx.m.globalGet(cx.ensureGlobal(`eth_${i}`, "i32"), "i32");
}

export function edgeTypeOrdinal(cx: EmitContext, typeKey: string): Expr {
  const i = cx.bind({ kind: "edgeType", key: typeKey });
  cx.ensureGlobal(`eth_${i}`, "i32");
  return cx.m.globalGet(cx.ensureGlobal(bindingGlobal(i), "i32"), "i32");
}

/** Address of a vertex attribute column (indexed by local slot); 0 when absent. */
export function vertexAttrColumn(cx: EmitContext, typeKey: string, name: string): Expr {
  vertexTypeHeader(cx, typeKey);
  const i = cx.bind({ kind: "vertexAttr", typeKey, name });
  return cx.m.globalGet(cx.ensureGlobal(`vcol_${i}`, "i32"), "i32");
}

/** Address of an edge attribute column (indexed by eid); 0 when absent. */
export function edgeAttrColumn(cx: EmitContext, typeKey: string, name: string): Expr {
  edgeTypeHeader(cx, typeKey);
  const i = cx.bind({ kind: "edgeAttr", typeKey, name });
  return cx.m.globalGet(cx.ensureGlobal(`ecol_${i}`, "i32"), "i32");
}

/** Type ordinal of a vertex id (NO_TYPE for a block no type owns). */
export function vidTypeOrdinal(cx: EmitContext, vid: Expr): Expr {
  const m = cx.m;
  return m.load("i32", m.add("i32", m.globalGet(GG.blockType, "i32"), m.shl("i32", m.shr("i32", vid, m.i32(VERTEX_BLOCK_SHIFT), true), m.i32(2))));
}

/** Local slot of a vertex id within its type (`vid` is evaluated twice: pass a local read). */
export function localSlot(cx: EmitContext, vid: Expr, vidAgain?: Expr): Expr {
  const m = cx.m;
  if (vidAgain !== undefined) {
    return m.or(
      "i32",
      m.shl("i32", m.load("i32", m.add("i32", m.globalGet(GG.blockIndex, "i32"), m.shl("i32", m.shr("i32", vid, m.i32(VERTEX_BLOCK_SHIFT), true), m.i32(2)))), m.i32(VERTEX_BLOCK_SHIFT)),
      m.and("i32", vidAgain, m.i32(VERTEX_BLOCK_MASK)),
    );
  }
  const name = cx.helper("local_slot", [{ name: "v", type: "i32" }], "i32", (f) => localSlot(cx, f.param(0).get(), f.param(0).get()));
  return m.call(name, [vid], "i32");
}

/** Address of the adjacency header of an edge type (out or in table) for a source type ordinal; 0 when none. */
export function adjacencyHeader(cx: EmitContext, edgeHeader: Expr, table: "out" | "in", typeOrdinal: Expr): Expr {
  const m = cx.m;
  const name = cx.helper(`adjacency_${table}`, [{ name: "eh", type: "i32" }, { name: "ord", type: "i32" }], "i32", (f) => {
    const [eh, ord] = [f.param(0), f.param(1)];
    return m.if(
      m.or("i32", m.eqz("i32", eh.get()), m.ge("i32", ord.get(), m.load("i32", m.globalGet(GG.header, "i32"), VH.VERTEX_TYPE_SLOTS), true)),
      m.i32(0),
      m.load("i32", m.add("i32", m.load("i32", eh.get(), table === "out" ? ET.OUT_TABLE : ET.IN_TABLE), m.shl("i32", ord.get(), m.i32(2)))),
    );
  });
  return m.call(name, [edgeHeader, typeOrdinal], "i32");
}

/** Degree of local slot `local` in an adjacency (0 when the header is 0 or the slot is beyond it).
 * Each slot's head is a pair [list address, degree]. */
export function adjacencyDegree(cx: EmitContext, adj: Expr, local: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("adjacency_degree", [{ name: "adj", type: "i32" }, { name: "l", type: "i32" }], "i32", (f) => {
    const [a, l] = [f.param(0), f.param(1)];
    return m.if(
      m.or("i32", m.eqz("i32", a.get()), m.ge("i32", l.get(), m.load("i32", a.get(), ADJ.SLOT_COUNT), true)),
      m.i32(0),
      m.load("i32", m.add("i32", m.load("i32", a.get(), ADJ.HEADS), m.shl("i32", l.get(), m.i32(3))), 4),
    );
  });
  return m.call(name, [adj, local], "i32");
}

/** Address of the edge list of local slot `local` (valid when its degree is not 0). */
export function adjacencyList(cx: EmitContext, adj: Expr, local: Expr): Expr {
  const m = cx.m;
  return m.load("i32", m.add("i32", m.load("i32", adj, ADJ.HEADS), m.shl("i32", local, m.i32(3))));
}

/**
 * For the list at `list` of an adjacency: the distance in bytes from each of its entries to
 * its edge's value of attribute `name` in the adjacency's entry-ordered copy (the store's
 * tables/entry-copies.ts), or 0 when there is none (the value is then read by eid).
 */
export function entryCopyDelta(cx: EmitContext, typeKey: string, name: string, adj: Expr, list: Expr): Expr {
  const m = cx.m;
  const column = edgeAttrColumn(cx, typeKey, name);
  const i = cx.bind({ kind: "edgeAttr", typeKey, name });
  const helperName = cx.helper(`entry_delta_${i}`, [{ name: "adj", type: "i32" }, { name: "list", type: "i32" }], "i32", (f) => {
    const [a, l] = [f.param(0), f.param(1)];
    const copies = f.local("i32", "copies");
    return [
      copies.set(m.load("i32", a.get(), ADJ.ENTRY_COPIES)),
      m.if(
        m.or(
          "i32",
          m.or("i32", m.eqz("i32", copies.get()), m.eqz("i32", column)),
          m.or("i32", m.lt("i32", l.get(), m.load("i32", a.get(), ADJ.ENTRY_BASE), true), m.ge("i32", l.get(), m.load("i32", a.get(), ADJ.ENTRY_END), true)),
        ),
        m.return(m.i32(0)),
      ),
      m.load("i32", m.add("i32", copies.get(), m.shl("i32", m.globalGet(bindingGlobal(i), "i32"), m.i32(2)))),
    ];
  });
  return m.call(helperName, [adj, list], "i32");
}

/** Bytes per entry of an adjacency's lists (4 or 8). */
export function adjacencyEntryBytes(cx: EmitContext, adj: Expr): Expr {
  return cx.m.load("i32", adj, ADJ.ENTRY_BYTES);
}

/**
 * Defines init_graph once every binding is known: version header fields into globals, each
 * binding's ordinal from the parameter block, and the addresses derived from them.
 */
export function finishGraph(cx: EmitContext): void {
  const m = cx.m;
  declareGraphGlobals(cx);
  const header = () => m.globalGet(GG.header, "i32");
  const body: Expr[] = [
    m.globalSet(GG.header, m.load("i32", m.globalGet(G.ctl, "i32"), Ctl.snapshot)),
    m.globalSet(GG.params, m.load("i32", m.globalGet(G.ctl, "i32"), Ctl.params)),
    m.globalSet(GG.vidBound, m.load("i32", m.globalGet(G.ctl, "i32"), Ctl.vidBound)),
    m.if(
      m.ne("i32", header(), m.i32(0)),
      m.seq(
        m.globalSet(GG.blockType, m.load("i32", header(), VH.BLOCK_TYPE)),
        m.globalSet(GG.blockIndex, m.load("i32", header(), VH.BLOCK_INDEX)),
        m.globalSet(GG.blockCount, m.load("i32", header(), VH.BLOCK_COUNT)),
        m.globalSet(GG.vertexTypeTable, m.load("i32", header(), VH.VERTEX_TYPE_TABLE)),
        m.globalSet(GG.edgeTypeTable, m.load("i32", header(), VH.EDGE_TYPE_TABLE)),
      ),
    ),
  ];
  // Types before attributes: an attribute's column is found through its type's header.
  for (const b of cx.bindings) {
    if (b.kind === "vertexAttr") cx.bind({ kind: "vertexType", key: b.typeKey });
    if (b.kind === "edgeAttr") cx.bind({ kind: "edgeType", key: b.typeKey });
  }
  const order = cx.bindings.map((b, i) => ({ b, i })).sort((x, y) => Number(x.b.kind.endsWith("Attr")) - Number(y.b.kind.endsWith("Attr")));
  order.forEach(({ b, i }) => {
    const ordinal = cx.ensureGlobal(bindingGlobal(i), "i32");
    body.push(m.globalSet(ordinal, m.load("i32", m.globalGet(GG.params, "i32"), 4 + 4 * i)));
    const bound = () => m.ne("i32", m.globalGet(ordinal, "i32"), m.i32(UNBOUND | 0));
    switch (b.kind) {
      case "vertexType":
        body.push(
          m.globalSet(
            cx.ensureGlobal(`vth_${i}`, "i32"),
            m.if(bound(), m.load("i32", m.add("i32", m.globalGet(GG.vertexTypeTable, "i32"), m.shl("i32", m.globalGet(ordinal, "i32"), m.i32(2)))), m.i32(0)),
          ),
        );
        break;
      case "edgeType":
        body.push(
          m.globalSet(
            cx.ensureGlobal(`eth_${i}`, "i32"),
            m.if(bound(), m.load("i32", m.add("i32", m.globalGet(GG.edgeTypeTable, "i32"), m.shl("i32", m.globalGet(ordinal, "i32"), m.i32(2)))), m.i32(0)),
          ),
        );
        break;
      case "vertexAttr":
      case "edgeAttr": {
        const owner = cx.bind(b.kind === "vertexAttr" ? { kind: "vertexType", key: b.typeKey } : { kind: "edgeType", key: b.typeKey });
        const ownerHeader = m.globalGet(b.kind === "vertexAttr" ? `vth_${owner}` : `eth_${owner}`, "i32");
        const tableField = b.kind === "vertexAttr" ? VT.ATTRIBUTE_TABLE : ET.ATTRIBUTE_TABLE;
        body.push(
          m.globalSet(
            cx.ensureGlobal(b.kind === "vertexAttr" ? `vcol_${i}` : `ecol_${i}`, "i32"),
            m.if(
              m.and("i32", bound(), m.ne("i32", ownerHeader, m.i32(0))),
              m.load(
                "i32",
                m.add("i32", m.load("i32", m.globalGet(b.kind === "vertexAttr" ? `vth_${owner}` : `eth_${owner}`, "i32"), tableField), m.mul("i32", m.globalGet(ordinal, "i32"), m.i32(COL.BYTES))),
                COL.ADDRESS,
              ),
              m.i32(0),
            ),
          ),
        );
        break;
      }
    }
  });
  m.func(INIT_GRAPH, [], "none", () => body);
}
