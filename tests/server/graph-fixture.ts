// A small schema for the graph-data tests, built programmatically: graph "social" with
// Person (STRING id) and City (INT id, readable as attribute "id"), an undirected edge
// knows, a directed edge follows with its reverse edge, and lives_in without attributes.
import type { AttrType, DatabaseSchema, EdgeType, VertexType } from "../../runtime-wasm/schema/types.js";
import { Engine, type EngineOptions } from "../../server/engine/engine.js";

const scalar = (name: "INT" | "UINT" | "FLOAT" | "DOUBLE" | "BOOL" | "STRING" | "DATETIME"): AttrType => ({ kind: "scalar", name });

export const PERSON: VertexType = {
  key: "Person",
  name: "Person",
  primaryId: { name: "pid", type: "STRING" },
  primaryIdAsAttribute: false,
  attributes: [
    { name: "name", type: scalar("STRING") },
    { name: "age", type: scalar("INT") },
    { name: "score", type: scalar("FLOAT") },
    { name: "balance", type: scalar("DOUBLE") },
    { name: "active", type: scalar("BOOL") },
    { name: "joined", type: scalar("DATETIME") },
    { name: "tags", type: { kind: "set", element: scalar("STRING") } },
    { name: "prefs", type: { kind: "map", key: scalar("STRING"), value: scalar("INT") } },
  ],
  stats: "OUTDEGREE_BY_EDGETYPE",
};

export const CITY: VertexType = {
  key: "City",
  name: "City",
  primaryId: { name: "id", type: "INT" },
  primaryIdAsAttribute: true,
  attributes: [{ name: "population", type: scalar("UINT") }],
  stats: "OUTDEGREE_BY_EDGETYPE",
};

const edge = (e: Omit<EdgeType, "key" | "discriminator"> & { discriminator?: string[] }): EdgeType => ({ key: e.name, discriminator: [], ...e });

export const KNOWS = edge({ name: "knows", directed: false, pairs: [{ from: "Person", to: "Person" }], attributes: [{ name: "strength", type: scalar("DOUBLE") }, { name: "since", type: scalar("DATETIME") }] });
export const FOLLOWS = edge({ name: "follows", directed: true, pairs: [{ from: "Person", to: "Person" }], attributes: [{ name: "weight", type: scalar("FLOAT") }], reverseEdge: "reverse_follows" });
export const REVERSE_FOLLOWS = edge({ name: "reverse_follows", directed: true, pairs: [{ from: "Person", to: "Person" }], attributes: [{ name: "weight", type: scalar("FLOAT") }], reverseOf: "follows" });
export const LIVES_IN = edge({ name: "lives_in", directed: true, pairs: [{ from: "Person", to: "City" }], attributes: [] });

export function socialSchema(extraGraphs: string[] = []): DatabaseSchema {
  const types = { vertexTypes: ["Person", "City"], edgeTypes: ["knows", "follows", "reverse_follows", "lives_in"] };
  return {
    tuples: [],
    vertexTypes: [PERSON, CITY],
    edgeTypes: [KNOWS, FOLLOWS, REVERSE_FOLLOWS, LIVES_IN],
    graphs: [{ name: "social", ...types, version: 0 }, ...extraGraphs.map((name) => ({ name, ...types, version: 0 }))],
    globalVersion: 0,
  };
}

export function socialEngine(options: EngineOptions = {}, extraGraphs: string[] = []): Engine {
  const engine = new Engine(options);
  engine.apply({ kind: "define-schema", schema: socialSchema(extraGraphs) });
  return engine;
}
