// What a schema change did to one graph, by type name: the types it removed from the graph
// and those whose definition changed (attributes, pairs). Loading jobs that write such a
// type are dropped with the change.
import type { DatabaseSchema, EdgeType, VertexType } from "../../runtime-wasm/schema/types.js";
import { graphView } from "../../runtime-wasm/schema/lookup.js";

export function touchedTypes(before: DatabaseSchema, after: DatabaseSchema, graph: string): string[] {
  const old = graphView(before, graph);
  const now = graphView(after, graph);
  if (!old) return [];
  const touched: string[] = [];
  const differs = (a: VertexType | EdgeType | undefined, b: VertexType | EdgeType | undefined) =>
    !a || !b || JSON.stringify(shape(a)) !== JSON.stringify(shape(b));
  for (const [name, t] of old.vertexByName) if (differs(t, now?.vertexType(name))) touched.push(name);
  for (const [name, t] of old.edgeByName) if (differs(t, now?.edgeType(name))) touched.push(name);
  return touched;
}

function shape(t: VertexType | EdgeType): unknown {
  return JSON.parse(JSON.stringify(t, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)));
}
