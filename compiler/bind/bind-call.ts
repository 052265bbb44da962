// Calls: built-in functions and methods (from the builtins table), tuple constructors and
// sub-query calls (against the catalog's query signatures), with argument checks and the
// placement rules of mutator methods.
import type { AstCall, AstExpr, AstMethodCall } from "../ast/index.js";
import type { SourceRange } from "../diagnostics/index.js";
import type { AliasDecl, BoundExpr } from "./bound.js";
import { argFits, lookupFunction, lookupMethod, type ArgKind, type BuiltinFunction, type BuiltinMethod } from "./builtins.js";
import { bindExpr, convertTo, errorExpr } from "./bind-expr.js";
import { LEVEL_NAMES, type QueryContext } from "./context.js";
import type { QuerySignature } from "./catalog.js";
import {
  T, attrTypeToGType, elementTypeOf, isAssignable, isNumeric, primitive, typeToString, type GType, type PrimitiveName,
} from "./types.js";

const ARG_NAMES: Record<ArgKind, string> = {
  num: "a number", int: "an integer", string: "STRING", bool: "BOOL", datetime: "DATETIME", vertex: "a vertex",
  edge: "an edge", any: "a value", many: "a set, bag or list", typeNames: "a type name or names", interval: "INTERVAL n UNIT",
  json: "a JSON value",
};

function checkArgs(cx: QueryContext, name: string, kinds: ArgKind[], optional: number, variadic: ArgKind | undefined,
  args: BoundExpr[], argAsts: AstExpr[], range: SourceRange): boolean {
  const min = kinds.length - optional;
  const max = variadic ? Infinity : kinds.length;
  if (args.length < min || args.length > max) {
    const expected = min === max ? String(min) : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
    cx.error("GSQL3006", range, { name, expected, actual: args.length });
    return false;
  }
  let ok = true;
  args.forEach((a, i) => {
    const k = kinds[i] ?? variadic!;
    const fits = k === "interval" ? a.kind === "datetimeInterval" : argFits(k, a.type);
    if (!fits) {
      cx.error("GSQL3007", argAsts[i]!.range, { index: i + 1, name, expected: ARG_NAMES[k], actual: typeToString(a.type) });
      ok = false;
    }
  });
  return ok;
}

export function bindCall(cx: QueryContext, e: AstCall): BoundExpr {
  const range = e.range;
  const name = e.callee.name;
  if (e.star) {
    cx.error("GSQL3060", range, { name });
    return errorExpr(range);
  }
  if (name.toLowerCase() === "selectvertex") return bindSelectVertex(cx, e);
  const tuple = cx.lookupTuple(name);
  if (tuple) {
    const args = e.args.map((a) => bindExpr(cx, a));
    if (args.length !== tuple.fields.length) {
      cx.error("GSQL3037", range, { tuple: name, expected: tuple.fields.length, actual: args.length });
      return { kind: "tupleCtor", tuple, args, type: tuple, range };
    }
    const converted = args.map((a, i) => {
      const ft = tuple.fields[i]!.type;
      if (!isAssignable(ft, a.type)) cx.error("GSQL3001", e.args[i]!.range, { expected: typeToString(ft), actual: typeToString(a.type) });
      return convertTo(a, ft);
    });
    return { kind: "tupleCtor", tuple, args: converted, type: tuple, range };
  }
  const fn = lookupFunction(name);
  const query = fn ? undefined : (cx.self.name === name ? cx.self : cx.catalog.querySignature(cx.graphName, name));
  if (query) return bindSubQueryCall(cx, query, e);
  if (!fn) {
    e.args.forEach((a) => bindExpr(cx, a));
    cx.error("GSQL2010", e.callee.range, { name, graph: cx.graphName });
    return errorExpr(range);
  }
  const args = e.args.map((a) => bindExpr(cx, a));
  if (!checkArgs(cx, fn.name, fn.args, fn.optional, fn.variadic, args, e.args, range)) return { kind: "call", fn, args, type: T.ERROR, range };
  let type = fn.result(args.map((a) => a.type));
  if (fn.name === "evaluate") type = typeFromName(cx, e.args[1], "evaluate");
  if (fn.name === "to_vertex_set" || fn.name === "to_vertex") {
    const typeArg = e.args[1];
    if (typeArg?.kind === "StringLiteral") {
      if (!cx.view.vertexType(typeArg.value)) cx.error("GSQL2002", typeArg.range, { name: typeArg.value, graph: cx.graphName });
      else type = fn.name === "to_vertex" ? { kind: "vertex", vertexType: typeArg.value } : { kind: "vertexSet", vertexTypes: [typeArg.value] };
    }
  }
  if (fn.name === "coalesce") args.forEach((a, i) => {
    if (i > 0 && !isAssignable(type, a.type)) cx.error("GSQL3007", e.args[i]!.range, { index: i + 1, name: "coalesce", expected: typeToString(type), actual: typeToString(a.type) });
  });
  if (fn.aggregate && (fn.name === "sum" || fn.name === "avg") && !isNumeric(type) && type.kind !== "error") {
    cx.error("GSQL3007", e.args[0]!.range, { index: 1, name: fn.name, expected: "a collection of numbers", actual: typeToString(args[0]!.type) });
  }
  const out: BoundExpr = { kind: "call", fn, args, type, range };
  if (e.distinct) out.distinct = true;
  return out;
}

const SELECT_VERTEX: BuiltinFunction = {
  id: "fn.selectvertex", name: "selectvertex", args: ["string", "any", "string", "string", "bool"], optional: 0,
  result: () => ({ kind: "vertexSet" }),
};

/**
 * `SelectVertex(path, $col, VertexType, "sep", header)`: the vertices whose ids are in a
 * column of a file. The column and the type (a name, or `$n` naming a column of type names)
 * are passed as string literals: "$0", "$\"id\"", "Person".
 */
function bindSelectVertex(cx: QueryContext, e: AstCall): BoundExpr {
  const range = e.range;
  if (e.args.length !== 5) {
    cx.error("GSQL3006", range, { name: "SelectVertex", expected: 5, actual: e.args.length });
    return errorExpr(range);
  }
  const [pathAst, colAst, typeAst, sepAst, headerAst] = e.args as [AstExpr, AstExpr, AstExpr, AstExpr, AstExpr];
  const path = bindExpr(cx, pathAst);
  if (path.type.kind !== "file" && !(path.type.kind === "primitive" && path.type.name === "STRING") && path.type.kind !== "error") {
    cx.error("GSQL3007", pathAst.range, { index: 1, name: "SelectVertex", expected: "a file path or FILE", actual: typeToString(path.type) });
  }
  const column = (c: AstExpr, index: number): BoundExpr | undefined => {
    if (c.kind !== "ColumnRef" || c.sys !== undefined) return undefined;
    const text = c.position !== undefined ? `$${c.position}` : `$"${(c.path ?? []).join(":")}"`;
    void index;
    return { kind: "literal", value: text, type: T.STRING, range: c.range };
  };
  const col = column(colAst, 2);
  if (!col) cx.error("GSQL3007", colAst.range, { index: 2, name: "SelectVertex", expected: "a column ($0 or $\"name\")", actual: "an expression" });
  let vertexTypes: string[] | undefined;
  let typeArg = column(typeAst, 3);
  if (!typeArg) {
    if (typeAst.kind === "Ident" && cx.view.vertexType(typeAst.name)) {
      vertexTypes = [typeAst.name];
      typeArg = { kind: "literal", value: typeAst.name, type: T.STRING, range: typeAst.range };
    } else {
      cx.error("GSQL2002", typeAst.range, { name: typeAst.kind === "Ident" ? typeAst.name : "(expression)", graph: cx.graphName });
    }
  }
  const sep = bindExpr(cx, sepAst);
  const header = bindExpr(cx, headerAst);
  if (sep.type.kind !== "error" && !(sep.type.kind === "primitive" && sep.type.name === "STRING")) {
    cx.error("GSQL3007", sepAst.range, { index: 4, name: "SelectVertex", expected: "STRING", actual: typeToString(sep.type) });
  }
  if (header.type.kind !== "error" && !(header.type.kind === "primitive" && header.type.name === "BOOL")) {
    cx.error("GSQL3007", headerAst.range, { index: 5, name: "SelectVertex", expected: "BOOL", actual: typeToString(header.type) });
  }
  const args = [path, col ?? errorExpr(colAst.range), typeArg ?? errorExpr(typeAst.range), sep, header];
  return { kind: "call", fn: SELECT_VERTEX, args, type: { kind: "vertexSet", ...(vertexTypes ? { vertexTypes } : {}) }, range };
}

/** `getAttr("a", "INT")` and `evaluate(s, "int")`: the result type named by a string literal. */
function typeFromName(cx: QueryContext, arg: AstExpr | undefined, fname: string): GType {
  if (arg?.kind !== "StringLiteral") return T.ERROR;
  const n = arg.value.trim().toUpperCase();
  const m = /^(LIST|SET)<\s*(\w+)\s*>$/.exec(n);
  const scalar = (s: string): GType | undefined =>
    ["INT", "UINT", "FLOAT", "DOUBLE", "BOOL", "STRING", "DATETIME"].includes(s) ? primitive(s as PrimitiveName) : undefined;
  const t = m ? (scalar(m[2]!) && { kind: "accum" as const, accum: m[1] === "LIST" ? "ListAccum" as const : "SetAccum" as const, element: scalar(m[2]!)! }) : scalar(n);
  if (!t) {
    cx.error("GSQL3007", arg.range, { index: 2, name: fname, expected: "a type name such as \"INT\" or \"LIST<STRING>\"", actual: arg.text });
    return T.ERROR;
  }
  return t;
}

function bindSubQueryCall(cx: QueryContext, q: QuerySignature, e: AstCall): BoundExpr {
  const range = e.range;
  const args = e.args.map((a) => bindExpr(cx, a));
  if (args.length > q.params.length) cx.error("GSQL3033", range, { name: q.name, max: q.params.length, actual: args.length });
  const converted = args.map((a, i) => {
    const p = q.params[i];
    if (!p) return a;
    if (!argFitsParam(p.type, a.type)) {
      cx.error("GSQL3027", e.args[i]!.range, { name: p.name, query: q.name, expected: typeToString(p.type), actual: typeToString(a.type) });
    }
    return convertTo(a, p.type);
  });
  for (const p of q.params.slice(args.length)) {
    if (!p.hasDefault) cx.error("GSQL3034", range, { name: p.name, query: q.name });
  }
  if (q.distributed && (cx.self.distributed || cx.level !== "query")) {
    cx.error("GSQL3036", range, { name: q.name, where: cx.self.distributed ? "from a DISTRIBUTED query" : LEVEL_NAMES[cx.level] });
  }
  if (!cx.calls.includes(q)) cx.calls.push(q);
  return { kind: "subquery", query: q, args: converted, type: q.returns ?? T.VOID, range };
}

/** A vertex set may be passed for a SET<VERTEX> parameter; collections fit by element. */
function argFitsParam(p: GType, a: GType): boolean {
  if (a.kind === "vertexSet" && p.kind === "collection") return p.element.kind === "vertex";
  return isAssignable(p, a);
}

// ---------------------------------------------------------------- methods

const FILTERABLE = new Set(["vertex.neighbors", "vertex.neighborAttribute", "vertex.edgeAttribute"]);

const FILTER: BuiltinMethod = {
  id: "bag.filter", name: "filter", receiver: "bag", args: ["bool"], optional: 0, mutator: false, result: (r) => r,
};

/**
 * `v.neighbors("E").filter(cond)` and the attribute forms: `cond` may name the edge type and
 * the neighbour's vertex type as if they were aliases (`Knows.weight > 1`).
 */
function bindFilter(cx: QueryContext, target: Extract<BoundExpr, { kind: "method" }>, e: AstMethodCall): BoundExpr {
  const lits = target.args.map((a) => (a.kind === "literal" && typeof a.value === "string" ? a.value : undefined));
  const edgeNames = (lits[0] ?? "").split("|").map((x) => x.trim()).filter((x) => cx.view.edgeType(x));
  const vertexName = target.method.id === "vertex.neighborAttribute" ? lits[1] : undefined;
  if (e.args.length !== 1) {
    cx.error("GSQL3006", e.range, { name: "filter", expected: 1, actual: e.args.length });
    return errorExpr(e.range);
  }
  const cond = cx.inBlock(() => {
    const own: AliasDecl[] = [];
    for (const n of edgeNames) {
      own.push({ declKind: "alias", id: cx.newId(), name: n, range: e.range, role: "edge", types: [n], anyType: false });
    }
    if (vertexName && cx.view.vertexType(vertexName)) {
      own.push({ declKind: "alias", id: cx.newId(), name: vertexName, range: e.range, role: "vertex", types: [vertexName], anyType: false });
    }
    for (const a of own) cx.scope.names.set(a.name, a);
    const c = bindExpr(cx, e.args[0]!);
    // the condition's own aliases are no uses of the SELECT's aliases (an edge alias in POST-ACCUM, two vertex aliases in one statement)
    for (const a of own) cx.select?.used.delete(a);
    if (c.type.kind !== "error" && !(c.type.kind === "primitive" && c.type.name === "BOOL")) cx.error("GSQL3005", e.args[0]!.range, { actual: typeToString(c.type) });
    return c;
  });
  return { kind: "method", target, method: FILTER, args: [cond], type: target.type, range: e.range };
}

export function bindMethodCall(cx: QueryContext, e: AstMethodCall): BoundExpr {
  const range = e.range;
  const target = bindExpr(cx, e.object);
  if (e.method.name.toLowerCase() === "filter" && target.kind === "method" && FILTERABLE.has(target.method.id)) {
    return bindFilter(cx, target, e);
  }
  const args = e.args.map((a) => bindExpr(cx, a));
  const name = e.method.name;
  if (target.type.kind === "error") return errorExpr(range);
  // Methods belong to the accumulator, not to the value read from it (`@@bits.flip(3)`).
  const receiver = target.kind === "globalAccum" || target.kind === "vertexAccum" ? target.decl.type : target.type;
  const m = lookupMethod(receiver, name) ?? lookupMethod(target.type, name);
  if (!m) {
    if (target.kind === "ref" && target.decl.declKind === "alias" && target.decl.role === "edge" &&
      ["outdegree", "neighbors", "neighborattribute", "edgeattribute"].includes(name.toLowerCase())) {
      cx.error("GSQL3011", e.object.range, { name: target.decl.name, actual: "an edge", expected: "a vertex" });
    } else cx.error("GSQL2009", e.method.range, { name, owner: typeToString(target.type) });
    return errorExpr(range);
  }
  if (!checkArgs(cx, m.name, m.args, m.optional, m.variadic, args, e.args, range)) return { kind: "method", target, method: m, args, type: T.ERROR, range };
  if (m.mutator) checkMutatorPlacement(cx, target, m, range);
  return { kind: "method", target, method: m, args, type: methodResult(cx, { ...target, type: receiver }, m, args, e), range };
}

function methodResult(cx: QueryContext, target: BoundExpr, m: BuiltinMethod, args: BoundExpr[], e: AstMethodCall): GType {
  const schema = cx.catalog.schema;
  const lit = (i: number) => (e.args[i]?.kind === "StringLiteral" ? (e.args[i] as { value: string }).value : undefined);
  switch (m.id) {
    case "array.reallocate": {
      // One size per dimension the accumulator was declared with.
      const dims = target.type.kind === "accum" && target.type.accum === "ArrayAccum" ? target.type.dims : args.length;
      if (args.length !== dims) cx.error("GSQL3006", e.range, { name: m.name, expected: String(dims), actual: args.length });
      return T.VOID;
    }
    case "vertex.getAttr":
    case "edge.getAttr":
      return args.length > 1 ? typeFromName(cx, e.args[1], "getAttr") : T.ERROR;
    case "vertex.edgeAttribute": {
      const et = lit(0) !== undefined ? cx.view.edgeType(lit(0)!) : undefined;
      const a = et?.attributes.find((x) => x.name === lit(1));
      if (lit(0) !== undefined && !et) cx.error("GSQL2003", e.args[0]!.range, { name: lit(0)!, graph: cx.graphName });
      else if (et && lit(1) !== undefined && !a) cx.error("GSQL2004", e.args[1]!.range, { name: lit(1)!, owner: `edge type ${et.name}` });
      return { kind: "accum", accum: "BagAccum", element: a ? attrTypeToGType(a.type, schema.tuples) : T.ERROR };
    }
    case "vertex.neighborAttribute": {
      const vt = lit(1) !== undefined ? cx.view.vertexType(lit(1)!) : undefined;
      // A primary id WITH primary_id_as_attribute reads like an attribute (as `v.id` does).
      const a = vt?.attributes.find((x) => x.name === lit(2)) ?? (vt?.primaryIdAsAttribute && vt.primaryId.name === lit(2) ? { name: vt.primaryId.name, type: { kind: "scalar" as const, name: vt.primaryId.type } } : undefined);
      if (lit(1) !== undefined && !vt) cx.error("GSQL2002", e.args[1]!.range, { name: lit(1)!, graph: cx.graphName });
      else if (vt && lit(2) !== undefined && !a) cx.error("GSQL2004", e.args[2]!.range, { name: lit(2)!, owner: `vertex type ${vt.name}` });
      return { kind: "accum", accum: "BagAccum", element: a ? attrTypeToGType(a.type, schema.tuples) : T.ERROR };
    }
    case "list.update": case "list.removeOne": case "list.removeAll": case "set.remove": case "bag.remove": case "bag.removeAll": {
      const el = elementTypeOf(target.type);
      const v = args[m.id === "list.update" ? 1 : 0]!;
      if (el && !isAssignable(el, v.type)) cx.error("GSQL3001", v.range, { expected: typeToString(el), actual: typeToString(v.type) });
      return m.result(target.type, args.map((a) => a.type));
    }
    default:
      return m.result(target.type, args.map((a) => a.type));
  }
}

/**
 * Mutator methods (clear, remove, pop, resize...): on a global accumulator only at query-body
 * level; on a vertex-attached accumulator only in POST-ACCUM.
 */
function checkMutatorPlacement(cx: QueryContext, target: BoundExpr, m: BuiltinMethod, range: SourceRange): void {
  if (target.kind === "globalAccum" && cx.level !== "query") {
    cx.error("GSQL3023", range, { name: m.name, where: `on a global accumulator ${LEVEL_NAMES[cx.level]} (only at query-body level)` });
  } else if (target.kind === "vertexAccum" && cx.level !== "postAccum" && cx.level !== "update") {
    cx.error("GSQL3023", range, { name: m.name, where: `on a vertex-attached accumulator ${LEVEL_NAMES[cx.level]} (only in POST-ACCUM)` });
  } else if (target.kind === "ref" && target.decl.declKind === "param") {
    cx.error("GSQL3013", range, { name: target.decl.name });
  }
}
