// CREATE QUERY and the anonymous INTERPRET QUERY: header (parameters, graph, return type,
// API, SYNTAX version) and body. The full text of CREATE QUERY is kept for SHOW QUERY.
import type { AstIdent, AstNodeBase, AstStringLiteral, SourceRange } from "./node.js";
import type { AstType } from "./types.js";
import type { AstExpr } from "./expressions.js";
import type { AstStatement } from "./statements.js";

/** `type name [= default]` in a query's parameter list. */
export interface AstParam extends AstNodeBase {
  kind: "Param";
  type: AstType;
  name: AstIdent;
  default?: AstExpr;
}

/** `SYNTAX V1` / `SYNTAX v2`: `version` is upper-cased ("V1", "V2"; anything else is kept for the binder to reject). */
export interface AstSyntaxVersion extends AstNodeBase {
  kind: "SyntaxVersion";
  version: string;
}

/** What CREATE QUERY and INTERPRET QUERY (anonymous form) share. */
export interface AstQueryDefinition extends AstNodeBase {
  /** Absent only for `INTERPRET QUERY () ...`. */
  name?: AstIdent;
  params: AstParam[];
  graph?: AstIdent;
  returns?: AstType;
  api?: AstStringLiteral;
  syntax?: AstSyntaxVersion;
  distributed: boolean;
  /** Typedefs, declarations and statements in source order. */
  body: AstStatement[];
  /** The braces and everything between them. */
  bodyRange: SourceRange;
  /** The exact source text of the whole statement (what SHOW QUERY prints). */
  text: string;
}

/** `CREATE [OR REPLACE] [DISTRIBUTED] QUERY name(params) [FOR GRAPH g] [RETURNS (t)] [API("v2")] [SYNTAX v] { body }` */
export interface AstCreateQuery extends AstQueryDefinition {
  kind: "CreateQuery";
  name: AstIdent;
  orReplace: boolean;
}

/** `INTERPRET QUERY () [FOR GRAPH g] [SYNTAX v] { body }`: run an unnamed query without installing it. */
export interface AstInterpretAnonymousQuery extends AstQueryDefinition {
  kind: "InterpretAnonymousQuery";
}
