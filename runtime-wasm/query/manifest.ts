// What the host needs to know about a compiled query module besides its bytes: its
// parameters (order, types, defaults), the output key table, the schema elements it reads
// (bound to the store's ordinals when a run starts, so a module survives ordinal changes
// as long as the names it uses still exist), the queries it calls, and its return type.
// Plain JSON: the catalog stores it next to the module.

/** A parameter's type as the host encodes it (param-block.ts). */
export interface ParamType {
  /** Scalar type, VERTEX, or the element type of a SET/BAG/LIST parameter. */
  base: "INT" | "UINT" | "FLOAT" | "DOUBLE" | "BOOL" | "STRING" | "DATETIME" | "VERTEX" | "JSONOBJECT" | "JSONARRAY";
  /** VERTEX<T>: the vertex type name. */
  vertexType?: string;
  collection?: "SET" | "BAG" | "LIST";
}

export interface ManifestParam {
  name: string;
  type: ParamType;
  /** The default as a constant: bigint values are written as decimal strings. */
  default?: string | number | boolean;
}

/** A schema element the module reads, resolved to an ordinal per run. */
export type Binding =
  | { kind: "vertexType"; key: string }
  | { kind: "edgeType"; key: string }
  | { kind: "vertexAttr"; typeKey: string; name: string }
  | { kind: "edgeAttr"; typeKey: string; name: string };

export interface QueryManifest {
  name: string;
  graph: string;
  params: ManifestParam[];
  /** Output keys by index (Out.Key). */
  keys: string[];
  bindings: Binding[];
  /** Installed queries this module calls. */
  calls: string[];
  /** SELECT statements, for the monitor log. */
  selects: number;
}

/** Binding value meaning "this element does not exist in the snapshot". */
export const UNBOUND = 0xffffffff;
