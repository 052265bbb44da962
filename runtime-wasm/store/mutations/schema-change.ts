// Moving the store to a new schema: types matched by key are kept (attributes matched by name,
// new ones filled with their default), missing keys are dropped with their data, new keys get
// new ordinals. Ordinals are never reused, so code bound to an ordinal stays valid while its
// type exists. Also clearing all data.
import type { DatabaseSchema, EdgeType, VertexType } from "../../schema/types.js";
import { StoreError } from "../errors.js";
import type { StoreState } from "../state.js";
import { EdgeTable } from "../tables/edge-table.js";
import { VertexTable } from "../tables/vertex-table.js";
import { sameType, tupleTable } from "../values/coerce.js";
import { idKindOf } from "../values/ids.js";
import { removeAllVertices } from "./delete.js";

export function applySchema(state: StoreState, next: DatabaseSchema): void {
  const schema = structuredClone(next);
  validate(state, schema);
  state.ctx.tuples = tupleTable(schema.tuples);
  const vertexKeys = new Set(schema.vertexTypes.map((t) => t.key));
  const forwardEdges = schema.edgeTypes.filter((e) => !e.reverseOf || !forwardOf(schema, e));
  const edgeKeys = new Set(forwardEdges.map((t) => t.key));

  for (const table of state.edgeTables) {
    if (table && !edgeKeys.has(table.key)) dropEdgeTable(state, table);
  }
  for (const table of state.vertexTables) {
    if (!table || vertexKeys.has(table.key)) continue;
    if (table.liveCount > 0) removeAllVertices(state, table, false);
    table.dispose();
    state.vertexTables[table.ordinal] = null;
    state.vertexByKey.delete(table.key);
  }

  for (const def of schema.vertexTypes) {
    const table = state.vertexByKey.get(def.key);
    if (table) table.setAttributes(def);
    else addVertexTable(state, def);
  }
  for (const def of forwardEdges) {
    const ref = state.edgeByKey.get(def.key);
    if (!ref) addEdgeTable(state, def);
    else alterEdgeTable(state, ref.table, def);
  }
  for (const def of schema.edgeTypes) {
    const forward = def.reverseOf ? forwardOf(schema, def) : undefined;
    if (!forward) continue;
    const table = state.edgeByKey.get(forward.key)!.table;
    if (!table.reverse || table.reverse.key !== def.key) {
      if (table.reverse) state.edgeByKey.delete(table.reverse.key);
      table.reverse = { key: def.key, ordinal: state.edgeTables.length };
      state.edgeTables.push(null);
      table.dirty = true;
    }
    state.edgeByKey.set(def.key, { table, reversed: true, key: def.key, ordinal: table.reverse.ordinal });
  }
  for (const table of state.edgeTables) {
    if (!table?.reverse || schema.edgeTypes.some((e) => e.key === table.reverse!.key)) continue;
    state.edgeByKey.delete(table.reverse.key);
    state.space.release(table.reverseHeader);
    table.reverseHeader = null;
    table.reverse = null;
    table.dirty = true;
  }
  refreshAllowedPairs(state, schema);
  state.schema = schema;
  state.refreshCatalog();
}

/** Recompute which (source, target) vertex types each edge type connects. */
export function refreshAllowedPairs(state: StoreState, schema: DatabaseSchema): void {
  for (const table of state.edgeTables) if (table) table.allowed = allowedPairs(state, schema, table.def);
}

/** Delete all data and retired ids, keeping the schema. */
export function clearData(state: StoreState): void {
  for (const table of state.edgeTables) table?.clearEdges();
  for (const table of state.vertexTables) table?.clearVertices(false);
  state.ctx.heap.clear();
}

function validate(state: StoreState, schema: DatabaseSchema): void {
  const fail = (message: string) => new StoreError("INVALID_SCHEMA", message);
  const seen = new Set<string>();
  for (const t of [...schema.vertexTypes, ...schema.edgeTypes]) {
    if (seen.has(t.key)) throw fail(`type key ${t.key} is used twice`);
    seen.add(t.key);
  }
  for (const def of schema.vertexTypes) {
    const table = state.vertexByKey.get(def.key);
    if (!table) continue;
    if (idKindOf(def) !== table.idKind || JSON.stringify(def.compositeKey ?? []) !== JSON.stringify(table.def.compositeKey ?? [])) {
      throw fail(`the primary id of vertex type ${def.name} cannot change`);
    }
  }
  for (const def of schema.edgeTypes) {
    if (def.reverseOf && forwardOf(schema, def)) continue;
    const ref = state.edgeByKey.get(def.key);
    if (!ref) continue;
    if (ref.reversed) throw fail(`edge type ${def.name} was a reverse edge type`);
    if (ref.table.def.directed !== def.directed) throw fail(`edge type ${def.name} cannot change between directed and undirected`);
    if (JSON.stringify(ref.table.def.discriminator) !== JSON.stringify(def.discriminator)) throw fail(`the discriminator of edge type ${def.name} cannot change`);
    for (const attr of def.attributes) {
      const old = ref.table.def.attributes.find((a) => a.name === attr.name);
      if (old && def.discriminator.includes(attr.name) && !sameType(old.type, attr.type)) throw fail(`discriminator ${attr.name} cannot change type`);
    }
  }
  for (const def of schema.edgeTypes) {
    for (const pair of def.pairs) {
      if (!resolveVertex(schema, def, pair.from) || !resolveVertex(schema, def, pair.to)) {
        throw fail(`edge type ${def.name} names a vertex type that does not exist (${pair.from} or ${pair.to})`);
      }
    }
  }
}

function addVertexTable(state: StoreState, def: VertexType): void {
  const table = new VertexTable(state.ctx, def, def.key, state.vertexTables.length, idKindOf(def));
  state.vertexTables.push(table);
  state.vertexByKey.set(def.key, table);
}

function addEdgeTable(state: StoreState, def: EdgeType): void {
  const table = new EdgeTable(state.ctx, def, def.key, state.edgeTables.length);
  state.edgeTables.push(table);
  state.edgeByKey.set(def.key, { table, reversed: false, key: def.key, ordinal: table.ordinal });
}

function alterEdgeTable(state: StoreState, table: EdgeTable, def: EdgeType): void {
  // Attributes are kept, dropped or added by name; a changed type is a drop and an add.
  table.setAttributes(def);
  if (!table.hasEid && (def.attributes.length > 0 || def.discriminator.length > 0)) {
    table.convertToEids(
      (ordinal, local) => state.vertexTables[ordinal]!.vidOf(local),
      (vid) => {
        const { table: vt, local } = state.vertexOf(vid);
        return { ordinal: vt.ordinal, local };
      },
    );
  }
}

function dropEdgeTable(state: StoreState, table: EdgeTable): void {
  table.dispose();
  state.edgeTables[table.ordinal] = null;
  state.edgeByKey.delete(table.key);
  if (table.reverse) state.edgeByKey.delete(table.reverse.key);
}

/** The forward type a reverse edge type belongs to (same graph scope first, then global). */
function forwardOf(schema: DatabaseSchema, reverse: EdgeType): EdgeType | undefined {
  const candidates = schema.edgeTypes.filter((e) => e.name === reverse.reverseOf && !e.reverseOf);
  return candidates.find((e) => e.graph === reverse.graph) ?? candidates.find((e) => e.graph === undefined);
}

/** A vertex type named in an edge type's FROM/TO: the edge's own graph's local type first, then the global one. */
function resolveVertex(schema: DatabaseSchema, edge: EdgeType, name: string): VertexType | undefined {
  const candidates = schema.vertexTypes.filter((v) => v.name === name);
  return candidates.find((v) => edge.graph !== undefined && v.graph === edge.graph) ?? candidates.find((v) => v.graph === undefined);
}

function allowedPairs(state: StoreState, schema: DatabaseSchema, def: EdgeType): Set<number> {
  const pairs = new Set<number>();
  for (const pair of def.pairs) {
    const from = state.vertexByKey.get(resolveVertex(schema, def, pair.from)!.key)!;
    const to = state.vertexByKey.get(resolveVertex(schema, def, pair.to)!.key)!;
    pairs.add(from.ordinal * 65536 + to.ordinal);
  }
  return pairs;
}
