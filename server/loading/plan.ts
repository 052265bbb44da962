// The executable form of a loading job, as plain JSON-serialisable data.
//
// A bound CREATE LOADING JOB statement is converted into this shape (see bound-adapter.ts);
// tests and tools may also write plans by hand. `compilePlan` (compile/) checks a plan
// against the graph schema and turns it into closures; `runLoad` (run.ts) executes it.
// Nothing here depends on the parser: names are plain strings, expressions are trees.

/** A whole loading job: its file variables, header and filter definitions, and statements. */
export interface LoadingJobPlan {
  name: string;
  graph: string;
  /** DEFINE FILENAME f [= "path"]; a literal `LOAD "path"` gets the variable __GSQL_FILENAME_<n>__. */
  files: FileVariable[];
  /** DEFINE HEADER h = "a","b",...; */
  headers: HeaderDefinition[];
  /** DEFINE INPUT_LINE_FILTER name = condition; used by USING REJECT_LINE_RULE. */
  lineFilters: LineFilterDefinition[];
  /** LOAD statements or DELETE statements (a job never mixes them). */
  statements: PlanStatement[];
}

export interface FileVariable {
  name: string;
  defaultPath?: string;
}

export interface HeaderDefinition {
  name: string;
  columns: string[];
}

export interface LineFilterDefinition {
  name: string;
  condition: PlanCondition;
}

export type PlanStatement = LoadStatement | DeleteStatement;

/** Where a statement reads its lines from. */
export type PlanSource = { kind: "file"; variable: string } | { kind: "temp_table"; table: string };

/** LOAD source TO ... [, TO ...] USING ...; */
export interface LoadStatement {
  kind: "load";
  source: PlanSource;
  destinations: Destination[];
  using: UsingOptions;
  /** Position of the statement in the job text, for diagnostics. */
  line?: number;
}

export type Destination = VertexDestination | EdgeDestination | TempTableDestination;

/** TO VERTEX V VALUES (id, attr...) [WHERE cond]: values in declaration order, id first. */
export interface VertexDestination {
  kind: "vertex";
  type: string;
  values: ValueExpr[];
  where?: PlanCondition;
}

/**
 * TO EDGE E VALUES (from [FromType], to [ToType], attr...) [WHERE cond]. Attribute values
 * follow the edge type's declaration order (discriminator attributes included).
 */
export interface EdgeDestination {
  kind: "edge";
  type: string;
  from: EndpointExpr;
  to: EndpointExpr;
  values: ValueExpr[];
  where?: PlanCondition;
}

/** An edge endpoint: its id, and for multi-pair or `*` edges the vertex type, a name or a token. */
export interface EndpointExpr {
  id: ValueExpr;
  /** A literal type name, or an expression whose value names the type at load time. */
  type?: string | ValueExpr;
}

/** TO TEMP_TABLE t (c1, c2, ...) VALUES (...) [WHERE cond]; at most one flatten value. */
export interface TempTableDestination {
  kind: "temp_table";
  table: string;
  columns: string[];
  values: ValueExpr[];
  where?: PlanCondition;
}

/** DELETE VERTEX V (PRIMARY_ID id) FROM f [WHERE ...] / DELETE EDGE E|* (FROM a [T], TO b [T] [, DISCRIMINATOR(...)]) FROM f [WHERE ...]. */
export type DeleteStatement =
  | { kind: "delete_vertex"; type: string; id: ValueExpr; source: PlanSource; where?: PlanCondition; using: UsingOptions; line?: number }
  | {
      kind: "delete_edge";
      /** An edge type name, or "*" for every edge type leaving the source vertex. */
      type: string;
      from: EndpointExpr;
      to?: EndpointExpr;
      discriminator?: ValueExpr[];
      source: PlanSource;
      where?: PlanCondition;
      using: UsingOptions;
      line?: number;
    };

/** The token-producing expressions of VALUES lists (§7.2). */
export type ValueExpr =
  | { kind: "column"; index: number } // $0, $1, ...
  | { kind: "named_column"; name: string } // $"col": header column, or a top-level JSON key
  | { kind: "json_path"; path: string[] } // $"a":"b"
  | { kind: "literal"; text: string } // "text" or 123 (kept as written)
  | { kind: "skip" } // _
  | { kind: "file_name" } // $sys.file_name
  | { kind: "call"; name: string; args: ValueExpr[] } // gsql_* token function, nestable
  | { kind: "reduce"; reducer: ReducerName; value: ValueExpr } // REDUCE(add($1))
  | { kind: "list" | "set"; items: ValueExpr[] } // LIST($1,$2), SET(...)
  | { kind: "map"; entries: { key: ValueExpr; value: ValueExpr }[] } // ($1 -> $2), MAP((..->..), ...)
  | { kind: "split"; value: ValueExpr; separator: string; keySeparator?: string } // SPLIT($1,"|") / SPLIT($1,":",",")
  | { kind: "tuple"; name: string; args: ValueExpr[] } // My_Tuple($1, $2)
  | { kind: "composite"; parts: ValueExpr[] } // (($"a", $"b")): a composite-key id
  | { kind: "flatten"; value: ValueExpr; separator: string; subSeparator?: string; fieldCount: number } // TEMP_TABLE only
  | { kind: "flatten_json_array"; value: ValueExpr; keys: ValueExpr[] }; // TEMP_TABLE only

export type ReducerName = "add" | "max" | "min" | "and" | "or" | "overwrite" | "ignore_if_exists";

/** WHERE and INPUT_LINE_FILTER conditions (§7.4). Operands are strings unless converted. */
export type PlanCondition =
  | { kind: "and" | "or"; left: PlanCondition; right: PlanCondition }
  | { kind: "not"; operand: PlanCondition }
  | { kind: "compare"; op: CompareOp; left: WhereExpr; right: WhereExpr }
  | { kind: "is_numeric" | "is_empty"; operand: WhereExpr; negated?: boolean }
  | { kind: "in"; operand: WhereExpr; values: WhereExpr[]; negated?: boolean }
  | { kind: "between"; operand: WhereExpr; low: WhereExpr; high: WhereExpr; negated?: boolean }
  | { kind: "predicate"; name: string; args: WhereExpr[] } // gsql_is_true($1), gsql_token_equal(a,b), ...
  | { kind: "constant"; value: boolean };

export type CompareOp = "==" | "!=" | "<" | ">" | "<=" | ">=";

/** WHERE operands: tokens, literals, WHERE-only functions and arithmetic. */
export type WhereExpr =
  | { kind: "token"; value: ValueExpr } // $1, $"col", $"a":"b", $sys.file_name
  | { kind: "string"; text: string }
  | { kind: "number"; value: number }
  | { kind: "function"; name: "to_int" | "to_float" | "concat" | "token_len"; args: WhereExpr[] }
  | { kind: "arith"; op: "+" | "-" | "*" | "/" | "^"; left: WhereExpr; right: WhereExpr }
  | { kind: "negate"; operand: WhereExpr };

/** USING options, already decoded (see decodeSeparatorText for the text forms). */
export interface UsingOptions {
  /** 1 to 4 characters; default ",". */
  separator?: string;
  /** 1 to 4 characters; default "\n". */
  eol?: string;
  header?: boolean;
  quote?: "double" | "single";
  /** Name of a DEFINE HEADER. */
  userDefinedHeader?: string;
  /** Name of a DEFINE INPUT_LINE_FILTER. */
  rejectLineRule?: string;
  jsonFile?: boolean;
  newVertexOnly?: boolean;
  vertexMustExist?: boolean;
}

/** The variable name a literal `LOAD "path"` gets, counting from 0 in job order (§7.1). */
export function literalFileVariable(n: number): string {
  return `__GSQL_FILENAME_${n}__`;
}

/** The file variable POST /ddl uses when the request names none. */
export const DEFAULT_FILE_VARIABLE = "__GSQL_FILENAME_0__";

/**
 * Decodes a SEPARATOR/EOL text as written in a USING clause: "\t" and "\n" style escapes,
 * and "\xy" meaning the character with decimal ASCII code xy (e.g. "\30" for ASCII 30).
 * Returns undefined for text that decodes to nothing.
 */
export function decodeSeparatorText(raw: string): string | undefined {
  const named: Record<string, string> = { "\\t": "\t", "\\n": "\n", "\\r": "\r", "\\\\": "\\", "\\0": "\0" };
  if (named[raw] !== undefined) return named[raw];
  const decimal = /^\\(\d{1,3})$/.exec(raw);
  if (decimal) {
    const code = Number(decimal[1]);
    return code <= 255 ? String.fromCharCode(code) : undefined;
  }
  let out = "";
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === "\\" && i + 1 < raw.length) {
      const escaped = { t: "\t", n: "\n", r: "\r", "\\": "\\" }[raw[i + 1]!];
      if (escaped !== undefined) {
        out += escaped;
        i++;
        continue;
      }
    }
    out += c;
  }
  return out.length > 0 ? out : undefined;
}

/** Normalised USING with every default filled in (the form `ls` prints and the reader uses). */
export interface ResolvedUsing {
  separator: string;
  eol: string;
  header: boolean;
  quote: "double" | "single" | undefined;
  userDefinedHeader: string | undefined;
  rejectLineRule: string | undefined;
  jsonFile: boolean;
  newVertexOnly: boolean;
  vertexMustExist: boolean;
}

export function resolveUsing(u: UsingOptions): ResolvedUsing {
  return {
    separator: u.separator ?? ",",
    eol: u.eol ?? "\n",
    header: u.header ?? false,
    quote: u.quote,
    userDefinedHeader: u.userDefinedHeader,
    rejectLineRule: u.rejectLineRule,
    jsonFile: u.jsonFile ?? false,
    newVertexOnly: u.newVertexOnly ?? false,
    vertexMustExist: u.vertexMustExist ?? false,
  };
}
