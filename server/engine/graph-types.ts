// Resolution of the type names a request uses (REST paths and bodies use names; the store
// uses keys) and the attribute lists readers expose, including a primary id readable as an
// attribute.
import type { AttrType, AttributeDef, EdgeType, VertexType } from "../../runtime-wasm/schema/types.js";
import type { GraphHandle } from "./engine.js";
import { invalidRequest } from "./engine-error.js";

export function vertexTypeOf(graph: GraphHandle, name: string): VertexType {
  const t = graph.view.vertexType(name);
  if (!t) throw invalidRequest(`Vertex type '${name}' does not exist in graph '${graph.name}'.`);
  return t;
}

export function edgeTypeOf(graph: GraphHandle, name: string): EdgeType {
  const t = graph.view.edgeType(name);
  if (!t) throw invalidRequest(`Edge type '${name}' does not exist in graph '${graph.name}'.`);
  return t;
}

/** Attributes a vertex read shows, in schema order: the primary id first when it is exposed. */
export function vertexAttributeDefs(t: VertexType): AttributeDef[] {
  if (!t.primaryIdAsAttribute || t.attributes.some((a) => a.name === t.primaryId.name)) return t.attributes;
  return [{ name: t.primaryId.name, type: { kind: "scalar", name: t.primaryId.type } }, ...t.attributes];
}

export function attrTypeMap(defs: readonly AttributeDef[]): Map<string, AttrType> {
  return new Map(defs.map((d) => [d.name, d.type]));
}

/**
 * Edge types a read from a vertex of `sourceType` can return: directed types with that type
 * as a source (reverse types included, they are types of their own), undirected types with
 * it at either end. In the graph's type order.
 */
export function edgeTypesFrom(graph: GraphHandle, sourceType: VertexType): EdgeType[] {
  const out: EdgeType[] = [];
  for (const e of graph.view.edgeByName.values()) {
    const leaves = edgePairs(graph, e).some((p) => p.from === sourceType.name || (!e.directed && p.to === sourceType.name));
    if (leaves) out.push(e);
  }
  return out;
}

/** FROM/TO pairs as reads see them: a reverse type runs its forward type's pairs backwards. */
export function edgePairs(graph: GraphHandle, e: EdgeType): { from: string; to: string }[] {
  const forward = e.reverseOf === undefined ? undefined : graph.view.edgeType(e.reverseOf);
  return forward ? forward.pairs.map((p) => ({ from: p.to, to: p.from })) : e.pairs;
}

/** Whether an edge of type `e` may run from `from` to `to` (either way for undirected types). */
export function edgeConnects(graph: GraphHandle, e: EdgeType, from: string, to: string): boolean {
  return edgePairs(graph, e).some((p) => (p.from === from && p.to === to) || (!e.directed && p.from === to && p.to === from));
}
