// Deleting vertices (with every edge that touches them, in every edge type and direction) and
// deleting edges by selector. Each call validates first, then changes, then publishes one
// version.
import type { AttrValue } from "../../schema/types.js";
import type { DeleteEdgesResult, DeleteVertexOptions, DeleteVerticesResult, EdgeRecord, EdgeSelector, ExternalId } from "../api.js";
import { shown, StoreError } from "../errors.js";
import type { EdgeRef, StoreState } from "../state.js";
import type { Adjacency } from "../tables/adjacency.js";
import type { EdgeTable } from "../tables/edge-table.js";
import type { VertexTable } from "../tables/vertex-table.js";
import { coerceValue, valueKey } from "../values/coerce.js";
import { normalizeId } from "../values/ids.js";

export function deleteVertices(state: StoreState, type: string, ids: Iterable<ExternalId>, options: DeleteVertexOptions = {}): DeleteVerticesResult {
  const table = vertexTable(state, type);
  const locals = new Set<number>();
  for (const raw of ids) {
    const key = normalizeId(table.def, table.idKind, raw, table.ctx.tuples);
    const local = key === undefined ? -1 : table.find(key);
    if (local >= 0) locals.add(local);
  }
  if (locals.size === 0) return { deletedVertices: 0, deletedEdges: {}, version: state.current.version };
  const deleted = new Set<number>();
  for (const local of locals) deleted.add(table.vidOf(local));
  const deletedEdges = removeIncidentEdges(state, deleted);
  for (const local of locals) {
    for (const t of state.edgeTables) {
      if (!t) continue;
      t.out.get(table.ordinal)?.clear(local);
      t.in.get(table.ordinal)?.clear(local);
    }
    table.remove(local, table.keyAt(local), options.permanent === true);
  }
  state.autoCompact();
  return { deletedVertices: locals.size, deletedEdges, version: state.publish().version };
}

export function deleteAllVertices(state: StoreState, type: string, options: DeleteVertexOptions = {}): DeleteVerticesResult {
  const table = vertexTable(state, type);
  if (table.liveCount === 0) return { deletedVertices: 0, deletedEdges: {}, version: state.current.version };
  const { count, deletedEdges } = removeAllVertices(state, table, options.permanent === true);
  state.autoCompact();
  return { deletedVertices: count, deletedEdges, version: state.publish().version };
}

/** Delete every vertex of a type and their edges, without publishing (schema changes reuse it). */
export function removeAllVertices(state: StoreState, table: VertexTable, permanent: boolean): { count: number; deletedEdges: Record<string, number> } {
  const count = table.liveCount;
  const deleted = new Set<number>();
  for (let local = 0; local < table.slotCount; local++) {
    if (!table.isAlive(local)) continue;
    deleted.add(table.vidOf(local));
    if (permanent) table.retireKey(table.keyAt(local), local);
  }
  const deletedEdges = removeIncidentEdges(state, deleted);
  for (const t of state.edgeTables) {
    if (!t) continue;
    for (const map of t.directed ? [t.out, t.in] : [t.out]) {
      map.get(table.ordinal)?.dispose();
      map.delete(table.ordinal);
    }
    t.dirty = true;
  }
  table.clearVertices(true);
  return { count, deletedEdges };
}

/**
 * Remove every edge touching a deleted vertex from the lists of the vertices that stay, free
 * the eids and count each edge once. The deleted vertices' own lists are cleared by the caller.
 */
function removeIncidentEdges(state: StoreState, deleted: Set<number>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const table of state.edgeTables) {
    if (!table) continue;
    const counterparts = new Map<Adjacency, Set<number>>();
    const note = (direction: "out" | "in", vid: number) => {
      const { table: vt, local } = state.vertexOf(vid);
      const adj = (direction === "out" ? table.out : table.in).get(vt.ordinal);
      if (!adj) return;
      let set = counterparts.get(adj);
      if (!set) counterparts.set(adj, (set = new Set()));
      set.add(local);
    };
    let removed = 0;
    for (const vid of deleted) {
      const { table: vt, local } = state.vertexOf(vid);
      table.out.get(vt.ordinal)?.forEach(local, (target, eid) => {
        const targetDeleted = deleted.has(target);
        // Undirected edges among deleted vertices are counted from their lower end.
        if (table.directed || !targetDeleted || target === vid || vid < target) {
          removed++;
          table.freeEid(eid);
        }
        if (!targetDeleted) note("in", target);
      });
      if (!table.directed) continue;
      table.in.get(vt.ordinal)?.forEach(local, (source, eid) => {
        if (deleted.has(source)) return;
        removed++;
        table.freeEid(eid);
        note("out", source);
      });
    }
    for (const [adj, locals] of counterparts) for (const local of locals) adj.removeWhere(local, (target) => deleted.has(target));
    if (removed > 0) {
      table.edgeCount -= removed;
      table.dirty = true;
      counts[table.key] = removed;
    }
  }
  return counts;
}

interface EdgeMatch {
  ref: EdgeRef;
  /** The stored edge's ends in the table's own direction. */
  from: number;
  to: number;
  eid: number;
}

export function deleteEdges(state: StoreState, selectors: EdgeSelector[]): DeleteEdgesResult {
  const matches = new Map<string, EdgeMatch>();
  for (const selector of selectors) {
    for (const m of matchEdges(state, selector)) {
      // An edge matched twice (from both ends, or as forward and reverse type) counts once, under its first match.
      const key = matchKey(m);
      if (!matches.has(key)) matches.set(key, m);
    }
  }
  if (matches.size === 0) return { deletedEdges: {}, version: state.current.version };
  const counts: Record<string, number> = {};
  for (const m of matches.values()) {
    const from = state.vertexOf(m.from);
    const to = state.vertexOf(m.to);
    m.ref.table.unlink(from.table.ordinal, from.local, m.from, to.table.ordinal, to.local, m.to, m.eid);
    counts[m.ref.key] = (counts[m.ref.key] ?? 0) + 1;
  }
  state.autoCompact();
  return { deletedEdges: counts, version: state.publish().version };
}

/** One key per stored edge: an undirected edge matched from either end is the same edge. */
function matchKey(m: EdgeMatch): string {
  const [a, b] = m.ref.table.directed || m.from <= m.to ? [m.from, m.to] : [m.to, m.from];
  return `${m.ref.table.ordinal}:${a}:${b}:${m.eid}`;
}

function matchEdges(state: StoreState, selector: EdgeSelector): EdgeMatch[] {
  const source = vertexTable(state, selector.from?.type);
  const refs = selector.type !== undefined ? [edgeRef(state, selector.type)] : [...state.edgeByKey.values()].sort((a, b) => a.ordinal - b.ordinal);
  const toType = selector.toType !== undefined ? vertexTable(state, selector.toType) : undefined;
  const toTable = selector.to ? vertexTable(state, selector.to.type) : undefined;
  if (toType && toTable && toType !== toTable) return [];
  const key = normalizeId(source.def, source.idKind, selector.from.id, source.ctx.tuples);
  const local = key === undefined ? -1 : source.find(key);
  let toVid = -1;
  if (toTable) {
    const toKey = normalizeId(toTable.def, toTable.idKind, selector.to!.id, toTable.ctx.tuples);
    const toLocal = toKey === undefined ? -1 : toTable.find(toKey);
    if (toLocal < 0) return [];
    toVid = toTable.vidOf(toLocal);
  }
  const wantedType = toType ?? toTable;
  const out: EdgeMatch[] = [];
  for (const ref of refs) {
    const discriminator = discriminatorFilter(ref.table, selector.discriminator);
    if (local < 0) continue;
    const adj = (ref.reversed ? ref.table.in : ref.table.out).get(source.ordinal);
    if (!adj) continue;
    const vid = source.vidOf(local);
    adj.forEach(local, (target, eid) => {
      if (toVid >= 0 && target !== toVid) return;
      if (wantedType && state.ctx.blocks.typeOf(target) !== wantedType.ordinal) return;
      if (discriminator && !discriminator(eid)) return;
      if (selector.where) {
        const record: EdgeRecord = { type: ref.key, directed: ref.table.directed, from: vid, to: target, eid };
        const attribute = (name: string): AttrValue | undefined => {
          const column = ref.table.byName.get(name);
          return column && eid >= 0 ? ref.table.readAttribute(column, eid) : undefined;
        };
        if (!selector.where(record, attribute)) return;
      }
      out.push(ref.reversed ? { ref, from: target, to: vid, eid } : { ref, from: vid, to: target, eid });
    });
  }
  return out;
}

function discriminatorFilter(table: EdgeTable, given: Record<string, unknown> | undefined): ((eid: number) => boolean) | undefined {
  if (!given) return undefined;
  const checks: [number, string][] = [];
  for (const [name, raw] of Object.entries(given)) {
    const column = table.byName.get(name);
    if (!column || !table.discriminator.includes(column)) {
      throw new StoreError("INVALID_VALUE", `${name} is not a discriminator of edge type ${table.def.name}`, { type: table.def.name, attribute: name });
    }
    const value = coerceValue(column.def.type, raw, table.ctx.tuples);
    if (value === undefined) throw new StoreError("INVALID_VALUE", `invalid discriminator value for ${name}`, { type: table.def.name, attribute: name });
    checks.push([column.ordinal, valueKey(value)]);
  }
  return (eid) => checks.every(([ordinal, key]) => valueKey(table.readAttribute(table.columns[ordinal], eid)) === key);
}

function vertexTable(state: StoreState, type: unknown): VertexTable {
  const table = typeof type === "string" ? state.vertexByKey.get(type) : undefined;
  if (!table) throw new StoreError("UNKNOWN_VERTEX_TYPE", `invalid vertex type ${shown(type)}`, { type: shown(type) });
  return table;
}

function edgeRef(state: StoreState, type: string): EdgeRef {
  const ref = state.edgeByKey.get(type);
  if (!ref) throw new StoreError("UNKNOWN_EDGE_TYPE", `invalid edge type ${shown(type)}`, { type: shown(type) });
  return ref;
}
