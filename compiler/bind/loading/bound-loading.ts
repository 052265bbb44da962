// A loading job after its semantic checks: plain data the loader runs without consulting
// the schema text again. Columns by name are kept by name (resolved against the file's
// header line at run time) unless a USER_DEFINED_HEADER fixes their position now.

export type LoadValue =
  | { kind: "column"; index: number }
  | { kind: "columnName"; name: string }
  /** JSON_FILE key path `$"a":"b"`. */
  | { kind: "jsonPath"; path: string[] }
  | { kind: "sys"; name: string }
  | { kind: "literal"; value: string }
  /** `_`: the default on create, the old value on update. */
  | { kind: "default" }
  /** A token function (gsql_concat, gsql_to_int, ...), lower-cased. */
  | { kind: "call"; fn: string; args: LoadValue[] }
  | { kind: "reduce"; reducer: string; value: LoadValue }
  /** `LIST($1, $2)`, `SET(...)`. */
  | { kind: "collection"; collection: "LIST" | "SET"; items: LoadValue[] }
  /** `($1 -> $2)` and `MAP(($1 -> $2), ...)`. */
  | { kind: "map"; entries: { key: LoadValue; value: LoadValue }[] }
  /** `SPLIT($1, "|")` (LIST/SET) or `SPLIT($1, ":", ",")` (MAP). */
  | { kind: "split"; value: LoadValue; separators: string[] }
  /** An endpoint with a composite key: `($"title", $"yr")`. */
  | { kind: "composite"; parts: LoadValue[] }
  /** A user tuple `Tup($1, $2)`. */
  | { kind: "tuple"; name: string; args: LoadValue[] };

export type LoadCondition =
  | { kind: "compare"; op: "==" | "!=" | "<" | "<=" | ">" | ">="; left: LoadOperand; right: LoadOperand }
  | { kind: "and" | "or"; left: LoadCondition; right: LoadCondition }
  | { kind: "not"; operand: LoadCondition }
  | { kind: "isNumeric" | "isEmpty"; value: LoadOperand; negated: boolean }
  | { kind: "in"; value: LoadOperand; set: LoadOperand[]; negated: boolean }
  | { kind: "between"; value: LoadOperand; low: LoadOperand; high: LoadOperand; negated: boolean }
  /** A boolean WHERE function (gsql_is_true, gsql_token_equal, ...). */
  | { kind: "call"; fn: string; args: LoadOperand[] }
  | { kind: "literal"; value: boolean };

/** A WHERE operand: a column, a literal, arithmetic, or a WHERE function (to_int, to_float, concat, token_len). */
export type LoadOperand =
  | { kind: "column"; index: number }
  | { kind: "columnName"; name: string }
  | { kind: "jsonPath"; path: string[] }
  | { kind: "literal"; value: string; numeric: boolean }
  | { kind: "arith"; op: "+" | "-" | "*" | "/" | "^"; left: LoadOperand; right: LoadOperand }
  | { kind: "call"; fn: string; args: LoadOperand[] };

export interface LoadOptions {
  separator: string;
  eol: string;
  header: boolean;
  quote?: "single" | "double";
  userDefinedHeader?: string;
  rejectLineRule?: string;
  jsonFile: boolean;
  newVertexOnly: boolean;
  vertexMustExist: boolean;
}

export type LoadDestination =
  | { kind: "vertex"; typeName: string; id: LoadValue; attributes: LoadValue[]; where?: LoadCondition }
  | { kind: "edge"; typeName: string; from: LoadValue; fromType?: string; to: LoadValue; toType?: string; attributes: LoadValue[]; where?: LoadCondition }
  | { kind: "tempTable"; name: string; columns: string[]; values: LoadValue[]; where?: LoadCondition };

export type LoadSource =
  | { kind: "file"; name: string }
  | { kind: "path"; path: string }
  | { kind: "tempTable"; name: string };

export interface BoundLoad {
  source: LoadSource;
  options: LoadOptions;
  destinations: LoadDestination[];
}

export interface BoundLoadDelete {
  target: "vertex" | "edge";
  /** A type name, or "*" for every edge type (DELETE EDGE *). */
  typeName: string;
  keys: { key: "PRIMARY_ID" | "FROM" | "TO" | "DISCRIMINATOR"; values: LoadValue[]; vertexType?: string }[];
  source: LoadSource;
  where?: LoadCondition;
}

export interface BoundLoadingJob {
  name: string;
  graph: string;
  files: { name: string; path?: string }[];
  headers: { name: string; columns: string[] }[];
  lineFilters: { name: string; condition: LoadCondition }[];
  loads: BoundLoad[];
  deletes: BoundLoadDelete[];
}
