// The schema model shared by every layer: what vertex types, edge types, tuples and graphs
// exist, and the types of their attributes. Plain data (JSON-serialisable) so the catalog
// can persist it and the compiler can read it without importing server code.
//
// Global types (CREATE VERTEX/EDGE) are shared by every graph that includes them, data
// included; local types (ADD ... in a graph's schema-change job) belong to one graph. Every
// type therefore has a store-wide unique `key` (a global type's key is its name; a local
// type's key is "<graph>/<name>"), while `name` is what GSQL text and REST paths use.

/** Scalar attribute types. STRING COMPRESS behaves as STRING; FIXED_BINARY carries a byte size. */
export type ScalarTypeName = "INT" | "UINT" | "FLOAT" | "DOUBLE" | "BOOL" | "STRING" | "DATETIME" | "FIXED_BINARY";

export type AttrType =
  | { kind: "scalar"; name: ScalarTypeName; compress?: boolean; size?: number }
  | { kind: "list"; element: AttrType }
  | { kind: "set"; element: AttrType }
  | { kind: "map"; key: AttrType; value: AttrType }
  | { kind: "tuple"; name: string };

/** A catalog-level TYPEDEF TUPLE. INT/UINT fields may carry a byte size (1,2,4,8), STRING a length. */
export interface TupleType {
  name: string;
  fields: { name: string; type: AttrType; size?: number }[];
}

/**
 * An attribute value as it crosses the store's API. INT and UINT are bigint (64-bit exact),
 * FLOAT/DOUBLE number, BOOL boolean, STRING/FIXED_BINARY string, DATETIME epoch seconds as
 * number; collections are arrays (LIST/SET) or arrays of [key, value] pairs (MAP); tuples are
 * objects keyed by field name.
 */
export type AttrValue = bigint | number | boolean | string | AttrValue[] | [AttrValue, AttrValue][] | { [field: string]: AttrValue };

export interface AttributeDef {
  name: string;
  type: AttrType;
  /** DEFAULT given in the DDL, already converted to the attribute's type. */
  default?: AttrValue;
}

export type PrimaryIdType = "STRING" | "INT" | "UINT" | "DATETIME";

export interface VertexType {
  key: string;
  name: string;
  /** Graph owning a local type; undefined for a global type. */
  graph?: string;
  primaryId: { name: string; type: PrimaryIdType };
  /** WITH primary_id_as_attribute="true", or PRIMARY KEY: the id is readable as attribute `primaryId.name`. */
  primaryIdAsAttribute: boolean;
  /** Composite PRIMARY KEY (a, b, ...): attribute names forming the id, joined for storage. */
  compositeKey?: string[];
  attributes: AttributeDef[];
  /** WITH STATS="..." as written (default OUTDEGREE_BY_EDGETYPE). */
  stats: string;
}

export interface EdgeType {
  key: string;
  name: string;
  graph?: string;
  directed: boolean;
  /** FROM/TO pairs. `*` in the DDL is expanded to the vertex types existing at creation time. */
  pairs: { from: string; to: string }[];
  /** DISCRIMINATOR attribute names: part of the edge identity, allowing parallel edges. */
  discriminator: string[];
  attributes: AttributeDef[];
  /** For a directed type created WITH REVERSE_EDGE="r": the name of r. */
  reverseEdge?: string;
  /** For the generated reverse type: the name of the forward type. */
  reverseOf?: string;
}

export interface GraphSchema {
  name: string;
  /** Names (not keys) of the vertex and edge types visible in this graph. */
  vertexTypes: string[];
  edgeTypes: string[];
  /** Starts at 0; +1 per schema-change job that changes this graph. */
  version: number;
}

/** Every type the database knows, global and local, and the graphs over them. */
export interface DatabaseSchema {
  tuples: TupleType[];
  vertexTypes: VertexType[];
  edgeTypes: EdgeType[];
  graphs: GraphSchema[];
  globalVersion: number;
}

export function emptySchema(): DatabaseSchema {
  return { tuples: [], vertexTypes: [], edgeTypes: [], graphs: [], globalVersion: 0 };
}
