// SELECT blocks and the FROM patterns shared by SELECT, UPDATE and DELETE. Both edge-pattern
// spellings are kept exactly as written: the arrowhead outside the parentheses (V1:
// `-(E:e)->`) and the direction marks inside (V2: `-(E>:e)-`, `-(<E:e)-`), so the binder can
// apply the SYNTAX version's meaning.
import type { AstIdent, AstNodeBase } from "./node.js";
import type { AstAccumRef, AstAnyType, AstExpr } from "./expressions.js";
import type { AstStatement } from "./statements.js";

/** What may name vertex or edge types in a pattern: a name (type, vertex-set variable, parameter), `@@acc` of names, or `_` / `ANY`. */
export type AstPatternTypeName = AstIdent | AstAccumRef | AstAnyType;

/**
 * One path pattern: `vertices[0] edges[0] vertices[1] edges[1] ...`. A vertex-only step
 * (`FROM S:s`) has one vertex and no edges.
 */
export interface AstPattern extends AstNodeBase {
  kind: "Pattern";
  vertices: AstPatternVertex[];
  edges: AstPatternEdge[];
}

/**
 * A vertex position: `S:s`, `P:t`, `(A|B):t`, `_:t`, `ANY`, `:t` (no type). `types` is empty
 * when no type is written, holds several entries for an alternation.
 */
export interface AstPatternVertex extends AstNodeBase {
  kind: "PatternVertex";
  types: AstPatternTypeName[];
  alias?: AstIdent;
}

/**
 * An edge position `-( segments : alias )-`.
 *  - `arrow`: the mark outside the parentheses: "right" is `-(...)->` (V1 spelling),
 *    "none" is `-(...)-`.
 *  - `segments`: `.`-concatenated parts (V2 `-(E1>.<E2)-`); empty for `-()-` / `-(:e)-`.
 */
export interface AstPatternEdge extends AstNodeBase {
  kind: "PatternEdge";
  arrow: "none" | "right";
  segments: AstEdgeSegment[];
  alias?: AstIdent;
}

/** An alternation of edge types, optionally repeated: `E>`, `(E1>|<E2|E3)`, `Knows>*1..3`. */
export interface AstEdgeSegment extends AstNodeBase {
  kind: "EdgeSegment";
  alternatives: AstEdgeTypeRef[];
  /** Whether the alternatives were written in their own parentheses: `-((A|B):e)-`. */
  parenthesized: boolean;
  repeat?: AstRepeat;
}

/**
 * One edge type in a pattern with the direction mark written inside the parentheses:
 * "forward" for `E>`, "backward" for `<E`, "none" for a bare `E`.
 */
export interface AstEdgeTypeRef extends AstNodeBase {
  kind: "EdgeTypeRef";
  name: AstPatternTypeName;
  direction: "none" | "forward" | "backward";
}

/** Kleene repetition `*`, `*2`, `*1..3`, `*..3`, `*2..`: bounds as written (`*2` has lower = upper = "2"). */
export interface AstRepeat extends AstNodeBase {
  kind: "Repeat";
  text: string;
  lower?: string;
  upper?: string;
}

/** `SAMPLE n [%] EDGE|TARGET [PINNED] WHEN condition` (V1). */
export interface AstSample extends AstNodeBase {
  kind: "Sample";
  count: AstExpr;
  percent: boolean;
  unit: "EDGE" | "TARGET";
  pinned: boolean;
  when?: AstExpr;
}

/** `[PER(a, b)] ACCUM statement, statement, ...`. */
export interface AstAccumClause extends AstNodeBase {
  kind: "AccumClause";
  per: AstIdent[];
  body: AstStatement[];
}

/** `POST-ACCUM [(alias)] statement, ...` (also spelled POST_ACCUM). */
export interface AstPostAccumClause extends AstNodeBase {
  kind: "PostAccumClause";
  spelling: "POST-ACCUM" | "POST_ACCUM";
  alias?: AstIdent;
  body: AstStatement[];
}

export interface AstOrderKey extends AstNodeBase {
  kind: "OrderKey";
  expr: AstExpr;
  order: "ASC" | "DESC";
  explicitOrder: boolean;
}

/** `LIMIT k`, `LIMIT j, k` (skip j) or `LIMIT k OFFSET j`. */
export interface AstLimit extends AstNodeBase {
  kind: "Limit";
  count: AstExpr;
  offset?: AstExpr;
  form: "count" | "offset-comma-count" | "count-offset";
}

/** One column of a SQL-like SELECT: an expression (aggregates allowed) and its heading. */
export interface AstSqlColumn extends AstNodeBase {
  kind: "SqlColumn";
  expr: AstExpr;
  alias?: AstIdent;
  /** The expression's text without whitespace: the heading when there is no alias. */
  keyText: string;
}

/**
 * The SQL-like SELECT statement (SYNTAX V2): `SELECT [DISTINCT] col [AS name], ... INTO table
 * FROM pattern [WHERE c] [GROUP BY e, ...] [HAVING c] [ORDER BY ...] [LIMIT ...];`. It fills
 * a table (rows of the columns) instead of a vertex set, and has no ACCUM or POST-ACCUM.
 */
export interface AstSqlSelect extends AstNodeBase {
  kind: "SqlSelect";
  distinct: boolean;
  columns: AstSqlColumn[];
  into: AstIdent;
  from: AstPattern[];
  where?: AstExpr;
  groupBy: AstExpr[];
  having?: AstExpr;
  orderBy: AstOrderKey[];
  limit?: AstLimit;
}

/**
 * A SELECT block. It appears as the value of an assignment (`R = SELECT ...`,
 * `R (T) = SELECT ...`, in an AstAssign or AstVertexSetDecl) or alone as an
 * AstExprStatement; the grammar never lets it be an operand of a larger expression.
 */
export interface AstSelect extends AstNodeBase {
  kind: "Select";
  /** The alias (or vertex-set name) whose vertices form the result. */
  selected: AstIdent;
  distinct: boolean;
  from: AstPattern[];
  sample?: AstSample;
  where?: AstExpr;
  accum?: AstAccumClause;
  postAccum: AstPostAccumClause[];
  having?: AstExpr;
  orderBy: AstOrderKey[];
  limit?: AstLimit;
}
