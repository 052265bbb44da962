// Expressions: literals (numbers kept as source text, so 64-bit values never pass through
// a JS number), names and accumulator references, member access and calls, operators,
// collection literals, vertex-set seeds, and the loading-job value forms ($0, REDUCE...).
import type { AstIdent, AstNodeBase, AstStringLiteral } from "./node.js";
import type { AstSelect } from "./select.js";

/** An integer literal exactly as written; a directly negated literal carries its `-` (`-5`). */
export interface AstIntLiteral extends AstNodeBase {
  kind: "IntLiteral";
  text: string;
}

/** A real literal exactly as written (`3.25`, `.5`, `5.`, `-1.5`, `2e3`). */
export interface AstRealLiteral extends AstNodeBase {
  kind: "RealLiteral";
  text: string;
}

export interface AstBoolLiteral extends AstNodeBase {
  kind: "BoolLiteral";
  value: boolean;
}

/** GSQL_INT_MAX, GSQL_INT_MIN, GSQL_UINT_MAX. */
export interface AstNamedConstant extends AstNodeBase {
  kind: "NamedConstant";
  name: "GSQL_INT_MAX" | "GSQL_INT_MIN" | "GSQL_UINT_MAX";
}

/** `_`: "use the default" in RUN QUERY arguments, INSERT and LOAD values. */
export interface AstUnderscore extends AstNodeBase {
  kind: "Underscore";
}

/** `ANY` or `_` standing for "every vertex type" in a seed (`{ANY}`, `{_}`). */
export interface AstAnyType extends AstNodeBase {
  kind: "AnyType";
  spelling: "ANY" | "_";
}

/** `@@name` (global) or `@name` (vertex-attached, used bare in declarations' contexts). */
export interface AstAccumRef extends AstNodeBase {
  kind: "AccumRef";
  scope: "global" | "vertex";
  name: string;
}

/** `v.@name` or `v.@name'` (the prime: the value before the ACCUM clause). */
export interface AstAccumAccess extends AstNodeBase {
  kind: "AccumAccess";
  object: AstExpr;
  name: string;
  prime: boolean;
}

/** `object.field`: attribute, tuple field, `.type`. */
export interface AstFieldAccess extends AstNodeBase {
  kind: "FieldAccess";
  object: AstExpr;
  field: AstIdent;
}

/** `object.method(args)`: vertex/edge functions, accumulator methods, `f.println(...)`. */
export interface AstMethodCall extends AstNodeBase {
  kind: "MethodCall";
  object: AstExpr;
  method: AstIdent;
  args: AstExpr[];
}

/**
 * `name(args)`: a built-in function, a tuple constructor, a loading token function, or a
 * sub-query call; the binder decides which. `keyword` is set when the name is a GSQL keyword
 * (COUNT, SUM, MIN, MAX, AVG, COALESCE, ISEMPTY, LOG, ...); `distinct` for `COUNT(DISTINCT x)`.
 */
export interface AstCall extends AstNodeBase {
  kind: "Call";
  callee: AstIdent;
  args: AstExpr[];
  keyword: boolean;
  distinct: boolean;
  /** `COUNT(*)`: the argument list is a `*` (then `args` is empty). */
  star?: boolean;
}

/** `object[index]` (ArrayAccum elements, `@@a[i][j]`). */
export interface AstIndex extends AstNodeBase {
  kind: "Index";
  object: AstExpr;
  index: AstExpr;
}

/** `T.*`: every vertex of type T (seeds). */
export interface AstTypeStar extends AstNodeBase {
  kind: "TypeStar";
  typeName: AstIdent;
}

/** `{ item, ... }`: a vertex-set seed (`{P.*}`, `{ANY}`, `{v}`, `{@@set, param}`, `{}`). */
export interface AstSeedSet extends AstNodeBase {
  kind: "SeedSet";
  items: AstExpr[];
}

export type AstUnaryOp = "-" | "NOT";

export interface AstUnary extends AstNodeBase {
  kind: "Unary";
  op: AstUnaryOp;
  operand: AstExpr;
}

export type AstBinaryOp =
  | "*" | "/" | "%" | "+" | "-" | "^"
  | "<<" | ">>" | "&" | "|"
  | "==" | "!=" | "<" | "<=" | ">" | ">="
  | "AND" | "OR"
  | "UNION" | "INTERSECT" | "MINUS";

export interface AstBinary extends AstNodeBase {
  kind: "Binary";
  op: AstBinaryOp;
  left: AstExpr;
  right: AstExpr;
}

/** `value [NOT] BETWEEN low AND high`. */
export interface AstBetween extends AstNodeBase {
  kind: "Between";
  value: AstExpr;
  low: AstExpr;
  high: AstExpr;
  negated: boolean;
}

/** `value [NOT] IN set`. */
export interface AstIn extends AstNodeBase {
  kind: "In";
  value: AstExpr;
  set: AstExpr;
  negated: boolean;
}

/** `value [NOT] LIKE pattern [ESCAPE "c"]`. */
export interface AstLike extends AstNodeBase {
  kind: "Like";
  value: AstExpr;
  pattern: AstExpr;
  escape?: AstExpr;
  negated: boolean;
}

/** `value IS [NOT] NULL`, and the loading-job tests `IS [NOT] NUMERIC` / `IS [NOT] EMPTY`. */
export interface AstIsCheck extends AstNodeBase {
  kind: "IsCheck";
  value: AstExpr;
  check: "NULL" | "NUMERIC" | "EMPTY";
  negated: boolean;
}

/** CASE as an expression: `CASE [subject] WHEN a THEN x ... [ELSE y] END`. */
export interface AstCaseExpr extends AstNodeBase {
  kind: "CaseExpr";
  subject?: AstExpr;
  whens: AstCaseExprWhen[];
  otherwise?: AstExpr;
}

export interface AstCaseExprWhen extends AstNodeBase {
  kind: "CaseExprWhen";
  when: AstExpr;
  then: AstExpr;
}

/** `[a, b, ...]`: a list. */
export interface AstListLiteral extends AstNodeBase {
  kind: "ListLiteral";
  items: AstExpr[];
}

/** `(a, b, ...)` with two or more items: a set/bag literal, or a tuple of values (RUN QUERY vertex arguments, composite keys). */
export interface AstParenList extends AstNodeBase {
  kind: "ParenList";
  items: AstExpr[];
}

/** `(k -> v)` (MapAccum element) or `(k1, k2 -> v1, v2)` (GroupByAccum element). */
export interface AstKeyValue extends AstNodeBase {
  kind: "KeyValue";
  keys: AstExpr[];
  values: AstExpr[];
}

/** `RANGE[from, to]` or `RANGE[from, to].STEP(step)`: inclusive integer range (FOREACH). */
export interface AstRange extends AstNodeBase {
  kind: "Range";
  from: AstExpr;
  to: AstExpr;
  step?: AstExpr;
}

/** `INTERVAL n UNIT` (datetime_add / datetime_sub). `unit` is upper-cased. */
export interface AstInterval extends AstNodeBase {
  kind: "Interval";
  value: AstExpr;
  unit: string;
}

/** `TRIM([LEADING|TRAILING|BOTH] [chars FROM] value)`. */
export interface AstTrim extends AstNodeBase {
  kind: "Trim";
  side?: "LEADING" | "TRAILING" | "BOTH";
  chars?: AstExpr;
  value: AstExpr;
}

/**
 * A column reference in loading jobs and file-reading functions (SelectVertex, LOADACCUM):
 * `$0` (position), `$"col"` (name), `$"a":"b"` (JSON key path), `$sys.file_name`.
 */
export interface AstColumnRef extends AstNodeBase {
  kind: "ColumnRef";
  position?: string;
  /** Names of the key path: one element for `$"col"`, several for `$"a":"b"`. */
  path?: string[];
  /** `$sys.<name>`. */
  sys?: string;
}

/** A load value followed by a vertex type (`$0 Comment`): picks the endpoint type of an edge. */
export interface AstTypedValue extends AstNodeBase {
  kind: "TypedValue";
  value: AstExpr;
  vertexType: AstIdent;
}

/** `REDUCE(fn(expr))` in a loading-job VALUES list. */
export interface AstReduce extends AstNodeBase {
  kind: "Reduce";
  reducer: AstIdent;
  value: AstExpr;
}

export type AstLiteral =
  | AstIntLiteral | AstRealLiteral | AstStringLiteral | AstBoolLiteral | AstNamedConstant;

export type AstExpr =
  | AstLiteral
  | AstUnderscore
  | AstAnyType
  | AstIdent
  | AstAccumRef
  | AstAccumAccess
  | AstFieldAccess
  | AstMethodCall
  | AstCall
  | AstIndex
  | AstTypeStar
  | AstSeedSet
  | AstUnary
  | AstBinary
  | AstBetween
  | AstIn
  | AstLike
  | AstIsCheck
  | AstCaseExpr
  | AstListLiteral
  | AstParenList
  | AstKeyValue
  | AstRange
  | AstInterval
  | AstTrim
  | AstColumnRef
  | AstTypedValue
  | AstReduce
  | AstSelect;
