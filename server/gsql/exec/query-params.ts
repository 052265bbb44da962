// Query parameters as the shell shows and passes them: the `ls` form of each parameter
// (`vertex<Person> p`, types in lower case), how it travels in a query string, the curl
// line INSTALL QUERY prints, and RUN QUERY's argument list turned into query-string
// parameters of GET /query (so the shell runs queries exactly as REST clients do).
import type { AstExpr, AstParam, AstType } from "../../../compiler/ast/index.js";
import type { CatalogQueryParam, ParamForm } from "../../catalog/catalog-state.js";

function typeText(t: AstType): string {
  switch (t.kind) {
    case "BaseType": {
      const base = t.name.toLowerCase();
      return t.typeArg ? `${base}<${t.typeArg.name}>` : base;
    }
    case "CollectionType":
      return `${t.name.toLowerCase()}<${t.args.map(typeText).join(", ")}>`;
    case "NamedType":
      return t.name.name;
    case "TupleType":
      return `tuple<${t.fields.map((f) => typeText(f.type)).join(", ")}>`;
    case "AccumType":
      return t.spelling;
  }
}

function formOf(t: AstType): ParamForm {
  const untypedVertex = (x: AstType) => x.kind === "BaseType" && x.name === "VERTEX" && !x.typeArg;
  if (untypedVertex(t)) return "untypedVertex";
  if (t.kind === "CollectionType" && (t.name === "SET" || t.name === "BAG" || t.name === "LIST")) {
    return t.args[0] && untypedVertex(t.args[0]) ? "untypedVertexCollection" : "collection";
  }
  return "scalar";
}

export function paramsOf(params: readonly AstParam[], source: string): CatalogQueryParam[] {
  return params.map((p) => {
    const out: CatalogQueryParam = { name: p.name.name, type: typeText(p.type), form: formOf(p.type) };
    if (p.default) out.default = source.slice(p.default.range.start.offset, p.default.range.end.offset);
    return out;
  });
}

/** `vertex<Person> p, int k = 3` */
export function paramListText(params: readonly CatalogQueryParam[]): string {
  return params.map((p) => `${p.type} ${p.name}${p.default !== undefined ? ` = ${p.default}` : ""}`).join(", ");
}

/** The query-string part of the curl line INSTALL QUERY prints for a query. */
export function curlParameters(params: readonly CatalogQueryParam[]): string {
  return params
    .map((p) => {
      const text = p.form === "untypedVertex" ? `${p.name}=VALUE&${p.name}.type=VERTEX_TYPE`
        : p.form === "untypedVertexCollection" ? `${p.name}[INDEX]=VALUE&${p.name}[INDEX].type=VERTEX_TYPE`
          : `${p.name}=VALUE`;
      return p.default !== undefined ? `[${text}]` : text;
    })
    .join("&");
}

export type ArgumentResult = { ok: true; parameters: URLSearchParams } | { ok: false; message: string };

/**
 * RUN QUERY name(args): arguments by position, in the shell's forms: literals, `_` for the
 * default, `[a, b]` for SET/BAG, `("id", "Type")` for an untyped vertex.
 */
export function argumentsToParameters(queryName: string, params: readonly CatalogQueryParam[], args: readonly AstExpr[]): ArgumentResult {
  if (args.length > params.length) {
    return { ok: false, message: `The query ${queryName} takes ${params.length} parameter(s), but ${args.length} argument(s) were given.` };
  }
  const out = new URLSearchParams();
  for (let i = 0; i < params.length; i++) {
    const p = params[i]!;
    const arg = args[i];
    if (!arg || arg.kind === "Underscore") {
      if (p.default === undefined && p.form === "scalar") {
        return { ok: false, message: `The parameter ${p.name} of the query ${queryName} has no default: give a value.` };
      }
      continue;
    }
    const problem = addArgument(out, p, arg);
    if (problem) return { ok: false, message: `Bad argument for the parameter ${p.name} of the query ${queryName}: ${problem}` };
  }
  return { ok: true, parameters: out };
}

function addArgument(out: URLSearchParams, p: CatalogQueryParam, arg: AstExpr): string | undefined {
  switch (p.form) {
    case "scalar": {
      const v = scalarText(arg);
      if (v === undefined) return "a literal value was expected.";
      out.append(p.name, v);
      return undefined;
    }
    case "untypedVertex": {
      const pair = vertexPair(arg);
      if (!pair) return `a vertex is written ("id", "VertexType").`;
      out.append(p.name, pair[0]);
      out.append(`${p.name}.type`, pair[1]);
      return undefined;
    }
    case "collection": {
      const items = collectionItems(arg);
      for (const item of items) {
        const v = scalarText(item);
        if (v === undefined) return "a list of literal values [a, b, ...] was expected.";
        out.append(p.name, v);
      }
      return undefined;
    }
    case "untypedVertexCollection": {
      const items = collectionItems(arg);
      for (let i = 0; i < items.length; i++) {
        const pair = vertexPair(items[i]!);
        if (!pair) return `each vertex is written ("id", "VertexType").`;
        out.append(`${p.name}[${i}]`, pair[0]);
        out.append(`${p.name}[${i}].type`, pair[1]);
      }
      return undefined;
    }
  }
}

function collectionItems(arg: AstExpr): AstExpr[] {
  if (arg.kind === "ListLiteral") return arg.items;
  if (arg.kind === "ParenList") return arg.items;
  return [arg];
}

function scalarText(e: AstExpr): string | undefined {
  switch (e.kind) {
    case "IntLiteral":
    case "RealLiteral":
      return e.text;
    case "StringLiteral":
      return e.value;
    case "BoolLiteral":
      return String(e.value);
    case "Unary":
      if (e.op === "-" && (e.operand.kind === "IntLiteral" || e.operand.kind === "RealLiteral")) return "-" + e.operand.text;
      return undefined;
    default:
      return undefined;
  }
}

function vertexPair(e: AstExpr): [string, string] | undefined {
  if (e.kind !== "ParenList" || e.items.length !== 2) return undefined;
  const id = scalarText(e.items[0]!);
  const type = e.items[1]!.kind === "StringLiteral" ? e.items[1]!.value : e.items[1]!.kind === "Ident" ? e.items[1]!.name : undefined;
  return id !== undefined && type !== undefined ? [id, type] : undefined;
}
