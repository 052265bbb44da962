// Scalar value expressions → token getters: column references, literals, $sys.file_name
// and nested token functions. Collections, tuples and reducers are built on top of these
// by attributes.ts, which knows the target attribute's type.
import type { ValueExpr } from "../plan.js";
import { LoadError } from "../errors.js";
import { TOKEN_FUNCTIONS } from "../functions/token-functions.js";
import type { ColumnResolver, TokenGetter } from "./row.js";

export function compileToken(expr: ValueExpr, columns: ColumnResolver): TokenGetter {
  switch (expr.kind) {
    case "column": {
      const i = columns.position(expr.index);
      return (row) => row.tokens[i];
    }
    case "named_column": {
      const i = columns.named(expr.name);
      return (row) => row.tokens[i];
    }
    case "json_path": {
      const i = columns.path(expr.path);
      return (row) => row.tokens[i];
    }
    case "literal": {
      const text = expr.text;
      return () => text;
    }
    case "file_name":
      return (row) => row.fileName;
    case "call":
      return compileCall(expr.name, expr.args, columns);
    case "skip":
      throw new LoadError("'_' is allowed only as a whole attribute value, not inside an expression.");
    default:
      throw new LoadError(`${describeKind(expr.kind)} cannot be used where a single token is expected.`);
  }
}

function compileCall(name: string, args: ValueExpr[], columns: ColumnResolver): TokenGetter {
  const f = TOKEN_FUNCTIONS.get(name.toLowerCase());
  if (!f) throw new LoadError(`Unknown token function ${name}.`);
  if (args.length < f.minArgs || args.length > f.maxArgs) {
    const expected = f.minArgs === f.maxArgs ? `${f.minArgs}` : f.maxArgs === Infinity ? `at least ${f.minArgs}` : `${f.minArgs} to ${f.maxArgs}`;
    throw new LoadError(`Token function ${name} takes ${expected} argument(s), got ${args.length}.`);
  }
  const getters = args.map((a) => compileToken(a, columns));
  const apply = f.apply;
  return (row) => {
    const values = new Array<string>(getters.length);
    for (let i = 0; i < getters.length; i++) values[i] = getters[i]!(row) ?? "";
    return apply(values);
  };
}

export function describeKind(kind: ValueExpr["kind"]): string {
  const names: Record<ValueExpr["kind"], string> = {
    column: "A column",
    named_column: "A named column",
    json_path: "A JSON path",
    literal: "A literal",
    skip: "'_'",
    file_name: "$sys.file_name",
    call: "A token function",
    reduce: "REDUCE",
    list: "LIST(...)",
    set: "SET(...)",
    map: "A MAP value",
    split: "SPLIT(...)",
    tuple: "A tuple constructor",
    composite: "A composite key",
    flatten: "flatten(...)",
    flatten_json_array: "flatten_json_array(...)",
  };
  return names[kind];
}
