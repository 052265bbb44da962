// Name resolution over a DatabaseSchema as seen from one graph: a graph sees its local
// types and the global types it includes, by name.
import type { DatabaseSchema, EdgeType, GraphSchema, VertexType } from "./types.js";

export class GraphView {
  readonly vertexByName = new Map<string, VertexType>();
  readonly edgeByName = new Map<string, EdgeType>();

  constructor(
    readonly schema: DatabaseSchema,
    readonly graph: GraphSchema,
  ) {
    for (const name of graph.vertexTypes) {
      const t = findType(schema.vertexTypes, name, graph.name);
      if (t) this.vertexByName.set(name, t);
    }
    for (const name of graph.edgeTypes) {
      const t = findType(schema.edgeTypes, name, graph.name);
      if (t) this.edgeByName.set(name, t);
    }
  }

  vertexType(name: string): VertexType | undefined {
    return this.vertexByName.get(name);
  }

  edgeType(name: string): EdgeType | undefined {
    return this.edgeByName.get(name);
  }
}

/** A graph's local type of that name wins over a global one (locals are only visible in their graph). */
function findType<T extends { name: string; graph?: string }>(types: T[], name: string, graph: string): T | undefined {
  return types.find((t) => t.name === name && t.graph === graph) ?? types.find((t) => t.name === name && t.graph === undefined);
}

export function graphView(schema: DatabaseSchema, graphName: string): GraphView | undefined {
  const g = schema.graphs.find((x) => x.name === graphName);
  return g ? new GraphView(schema, g) : undefined;
}
