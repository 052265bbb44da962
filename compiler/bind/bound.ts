// The bound tree: what the binder hands to the back end. Every expression carries its
// type, every name is resolved to a declaration object, implicit conversions are explicit
// `convert` nodes, and each SELECT's pattern is normalised to a direction per edge type,
// so lowering never looks anything up again. Declarations are shared objects (referenced
// by identity) with a per-query `id` so dumps can name them.
import type { SourceRange } from "../diagnostics/index.js";
import type { AccumType, GType, TupleGType } from "./types.js";
import type { QuerySignature } from "./catalog.js";
import type { BuiltinFunction, BuiltinMethod } from "./builtins.js";

// ---------------------------------------------------------------- declarations

interface DeclBase {
  id: number;
  name: string;
  range: SourceRange;
}

export interface ParamDecl extends DeclBase {
  declKind: "param";
  type: GType;
  index: number;
  default?: BoundExpr;
}

/** A query-body (global) variable, a DML-level local, or a FILE object. */
export interface VarDecl extends DeclBase {
  declKind: "var";
  type: GType;
  level: "query" | "dml";
}

export interface AccumDecl extends DeclBase {
  declKind: "accum";
  /** `@@x` is global (one instance), `@x` is vertex-attached (one per vertex). */
  scope: "global" | "vertex";
  type: AccumType;
  /** Declared as `static` (kept across runs of an installed query). */
  isStatic: boolean;
}

export interface VertexSetDecl extends DeclBase {
  declKind: "vset";
  /** Fixed by the first assignment or the `S (T1|T2) = ...` form; undefined = ANY. */
  vertexTypes?: string[];
}

/** A FROM-clause alias; the types it may take at run time (after pattern resolution). */
export interface AliasDecl extends DeclBase {
  declKind: "alias";
  role: "vertex" | "edge";
  types: string[];
  /** True when the pattern allows any type (wildcards, dynamic type names). */
  anyType: boolean;
}

/** FOREACH variables, `(k, v)` map pairs and GroupBy fields. Read-only. */
export interface LoopVarDecl extends DeclBase {
  declKind: "loopvar";
  type: GType;
}

export interface ExceptionDecl extends DeclBase {
  declKind: "exception";
  code: number;
}

export type Decl = ParamDecl | VarDecl | AccumDecl | VertexSetDecl | AliasDecl | LoopVarDecl | ExceptionDecl;

/** A schema attribute resolved for every type an expression's target may have. */
export interface AttrRef {
  name: string;
  owners: { typeName: string; element: "vertex" | "edge"; index: number }[];
  /** The id is read through the attribute (primary_id_as_attribute / PRIMARY KEY single key). */
  isPrimaryId: boolean;
}

// ---------------------------------------------------------------- expressions

interface ExprBase {
  range: SourceRange;
  type: GType;
}

export type Literal = bigint | number | boolean | string;

export type BinaryOp =
  | "+" | "-" | "*" | "/" | "%" | "<<" | ">>" | "&" | "|"
  | "==" | "!=" | "<" | "<=" | ">" | ">=" | "AND" | "OR"
  | "UNION" | "INTERSECT" | "MINUS";

export type BoundExpr = ExprBase & (
  | { kind: "literal"; value: Literal }
  /** GSQL_INT_MAX and friends, and PI-like constants. */
  | { kind: "constant"; name: string; value: Literal }
  | { kind: "ref"; decl: ParamDecl | VarDecl | LoopVarDecl | VertexSetDecl | AliasDecl }
  | { kind: "globalAccum"; decl: AccumDecl }
  /** `v.@x` / `v.@x'`: a vertex-attached accumulator of the vertex `target` evaluates to. */
  | { kind: "vertexAccum"; target: BoundExpr; decl: AccumDecl; prime: boolean }
  | { kind: "attr"; target: BoundExpr; attr: AttrRef }
  /** `.type` on a vertex or edge, `.id` where permitted, `e.from_id`... */
  | { kind: "pseudoAttr"; target: BoundExpr; name: "type" }
  | { kind: "tupleField"; target: BoundExpr; field: string; index: number }
  | { kind: "unary"; op: "-" | "NOT" | "~"; operand: BoundExpr }
  /** `operandType`: the type both sides were widened to (arithmetic, comparison). */
  | { kind: "binary"; op: BinaryOp; left: BoundExpr; right: BoundExpr; operandType: GType }
  | { kind: "convert"; operand: BoundExpr }
  | { kind: "call"; fn: BuiltinFunction; args: BoundExpr[]; distinct?: boolean }
  | { kind: "method"; target: BoundExpr; method: BuiltinMethod; args: BoundExpr[] }
  | { kind: "subquery"; query: QuerySignature; args: BoundExpr[] }
  | { kind: "tupleCtor"; tuple: TupleGType; args: BoundExpr[] }
  | { kind: "listLit"; elements: BoundExpr[] }
  | { kind: "setLit"; elements: BoundExpr[] }
  | { kind: "entry"; keys: BoundExpr[]; values: BoundExpr[] }
  | { kind: "index"; target: BoundExpr; indices: BoundExpr[] }
  | { kind: "case"; subject?: BoundExpr; whens: { when: BoundExpr; then: BoundExpr }[]; else?: BoundExpr }
  | { kind: "in"; negated: boolean; value: BoundExpr; collection: BoundExpr }
  | { kind: "between"; value: BoundExpr; low: BoundExpr; high: BoundExpr }
  | { kind: "isNull"; negated: boolean; param: ParamDecl }
  | { kind: "like"; negated: boolean; value: BoundExpr; pattern: BoundExpr; escape?: string }
  /** `{A.*, v, @@s}`: a vertex-set seed; each part a vertex type, vertex value or collection. */
  | { kind: "seed"; parts: SeedPart[] }
  | { kind: "datetimeInterval"; value: BoundExpr; unit: string }
);

export type SeedPart =
  | { kind: "allOfType"; vertexType: string }
  | { kind: "allVertices" }
  | { kind: "value"; expr: BoundExpr };

// ---------------------------------------------------------------- SELECT

export type Direction = "out" | "in" | "undirected";

/** One edge type matched by a hop, and how: out (source is FROM), in (source is TO), undirected. */
export interface EdgeMatch {
  edgeType: string;
  direction: Direction;
}

export interface PatternHop {
  range: SourceRange;
  /** The vertex alias this hop leaves from: the previous hop's target, or a pattern's source. */
  from: AliasDecl;
  edgeAlias?: AliasDecl;
  /** Edge types by name with their normalised direction; empty when `dynamicEdges` decides. */
  edges: EdgeMatch[];
  /**
   * Edge types named at run time by a STRING / SET<STRING> parameter, variable or accumulator.
   * `mark` is the direction written: "default" means out-edges for a directed type and both
   * ends for an undirected one (the V1 meaning); "forward"/"backward" as `E>` / `<E`.
   */
  dynamicEdges?: { expr: BoundExpr; mark: "default" | "forward" | "backward" };
  /** V2 repetition `E*lo..hi` (hi undefined: unbounded). */
  repeat?: { min: number; max?: number };
  target: AliasDecl;
  /** Target filter: vertex types allowed (undefined: any), or a run-time type-name collection. */
  targetTypes?: string[];
  dynamicTargets?: BoundExpr;
  /** V2: the target must also be in this vertex-set variable. */
  targetSet?: VertexSetDecl;
}

export interface BoundSelect {
  range: SourceRange;
  syntax: "v1" | "v2";
  /** The FROM source of the first pattern: a vertex-set variable, or (V2) vertex types. Further
   * comma-separated patterns (V2) start at the `from` alias of their first hop. */
  source: { alias: AliasDecl; vertexSet?: VertexSetDecl; vertexTypes?: string[] };
  hops: PatternHop[];
  /** The alias whose distinct vertices form the result. */
  selected: AliasDecl;
  sample?: { count: BoundExpr; percent: boolean; what: "EDGE" | "TARGET"; pinned: boolean; when?: BoundExpr };
  where?: BoundExpr;
  accum: BoundStmt[];
  /** POST-ACCUM clauses, each bound to one vertex alias (V1 statements grouped in order). */
  postAccum: { alias: AliasDecl; stmts: BoundStmt[] }[];
  having?: BoundExpr;
  orderBy: { expr: BoundExpr; desc: boolean }[];
  limit?: BoundExpr;
  offset?: BoundExpr;
}

// ---------------------------------------------------------------- statements

export interface PrintItem {
  /** The JSON key: AS name, variable name, or the expression text without whitespace. */
  key: string;
  expr: BoundExpr;
  /** `S[S.a, S.@b AS k]`: a vertex-set projection. */
  projection?: { key: string; expr: BoundExpr }[];
}

interface StmtBase {
  range: SourceRange;
}

export type AssignTarget =
  | { kind: "var"; decl: VarDecl }
  | { kind: "globalAccum"; decl: AccumDecl; indices?: BoundExpr[] }
  | { kind: "vertexAccum"; target: BoundExpr; decl: AccumDecl; indices?: BoundExpr[] }
  | { kind: "attr"; target: BoundExpr; attr: AttrRef; type: GType };

export type BoundStmt = StmtBase & (
  | { kind: "declVar"; decl: VarDecl; init?: BoundExpr }
  | { kind: "declAccum"; decl: AccumDecl; init?: BoundExpr; heapCapacity?: BoundExpr; arraySizes?: BoundExpr[] }
  | { kind: "declFile"; decl: VarDecl; path: BoundExpr }
  | { kind: "declException"; decl: ExceptionDecl }
  | { kind: "assign"; target: AssignTarget; value: BoundExpr }
  | { kind: "accumulate"; target: AssignTarget; value: BoundExpr }
  | { kind: "vsetAssign"; decl: VertexSetDecl; value: BoundExpr }
  | { kind: "select"; decl: VertexSetDecl; select: BoundSelect }
  | { kind: "expr"; expr: BoundExpr }
  /** `reset_collection_accum(@x)`: empties the collection accumulator (every vertex's instance). */
  | { kind: "resetAccum"; decl: AccumDecl }
  | { kind: "if"; branches: { cond: BoundExpr; body: BoundStmt[] }[]; else?: BoundStmt[] }
  | { kind: "case"; subject?: BoundExpr; whens: { when: BoundExpr; body: BoundStmt[] }[]; else?: BoundStmt[] }
  | { kind: "while"; cond: BoundExpr; limit?: BoundExpr; body: BoundStmt[] }
  | { kind: "foreachRange"; loopVar: LoopVarDecl; low: BoundExpr; high: BoundExpr; step?: BoundExpr; body: BoundStmt[] }
  | { kind: "foreach"; loopVars: LoopVarDecl[]; collection: BoundExpr; body: BoundStmt[] }
  | { kind: "break" }
  | { kind: "continue" }
  | { kind: "print"; items: PrintItem[]; where?: BoundExpr; toCsv?: VarDecl | ParamDecl }
  | { kind: "println"; file: VarDecl | ParamDecl; args: BoundExpr[] }
  | { kind: "log"; cond: BoundExpr; args: BoundExpr[] }
  | { kind: "return"; value?: BoundExpr }
  | { kind: "raise"; exception: ExceptionDecl; message?: BoundExpr }
  | { kind: "try"; body: BoundStmt[]; handlers: { exception: ExceptionDecl; body: BoundStmt[] }[]; else?: BoundStmt[] }
  | { kind: "update"; select: BoundSelect; set: BoundStmt[] }
  | { kind: "insert"; element: "vertex" | "edge"; typeName: string; columns?: string[]; values: BoundExpr[];
      endpoints?: { from: BoundExpr; fromType?: string; to: BoundExpr; toType?: string } }
  | { kind: "deleteSelect"; select: BoundSelect }
  | { kind: "deleteValue"; target: BoundExpr }
  | ({ kind: "sqlSelect" } & BoundSqlSelect)
);

/**
 * A SQL-like SELECT (SYNTAX V2) filling the table `table`. `select` holds the FROM pattern and
 * WHERE (no ACCUM, POST-ACCUM, HAVING, ORDER BY or LIMIT of its own; `selected` is the source
 * alias). Per matched row the columns are computed; with aggregates, rows are grouped by
 * `groupBy` (or, without GROUP BY, by the non-aggregated columns, which come first). HAVING
 * and ORDER BY read the columns through each column's `decl`; the table's type is a
 * ListAccum of a tuple with one field per column.
 */
export interface BoundSqlSelect {
  table: VarDecl;
  distinct: boolean;
  select: BoundSelect;
  columns: SqlColumn[];
  groupBy: BoundExpr[];
  having?: BoundExpr;
  orderBy: { expr: BoundExpr; desc: boolean }[];
  limit?: BoundExpr;
  offset?: BoundExpr;
}

/** One column: `expr` per row, or folded by `aggregate` over the rows of a group. */
export interface SqlColumn {
  name: string;
  decl: VarDecl;
  expr: BoundExpr;
  aggregate?: { fn: "COUNT" | "SUM" | "MIN" | "MAX" | "AVG"; distinct: boolean };
}

// ---------------------------------------------------------------- query

export interface BoundQuery {
  kind: "query";
  range: SourceRange;
  name: string;
  graph: string;
  syntax: "v1" | "v2";
  /** Where the syntax version came from: the header, or our detection rule (§11). */
  syntaxSource: "header" | "detected";
  distributed: boolean;
  orReplace: boolean;
  apiVersion?: string;
  params: ParamDecl[];
  returns?: GType;
  typedefs: TupleGType[];
  /** Every accumulator declared anywhere in the body; vertex-attached ones print with vertex sets. */
  accums: AccumDecl[];
  vertexSets: VertexSetDecl[];
  body: BoundStmt[];
  /** Sub-queries this query calls (for dependency tracking). */
  calls: QuerySignature[];
  signature: QuerySignature;
}
