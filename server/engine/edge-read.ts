// Edge reads (GET /graph/{g}/edges/{st}/{sid}[/{et}[/{tt}[/{tid}]]]) and the edge selection
// DELETE shares: the edges leaving one source vertex, narrowed by edge type, target type and
// target, then filtered, sorted, limited and shown as edge records.
import type { AttrType, EdgeType } from "../../runtime-wasm/schema/types.js";
import type { EdgeRecord, Snapshot } from "../../runtime-wasm/store/index.js";
import type { JsonOut } from "../../runtime-wasm/values/index.js";
import { attrValueToJson } from "./attribute-values.js";
import type { EdgeSelection } from "./commands.js";
import type { Deadline } from "./deadline.js";
import { invalidRequest } from "./engine-error.js";
import type { GraphHandle } from "./engine.js";
import { attrTypeMap, edgeConnects, edgeTypeOf, edgeTypesFrom, vertexTypeOf } from "./graph-types.js";
import { compileFilter, compileSort, type AttributeSource } from "./read-eval.js";
import type { FilterCondition, SelectSpec, SortKey } from "./read-spec.js";
import { READ_CAP, lookupLive, selectedAttributes } from "./vertex-read.js";
import { clip } from "./clip-text.js";

export interface EdgeQuery {
  selection: EdgeSelection;
  filter: FilterCondition[];
  sort: SortKey[];
  limit?: number;
}

export interface EdgeReadRequest extends EdgeQuery {
  select: SelectSpec;
  countOnly: boolean;
}

/** The edges an EdgeQuery selects, grouped with the edge types it covers (zero-edge types too). */
export interface SelectedEdges {
  types: EdgeType[];
  edges: EdgeRecord[];
  /** Matching edges per covered edge type, before the limit. */
  counts: Map<string, number>;
}

export function readEdges(snapshot: Snapshot, graph: GraphHandle, req: EdgeReadRequest, deadline: Deadline): JsonOut[] {
  const selected = selectEdges(snapshot, graph, req, deadline, READ_CAP);
  if (req.countOnly) return selected.types.map((t) => ({ e_type: t.name, count: selected.counts.get(t.key) ?? 0 }));
  const shownByType = new Map(selected.types.map((t) => [t.key, shownEdgeAttributes(t, req.select, selected.types)]));
  const names = typeNames(snapshot);
  deadline.check();
  return selected.edges.map((e) => edgeRecord(snapshot, graph, e, shownByType.get(e.type)!, names));
}

export function selectEdges(snapshot: Snapshot, graph: GraphHandle, q: EdgeQuery, deadline: Deadline, cap: number): SelectedEdges {
  const sel = q.selection;
  const sourceType = vertexTypeOf(graph, sel.sourceType);
  const targetType = sel.targetType === undefined ? undefined : vertexTypeOf(graph, sel.targetType);
  const types = sel.edgeType === undefined ? edgeTypesFrom(graph, sourceType) : [edgeTypeOf(graph, sel.edgeType)];
  const from = lookupLive(snapshot, sourceType.key, sel.sourceId);
  if (from === undefined) throw invalidRequest(`The input vertex id '${clip(sel.sourceId)}' is not a valid vertex id for vertex type = ${sourceType.name}.`);
  let to: number | undefined;
  if (sel.targetId !== undefined) {
    to = lookupLive(snapshot, targetType!.key, sel.targetId);
    if (to === undefined) throw invalidRequest(`The input vertex id '${clip(sel.targetId)}' is not a valid vertex id for vertex type = ${targetType!.name}.`);
  }
  const has = (name: string) => types.some((t) => t.attributes.some((a) => a.name === name));
  const edges: EdgeRecord[] = [];
  const counts = new Map<string, number>();
  for (const t of types) {
    const possible = edgeConnects(graph, t, sourceType.name, targetType?.name ?? "") || targetType === undefined;
    const keep = compileFilter(q.filter, edgeSource(snapshot, t), `edge type '${t.name}'`, has);
    let n = 0;
    if (possible) {
      for (const e of snapshot.edges(from, { type: t.key, toType: targetType?.key, to })) {
        deadline.tick();
        if (keep && !keep(e)) continue;
        n++;
        edges.push(e);
      }
    }
    counts.set(t.key, n);
  }
  const order = compileSort(q.sort, mixedEdgeSource(snapshot, types), describeTypes(types), has);
  if (order) edges.sort(order);
  const max = Math.min(q.limit ?? cap, cap);
  if (edges.length > max) edges.length = max;
  return { types, edges, counts };
}

function edgeSource(snapshot: Snapshot, t: EdgeType): AttributeSource<EdgeRecord> {
  const types = attrTypeMap(t.attributes);
  return { typeOf: (name) => types.get(name), reader: (name) => (e) => snapshot.edgeAttribute(e, name) };
}

/** Sort keys across several edge types: an edge without the attribute sorts last. */
function mixedEdgeSource(snapshot: Snapshot, types: readonly EdgeType[]): AttributeSource<EdgeRecord> {
  return {
    typeOf: (name): AttrType | undefined => types.flatMap((t) => t.attributes).find((a) => a.name === name)?.type,
    reader: (name) => (e) => snapshot.edgeAttribute(e, name),
  };
}

function shownEdgeAttributes(t: EdgeType, select: SelectSpec, all: readonly EdgeType[]) {
  if (select.mode === "include" || select.mode === "exclude") {
    for (const name of select.names) {
      if (!all.some((x) => x.attributes.some((a) => a.name === name))) {
        throw invalidRequest(`Invalid select parameter: '${name}' is not an attribute of ${describeTypes(all)}.`);
      }
    }
    const listed = new Set(select.names);
    return t.attributes.filter((a) => listed.has(a.name) === (select.mode === "include"));
  }
  return selectedAttributes(t.attributes, select, `edge type '${t.name}'`);
}

export function edgeRecord(snapshot: Snapshot, graph: GraphHandle, e: EdgeRecord, shown: readonly { name: string; type: AttrType }[], names: Map<string, string>): JsonOut {
  const t = edgeTypeByKey(graph, e.type);
  const attributes: { [name: string]: JsonOut } = {};
  for (const a of shown) {
    const v = snapshot.edgeAttribute(e, a.name);
    if (v !== undefined) attributes[a.name] = attrValueToJson(v, a.type);
  }
  return {
    e_type: t?.name ?? e.type,
    directed: e.directed,
    from_id: snapshot.idText(e.from),
    from_type: names.get(snapshot.typeOf(e.from)) ?? snapshot.typeOf(e.from),
    to_id: snapshot.idText(e.to),
    to_type: names.get(snapshot.typeOf(e.to)) ?? snapshot.typeOf(e.to),
    attributes,
  };
}

/** Vertex type key → name. */
export function typeNames(snapshot: Snapshot): Map<string, string> {
  return new Map(snapshot.schema.vertexTypes.map((t) => [t.key, t.name]));
}

function edgeTypeByKey(graph: GraphHandle, key: string): EdgeType | undefined {
  for (const t of graph.view.edgeByName.values()) if (t.key === key) return t;
  return undefined;
}

function describeTypes(types: readonly EdgeType[]): string {
  return types.length === 1 ? `edge type '${types[0]!.name}'` : `any of the edge types ${types.map((t) => t.name).join(", ")}`;
}
