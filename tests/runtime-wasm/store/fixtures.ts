// Small schemas for the store's tests, built as plain DatabaseSchema data.
import type { AttrType, AttributeDef, DatabaseSchema, EdgeType, VertexType } from "../../../runtime-wasm/schema/types.js";

export const INT: AttrType = { kind: "scalar", name: "INT" };
export const UINT: AttrType = { kind: "scalar", name: "UINT" };
export const FLOAT: AttrType = { kind: "scalar", name: "FLOAT" };
export const DOUBLE: AttrType = { kind: "scalar", name: "DOUBLE" };
export const BOOL: AttrType = { kind: "scalar", name: "BOOL" };
export const STRING: AttrType = { kind: "scalar", name: "STRING" };
export const DATETIME: AttrType = { kind: "scalar", name: "DATETIME" };

export function attr(name: string, type: AttrType, defaultValue?: AttributeDef["default"]): AttributeDef {
  return defaultValue === undefined ? { name, type } : { name, type, default: defaultValue };
}

export function vertex(name: string, idType: VertexType["primaryId"]["type"], attributes: AttributeDef[], extra: Partial<VertexType> = {}): VertexType {
  return { key: name, name, primaryId: { name: "id", type: idType }, primaryIdAsAttribute: false, attributes, stats: "OUTDEGREE_BY_EDGETYPE", ...extra };
}

export function edge(name: string, directed: boolean, pairs: [string, string][], attributes: AttributeDef[] = [], extra: Partial<EdgeType> = {}): EdgeType {
  return { key: name, name, directed, pairs: pairs.map(([from, to]) => ({ from, to })), discriminator: [], attributes, ...extra };
}

export function schemaOf(vertexTypes: VertexType[], edgeTypes: EdgeType[]): DatabaseSchema {
  return {
    tuples: [],
    vertexTypes,
    edgeTypes,
    graphs: [{ name: "g", vertexTypes: vertexTypes.map((v) => v.name), edgeTypes: edgeTypes.map((e) => e.name), version: 0 }],
    globalVersion: 0,
  };
}

/** The social graph most tests use: people, cities, and edges of every flavour. */
export function socialSchema(): DatabaseSchema {
  return schemaOf(
    [
      vertex("Person", "STRING", [
        attr("age", INT),
        attr("score", DOUBLE),
        attr("height", FLOAT, 1.5),
        attr("active", BOOL),
        attr("nick", STRING, "none"),
        attr("born", DATETIME),
        attr("tags", { kind: "set", element: STRING }),
        attr("visits", { kind: "list", element: INT }),
        attr("prefs", { kind: "map", key: STRING, value: DOUBLE }),
      ]),
      vertex("City", "INT", [attr("name", STRING), attr("population", UINT)]),
    ],
    [
      edge("Knows", false, [["Person", "Person"]], [attr("since", DATETIME), attr("weight", DOUBLE, 1)]),
      edge("Follows", true, [["Person", "Person"]], [], { reverseEdge: "FollowedBy" }),
      edge("FollowedBy", true, [["Person", "Person"]], [], { reverseOf: "Follows" }),
      edge("LivesIn", true, [["Person", "City"]]),
      edge("Calls", true, [["Person", "Person"]], [attr("at", INT), attr("minutes", INT)], { discriminator: ["at"] }),
    ],
  );
}
