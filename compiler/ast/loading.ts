// Loading jobs: DEFINE statements, LOAD with its destinations and USING options, DELETE
// statements, and RUN LOADING JOB.
import type { AstAllNames, AstFlag, AstIdent, AstNodeBase, AstStringLiteral } from "./node.js";
import type { AstExpr } from "./expressions.js";
import type { AstOption } from "./ddl.js";

/** `CREATE LOADING JOB name [FOR GRAPH g] { statements }` */
export interface AstCreateLoadingJob extends AstNodeBase {
  kind: "CreateLoadingJob";
  name: AstIdent;
  graph?: AstIdent;
  statements: AstLoadingStatement[];
}

/** `DEFINE FILENAME f [= "path"];` */
export interface AstDefineFilename extends AstNodeBase {
  kind: "DefineFilename";
  name: AstIdent;
  path?: AstStringLiteral;
}

/** `DEFINE HEADER h = "a", "b";` */
export interface AstDefineHeader extends AstNodeBase {
  kind: "DefineHeader";
  name: AstIdent;
  columns: AstStringLiteral[];
}

/** `DEFINE INPUT_LINE_FILTER name = condition;` */
export interface AstDefineInputLineFilter extends AstNodeBase {
  kind: "DefineInputLineFilter";
  name: AstIdent;
  condition: AstExpr;
}

/** `TEMP_TABLE t` as a LOAD source. */
export interface AstTempTableSource extends AstNodeBase {
  kind: "TempTableSource";
  name: AstIdent;
}

/** A LOAD or DELETE source: a filename variable, a literal path, or a temp table. */
export type AstLoadSource = AstIdent | AstStringLiteral | AstTempTableSource;

/** `LOAD source TO ..., TO ... [USING opt="v", ...];` */
export interface AstLoad extends AstNodeBase {
  kind: "Load";
  source: AstLoadSource;
  destinations: AstLoadDestination[];
  using: AstOption[];
}

/** `TO VERTEX T VALUES (id, attr, ...) [WHERE c]` */
export interface AstLoadToVertex extends AstNodeBase {
  kind: "LoadToVertex";
  typeName: AstIdent;
  values: AstExpr[];
  where?: AstExpr;
}

/** `TO EDGE E VALUES (from [FromType], to [ToType], attr, ...) [WHERE c]` */
export interface AstLoadToEdge extends AstNodeBase {
  kind: "LoadToEdge";
  typeName: AstIdent;
  values: AstExpr[];
  where?: AstExpr;
}

/** `TO TEMP_TABLE t (c1, c2) VALUES (...) [WHERE c]` */
export interface AstLoadToTempTable extends AstNodeBase {
  kind: "LoadToTempTable";
  name: AstIdent;
  columns: AstIdent[];
  values: AstExpr[];
  where?: AstExpr;
}

export type AstLoadDestination = AstLoadToVertex | AstLoadToEdge | AstLoadToTempTable;

/** `PRIMARY_ID ($0)`, `FROM $0 [V]`, `TO $1`, `DISCRIMINATOR($2, $3)` inside a loading DELETE. */
export interface AstLoadDeleteKey extends AstNodeBase {
  kind: "LoadDeleteKey";
  key: "PRIMARY_ID" | "FROM" | "TO" | "DISCRIMINATOR";
  values: AstExpr[];
}

/** `DELETE VERTEX T (PRIMARY_ID $0) FROM f [WHERE c];` / `DELETE EDGE E|* (FROM $0, TO $1) FROM f;` */
export interface AstLoadDelete extends AstNodeBase {
  kind: "LoadDelete";
  target: "VERTEX" | "EDGE";
  typeName: AstIdent | AstAllNames;
  keys: AstLoadDeleteKey[];
  source: AstLoadSource;
  where?: AstExpr;
}

export type AstLoadingStatement =
  | AstDefineFilename
  | AstDefineHeader
  | AstDefineInputLineFilter
  | AstLoad
  | AstLoadDelete;

/** `RUN LOADING JOB [-flags] name [USING f="path", CONCURRENCY=256, ...]` */
export interface AstRunLoadingJob extends AstNodeBase {
  kind: "RunLoadingJob";
  flags: AstFlag[];
  name: AstIdent;
  using: AstOption[];
}
