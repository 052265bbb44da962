// TO TEMP_TABLE t (c1, ...) VALUES (...) clauses (gsql-ddl-loading-shell §7.9) → row
// producers. At most one value may be a flatten: flatten(tok, sep, 1) gives one row per
// element; flatten(tok, sep, subSep, n) one row per group split into n columns;
// flatten_json_array(tok) one row per primitive element; flatten_json_array(tok, $"k1", ...)
// one row per object with the named keys as columns.
import type { TempTableDestination, ValueExpr } from "../plan.js";
import { LoadError } from "../errors.js";
import { compileCondition } from "../functions/where.js";
import { jsonToken } from "../reader/json-line.js";
import { compileToken } from "./tokens.js";
import type { ColumnResolver, Row, TokenGetter } from "./row.js";

export interface TempTableProducer {
  table: string;
  columns: string[];
  /** The rows this line puts into the table; undefined when WHERE fails. */
  rows(row: Row): (string | undefined)[][] | undefined;
}

type Part = { width: number; values(row: Row): (string | undefined)[][] };

export function compileTempTable(d: TempTableDestination, columns: ColumnResolver): TempTableProducer {
  const flattens = d.values.filter((v) => v.kind === "flatten" || v.kind === "flatten_json_array");
  if (flattens.length > 1) throw new LoadError(`TO TEMP_TABLE ${d.table} may use at most one flatten function.`);
  const parts: Part[] = d.values.map((v) => compilePart(v, columns));
  const width = parts.reduce((n, p) => n + p.width, 0);
  if (width !== d.columns.length) throw new LoadError(`TO TEMP_TABLE ${d.table} has ${d.columns.length} columns, but the values fill ${width}.`);
  const where = d.where ? compileCondition(d.where, (e) => compileToken(e, columns)) : undefined;
  return {
    table: d.table,
    columns: d.columns,
    rows(row) {
      if (where && !where(row)) return undefined;
      let out: (string | undefined)[][] = [[]];
      for (const p of parts) {
        const pieces = p.values(row);
        const next: (string | undefined)[][] = [];
        for (const prefix of out) for (const piece of pieces) next.push([...prefix, ...piece]);
        out = next;
      }
      return out;
    },
  };
}

function compilePart(v: ValueExpr, columns: ColumnResolver): Part {
  if (v.kind === "flatten") {
    const token = compileToken(v.value, columns);
    if (v.separator.length === 0) throw new LoadError("flatten needs a non-empty separator.");
    if (v.subSeparator === undefined) {
      if (v.fieldCount !== 1) throw new LoadError("flatten(token, separator, 1) takes 1 as its field count.");
      return { width: 1, values: (row) => splitNonEmpty(token(row), v.separator).map((x) => [x]) };
    }
    const sub = v.subSeparator;
    const n = v.fieldCount;
    if (!Number.isInteger(n) || n < 1) throw new LoadError("flatten needs a positive field count.");
    return {
      width: n,
      values: (row) =>
        splitNonEmpty(token(row), v.separator).map((group) => {
          const fields: (string | undefined)[] = group.split(sub).slice(0, n);
          while (fields.length < n) fields.push("");
          return fields;
        }),
    };
  }
  if (v.kind === "flatten_json_array") {
    const token = compileToken(v.value, columns);
    const keys = v.keys.map(keyPath);
    return { width: Math.max(1, keys.length), values: (row) => flattenJsonArray(token, keys, row) };
  }
  const token: TokenGetter = compileToken(v, columns);
  return { width: 1, values: (row) => [[token(row)]] };
}

function splitNonEmpty(t: string | undefined, sep: string): string[] {
  if (t === undefined || t === "") return [];
  return t.split(sep);
}

function keyPath(e: ValueExpr): string[] {
  if (e.kind === "named_column") return [e.name];
  if (e.kind === "json_path") return e.path;
  throw new LoadError(`flatten_json_array takes key names such as $"k" after the array.`);
}

function flattenJsonArray(token: TokenGetter, keys: string[][], row: Row): (string | undefined)[][] {
  const text = token(row);
  if (text === undefined || text === "") return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const out: (string | undefined)[][] = [];
  for (const element of parsed) {
    if (keys.length === 0) {
      if (element === null || typeof element !== "object") out.push([jsonToken(element)]);
      continue;
    }
    if (element === null || typeof element !== "object" || Array.isArray(element)) continue;
    out.push(keys.map((path) => jsonToken(path.reduce<unknown>((node, k) => (node && typeof node === "object" ? (node as Record<string, unknown>)[k] : undefined), element))));
  }
  return out;
}
