// Vertex reads (GET /graph/{g}/vertices/{type}[/{id}]) and the vertex selection that
// DELETE shares: one vertex by id or every vertex of the type passing the filter, sorted,
// limited, and shown as vertex records with the selected attributes.
import type { AttrType, AttributeDef, VertexType } from "../../runtime-wasm/schema/types.js";
import type { Snapshot } from "../../runtime-wasm/store/index.js";
import type { JsonOut } from "../../runtime-wasm/values/index.js";
import { attrValueToJson } from "./attribute-values.js";
import type { Deadline } from "./deadline.js";
import { invalidRequest } from "./engine-error.js";
import type { GraphHandle } from "./engine.js";
import { attrTypeMap, vertexAttributeDefs, vertexTypeOf } from "./graph-types.js";
import { compileFilter, compileSort, type AttributeSource } from "./read-eval.js";
import type { FilterCondition, SelectSpec, SortKey } from "./read-spec.js";
import { clip } from "./clip-text.js";

/** Most items a read returns, with or without `limit`. */
export const READ_CAP = 10240;

export interface VertexSelection {
  vertexType: string;
  id?: string;
  filter: FilterCondition[];
  sort: SortKey[];
  limit?: number;
}

export interface VertexReadRequest extends VertexSelection {
  select: SelectSpec;
  countOnly: boolean;
}

/** Results of a vertex read: vertex records, or [{v_type, count}] for count_only. */
export function readVertices(snapshot: Snapshot, graph: GraphHandle, req: VertexReadRequest, deadline: Deadline): JsonOut[] {
  const type = vertexTypeOf(graph, req.vertexType);
  if (req.countOnly) {
    const count = req.id === undefined && req.filter.length === 0 ? snapshot.vertexCount(type.key) : selectVertices(snapshot, graph, { ...req, sort: [], limit: undefined }, deadline, Infinity).length;
    return [{ v_type: type.name, count }];
  }
  const shown = selectedAttributes(vertexAttributeDefs(type), req.select, `vertex type '${type.name}'`);
  const vids = selectVertices(snapshot, graph, req, deadline, READ_CAP);
  deadline.check();
  return vids.map((vid) => vertexRecord(snapshot, type, vid, shown));
}

/**
 * Internal ids of the selected vertices, in scan order or sorted, at most min(limit, cap).
 * A given id that names no vertex is an error, as clients expect from a read by id.
 */
export function selectVertices(snapshot: Snapshot, graph: GraphHandle, sel: VertexSelection, deadline: Deadline, cap: number): number[] {
  const type = vertexTypeOf(graph, sel.vertexType);
  const source = vertexSource(snapshot, type);
  const what = `vertex type '${type.name}'`;
  const keep = compileFilter(sel.filter, source, what);
  const order = compileSort(sel.sort, source, what);
  const max = Math.min(sel.limit ?? cap, cap);
  if (max <= 0) return [];
  if (sel.id !== undefined) {
    const vid = lookupLive(snapshot, type.key, sel.id);
    if (vid === undefined) {
      throw invalidRequest(`The input vertex id '${clip(sel.id)}' is not a valid vertex id for vertex type = ${type.name}.`);
    }
    return keep === undefined || keep(vid) ? [vid] : [];
  }
  const out: number[] = [];
  // Without a sort, scanning stops at the limit; with one, every candidate is looked at.
  const stopAt = order ? Infinity : max;
  for (const vid of snapshot.vertices(type.key)) {
    deadline.tick();
    if (keep && !keep(vid)) continue;
    out.push(vid);
    if (out.length >= stopAt) break;
  }
  if (order) {
    out.sort(order);
    if (out.length > max) out.length = max;
  }
  return out;
}

/**
 * Internal id of a live vertex by primary id. The liveness check guards against an index
 * entry that outlived its vertex.
 */
export function lookupLive(snapshot: Snapshot, typeKey: string, id: string): number | undefined {
  const vid = snapshot.lookup(typeKey, id);
  return vid !== undefined && snapshot.exists(vid) ? vid : undefined;
}

export function vertexSource(snapshot: Snapshot, type: VertexType): AttributeSource<number> {
  // The name → type map only when a filter or sort asks (a read by id has neither).
  let types: Map<string, AttrType> | undefined;
  return {
    typeOf: (name) => (types ??= attrTypeMap(vertexAttributeDefs(type))).get(name),
    reader: (name) => snapshot.attributeReader(type.key, name) ?? ((vid: number) => snapshot.attribute(vid, name)),
  };
}

/** The attributes a `select` keeps, in schema order; names must exist. */
export function selectedAttributes(defs: readonly AttributeDef[], select: SelectSpec, what: string): AttributeDef[] {
  switch (select.mode) {
    case "all":
      return [...defs];
    case "none":
      return [];
    default: {
      for (const name of select.names) {
        if (!defs.some((d) => d.name === name)) throw invalidRequest(`Invalid select parameter: '${name}' is not an attribute of ${what}.`);
      }
      const listed = new Set(select.names);
      return defs.filter((d) => listed.has(d.name) === (select.mode === "include"));
    }
  }
}

export function vertexRecord(snapshot: Snapshot, type: VertexType, vid: number, shown: readonly AttributeDef[]): JsonOut {
  const attributes: { [name: string]: JsonOut } = {};
  for (const d of shown) {
    const v = snapshot.attribute(vid, d.name);
    if (v !== undefined) attributes[d.name] = attrValueToJson(v, d.type);
  }
  return { v_id: snapshot.idText(vid), v_type: type.name, attributes };
}
