// DDL commands as plain data: what a CREATE/DROP/schema-change statement asks for, with the
// source ranges diagnostics need. Built from the AST (from-ast.ts) or by a program; applied
// to a DatabaseSchema by apply.ts. Type names are as written; nothing is resolved yet.
import type { SourceRange } from "../../diagnostics/index.js";

export type DdlTypeSpec =
  /** INT, UINT, FLOAT, DOUBLE, BOOL, STRING [COMPRESS], DATETIME, FIXED_BINARY(n); INT(1), STRING(30) in tuples. */
  | { kind: "scalar"; name: string; size?: number; compress?: boolean; range: SourceRange }
  | { kind: "list" | "set"; element: DdlTypeSpec; range: SourceRange }
  | { kind: "map"; key: DdlTypeSpec; value: DdlTypeSpec; range: SourceRange }
  /** A user tuple (TYPEDEF TUPLE) named as an attribute or element type. */
  | { kind: "named"; name: string; range: SourceRange };

/** A DEFAULT value as written: quoted string, number, or bare TRUE/FALSE. */
export interface DdlLiteral {
  kind: "string" | "number" | "bool";
  text: string;
  range: SourceRange;
}

export interface DdlName {
  name: string;
  range: SourceRange;
}

export interface DdlAttribute {
  name: string;
  type: DdlTypeSpec;
  default?: DdlLiteral;
  /** `attr type PRIMARY KEY`: this attribute is the vertex's key. */
  primaryKey?: boolean;
  range: SourceRange;
}

/** `WITH name="value"` options (STATS, PRIMARY_ID_AS_ATTRIBUTE, REVERSE_EDGE). */
export interface DdlOption {
  name: string;
  value: string;
  range: SourceRange;
}

export interface DdlCreateVertex {
  kind: "createVertex";
  name: DdlName;
  /** `PRIMARY_ID id type`; absent with the PRIMARY KEY forms. */
  primaryId?: { name: string; type: DdlTypeSpec; range: SourceRange };
  attributes: DdlAttribute[];
  /** `PRIMARY KEY (a, b)` written last. */
  compositeKey?: { names: DdlName[]; range: SourceRange };
  options: DdlOption[];
  range: SourceRange;
}

/** One FROM/TO pair; `FROM A|B` lists several names; `*` is written as the name "*". */
export interface DdlEdgePair {
  from: DdlName[];
  to: DdlName[];
  range: SourceRange;
}

export interface DdlCreateEdge {
  kind: "createEdge";
  directed: boolean;
  name: DdlName;
  pairs: DdlEdgePair[];
  discriminator: DdlAttribute[];
  attributes: DdlAttribute[];
  options: DdlOption[];
  range: SourceRange;
}

export interface DdlCreateTuple {
  kind: "createTuple";
  name: DdlName;
  fields: { name: string; type: DdlTypeSpec; range: SourceRange }[];
  range: SourceRange;
}

export interface DdlCreateGraph {
  kind: "createGraph";
  name: DdlName;
  /** Type names, or "*" for every global type existing now; `()` is an empty list. */
  types: DdlName[] | "*";
  range: SourceRange;
}

export interface DdlDrop {
  kind: "drop";
  what: "vertex" | "edge" | "tuple" | "graph";
  names: DdlName[];
  /** DROP GRAPH g CASCADE: the caller also drops the graph's jobs and queries. */
  cascade?: boolean;
  range: SourceRange;
}

export interface DdlDropAll {
  kind: "dropAll";
  range: SourceRange;
}

export type SchemaChangeStatement =
  | { kind: "addVertex"; def: DdlCreateVertex; range: SourceRange }
  | { kind: "addEdge"; def: DdlCreateEdge; range: SourceRange }
  /** Global job: `ADD VERTEX A, B TO GRAPH g` (membership only). */
  | { kind: "addToGraph"; what: "vertex" | "edge"; names: DdlName[]; graph: DdlName; range: SourceRange }
  /** Global job: `DROP EDGE E FROM GRAPH g` (membership only). */
  | { kind: "dropFromGraph"; what: "vertex" | "edge"; names: DdlName[]; graph: DdlName; range: SourceRange }
  /** `DROP VERTEX A`: a local job deletes a local type, a global job a global type. */
  | { kind: "dropType"; what: "vertex" | "edge"; names: DdlName[]; range: SourceRange }
  | { kind: "addAttributes"; what: "vertex" | "edge"; typeName: DdlName; attributes: DdlAttribute[]; range: SourceRange }
  | { kind: "dropAttributes"; what: "vertex" | "edge"; typeName: DdlName; names: DdlName[]; range: SourceRange }
  | { kind: "addPairs" | "dropPairs"; typeName: DdlName; pairs: DdlEdgePair[]; range: SourceRange }
  | { kind: "addIndex"; typeName: DdlName; index: DdlName; attribute: DdlName; range: SourceRange }
  | { kind: "dropIndex"; typeName: DdlName; index: DdlName; range: SourceRange };

export interface DdlSchemaChangeJob {
  kind: "schemaChangeJob";
  name: DdlName;
  global: boolean;
  /** FOR GRAPH g: required for a local job. */
  graph?: DdlName;
  statements: SchemaChangeStatement[];
  range: SourceRange;
}

export type DdlCommand =
  | DdlCreateVertex | DdlCreateEdge | DdlCreateTuple | DdlCreateGraph | DdlDrop | DdlDropAll;
