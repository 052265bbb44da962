// Statements of a query body. The same node kinds serve both levels: query-body statements
// (ended by `;`) and DML-level statements inside ACCUM / POST-ACCUM / UPDATE SET (separated
// by `,`). Which kinds are legal where is the binder's business; the parser only enforces
// the separators.
import type { AstIdent, AstNodeBase } from "./node.js";
import type { AstAccumType, AstTupleField, AstType } from "./types.js";
import type { AstExpr } from "./expressions.js";
import type { AstPattern, AstPatternTypeName, AstSqlSelect } from "./select.js";

/** `TYPEDEF TUPLE <fields> Name` (query level, or catalog level at the top of a script). */
export interface AstTypedefTuple extends AstNodeBase {
  kind: "TypedefTuple";
  name: AstIdent;
  fields: AstTupleField[];
}

/** `[STATIC] SumAccum<INT> @@a = 1, @b;`: every declared name has its own scope marker. */
export interface AstAccumDecl extends AstNodeBase {
  kind: "AccumDecl";
  static: boolean;
  type: AstAccumType;
  vars: AstAccumDeclVar[];
}

/**
 * One accumulator name in a declaration. `dims` holds ArrayAccum dimensions
 * (`@@a[3][2]`; `null` for an empty `[]`).
 */
export interface AstAccumDeclVar extends AstNodeBase {
  kind: "AccumDeclVar";
  scope: "global" | "vertex";
  name: string;
  dims: (AstExpr | null)[];
  init?: AstExpr;
}

/** A base-type, tuple or container variable: `INT x = 1, y;` or a DML-level local `DOUBLE d = e.w`. */
export interface AstVarDecl extends AstNodeBase {
  kind: "VarDecl";
  type: AstType;
  vars: AstVarDeclItem[];
}

export interface AstVarDeclItem extends AstNodeBase {
  kind: "VarDeclItem";
  name: AstIdent;
  init?: AstExpr;
}

/** `FILE f (path);` */
export interface AstFileDecl extends AstNodeBase {
  kind: "FileDecl";
  name: AstIdent;
  path: AstExpr;
}

/** `EXCEPTION name (40001);` */
export interface AstExceptionDecl extends AstNodeBase {
  kind: "ExceptionDecl";
  name: AstIdent;
  code: AstExpr;
}

/** `S (T) = value;` / `S (ANY) = value;`: a vertex-set variable with its written type(s). */
export interface AstVertexSetDecl extends AstNodeBase {
  kind: "VertexSetDecl";
  name: AstIdent;
  types: AstPatternTypeName[];
  value: AstExpr;
}

/**
 * `target = value` or `target += value`. The target is a name, `@@acc`, `v.@acc`,
 * `v.attr`, or an indexed accumulator (`@@a[i]`). A plain `S = SELECT ...` or `S = {P.*}`
 * is an Assign too: the binder tells vertex-set variables from base-type ones.
 */
export interface AstAssign extends AstNodeBase {
  kind: "Assign";
  target: AstExpr;
  op: "=" | "+=";
  value: AstExpr;
}

/** A call used as a statement: sub-query call, accumulator method, `f.println(...)`, ... */
export interface AstExprStatement extends AstNodeBase {
  kind: "ExprStatement";
  expr: AstExpr;
}

/** `IF c THEN ... ELSE IF d THEN ... ELSE ... END` */
export interface AstIf extends AstNodeBase {
  kind: "If";
  branches: AstIfBranch[];
  otherwise?: AstStatement[];
}

export interface AstIfBranch extends AstNodeBase {
  kind: "IfBranch";
  condition: AstExpr;
  body: AstStatement[];
}

/** CASE as a statement: `CASE [subject] WHEN x THEN statements ... [ELSE statements] END`. */
export interface AstCaseStatement extends AstNodeBase {
  kind: "CaseStatement";
  subject?: AstExpr;
  whens: AstCaseWhen[];
  otherwise?: AstStatement[];
}

export interface AstCaseWhen extends AstNodeBase {
  kind: "CaseWhen";
  when: AstExpr;
  body: AstStatement[];
}

/** `WHILE c [LIMIT n] DO ... END` */
export interface AstWhile extends AstNodeBase {
  kind: "While";
  condition: AstExpr;
  limit?: AstExpr;
  body: AstStatement[];
}

/**
 * `FOREACH x IN iterable DO ... END`; `vars` has several names for `FOREACH (k, v) IN @@map`
 * (`parenthesized` tells `(x)` from `x`).
 */
export interface AstForeach extends AstNodeBase {
  kind: "Foreach";
  vars: AstIdent[];
  parenthesized: boolean;
  iterable: AstExpr;
  body: AstStatement[];
}

export interface AstBreak extends AstNodeBase {
  kind: "Break";
}

export interface AstContinue extends AstNodeBase {
  kind: "Continue";
}

/** `PRINT item, ... [WHERE c] [TO_CSV f];` */
export interface AstPrint extends AstNodeBase {
  kind: "Print";
  items: AstPrintItem[];
  where?: AstExpr;
  toCsv?: AstExpr;
}

/**
 * One PRINT expression. `text` is the exact source text of the expression (without the AS
 * part); `keyText` is the same with whitespace and comments removed outside string
 * literals, which is what an output key made from the expression uses.
 */
export interface AstPrintItem extends AstNodeBase {
  kind: "PrintItem";
  expr: AstExpr | AstVertexSetProjection;
  alias?: AstIdent;
  text: string;
  keyText: string;
}

/** `S[S.name, S.@n AS k]` in PRINT: a vertex set with the expressions to print per vertex. */
export interface AstVertexSetProjection extends AstNodeBase {
  kind: "VertexSetProjection";
  set: AstIdent;
  items: AstPrintItem[];
}

/** `LOG(condition, value, ...)` */
export interface AstLog extends AstNodeBase {
  kind: "Log";
  args: AstExpr[];
}

/** `RETURN [value]` */
export interface AstReturn extends AstNodeBase {
  kind: "Return";
  value?: AstExpr;
}

/** `RAISE name [(message)]` */
export interface AstRaise extends AstNodeBase {
  kind: "Raise";
  name: AstIdent;
  args: AstExpr[];
}

/** `TRY ... EXCEPTION WHEN e THEN ... [ELSE ...] END` */
export interface AstTry extends AstNodeBase {
  kind: "Try";
  body: AstStatement[];
  handlers: AstExceptionHandler[];
  otherwise?: AstStatement[];
}

export interface AstExceptionHandler extends AstNodeBase {
  kind: "ExceptionHandler";
  name: AstIdent;
  body: AstStatement[];
}

/** `UPDATE alias FROM pattern SET dml, ... [WHERE c]` */
export interface AstUpdate extends AstNodeBase {
  kind: "Update";
  alias: AstIdent;
  from: AstPattern[];
  set: AstStatement[];
  where?: AstExpr;
}

/** `DELETE alias FROM pattern [WHERE c]` (query-body level) */
export interface AstDeleteFrom extends AstNodeBase {
  kind: "DeleteFrom";
  alias: AstIdent;
  from: AstPattern[];
  where?: AstExpr;
}

/** `DELETE (v)` (DML level): deletes the vertex or edge the expression denotes. */
export interface AstDelete extends AstNodeBase {
  kind: "Delete";
  target: AstExpr;
}

/**
 * `INSERT INTO Type [(columns)] VALUES (values)`. Column names PRIMARY_ID, FROM and TO are
 * upper-cased; an edge endpoint with a type is an AstTypedValue (`id Type`); `_` is an
 * AstUnderscore.
 */
export interface AstInsert extends AstNodeBase {
  kind: "Insert";
  target: AstIdent;
  /** `INSERT INTO VERTEX x` / `INSERT INTO EDGE x`: the target named through a variable. */
  targetKind?: "VERTEX" | "EDGE";
  columns?: AstIdent[];
  values: AstExpr[];
}

export type AstStatement =
  | AstTypedefTuple
  | AstAccumDecl
  | AstVarDecl
  | AstFileDecl
  | AstExceptionDecl
  | AstVertexSetDecl
  | AstAssign
  | AstExprStatement
  | AstIf
  | AstCaseStatement
  | AstWhile
  | AstForeach
  | AstBreak
  | AstContinue
  | AstPrint
  | AstLog
  | AstReturn
  | AstRaise
  | AstTry
  | AstUpdate
  | AstDeleteFrom
  | AstDelete
  | AstInsert
  | AstSqlSelect;
