// Data modification in queries (gsql-semantics §5): attribute writes, INSERT INTO, DELETE.
// A query is one transaction whose writes it never sees itself, so nothing here touches
// the graph: each write becomes a record of the data-modification log (Dml in the ABI),
// which the host applies through the store once the run has succeeded.
import { Dml } from "../../runtime-wasm/query/abi.js";
import type { IrExpr, IrStmt, IrTarget } from "../ir/ir.js";
import type { IrAccum, IrType } from "../ir/types.js";
import { accumAdd, accumulateEntry, newContainer } from "./emit-accum.js";
import { alloc } from "./emit-arena.js";
import { emitExpr } from "./emit-expr.js";
import { edgeTypeOrdinal, vertexTypeOrdinal, vidTypeOrdinal } from "./emit-graph.js";
import { outReserve, swapStreams } from "./emit-output.js";
import { EdgeRecord } from "./emit-values.js";
import { writeValue } from "./emit-write.js";
import type { Expr } from "./module.js";
import { UnsupportedError, type QueryEmitter } from "./query-emitter.js";

/** One u32 operand (written unaligned, like the output stream's). */
function u32(qe: QueryEmitter, value: Expr): Expr {
  const m = qe.m;
  const name = qe.cx.helper("dml_u32", [{ name: "v", type: "i32" }], "none", (f) => m.raw.i32.store(0, 1, outReserve(qe.cx, m.i32(4)), f.param(0).get()));
  return m.call(name, [value], "none");
}

function op(qe: QueryEmitter, code: Dml): Expr {
  const m = qe.m;
  const name = qe.cx.helper("dml_op", [{ name: "op", type: "i32" }], "none", (f) => m.storeNarrow("i32", 8, outReserve(qe.cx, m.i32(1)), f.param(0).get()));
  return m.call(name, [m.i32(code)], "none");
}

/** A record written to the DML log (the output stream swapped out meanwhile). */
function record(qe: QueryEmitter, parts: Expr[]): Expr {
  return qe.m.seq(swapStreams(qe.cx), ...parts, swapStreams(qe.cx));
}

function attrBinding(qe: QueryEmitter, element: "vertex" | "edge", typeName: string, attr: string): number {
  return element === "vertex"
    ? qe.cx.bind({ kind: "vertexAttr", typeKey: qe.vertexTypeKey(typeName), name: attr })
    : qe.cx.bind({ kind: "edgeAttr", typeKey: qe.edgeTypeKey(typeName), name: attr });
}

/** `v.attr = x` / `v.attr += x` / `e.attr = x`. */
export function emitAttrWrite(qe: QueryEmitter, target: Extract<IrTarget, { t: "attr" }>, value: IrExpr, accumulate: boolean): Expr {
  const m = qe.m;
  const f = qe.f;
  if (target.element === "vertex") {
    const v = f.local("i32", "dv");
    const binding = f.local("i32", "db");
    // the attribute's binding for the vertex's type (owners lists the types that have it)
    let choose: Expr = m.i32(-1);
    for (let i = target.owners.length - 1; i >= 0; i--) {
      const owner = target.owners[i].typeName;
      choose = m.if(m.eq("i32", vidTypeOrdinal(qe.cx, v.get()), vertexTypeOrdinal(qe.cx, qe.vertexTypeKey(owner))), m.i32(attrBinding(qe, "vertex", owner, target.name)), choose);
    }
    return m.seq(
      v.set(emitExpr(qe, target.target)),
      m.if(
        m.ne("i32", v.get(), m.i32(-1)),
        m.seq(
          binding.set(choose),
          m.if(
            m.ne("i32", binding.get(), m.i32(-1)),
            record(qe, [op(qe, accumulate ? Dml.AddVertexAttr : Dml.SetVertexAttr), u32(qe, v.get()), u32(qe, binding.get()), attrWriteValue(qe, target.valueType, value, accumulate)]),
          ),
        ),
      ),
    );
  }
  const edge = target.target.e === "var" ? qe.clause.edges.get(target.target.id) : undefined;
  if (!edge) return edgeValueAttrWrite(qe, target, value, accumulate);
  const binding = attrBinding(qe, "edge", edge.edgeTypeName, target.name);
  const typeBinding = qe.cx.bind({ kind: "edgeType", key: edge.edgeTypeKey });
  return record(qe, [
    op(qe, accumulate ? Dml.AddEdgeAttr : Dml.SetEdgeAttr),
    u32(qe, m.i32(typeBinding)),
    u32(qe, edge.from.get()),
    u32(qe, edge.to.get()),
    u32(qe, edge.eid.get()),
    u32(qe, m.i32(binding)),
    attrWriteValue(qe, target.valueType, value, accumulate),
  ]);
}

/**
 * `e.attr = x` on an EDGE value (an edge record, as an EDGE variable or a FOREACH over edges
 * holds): the write of whichever of the attribute's edge types the record is of; no edge (a
 * null record) writes nothing.
 */
function edgeValueAttrWrite(qe: QueryEmitter, target: Extract<IrTarget, { t: "attr" }>, value: IrExpr, accumulate: boolean): Expr {
  const m = qe.m;
  const r = qe.f.local("i32", "der");
  const field = (offset: number) => u32(qe, m.load("i32", r.get(), offset));
  let write: Expr = m.nop();
  for (let i = target.owners.length - 1; i >= 0; i--) {
    const owner = target.owners[i]!.typeName;
    const key = qe.edgeTypeKey(owner);
    write = m.if(
      m.eq("i32", m.load("i32", r.get(), EdgeRecord.type), edgeTypeOrdinal(qe.cx, key)),
      record(qe, [
        op(qe, accumulate ? Dml.AddEdgeAttr : Dml.SetEdgeAttr),
        u32(qe, m.i32(qe.cx.bind({ kind: "edgeType", key }))),
        field(EdgeRecord.from),
        field(EdgeRecord.to),
        field(EdgeRecord.eid),
        u32(qe, m.i32(attrBinding(qe, "edge", owner, target.name))),
        attrWriteValue(qe, target.valueType, value, accumulate),
      ]),
      write,
    );
  }
  return m.seq(r.set(emitExpr(qe, target.target)), m.if(m.ne("i32", r.get(), m.i32(0)), write));
}

export function emitInsertVertex(qe: QueryEmitter, s: Extract<IrStmt, { s: "insertVertex" }>): Expr {
  const m = qe.m;
  const vt = qe.view.vertexType(s.vertexType);
  if (!vt) throw new UnsupportedError(`INSERT INTO the unknown vertex type ${s.vertexType}`);
  const typeBinding = qe.cx.bind({ kind: "vertexType", key: vt.key });
  const attrs = s.attrs.map((a) => ({ name: a.index >= 0 ? vt.attributes[a.index]?.name : a.name, value: a.value })).filter((a) => a.name !== undefined && a.name !== vt.primaryId.name);
  return record(qe, [
    op(qe, Dml.InsertVertex),
    u32(qe, m.i32(typeBinding)),
    writeValue(qe.cx, s.id.type, emitExpr(qe, s.id)),
    u32(qe, m.i32(attrs.length)),
    ...attrs.flatMap((a) => [u32(qe, m.i32(attrBinding(qe, "vertex", s.vertexType, a.name!))), writeAttrValue(qe, a.value)]),
  ]);
}

export function emitInsertEdge(qe: QueryEmitter, s: Extract<IrStmt, { s: "insertEdge" }>): Expr {
  const m = qe.m;
  const et = qe.view.edgeType(s.edgeType);
  if (!et) throw new UnsupportedError(`INSERT INTO the unknown edge type ${s.edgeType}`);
  const endpoint = (x: IrExpr, typeName: string | undefined, pairEnd: "from" | "to"): Expr[] => {
    if (x.type.t === "vertex") return [endpointTag(qe, 0), u32(qe, emitExpr(qe, x))];
    const name = typeName ?? (new Set(et.pairs.map((p) => p[pairEnd])).size === 1 ? et.pairs[0][pairEnd] : undefined);
    if (name === undefined) throw new UnsupportedError(`INSERT INTO ${s.edgeType} without the ${pairEnd} vertex type`);
    return [endpointTag(qe, 1), u32(qe, m.i32(qe.cx.bind({ kind: "vertexType", key: qe.vertexTypeKey(name) }))), writeValue(qe.cx, x.type, emitExpr(qe, x))];
  };
  const attrs = s.attrs.map((a) => ({ name: a.index >= 0 ? et.attributes[a.index]?.name : a.name, value: a.value })).filter((a) => a.name !== undefined);
  return record(qe, [
    op(qe, Dml.InsertEdge),
    u32(qe, m.i32(qe.cx.bind({ kind: "edgeType", key: et.key }))),
    ...endpoint(s.from, s.fromType, "from"),
    ...endpoint(s.to, s.toType, "to"),
    u32(qe, m.i32(attrs.length)),
    ...attrs.flatMap((a) => [u32(qe, m.i32(attrBinding(qe, "edge", s.edgeType, a.name!))), writeAttrValue(qe, a.value)]),
  ]);
}

function endpointTag(qe: QueryEmitter, kind: 0 | 1): Expr {
  const m = qe.m;
  const name = qe.cx.helper("dml_u8", [{ name: "v", type: "i32" }], "none", (f) => m.storeNarrow("i32", 8, outReserve(qe.cx, m.i32(1)), f.param(0).get()));
  return m.call(name, [m.i32(kind)], "none");
}

/** DELETE(v) / DELETE(e): a vertex (with its edges) or an edge. */
export function emitDelete(qe: QueryEmitter, target: IrExpr): Expr {
  const m = qe.m;
  const f = qe.f;
  if (target.type.t === "vertex") {
    const v = f.local("i32", "dv");
    return m.seq(v.set(emitExpr(qe, target)), m.if(m.ne("i32", v.get(), m.i32(-1)), record(qe, [op(qe, Dml.DeleteVertex), u32(qe, v.get())])));
  }
  if (target.type.t !== "edge") throw new UnsupportedError(`DELETE of a ${target.type.t}`);
  const edge = target.e === "var" ? qe.clause.edges.get(target.id) : undefined;
  if (edge) {
    const ordinal = qe.cx.bind({ kind: "edgeType", key: edge.edgeTypeKey });
    return record(qe, [op(qe, Dml.DeleteEdge), u32(qe, m.globalGet(qe.cx.ensureGlobal(`b_${ordinal}`, "i32"), "i32")), u32(qe, edge.from.get()), u32(qe, edge.to.get()), u32(qe, edge.eid.get())]);
  }
  const r = f.local("i32", "dr");
  return m.seq(
    r.set(emitExpr(qe, target)),
    m.if(
      r.get(),
      record(qe, [
        op(qe, Dml.DeleteEdge),
        u32(qe, m.load("i32", r.get(), EdgeRecord.type)),
        u32(qe, m.load("i32", r.get(), EdgeRecord.from)),
        u32(qe, m.load("i32", r.get(), EdgeRecord.to)),
        u32(qe, m.load("i32", r.get(), EdgeRecord.eid)),
      ]),
    ),
  );
}

// FILE output (emit-file.ts) writes its records into the same log.
export { record as dmlRecord, op as dmlOp, u32 as dmlU32 };

/**
 * The value of `x.attr = value` / `x.attr += value`. `+=` of one element to a LIST or SET
 * attribute (`v.tags += "seen"`) sends a one-element collection: the store's `+` on such an
 * attribute appends (LIST) or adds what is new (SET) from a collection.
 */
function attrWriteValue(qe: QueryEmitter, attrType: IrType, value: IrExpr, accumulate: boolean): Expr {
  const collection = attrType.t === "accum" && (attrType.accum.a === "list" || attrType.accum.a === "set") ? attrType.accum : undefined;
  if (!accumulate || collection === undefined || value.type.t === "accum") return writeValue(qe.cx, attrType, emitExpr(qe, value));
  const built = oneItemContainer(qe, collection, (cell) => accumAdd(qe.cx, collection, cell, emitExpr(qe, value), value.type));
  return writeValue(qe.cx, attrType, built);
}

/** An INSERT value: a `(k -> v)` entry is a one-entry MAP value; anything else as it is. */
function writeAttrValue(qe: QueryEmitter, value: IrExpr): Expr {
  if (value.e !== "entry") return writeValue(qe.cx, value.type, emitExpr(qe, value));
  const cx = qe.cx;
  if (value.keys.length !== 1 || value.values.length !== 1) throw new UnsupportedError("an entry with several keys or values as an attribute value");
  const map: IrAccum = { a: "map", key: value.keys[0]!.type, value: { a: "replace", elem: value.values[0]!.type } };
  const built = oneItemContainer(qe, map, (cell) =>
    accumulateEntry(cx, map, cell, [{ expr: emitExpr(qe, value.keys[0]!), type: map.key }], [{ expr: emitExpr(qe, value.values[0]!), type: value.values[0]!.type }]),
  );
  return writeValue(cx, { t: "accum", accum: map }, built);
}

/** A fresh container of `accum` (its address) after `add` put one item in it through its state cell. */
function oneItemContainer(qe: QueryEmitter, accum: IrAccum, add: (cell: Expr) => Expr): Expr {
  const m = qe.m;
  const cell = qe.f.local("i32", "one_item");
  return m.block(null, [cell.set(alloc(qe.cx, m.i32(8))), m.store("i32", cell.get(), newContainer(qe.cx, accum)), add(cell.get()), m.load("i32", cell.get())], "i32");
}
