// Shared test fixtures for the loader: a small social schema and a sink that records the
// batches it receives (so tests can assert exactly what the loader hands to the store).
import type { AttrType, DatabaseSchema, EdgeType, VertexType } from "../../../runtime-wasm/schema/types.js";
import { edgeWritesOf, type LoadBatch, type LoadSink } from "../../../server/loading/sink.js";
import type { LoadingJobPlan, LoadStatement, UsingOptions, ValueExpr } from "../../../server/loading/plan.js";

export const scalar = (name: "INT" | "UINT" | "FLOAT" | "DOUBLE" | "BOOL" | "STRING" | "DATETIME"): AttrType => ({ kind: "scalar", name });

export function vertexType(name: string, idType: VertexType["primaryId"]["type"], attributes: [string, AttrType][]): VertexType {
  return {
    key: name,
    name,
    primaryId: { name: "id", type: idType },
    primaryIdAsAttribute: false,
    attributes: attributes.map(([n, type]) => ({ name: n, type })),
    stats: "OUTDEGREE_BY_EDGETYPE",
  };
}

export function edgeType(name: string, pairs: [string, string][], attributes: [string, AttrType][] = [], directed = true, reverseEdge?: string): EdgeType {
  return {
    key: name,
    name,
    directed,
    pairs: pairs.map(([from, to]) => ({ from, to })),
    discriminator: [],
    attributes: attributes.map(([n, type]) => ({ name: n, type })),
    reverseEdge,
  };
}

/** Person(id STRING; name STRING, age INT, score DOUBLE, active BOOL, born DATETIME, tags LIST<STRING>),
 *  City(id UINT; name STRING), Knows(Person->Person, since INT) with reverse, LivesIn(Person->City),
 *  Likes(Person->Person | Person->City). */
export function socialSchema(): DatabaseSchema {
  const vertexTypes = [
    vertexType("Person", "STRING", [
      ["name", scalar("STRING")],
      ["age", scalar("INT")],
      ["score", scalar("DOUBLE")],
      ["active", scalar("BOOL")],
      ["born", scalar("DATETIME")],
      ["tags", { kind: "list", element: scalar("STRING") }],
    ]),
    vertexType("City", "UINT", [["name", scalar("STRING")]]),
    vertexType("Counter", "INT", [
      ["total", scalar("INT")],
      ["best", scalar("DOUBLE")],
      ["seen", { kind: "set", element: scalar("INT") }],
      ["scores", { kind: "map", key: scalar("STRING"), value: scalar("INT") }],
      ["flag", scalar("UINT")],
    ]),
  ];
  const edgeTypes = [
    edgeType("Knows", [["Person", "Person"]], [["since", scalar("INT")]], true, "Known_By"),
    { ...edgeType("Known_By", [["Person", "Person"]], [["since", scalar("INT")]]), reverseOf: "Knows" },
    edgeType("LivesIn", [["Person", "City"]]),
    edgeType("Friend", [["Person", "Person"]], [["weight", scalar("INT")]], false),
    edgeType("Likes", [["Person", "Person"], ["Person", "City"]]),
  ];
  return {
    tuples: [{ name: "Pt", fields: [{ name: "x", type: scalar("INT"), size: 1 }, { name: "label", type: scalar("STRING"), size: 3 }] }],
    vertexTypes,
    edgeTypes,
    graphs: [{ name: "social", vertexTypes: vertexTypes.map((v) => v.name), edgeTypes: edgeTypes.map((e) => e.name), version: 0 }],
    globalVersion: 0,
  };
}

export class RecordingSink implements LoadSink {
  readonly batches: LoadBatch[] = [];
  constructor(private readonly db: DatabaseSchema = socialSchema()) {}
  schema(): DatabaseSchema {
    return this.db;
  }
  apply(batch: LoadBatch): void {
    this.batches.push(batch);
  }
  get vertices() {
    return this.batches.flatMap((b) => b.vertices);
  }
  get edges() {
    return this.batches.flatMap((b) => edgeWritesOf(b));
  }
}

export const col = (index: number): ValueExpr => ({ kind: "column", index });
export const named = (name: string): ValueExpr => ({ kind: "named_column", name });
export const lit = (text: string): ValueExpr => ({ kind: "literal", text });
export const skip: ValueExpr = { kind: "skip" };
export const call = (name: string, ...args: ValueExpr[]): ValueExpr => ({ kind: "call", name, args });

/** A job with one file variable f and the given LOAD statements' destinations and USING. */
export function job(destinations: LoadStatement["destinations"], using: UsingOptions = {}, extra: Partial<LoadingJobPlan> = {}): LoadingJobPlan {
  return {
    name: "load_social",
    graph: "social",
    files: [{ name: "f" }],
    headers: [],
    lineFilters: [],
    statements: [{ kind: "load", source: { kind: "file", variable: "f" }, destinations, using }],
    ...extra,
  };
}

export const body = (text: string) => new Map([["f", { kind: "body" as const, data: text }]]);
