// Parallel SELECT, MapAccum writes: `s.@m += (k -> v)` where `s` is the walk's source alias
// (label propagation's neighbour-label counts). Each source vertex is walked by exactly one
// thread, so each such map is written by one thread only, in the same row order as the
// single-thread walk: the range writes the live maps in place, with no partial copy and no
// fold, and every map ends up with the same entries in the same insertion order (which
// iteration and output show) as a one-thread run.
//
// A helper thread may not allocate, so before the ranges run the SELECT's thread makes room
// in each source's map for as many new keys as the source can have rows times the writes a
// row makes (`reserveMaps`); the ranges then insert without ever growing a table.
//
// Only maps whose keys are numbers, booleans or vertices and whose values are accumulators
// that accumulate in place (numeric Sum/Min/Max, Avg, Or/And, BitwiseAnd/Or) qualify.
// Maps written at the target alias, or at any other vertex, stay on one thread: their writes
// would come from several threads, and the insertion order of a merge of per-thread maps
// differs from the one-thread order.
import type { IrExpr, IrSelect, IrStmt } from "../ir/ir.js";
import type { IrAccum, IrType } from "../ir/types.js";
import type { EmitContext } from "./context.js";
import { accumAdd, accumInit, containerOf } from "./emit-accum.js";
import { adjacencyDegree, adjacencyHeader, edgeTypeHeader, localSlot, vidTypeOrdinal } from "./emit-graph.js";
import { Entry, htAddNumber, htInsertReserved, htReserve } from "./emit-hash-table.js";
import { visitStmts } from "../passes/walk-ir.js";
import type { Expr, FunctionScope, Local } from "./module.js";
import type { QueryEmitter } from "./query-emitter.js";

type MapAccum = Extract<IrAccum, { a: "map" }>;

/** A source-side map the ranges write in place, and how many of its writes one row can make. */
export interface InPlaceMap {
  id: number;
  accum: MapAccum;
  writesPerRow: number;
}

function numeric(t: IrType): boolean {
  return t.t === "scalar" && (t.name === "INT" || t.name === "UINT" || t.name === "FLOAT" || t.name === "DOUBLE");
}

/** Map accumulators whose entries a range can add without allocating. */
export function inPlaceMapType(a: IrAccum): a is MapAccum {
  if (a.a !== "map") return false;
  const key = a.key;
  if (!(key.t === "vertex" || (key.t === "scalar" && key.name !== "STRING"))) return false;
  const v = a.value;
  switch (v.a) {
    case "sum":
    case "min":
    case "max":
      return numeric(v.elem);
    case "avg":
    case "or":
    case "and":
    case "bitand":
    case "bitor":
      return true;
    default:
      return false;
  }
}

/** Whether `st` is `source.@m += (k -> v)` into a map a range may write in place (operands checked by the caller). */
export function inPlaceMapWrite(qe: QueryEmitter, sel: IrSelect, st: Extract<IrStmt, { s: "accumulate" }>): boolean {
  if (st.target.t !== "vacc" || st.target.indices) return false;
  const decl = qe.accum(st.target.id);
  const value = st.value;
  if (decl.scope !== "vertex" || !inPlaceMapType(decl.type)) return false;
  if (!(st.target.vertex.e === "var" && st.target.vertex.id === sel.source.alias)) return false;
  // one key, one plain value: not a nested entry
  return value.e === "entry" && value.keys.length === 1 && value.values.length === 1 && value.values[0].e !== "entry";
}

/** Entry operands of an in-place write, for the purity check. */
export function entryOperands(value: IrExpr): IrExpr[] {
  return value.e === "entry" ? [...value.keys, ...value.values] : [value];
}

/** The source-side maps the SELECT's ACCUM writes in place (every write to them must qualify). */
export function inPlaceMaps(qe: QueryEmitter, sel: IrSelect): InPlaceMap[] {
  const writes = new Map<number, number>();
  visitStmts(sel.accum, (st) => {
    if (st.s === "accumulate" && st.target.t === "vacc" && qe.accum(st.target.id).type.a === "map") writes.set(st.target.id, (writes.get(st.target.id) ?? 0) + 1);
  });
  return [...writes].map(([id, n]) => ({ id, accum: qe.accumType(id) as MapAccum, writesPerRow: n }));
}

/**
 * `state += (k -> v)` in a range: the source's table exists and has room (reserveMaps), so
 * the entry is found or appended without allocating; a new key's value starts at its
 * accumulator's default.
 */
export function reservedEntryWrite(cx: EmitContext, f: FunctionScope, a: MapAccum, state: Expr, key: Expr, value: Expr, valueType: IrType): Expr {
  const m = cx.m;
  const v = a.value;
  if (v.a === "sum" && numeric(v.elem) && valueType.t === "scalar" && valueType.name === (v.elem as { name: string }).name) {
    return htAddNumber(cx, a.key, v.elem, m.load("i32", state), key, value, true);
  }
  const e = f.local("i32", "map_entry");
  const valueState = () => m.add("i32", m.and("i32", e.get(), m.i32(-8)), m.i32(Entry.value));
  return m.seq(
    e.set(htInsertReserved(cx, a.key, m.load("i32", state), key)),
    m.if(m.and("i32", e.get(), m.i32(1)), accumInit(cx, v, valueState())),
    accumAdd(cx, v, valueState(), value, valueType),
  );
}

/**
 * Before the ranges run, on the SELECT's thread: for each source vertex in `list` ([count,
 * vid...]), room in its map of each in-place accumulator for its rows (its degree over the
 * hop's edge types) times the writes per row.
 */
export function reserveMaps(qe: QueryEmitter, f: FunctionScope, sel: IrSelect, maps: InPlaceMap[], list: Local): Expr {
  const m = qe.m;
  const cx = qe.cx;
  if (maps.length === 0) return m.nop();
  const i = f.local("i32", "res_i");
  const v = f.local("i32", "res_v");
  const ord = f.local("i32", "res_ord");
  const local = f.local("i32", "res_local");
  const rows = f.local("i32", "res_rows");
  const hop = sel.hops[0]!;
  let degree: Expr = m.i32(0);
  for (const match of hop.edges) {
    const adj = adjacencyHeader(cx, edgeTypeHeader(cx, qe.edgeTypeKey(match.edgeType)), match.direction === "in" ? "in" : "out", ord.get());
    degree = m.add("i32", degree, adjacencyDegree(cx, adj, local.get()));
  }
  const perMap = maps.map((mp) => {
    const state = m.add("i32", m.globalGet(qe.accumGlobal(mp.id), "i32"), m.mul("i32", v.get(), m.i32(8)));
    return htReserve(cx, mp.accum.key, containerOf(cx, mp.accum, state), m.mul("i32", rows.get(), m.i32(mp.writesPerRow)));
  });
  return f.forRange(i, m.i32(0), m.load("i32", list.get()), () => [
    v.set(m.load("i32", m.add("i32", list.get(), m.shl("i32", m.add("i32", i.get(), m.i32(1)), m.i32(2))))),
    ord.set(vidTypeOrdinal(cx, v.get())),
    local.set(localSlot(cx, v.get(), v.get())),
    rows.set(degree),
    m.if(rows.get(), m.seq(...perMap)),
  ]);
}
