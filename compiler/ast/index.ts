// The AST: our own plain-data tree of a GSQL text, built from the parse tree by buildAst.
// One construct family per file; this module re-exports them all and names the union of
// every node kind.
export type * from "./node.js";
export type * from "./types.js";
export type * from "./expressions.js";
export type * from "./select.js";
export type * from "./statements.js";
export type * from "./ddl.js";
export type * from "./loading.js";
export type * from "./query.js";
export type * from "./shell.js";
export type * from "./script.js";

export { buildAst } from "./build-ast.js";
export { astToJson, dumpAst } from "./dump.js";
export { childrenOf, walkAst } from "./walk.js";

import type { AstAllNames, AstFlag, AstIdent, AstStringLiteral } from "./node.js";
import type { AstHeapKey, AstHeapOptions, AstTupleField, AstType } from "./types.js";
import type { AstCaseExprWhen, AstExpr } from "./expressions.js";
import type {
  AstAccumClause, AstEdgeSegment, AstEdgeTypeRef, AstLimit, AstOrderKey, AstPattern, AstPatternEdge,
  AstPatternVertex, AstPostAccumClause, AstRepeat, AstSample, AstSqlColumn,
} from "./select.js";
import type {
  AstAccumDeclVar, AstCaseWhen, AstExceptionHandler, AstIfBranch, AstPrintItem, AstStatement,
  AstVarDeclItem, AstVertexSetProjection,
} from "./statements.js";
import type { AstAttributeDef, AstEdgePair, AstOption, AstPrimaryId, AstSchemaChangeStatement } from "./ddl.js";
import type { AstLoadDeleteKey, AstLoadDestination, AstLoadingStatement, AstTempTableSource } from "./loading.js";
import type { AstParam, AstSyntaxVersion } from "./query.js";
import type { AstScript, AstTopStatement } from "./script.js";

/** Every AST node type. */
export type AstNode =
  | AstScript
  | AstTopStatement
  | AstStatement
  | AstExpr
  | AstType
  | AstIdent | AstAllNames | AstFlag | AstStringLiteral
  | AstTupleField | AstHeapOptions | AstHeapKey
  | AstCaseExprWhen
  | AstPattern | AstPatternVertex | AstPatternEdge | AstEdgeSegment | AstEdgeTypeRef | AstRepeat
  | AstSample | AstAccumClause | AstPostAccumClause | AstOrderKey | AstLimit | AstSqlColumn
  | AstAccumDeclVar | AstVarDeclItem | AstIfBranch | AstCaseWhen | AstExceptionHandler
  | AstPrintItem | AstVertexSetProjection
  | AstAttributeDef | AstPrimaryId | AstOption | AstEdgePair | AstSchemaChangeStatement
  | AstLoadingStatement | AstLoadDestination | AstLoadDeleteKey | AstTempTableSource
  | AstParam | AstSyntaxVersion;

export type AstNodeKind = AstNode["kind"];
