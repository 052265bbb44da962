// Stored attributes and type names of vertices and edges. A vertex attribute is read from
// its type's column at the vertex's local slot; when the expression's vertex may have
// several types, the vertex's type ordinal picks the column at run time. Edge attributes
// are read at the edge's eid.
import type { IrType } from "../ir/types.js";
import { FormatKind } from "../../runtime-wasm/query/abi.js";
import { IdKind, VT } from "../../runtime-wasm/store/layout.js";
import { edgeAttrColumn, edgeTypeOrdinal, GG, localSlot, vertexAttrColumn, vertexTypeHeader, vertexTypeOrdinal, vidTypeOrdinal } from "./emit-graph.js";
import { formatToString, strConst, strFromRecord } from "./emit-strings.js";
import { collectionFromRecord } from "./emit-attr-collections.js";
import { defaultValue, EdgeRecord } from "./emit-values.js";
import type { Expr } from "./module.js";
import { UnsupportedError, type ListReads, type QueryEmitter } from "./query-emitter.js";
import { wasmType } from "./wasm-types.js";

/** Reads element `index` of a column of IR type `t`. */
function loadColumn(qe: QueryEmitter, t: IrType, column: Expr, index: Expr): Expr {
  const m = qe.m;
  const cx = qe.cx;
  if (t.t === "accum") return collectionFromRecord(cx, t.accum, m.load("i32", m.add("i32", column, m.shl("i32", index, m.i32(2)))));
  if (t.t !== "scalar") throw new UnsupportedError(`reading ${t.t} attributes`);
  switch (t.name) {
    case "INT":
    case "UINT":
    case "DATETIME":
      return m.load("i64", m.add("i32", column, m.shl("i32", index, m.i32(3))));
    case "DOUBLE":
      return m.load("f64", m.add("i32", column, m.shl("i32", index, m.i32(3))));
    case "FLOAT":
      return m.load("f32", m.add("i32", column, m.shl("i32", index, m.i32(2))));
    case "BOOL":
      return m.loadNarrow("i32", 8, m.add("i32", column, index));
    case "STRING":
      return strFromRecord(cx, m.load("i32", m.add("i32", column, m.shl("i32", index, m.i32(2)))));
  }
}

/** A vertex type that has the attribute read; `primaryId`: it is the type's primary id (primary_id_as_attribute). */
export interface VertexAttrOwner {
  typeName: string;
  primaryId?: boolean;
}

/**
 * Attribute `name` of vertex `vertex` (an i32 vid expression, used once). `owners` lists
 * the types that have it; a vertex of another type reads the type's default.
 */
export function readVertexAttr(qe: QueryEmitter, vertex: Expr, name: string, owners: VertexAttrOwner[], t: IrType): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const ownerKeys = owners.map((o) => qe.vertexTypeKey(o.typeName) + (o.primaryId ? "_id" : ""));
  const helperName = cx.helper(`vattr_${ownerKeys.join("_")}_${name}`.replace(/[^A-Za-z0-9_]/g, "_"), [{ name: "v", type: "i32" }], wasmType(t), (f) => {
    const v = f.param(0);
    const ord = f.local("i32", "ord");
    const col = f.local("i32", "col");
    let column: Expr = m.i32(0);
    // pick the owner's column by the vertex's type ordinal
    for (let i = owners.length - 1; i >= 0; i--) {
      const key = qe.vertexTypeKey(owners[i].typeName);
      // the id column holds numbers as i64 and strings as record addresses, as a column would
      const own = owners[i].primaryId ? m.load("i32", vertexTypeHeader(cx, key), VT.ID_COLUMN) : vertexAttrColumn(cx, key, name);
      column = m.if(m.eq("i32", ord.get(), vertexTypeOrdinal(cx, key)), own, column);
    }
    return [
      m.if(m.eq("i32", v.get(), m.i32(-1)), m.return(defaultValue(cx, t))),
      ord.set(vidTypeOrdinal(cx, v.get())),
      col.set(column),
      m.if(m.eqz("i32", col.get()), m.return(defaultValue(cx, t))),
      loadColumn(qe, t, col.get(), localSlot(cx, v.get())),
    ];
  });
  return m.call(helperName, [vertex], wasmType(t));
}

/** Attribute of an edge of a statically known type, by its eid. */
export function readEdgeAttrStatic(qe: QueryEmitter, edgeTypeName: string, eid: Expr, name: string, t: IrType): Expr {
  const cx = qe.cx;
  const m = qe.m;
  const key = qe.edgeTypeKey(edgeTypeName);
  const helperName = cx.helper(`eattr_${key}_${name}`.replace(/[^A-Za-z0-9_]/g, "_"), [{ name: "e", type: "i32" }], wasmType(t), (f) => {
    const col = f.local("i32", "col");
    return [
      col.set(edgeAttrColumn(cx, key, name)),
      m.if(m.or("i32", m.eqz("i32", col.get()), m.lt("i32", f.param(0).get(), m.i32(0))), m.return(defaultValue(cx, t))),
      loadColumn(qe, t, col.get(), f.param(0).get()),
    ];
  });
  return m.call(helperName, [eid], wasmType(t));
}

/**
 * Attribute of the edge a list walk is at: an 8-byte attribute from the entry-ordered copy
 * when the store keeps one for the list (ListReads), anything else by eid.
 */
export function readEdgeAttrInList(qe: QueryEmitter, edgeTypeName: string, eid: Expr, reads: ListReads, name: string, t: IrType): Expr {
  const m = qe.m;
  const byEid = readEdgeAttrStatic(qe, edgeTypeName, eid, name, t);
  if (t.t !== "scalar" || !ENTRY_COPIED.has(t.name)) return byEid;
  let delta = reads.deltas.get(name);
  if (delta === undefined) {
    delta = reads.newLocal("delta");
    reads.deltas.set(name, delta);
  }
  return m.if(delta.get(), m.load(t.name === "DOUBLE" ? "f64" : "i64", m.add("i32", reads.entry.get(), delta.get())), byEid);
}

/** Attribute types the store keeps entry-ordered copies of (8-byte columns). */
const ENTRY_COPIED = new Set(["INT", "UINT", "DATETIME", "DOUBLE"]);

/** Attribute of an EDGE value (an edge record): dispatches on the record's type ordinal. */
export function readEdgeAttrDynamic(qe: QueryEmitter, record: Expr, name: string, owners: { typeName: string }[], t: IrType): Expr {
  const cx = qe.cx;
  const m = qe.m;
  const helperName = cx.helper(`erattr_${owners.map((o) => qe.edgeTypeKey(o.typeName)).join("_")}_${name}`.replace(/[^A-Za-z0-9_]/g, "_"), [{ name: "r", type: "i32" }], wasmType(t), (f) => {
    const r = f.param(0);
    let value: Expr = defaultValue(cx, t);
    for (let i = owners.length - 1; i >= 0; i--) {
      const key = qe.edgeTypeKey(owners[i].typeName);
      value = m.if(
        m.eq("i32", m.load("i32", r.get(), EdgeRecord.type), edgeTypeOrdinal(cx, key)),
        readEdgeAttrStatic(qe, owners[i].typeName, m.load("i32", r.get(), EdgeRecord.eid), name, t),
        value,
      );
    }
    return m.if(m.eqz("i32", r.get()), defaultValue(cx, t), value);
  });
  return m.call(helperName, [record], wasmType(t));
}

/** The type name of a vertex, as a STRING. */
export function vertexTypeName(qe: QueryEmitter, vertex: Expr): Expr {
  const cx = qe.cx;
  const m = qe.m;
  const names = [...qe.view.vertexByName.keys()];
  const helperName = cx.helper("vertex_type_name", [{ name: "v", type: "i32" }], "i64", (f) => {
    const ord = f.local("i32", "ord");
    let value: Expr = m.i64(0);
    for (let i = names.length - 1; i >= 0; i--) {
      value = m.if(m.eq("i32", ord.get(), vertexTypeOrdinal(cx, qe.vertexTypeKey(names[i]))), strConst(cx, names[i]), value);
    }
    return [m.if(m.eq("i32", f.param(0).get(), m.i32(-1)), m.return(m.i64(0))), ord.set(vidTypeOrdinal(cx, f.param(0).get())), value];
  });
  return m.call(helperName, [vertex], "i64");
}

/** The type name of an EDGE value (record), as a STRING. */
export function edgeRecordTypeName(qe: QueryEmitter, record: Expr): Expr {
  const cx = qe.cx;
  const m = qe.m;
  const names = [...qe.view.edgeByName.keys()];
  const helperName = cx.helper("edge_type_name", [{ name: "r", type: "i32" }], "i64", (f) => {
    const ord = f.local("i32", "ord");
    let value: Expr = m.i64(0);
    for (let i = names.length - 1; i >= 0; i--) {
      value = m.if(m.eq("i32", ord.get(), edgeTypeOrdinal(cx, qe.edgeTypeKey(names[i]))), strConst(cx, names[i]), value);
    }
    return [m.if(m.eqz("i32", f.param(0).get()), m.return(m.i64(0))), ord.set(m.load("i32", f.param(0).get(), EdgeRecord.type)), value];
  });
  return m.call(helperName, [record], "i64");
}

/** Whether an EDGE value (record) is of a directed type, as a BOOL (false for no edge). */
export function edgeRecordDirected(qe: QueryEmitter, record: Expr): Expr {
  const cx = qe.cx;
  const m = qe.m;
  const directed = [...qe.view.edgeByName.values()].filter((e) => e.directed);
  const helperName = cx.helper("edge_is_directed", [{ name: "r", type: "i32" }], "i32", (f) => {
    const ord = f.local("i32", "ord");
    const test = directed.map((e) => m.eq("i32", ord.get(), edgeTypeOrdinal(cx, qe.edgeTypeKey(e.name)))).reduce((a, b) => m.or("i32", a, b), m.i32(0));
    return [m.if(m.eqz("i32", f.param(0).get()), m.return(m.i32(0))), ord.set(m.load("i32", f.param(0).get(), EdgeRecord.type)), test];
  });
  return m.call(helperName, [record], "i32");
}

/**
 * The primary id of a vertex as a STRING (`to_string(v)`): its type's id column read at the
 * vertex's local slot, numbers formatted as PRINT shows them; "" for no vertex.
 */
export function vertexIdText(qe: QueryEmitter, vertex: Expr): Expr {
  const cx = qe.cx;
  const m = qe.m;
  const helperName = cx.helper("vertex_id_text", [{ name: "v", type: "i32" }], "i64", (f) => {
    const v = f.param(0);
    const h = f.local("i32", "h");
    const kind = f.local("i32", "kind");
    const col = f.local("i32", "col");
    const local = f.local("i32", "local");
    const wide = () => m.load("i64", m.add("i32", col.get(), m.shl("i32", local.get(), m.i32(3))));
    return [
      m.if(m.eq("i32", v.get(), m.i32(-1)), m.return(m.i64(0))),
      h.set(m.load("i32", m.add("i32", m.globalGet(GG.vertexTypeTable, "i32"), m.shl("i32", vidTypeOrdinal(cx, v.get()), m.i32(2))))),
      kind.set(m.load("i32", h.get(), VT.ID_KIND)),
      col.set(m.load("i32", h.get(), VT.ID_COLUMN)),
      local.set(localSlot(cx, v.get())),
      m.if(
        m.or("i32", m.eq("i32", kind.get(), m.i32(IdKind.STRING)), m.eq("i32", kind.get(), m.i32(IdKind.COMPOSITE))),
        m.return(strFromRecord(cx, m.load("i32", m.add("i32", col.get(), m.shl("i32", local.get(), m.i32(2)))))),
      ),
      m.if(m.eq("i32", kind.get(), m.i32(IdKind.UINT)), m.return(formatToString(cx, FormatKind.Uint, wide()))),
      m.if(m.eq("i32", kind.get(), m.i32(IdKind.DATETIME)), m.return(formatToString(cx, FormatKind.Datetime, wide()))),
      formatToString(cx, FormatKind.Int, wide()),
    ];
  });
  return m.call(helperName, [vertex], "i64");
}
