// Schema DDL: vertex, edge and graph definitions, DROP, USE GRAPH, and schema-change jobs.
import type { AstAllNames, AstFlag, AstIdent, AstNodeBase } from "./node.js";
import type { AstType } from "./types.js";
import type { AstExpr } from "./expressions.js";

/** `name type [DEFAULT value] [PRIMARY KEY]` in a vertex or edge definition. */
export interface AstAttributeDef extends AstNodeBase {
  kind: "AttributeDef";
  name: AstIdent;
  type: AstType;
  default?: AstExpr;
  /** `attr type PRIMARY KEY`: the key is also an ordinary attribute. */
  primaryKey: boolean;
}

/** `PRIMARY_ID name type`: the id, not readable as an attribute unless an option says so. */
export interface AstPrimaryId extends AstNodeBase {
  kind: "PrimaryId";
  name: AstIdent;
  type: AstType;
}

/** `WITH name="value", ...` (option names and values are case-insensitive; kept as written). */
export interface AstOption extends AstNodeBase {
  kind: "Option";
  name: AstIdent;
  value: AstExpr;
}

/** The body of CREATE VERTEX and of ADD VERTEX in a schema-change job. */
export interface AstVertexDefinition extends AstNodeBase {
  name: AstIdent;
  primaryId?: AstPrimaryId;
  attributes: AstAttributeDef[];
  /** Composite key `PRIMARY KEY (a, b)` written after the attributes. */
  compositeKey?: AstIdent[];
  options: AstOption[];
}

export interface AstCreateVertex extends AstVertexDefinition {
  kind: "CreateVertex";
}

/** A FROM/TO pair; either side may list several types (`FROM A|B`) or be `*`. */
export interface AstEdgePair extends AstNodeBase {
  kind: "EdgePair";
  from: (AstIdent | AstAllNames)[];
  to: (AstIdent | AstAllNames)[];
}

/** The body of CREATE [UN]DIRECTED EDGE and of ADD ... EDGE in a schema-change job. */
export interface AstEdgeDefinition extends AstNodeBase {
  directed: boolean;
  name: AstIdent;
  pairs: AstEdgePair[];
  discriminator: AstAttributeDef[];
  attributes: AstAttributeDef[];
  options: AstOption[];
}

export interface AstCreateEdge extends AstEdgeDefinition {
  kind: "CreateEdge";
}

/** `CREATE GRAPH g (T1, T2)`, `(*)` or `()`, optionally `WITH ADMIN user`. */
export interface AstCreateGraph extends AstNodeBase {
  kind: "CreateGraph";
  name: AstIdent;
  types: AstIdent[];
  allTypes: boolean;
  admin?: AstIdent;
}

export type AstDropTarget =
  | "VERTEX" | "EDGE" | "TUPLE" | "GRAPH" | "JOB" | "QUERY" | "USER" | "ROLE" | "SECRET" | "ALL";

/**
 * Every top-level DROP: `DROP VERTEX a, b`, `DROP GRAPH g [CASCADE]`, `DROP JOB j|*|ALL`,
 * `DROP QUERY q|*|ALL`, `DROP USER u`, `DROP ROLE r`, `DROP SECRET s`, `DROP ALL`.
 */
export interface AstDrop extends AstNodeBase {
  kind: "Drop";
  target: AstDropTarget;
  names: AstIdent[];
  all?: AstAllNames;
  cascade: boolean;
}

export interface AstUseGraph extends AstNodeBase {
  kind: "UseGraph";
  name: AstIdent;
}

export interface AstUseGlobal extends AstNodeBase {
  kind: "UseGlobal";
}

/** `CREATE [GLOBAL] SCHEMA_CHANGE JOB name [FOR GRAPH g] { statements }` */
export interface AstCreateSchemaChangeJob extends AstNodeBase {
  kind: "CreateSchemaChangeJob";
  global: boolean;
  name: AstIdent;
  graph?: AstIdent;
  statements: AstSchemaChangeStatement[];
}

/** `ADD VERTEX Name (...)` in a local job: a new local vertex type. */
export interface AstAddVertex extends AstVertexDefinition {
  kind: "AddVertex";
}

/** `ADD [UN]DIRECTED EDGE Name (...)` in a local job: a new local edge type. */
export interface AstAddEdge extends AstEdgeDefinition {
  kind: "AddEdge";
}

/** `ADD VERTEX a, b TO GRAPH g` in a global job: graph membership only. */
export interface AstAddToGraph extends AstNodeBase {
  kind: "AddToGraph";
  target: "VERTEX" | "EDGE";
  names: AstIdent[];
  graph: AstIdent;
}

/** `DROP VERTEX a, b` (local job: type and data) or `DROP EDGE e FROM GRAPH g` (global job: membership). */
export interface AstDropInJob extends AstNodeBase {
  kind: "DropInJob";
  target: "VERTEX" | "EDGE" | "TUPLE";
  names: AstIdent[];
  fromGraph?: AstIdent;
}

/** `ALTER VERTEX|EDGE T ADD ATTRIBUTE (a type [DEFAULT v], ...)` */
export interface AstAlterAddAttributes extends AstNodeBase {
  kind: "AlterAddAttributes";
  target: "VERTEX" | "EDGE";
  typeName: AstIdent;
  attributes: AstAttributeDef[];
}

/** `ALTER VERTEX|EDGE T DROP ATTRIBUTE (a, b)` */
export interface AstAlterDropAttributes extends AstNodeBase {
  kind: "AlterDropAttributes";
  target: "VERTEX" | "EDGE";
  typeName: AstIdent;
  names: AstIdent[];
}

/** `ALTER EDGE E ADD|DROP PAIR (FROM A, TO B | ...)` */
export interface AstAlterPairs extends AstNodeBase {
  kind: "AlterPairs";
  action: "ADD" | "DROP";
  typeName: AstIdent;
  pairs: AstEdgePair[];
}

/** `ALTER VERTEX T ADD INDEX idx ON (attr)` / `ALTER VERTEX T DROP INDEX idx` */
export interface AstAlterIndex extends AstNodeBase {
  kind: "AlterIndex";
  action: "ADD" | "DROP";
  target: "VERTEX" | "EDGE";
  typeName: AstIdent;
  index: AstIdent;
  attributes: AstIdent[];
}

export type AstSchemaChangeStatement =
  | AstAddVertex
  | AstAddEdge
  | AstAddToGraph
  | AstDropInJob
  | AstAlterAddAttributes
  | AstAlterDropAttributes
  | AstAlterPairs
  | AstAlterIndex;

/** `RUN [GLOBAL] SCHEMA_CHANGE JOB name [-N]` */
export interface AstRunSchemaChangeJob extends AstNodeBase {
  kind: "RunSchemaChangeJob";
  global: boolean;
  flags: AstFlag[];
  name: AstIdent;
}
