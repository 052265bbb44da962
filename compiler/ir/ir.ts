// The typed IR: what lowering makes of a bound query and what the passes and the emitters
// work on. Plain JSON-serialisable data (bigint only in constants): every name is a numeric
// id into the query's symbol tables, every expression carries its type, implicit
// conversions are explicit, CASE is lowered to IF, and each SELECT spells out its phases in
// the order they run (match, WHERE, ACCUM, POST-ACCUM per alias, HAVING, ORDER BY, LIMIT).
//
// Semantics the emitters implement (gsql-semantics §2-§9):
// - ACCUM reads every accumulator and global variable as it was before the clause; its
//   writes take effect when the clause ends (`=` on one target: one arbitrary write wins).
// - POST-ACCUM runs per distinct vertex of its alias, statements in order, writes visible
//   at once for that vertex; global `+=` take effect when the clause ends.
// - `v.@a'` reads the value `@a` had before the ACCUM clause of the latest SELECT.
// - Graph writes (attribute assignment, INSERT, DELETE) are logged and applied after the
//   query succeeds: the running query never sees them.
// - Sub-query calls get fresh accumulators and variables on every call.
import type { IrAccum, IrType, IrTupleType } from "./types.js";

export type { IrAccum, IrType, IrTupleType } from "./types.js";

/** A constant value: bigint for INT/UINT/DATETIME, number for FLOAT/DOUBLE. */
export type IrConstValue = bigint | number | boolean | string;

// ---------------------------------------------------------------- symbols

export type IrVarKind =
  /** A query parameter (read-only). */
  | "param"
  /** A query-body variable (`INT x;`), visible to every clause. */
  | "global"
  /** A DML-level local (ACCUM/POST-ACCUM), one per row or vertex. */
  | "local"
  /** A FOREACH variable. */
  | "loop"
  /** A FROM alias (vertex or edge) of one SELECT. */
  | "alias"
  /** A vertex-set variable. */
  | "vset"
  /** A FILE object. */
  | "file";

export interface IrVar {
  id: number;
  name: string;
  kind: IrVarKind;
  type: IrType;
  /** Parameters: position, and the default constant if any. */
  paramIndex?: number;
  default?: IrConstValue;
}

export interface IrAccumDecl {
  id: number;
  name: string;
  scope: "global" | "vertex";
  type: IrAccum;
  /** Set by the accumulator pass: `@x'` is read somewhere (the pre-ACCUM value is kept). */
  primeUsed?: boolean;
}

export interface IrException {
  id: number;
  name: string;
  code: number;
}

// ---------------------------------------------------------------- expressions

export type IrUnaryOp = "neg" | "not" | "bitnot";
export type IrBinaryOp =
  | "add" | "sub" | "mul" | "div" | "mod" | "shl" | "shr" | "bitand" | "bitor"
  | "eq" | "ne" | "lt" | "le" | "gt" | "ge" | "and" | "or"
  /** String concatenation, list concatenation, map and bag merge. */
  | "concat"
  | "union" | "intersect" | "minus";

export type IrExpr = { type: IrType } & (
  | { e: "const"; value: IrConstValue }
  /** A variable of any kind but vset (parameter, global, local, loop variable, alias). */
  | { e: "var"; id: number }
  /** The value of a global accumulator (a container: the container itself). */
  | { e: "gacc"; id: number }
  /**
   * The value of vertex-attached accumulator `id` on `vertex`; `prime`: its pre-ACCUM value.
   * `current` (set by the relaxation pass on a WHERE): the value as it is now, even in a
   * clause that otherwise reads the accumulator as it was before the SELECT.
   */
  | { e: "vacc"; id: number; vertex: IrExpr; prime: boolean; current?: boolean }
  /** A stored attribute of a vertex or edge; `owners` gives its column per possible type. */
  | { e: "attr"; target: IrExpr; name: string; element: "vertex" | "edge"; owners: { typeName: string; index: number }[]; primaryId?: boolean }
  /** `.type` of a vertex or edge. */
  | { e: "typeName"; target: IrExpr }
  | { e: "field"; target: IrExpr; index: number }
  | { e: "unary"; op: IrUnaryOp; arg: IrExpr }
  /** Both operands have the same type (lowering inserted the conversions). */
  | { e: "binary"; op: IrBinaryOp; left: IrExpr; right: IrExpr }
  /** Numeric conversion to `type` (truncating toward zero into integers). */
  | { e: "convert"; arg: IrExpr }
  /** A built-in function, by lower-case name (abs, to_string, datetime_add, count, ...). */
  | { e: "call"; fn: string; args: IrExpr[]; distinct?: boolean }
  /** A built-in method by id `receiver.name` (list.get, vertex.outdegree, heap.top, ...). */
  | { e: "method"; target: IrExpr; method: string; args: IrExpr[] }
  /** A call of another installed query. */
  | { e: "subquery"; query: string; args: IrExpr[] }
  | { e: "tuple"; args: IrExpr[] }
  /** `[a, b]` (list) or `(a, b)` (set/bag) literal; `type` tells which. */
  | { e: "collection"; items: IrExpr[] }
  /** `(k -> v)` / `(k1, k2 -> v1, v2)`: only as the operand of `+=` on a Map/GroupBy. */
  | { e: "entry"; keys: IrExpr[]; values: IrExpr[] }
  /** ArrayAccum element `@@a[i][j]`. */
  | { e: "index"; target: IrExpr; indices: IrExpr[] }
  /** First true branch's value, else `otherwise`. */
  | { e: "cond"; branches: { cond: IrExpr; value: IrExpr }[]; otherwise: IrExpr }
  | { e: "in"; value: IrExpr; collection: IrExpr; negated: boolean }
  | { e: "like"; value: IrExpr; pattern: IrExpr; escape?: string; negated: boolean }
  /** `p IS [NOT] NULL` on parameter `param`. */
  | { e: "isNull"; param: number; negated: boolean }
  /** The vertex set held by vertex-set variable `id`. */
  | { e: "vset"; id: number }
  /** `{T.*, v, @@s}`: every part's vertices. */
  | { e: "seed"; parts: IrSeedPart[] }
  /** `INTERVAL n UNIT` (datetime_add/sub argument): `value` seconds or months by `unit`. */
  | { e: "interval"; value: IrExpr; unit: string }
);

export type IrSeedPart =
  | { p: "type"; vertexType: string }
  | { p: "all" }
  /** A vertex value, or a collection of vertices (SET<VERTEX> parameter, SetAccum, vertex set). */
  | { p: "value"; expr: IrExpr };

// ---------------------------------------------------------------- SELECT

export type IrDirection = "out" | "in" | "undirected";

export interface IrHop {
  /** The vertex alias the hop leaves from (the previous hop's target, or a pattern's source). */
  from: number;
  edgeAlias?: number;
  /** Edge types matched, each with the direction it is followed in from the hop's source. */
  edges: { edgeType: string; direction: IrDirection }[];
  /** Edge types named at run time (a STRING or collection of names). */
  dynamicEdges?: { expr: IrExpr; mark: "default" | "forward" | "backward" };
  /** V2 repetition `*min..max` (max undefined: unbounded). */
  repeat?: { min: number; max?: number };
  target: number;
  /** Allowed target vertex types (undefined: any). */
  targetTypes?: string[];
  dynamicTargets?: IrExpr;
  /** The target must also be in this vertex-set variable (V2). */
  targetSet?: number;
}

export interface IrSelect {
  /** Position among the query's SELECTs (monitor log, golden dumps). */
  index: number;
  syntax: "v1" | "v2";
  source: { alias: number; vset?: number; vertexTypes?: string[] };
  hops: IrHop[];
  /** The alias whose distinct vertices form the result. */
  selected: number;
  sample?: { count: IrExpr; percent: boolean; what: "EDGE" | "TARGET"; pinned: boolean; when?: IrExpr };
  where?: IrExpr;
  accum: IrStmt[];
  postAccum: { alias: number; body: IrStmt[] }[];
  having?: IrExpr;
  orderBy: { expr: IrExpr; desc: boolean }[];
  limit?: IrExpr;
  offset?: IrExpr;
  /** Set by the accumulator pass: what the ACCUM clause must buffer until it ends. */
  accumPlan?: IrAccumPlan;
  /** Same for each POST-ACCUM clause (global accumulators and variables read in it). */
  postPlans?: IrAccumPlan[];
}

/**
 * How an ACCUM clause applies its writes. A target read anywhere in the same clause (or
 * assigned with `=` by several rows) is buffered and applied when the clause ends; every
 * other write goes straight to its target, which gives the same result for the
 * order-independent accumulators and saves the buffer.
 */
export interface IrAccumPlan {
  bufferedAccums: number[];
  bufferedVars: number[];
  /**
   * ACCUM only: vertex accumulators read in the clause whose writes are all `+=` on an
   * order-independent scalar type (Sum of numbers, Min, Max, Avg, And, Or, bitwise). They
   * are written at once and read through the pre-clause copy `@x'` keeps, instead of a
   * log replayed at the end: a copy per written vertex rather than a record per row.
   */
  snapshotAccums?: number[];
}

// ---------------------------------------------------------------- statements

export type IrTarget =
  | { t: "var"; id: number }
  | { t: "gacc"; id: number; indices?: IrExpr[] }
  | { t: "vacc"; id: number; vertex: IrExpr; indices?: IrExpr[] }
  | { t: "attr"; target: IrExpr; name: string; element: "vertex" | "edge"; owners: { typeName: string; index: number }[]; valueType: IrType };

export interface IrPrintItem {
  key: string;
  expr: IrExpr;
  /** `S[S.a, S.@b AS k]`: per-vertex expressions replacing the attributes. */
  projection?: { key: string; expr: IrExpr }[];
  /** Per vertex of a projection, the vertex variable the expressions read (the set's name). */
  projectionVar?: number;
}

export type IrStmt =
  /** Declares (and initialises) a variable; without `init` it holds its type's default. */
  | { s: "let"; id: number; init?: IrExpr }
  /** (Re)creates an accumulator with its initial value: global once, vertex-attached on every vertex. */
  | { s: "declAccum"; id: number; init?: IrExpr; capacity?: IrExpr; sizes?: IrExpr[] }
  | { s: "assign"; target: IrTarget; value: IrExpr }
  | { s: "accumulate"; target: IrTarget; value: IrExpr }
  /** Vertex-set variable assignment (seed, copy, set operation, sub-query result). */
  | { s: "vsetAssign"; id: number; value: IrExpr }
  | { s: "select"; id: number; select: IrSelect }
  | { s: "expr"; expr: IrExpr }
  /** Empties a collection accumulator: a global one, or every vertex's instance of a vertex-attached one. */
  | { s: "resetAccum"; id: number }
  | { s: "if"; branches: { cond: IrExpr; body: IrStmt[] }[]; otherwise?: IrStmt[] }
  | { s: "while"; cond: IrExpr; limit?: IrExpr; body: IrStmt[] }
  | { s: "forRange"; id: number; low: IrExpr; high: IrExpr; step?: IrExpr; body: IrStmt[] }
  /** FOREACH over a collection, map (`(k, v)`), GroupBy or vertex set; `ids` are the loop variables. */
  | { s: "forEach"; ids: number[]; collection: IrExpr; body: IrStmt[] }
  | { s: "break" }
  | { s: "continue" }
  | { s: "print"; items: IrPrintItem[]; where?: IrExpr; toCsv?: number }
  | { s: "println"; file: number; args: IrExpr[] }
  | { s: "log"; cond: IrExpr; args: IrExpr[] }
  | { s: "return"; value?: IrExpr }
  | { s: "raise"; exception: number; message?: IrExpr }
  | { s: "try"; body: IrStmt[]; handlers: { exception: number; body: IrStmt[] }[]; otherwise?: IrStmt[] }
  | { s: "insertVertex"; vertexType: string; id: IrExpr; attrs: { name: string; index: number; value: IrExpr }[] }
  | {
      s: "insertEdge";
      edgeType: string;
      from: IrExpr;
      fromType?: string;
      to: IrExpr;
      toType?: string;
      attrs: { name: string; index: number; value: IrExpr }[];
    }
  /** DELETE of the vertex or edge a value denotes. */
  | { s: "delete"; target: IrExpr };

// ---------------------------------------------------------------- query

export interface IrQuery {
  name: string;
  graph: string;
  syntax: "v1" | "v2";
  params: number[];
  returns?: IrType;
  vars: IrVar[];
  accums: IrAccumDecl[];
  exceptions: IrException[];
  tuples: IrTupleType[];
  body: IrStmt[];
  /** Installed queries this one calls. */
  calls: string[];
  /** Number of SELECT statements (their `index` values are 0..selects-1). */
  selects: number;
}
