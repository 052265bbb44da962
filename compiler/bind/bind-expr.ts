// Expressions: resolve every name, infer every type, insert explicit conversions, and log
// what does not fit. Calls (functions, methods, sub-queries, tuples) are in bind-call.ts.
import type { AstExpr, AstFieldAccess, AstIdent } from "../ast/index.js";
import type { SourceRange } from "../diagnostics/index.js";
import type { AccumDecl, AliasDecl, AttrRef, BinaryOp, BoundExpr, SeedPart } from "./bound.js";
import { bindCall, bindMethodCall } from "./bind-call.js";
import type { QueryContext } from "./context.js";
import {
  T, accumOutputType, elementTypeOf, isAssignable, isFloating, isInteger, isNumeric, isPrimitive, isOrderable,
  sameType, typeToString, widen, attrTypeToGType, type GType,
} from "./types.js";

const INT_MAX = 9223372036854775807n;

export function errorExpr(range: SourceRange): BoundExpr {
  return { kind: "literal", value: 0n, type: T.ERROR, range };
}

/** `e` converted to `type` (an explicit node) when their types differ. */
export function convertTo(e: BoundExpr, type: GType): BoundExpr {
  if (e.type.kind === "error" || type.kind === "error" || sameType(e.type, type)) return e;
  if (isNumeric(e.type) && isNumeric(type)) return { kind: "convert", operand: e, type, range: e.range };
  return e;
}

/** Bind and require a BOOL condition. */
export function bindCondition(cx: QueryContext, e: AstExpr): BoundExpr {
  const b = bindExpr(cx, e);
  if (!isPrimitive(b.type, "BOOL") && b.type.kind !== "error") cx.error("GSQL3005", e.range, { actual: typeToString(b.type) });
  return b;
}

/** Bind and require a value assignable to `type`. */
export function bindExpecting(cx: QueryContext, e: AstExpr, type: GType, what = "value"): BoundExpr {
  const b = bindExpr(cx, e);
  if (!isAssignable(type, b.type)) {
    cx.error("GSQL3001", e.range, { expected: typeToString(type), actual: typeToString(b.type) + (what === "value" ? "" : ` (${what})`) });
  }
  return convertTo(b, type);
}

export function bindExpr(cx: QueryContext, e: AstExpr): BoundExpr {
  const range = e.range;
  switch (e.kind) {
    case "IntLiteral": {
      const v = BigInt(e.text);
      return { kind: "literal", value: v, type: v > INT_MAX ? T.UINT : T.INT, range };
    }
    case "RealLiteral":
      return { kind: "literal", value: Number(e.text), type: T.DOUBLE, range };
    case "StringLiteral":
      return { kind: "literal", value: e.value, type: T.STRING, range };
    case "BoolLiteral":
      return { kind: "literal", value: e.value, type: T.BOOL, range };
    case "NamedConstant": {
      const value = e.name === "GSQL_INT_MAX" ? INT_MAX : e.name === "GSQL_INT_MIN" ? -INT_MAX - 1n : 18446744073709551615n;
      return { kind: "constant", name: e.name, value, type: e.name === "GSQL_UINT_MAX" ? T.UINT : T.INT, range };
    }
    case "Ident":
      return bindName(cx, e);
    case "AccumRef":
      return bindAccumRef(cx, e.scope, e.name, range);
    case "AccumAccess":
      return bindAccumAccess(cx, e.object, e.name, e.prime, range);
    case "FieldAccess":
      return bindFieldAccess(cx, e);
    case "MethodCall":
      return bindMethodCall(cx, e);
    case "Call":
      return bindCall(cx, e);
    case "Trim": {
      const args = [bindExpecting(cx, e.value, T.STRING)];
      if (e.chars) args.push(bindExpecting(cx, e.chars, T.STRING));
      return { kind: "call", fn: { id: `fn.trim.${(e.side ?? "BOTH").toLowerCase()}`, name: "trim", args: ["string"], optional: 0, result: () => T.STRING }, args, type: T.STRING, range };
    }
    case "Index":
      return bindIndex(cx, e.object, [e.index], range);
    case "TypeStar":
      return bindSeed(cx, [e], range);
    case "SeedSet":
      return bindSeed(cx, e.items, range);
    case "Unary": {
      const operand = bindExpr(cx, e.operand);
      if (e.op === "NOT") {
        if (!isPrimitive(operand.type, "BOOL") && operand.type.kind !== "error") cx.error("GSQL3005", e.operand.range, { actual: typeToString(operand.type) });
        if (operand.kind === "binary" && (operand.left.kind === "pseudoAttr" || operand.right.kind === "pseudoAttr")) {
          cx.error("GSQL3043", range);
        }
        return { kind: "unary", op: "NOT", operand, type: T.BOOL, range };
      }
      if (!isNumeric(operand.type) && operand.type.kind !== "error") {
        cx.error("GSQL3002", range, { op: "-", left: "nothing", right: typeToString(operand.type) });
        return { kind: "unary", op: "-", operand, type: T.ERROR, range };
      }
      // Negating a UINT gives an INT, as C++ would after the usual conversions.
      return { kind: "unary", op: "-", operand, type: isPrimitive(operand.type, "UINT") ? T.INT : operand.type, range };
    }
    case "Binary":
      return bindBinary(cx, e.op, e.left, e.right, range);
    case "Between": {
      const value = bindExpr(cx, e.value);
      const low = bindExpr(cx, e.low);
      const high = bindExpr(cx, e.high);
      for (const [x, ast] of [[value, e.value], [low, e.low], [high, e.high]] as const) {
        if (!isNumeric(x.type) && !isPrimitive(x.type, "STRING", "DATETIME") && x.type.kind !== "error") {
          cx.error("GSQL3002", ast.range, { op: "BETWEEN", left: typeToString(x.type), right: "a range" });
        }
      }
      const t = isNumeric(value.type) && isNumeric(low.type) && isNumeric(high.type) ? widen(widen(value.type, low.type), high.type) : value.type;
      const between: BoundExpr = { kind: "between", value: convertTo(value, t), low: convertTo(low, t), high: convertTo(high, t), type: T.BOOL, range };
      return e.negated ? { kind: "unary", op: "NOT", operand: between, type: T.BOOL, range } : between;
    }
    case "In": {
      const value = bindExpr(cx, e.value);
      const collection = bindExpr(cx, e.set);
      const el = elementTypeOf(collection.type);
      if (el === undefined) {
        cx.error("GSQL3001", e.set.range, { expected: "a set, bag or list", actual: typeToString(collection.type) });
      } else if (!isAssignable(el, value.type) && !(isNumeric(el) && isNumeric(value.type))) {
        cx.error("GSQL3002", range, { op: "IN", left: typeToString(value.type), right: typeToString(collection.type) });
      }
      return { kind: "in", negated: e.negated, value, collection, type: T.BOOL, range };
    }
    case "Like": {
      // gsql-semantics §7.3: LIKE belongs to WHERE clauses, and its pattern is known before
      // the rows are read (a literal or a query parameter).
      if (!cx.inWhere) cx.error("GSQL3028", range, { what: "LIKE", where: "in a WHERE clause" });
      const value = bindExpecting(cx, e.value, T.STRING);
      const pattern = bindExpecting(cx, e.pattern, T.STRING);
      const fixed = pattern.kind === "literal" || (pattern.kind === "ref" && pattern.decl.declKind === "param");
      if (!fixed && pattern.type.kind !== "error") cx.error("GSQL3042", e.pattern.range);
      const out: BoundExpr = { kind: "like", negated: e.negated, value, pattern, type: T.BOOL, range };
      if (e.escape?.kind === "StringLiteral") out.escape = e.escape.value;
      return out;
    }
    case "IsCheck": {
      if (e.check !== "NULL") {
        cx.error("GSQL3035", range, { what: `IS ${e.check}`, where: "in a query (it belongs to loading jobs)" });
        return errorExpr(range);
      }
      const v = e.value.kind === "Ident" ? cx.scope.lookup(e.value.name) : undefined;
      if (v?.declKind !== "param") {
        bindExpr(cx, e.value);
        cx.error("GSQL3032", range);
        return { kind: "literal", value: e.negated, type: T.BOOL, range };
      }
      return { kind: "isNull", negated: e.negated, param: v, type: T.BOOL, range };
    }
    case "CaseExpr": {
      const subject = e.subject ? bindExpr(cx, e.subject) : undefined;
      const whens = e.whens.map((w) => ({
        when: subject ? bindExpr(cx, w.when) : bindCondition(cx, w.when),
        then: bindExpr(cx, w.then),
      }));
      const otherwise = e.otherwise ? bindExpr(cx, e.otherwise) : undefined;
      let t = whens[0]?.then.type ?? T.ERROR;
      for (const x of [...whens.map((w) => w.then), ...(otherwise ? [otherwise] : [])]) {
        if (isNumeric(t) && isNumeric(x.type)) t = widen(t, x.type);
        else if (!isAssignable(t, x.type)) cx.error("GSQL3001", x.range, { expected: typeToString(t), actual: typeToString(x.type) });
      }
      const out: BoundExpr = { kind: "case", whens: whens.map((w) => ({ when: w.when, then: convertTo(w.then, t) })), type: t, range };
      if (subject) out.subject = subject;
      if (otherwise) out.else = convertTo(otherwise, t);
      return out;
    }
    case "ListLiteral": {
      const elements = e.items.map((i) => bindExpr(cx, i));
      const el = commonElementType(cx, elements);
      return { kind: "listLit", elements: elements.map((x) => convertTo(x, el)), type: { kind: "collection", collection: "LIST", element: el }, range };
    }
    case "ParenList": {
      const elements = e.items.map((i) => bindExpr(cx, i));
      // Values of different kinds in parentheses form an anonymous tuple, not a set.
      if (!elements.every((x) => compatible(elements[0]!.type, x.type))) {
        const fields = elements.map((x, i) => ({ name: `field${i}`, type: x.type }));
        return { kind: "tupleCtor", tuple: { kind: "tuple", fields }, args: elements, type: { kind: "tuple", fields }, range };
      }
      const el = commonElementType(cx, elements);
      return { kind: "setLit", elements: elements.map((x) => convertTo(x, el)), type: { kind: "collection", collection: "SET", element: el }, range };
    }
    case "KeyValue": {
      const keys = e.keys.map((k) => bindExpr(cx, k));
      const values = e.values.map((v) => bindExpr(cx, v));
      return { kind: "entry", keys, values, type: { kind: "entry", keys: keys.map((k) => k.type), values: values.map((v) => v.type) }, range };
    }
    case "Interval": {
      const value = bindExpecting(cx, e.value, T.INT);
      if (!["YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"].includes(e.unit)) {
        cx.error("GSQL3035", range, { what: `INTERVAL unit ${e.unit}`, where: "(use YEAR, MONTH, DAY, HOUR, MINUTE or SECOND)" });
      }
      return { kind: "datetimeInterval", value, unit: e.unit, type: T.INT, range };
    }
    case "Select":
      cx.error("GSQL3035", range, { what: "a SELECT block", where: "here (assign it to a vertex-set variable)" });
      return errorExpr(range);
    case "Underscore":
    case "AnyType":
    case "Range":
    case "ColumnRef":
    case "TypedValue":
    case "Reduce":
      cx.error("GSQL3035", range, { what: describeAst(e), where: "in this expression" });
      return errorExpr(range);
  }
}

function describeAst(e: AstExpr): string {
  switch (e.kind) {
    case "Underscore": return "'_'";
    case "AnyType": return `'${e.spelling}'`;
    case "Range": return "RANGE[...]";
    case "ColumnRef": return "a column reference";
    case "TypedValue": return "a typed value";
    case "Reduce": return "REDUCE";
    default: return e.kind;
  }
}

function compatible(a: GType, b: GType): boolean {
  return (isNumeric(a) && isNumeric(b)) || isAssignable(a, b) || isAssignable(b, a);
}

/** The element type of a list/set literal: numbers widen; other types must agree. */
function commonElementType(cx: QueryContext, xs: BoundExpr[]): GType {
  let t: GType = xs[0]?.type ?? T.ERROR;
  for (const x of xs.slice(1)) {
    if (isNumeric(t) && isNumeric(x.type)) t = widen(t, x.type);
    else if (x.type.kind === "vertex" && t.kind === "vertex" && x.type.vertexType !== t.vertexType) t = T.VERTEX;
    else if (!isAssignable(t, x.type)) cx.error("GSQL3001", x.range, { expected: typeToString(t), actual: typeToString(x.type) });
  }
  return t;
}

// ---------------------------------------------------------------- names

/** The type of a reference to an alias: a vertex of its types, or an edge. */
export function aliasType(a: AliasDecl): GType {
  if (a.role === "edge") return a.types.length === 1 ? { kind: "edge", edgeType: a.types[0] } : T.EDGE;
  return a.types.length === 1 && !a.anyType ? { kind: "vertex", vertexType: a.types[0] } : T.VERTEX;
}

export function bindName(cx: QueryContext, id: AstIdent): BoundExpr {
  const range = id.range;
  const d = cx.scope.lookup(id.name);
  if (d) {
    switch (d.declKind) {
      case "alias":
        cx.select?.used.add(d);
        return { kind: "ref", decl: d, type: aliasType(d), range };
      case "var":
        if (d.level === "dml") cx.select?.usedLocals.add(d);
        return { kind: "ref", decl: d, type: d.type, range };
      case "param": case "loopvar":
        return { kind: "ref", decl: d, type: d.type, range };
      case "vset":
        return { kind: "ref", decl: d, type: { kind: "vertexSet", vertexTypes: d.vertexTypes }, range };
      case "accum": case "exception":
        break;
    }
  }
  const vs = cx.vertexSets.get(id.name);
  if (vs) return { kind: "ref", decl: vs, type: { kind: "vertexSet", vertexTypes: vs.vertexTypes }, range };
  if (cx.view.vertexType(id.name) || cx.view.edgeType(id.name)) {
    cx.error("GSQL2018", range, { name: id.name, actual: cx.view.vertexType(id.name) ? "vertex type" : "edge type", expected: "a value" });
  } else cx.error("GSQL2005", range, { name: id.name });
  return errorExpr(range);
}

export function lookupAccum(cx: QueryContext, scope: "global" | "vertex", name: string, range: SourceRange): AccumDecl | undefined {
  const key = scope === "global" ? `@@${name}` : `@${name}`;
  const d = cx.scope.lookup(key);
  if (d?.declKind === "accum") return d;
  const other = cx.scope.lookup(scope === "global" ? `@${name}` : `@@${name}`);
  if (other?.declKind === "accum") {
    cx.error("GSQL2013", range, {
      name, scope: other.scope === "global" ? "global" : "vertex-attached",
      spelling: other.scope === "global" ? `@@${name}` : `v.@${name}`,
    });
  } else cx.error("GSQL2006", range, { name: key });
  return undefined;
}

function bindAccumRef(cx: QueryContext, scope: "global" | "vertex", name: string, range: SourceRange): BoundExpr {
  if (scope === "vertex") {
    // A bare `@x` has no vertex to read it from.
    const d = lookupAccum(cx, "vertex", name, range);
    if (d) cx.error("GSQL3028", range, { what: `the vertex-attached accumulator '@${name}'`, where: "through a vertex, as v.@" + name });
    return errorExpr(range);
  }
  const d = lookupAccum(cx, "global", name, range);
  if (!d) return errorExpr(range);
  return { kind: "globalAccum", decl: d, type: accumOutputType(d.type), range };
}

/** Vertex types an expression may denote at run time (undefined: any vertex type; [] not a vertex). */
export function vertexTypesOf(cx: QueryContext, e: BoundExpr): string[] | undefined {
  if (e.kind === "ref" && e.decl.declKind === "alias") return e.decl.anyType ? undefined : e.decl.types;
  if (e.type.kind === "vertex") return e.type.vertexType ? [e.type.vertexType] : undefined;
  if (e.type.kind === "vertexSet") return e.type.vertexTypes;
  return [];
}

function edgeTypesOf(e: BoundExpr): string[] | undefined {
  if (e.kind === "ref" && e.decl.declKind === "alias") return e.decl.anyType ? undefined : e.decl.types;
  if (e.type.kind === "edge") return e.type.edgeType ? [e.type.edgeType] : undefined;
  return [];
}

/**
 * The object of `x.@acc` or `x.attr`: a vertex (alias, variable, parameter), or in PRINT a
 * vertex-set variable standing for each of its vertices.
 */
function bindObject(cx: QueryContext, obj: AstExpr): BoundExpr {
  return bindExpr(cx, obj);
}

function isVertexish(cx: QueryContext, e: BoundExpr): boolean {
  return e.type.kind === "vertex" || (cx.inPrint && e.type.kind === "vertexSet");
}

function bindAccumAccess(cx: QueryContext, objAst: AstExpr, name: string, prime: boolean, range: SourceRange): BoundExpr {
  const target = bindObject(cx, objAst);
  if (target.type.kind === "error") return errorExpr(range);
  if (!isVertexish(cx, target)) {
    if (target.kind === "ref" && target.decl.declKind === "alias") {
      cx.error("GSQL3011", objAst.range, { name: target.decl.name, actual: "an edge", expected: "a vertex" });
    } else cx.error("GSQL3001", objAst.range, { expected: "a vertex", actual: typeToString(target.type) });
    return errorExpr(range);
  }
  const d = lookupAccum(cx, "vertex", name, range);
  if (!d) return errorExpr(range);
  if (cx.level === "query" && !cx.inPrint && target.kind === "ref" && target.decl.declKind === "loopvar") {
    cx.error("GSQL3041", objAst.range, { name: target.decl.name });
  }
  if (prime && (cx.level === "query" && !cx.inPrint || cx.select?.clause === "where")) {
    cx.error("GSQL3028", range, { what: `'@${name}''`, where: "in ACCUM, POST-ACCUM, HAVING or ORDER BY" });
  }
  return { kind: "vertexAccum", target, decl: d, prime, type: accumOutputType(d.type), range };
}

function bindFieldAccess(cx: QueryContext, e: AstFieldAccess): BoundExpr {
  const range = e.range;
  const field = e.field.name;
  const target = bindObject(cx, e.object);
  const t = target.type;
  if (t.kind === "error") return errorExpr(range);
  if (t.kind === "vertex" || t.kind === "edge" || (cx.inPrint && t.kind === "vertexSet")) {
    if (field.toLowerCase() === "type" && !hasAttribute(cx, target, field)) {
      return { kind: "pseudoAttr", target, name: "type", type: T.STRING, range };
    }
    return bindAttribute(cx, target, e.field.name, e.field.range, range);
  }
  if (t.kind === "tuple") {
    const index = t.fields.findIndex((f) => f.name === field);
    if (index < 0) {
      cx.error("GSQL2016", e.field.range, { name: field, tuple: typeToString(t) });
      return errorExpr(range);
    }
    return { kind: "tupleField", target, field, index, type: t.fields[index]!.type, range };
  }
  cx.error("GSQL2004", e.field.range, { name: field, owner: typeToString(t) });
  return errorExpr(range);
}

function hasAttribute(cx: QueryContext, target: BoundExpr, name: string): boolean {
  const types = target.type.kind === "edge" ? edgeTypesOf(target) ?? cx.allEdgeTypeNames() : vertexTypesOf(cx, target) ?? cx.allVertexTypeNames();
  return types.some((n) => (target.type.kind === "edge" ? cx.view.edgeType(n) : cx.view.vertexType(n))?.attributes.some((a) => a.name === name));
}

/** `x.attr` over every type `x` may have: at least one must have it; the types must agree. */
function bindAttribute(cx: QueryContext, target: BoundExpr, name: string, nameRange: SourceRange, range: SourceRange): BoundExpr {
  const isEdge = target.type.kind === "edge";
  const typeNames = isEdge ? edgeTypesOf(target) ?? cx.allEdgeTypeNames() : vertexTypesOf(cx, target) ?? cx.allVertexTypeNames();
  const attr: AttrRef = { name, owners: [], isPrimaryId: false };
  let type: GType | undefined;
  let primaryIdOf: string | undefined;
  for (const tn of typeNames) {
    const st = isEdge ? cx.view.edgeType(tn) : cx.view.vertexType(tn);
    if (!st) continue;
    const index = st.attributes.findIndex((a) => a.name === name);
    let at: GType | undefined;
    if (index >= 0) at = attrTypeToGType(st.attributes[index]!.type, cx.catalog.schema.tuples);
    else if ("primaryId" in st && st.primaryId.name === name) {
      if (st.primaryIdAsAttribute) {
        at = attrTypeToGType({ kind: "scalar", name: st.primaryId.type }, []);
        attr.isPrimaryId = true;
      } else primaryIdOf = tn;
    }
    if (!at) continue;
    attr.owners.push({ typeName: tn, element: isEdge ? "edge" : "vertex", index });
    if (!type) type = at;
    else if (isNumeric(type) && isNumeric(at)) type = widen(type, at);
    else if (!sameType(type, at) && type.kind !== "error") {
      // Types disagree, also for a vertex of any type: the value would have no one type to
      // compute with, so the types must be narrowed (a typed parameter, a target type).
      cx.error("GSQL3001", nameRange, { expected: typeToString(type), actual: `${typeToString(at)} (attribute ${name} of ${tn})` });
      type = T.ERROR;
    }
  }
  if (!type) {
    const owner = describeTypes(isEdge ? "edge" : "vertex", typeNames);
    if (primaryIdOf) cx.error("GSQL2012", nameRange, { name, owner: `vertex type ${primaryIdOf}` });
    else cx.error("GSQL2004", nameRange, { name, owner });
    return errorExpr(range);
  }
  return { kind: "attr", target, attr, type, range };
}

function describeTypes(kind: string, names: string[]): string {
  return names.length === 1 ? `${kind} type ${names[0]}` : `any of the ${kind} types ${names.join(", ")}`;
}

// ---------------------------------------------------------------- operators

const ARITH = new Set<BinaryOp>(["+", "-", "*", "/", "%"]);
const BITS = new Set<BinaryOp>(["<<", ">>", "&", "|"]);
const COMPARE = new Set<BinaryOp>(["==", "!=", "<", "<=", ">", ">="]);

function bindBinary(cx: QueryContext, op: string, la: AstExpr, ra: AstExpr, range: SourceRange): BoundExpr {
  const left = bindExpr(cx, la);
  const right = bindExpr(cx, ra);
  const bop = op as BinaryOp;
  const lt = left.type;
  const rt = right.type;
  const fail = (): BoundExpr => {
    cx.error("GSQL3002", range, { op, left: typeToString(lt), right: typeToString(rt) });
    return { kind: "binary", op: bop, left, right, operandType: T.ERROR, type: T.ERROR, range };
  };
  const make = (operandType: GType, type: GType): BoundExpr =>
    ({ kind: "binary", op: bop, left: convertTo(left, operandType), right: convertTo(right, operandType), operandType, type, range });
  if (lt.kind === "error" || rt.kind === "error") return { kind: "binary", op: bop, left, right, operandType: T.ERROR, type: T.ERROR, range };
  if (op === "^") return fail();
  if (ARITH.has(bop)) {
    if (isNumeric(lt) && isNumeric(rt)) {
      if (bop === "%" && !(isInteger(lt) && isInteger(rt))) return fail();
      const w = widen(lt, rt);
      return make(w, w);
    }
    if (bop === "+" && isPrimitive(lt, "STRING") && isPrimitive(rt, "STRING")) return make(T.STRING, T.STRING);
    if (bop === "+" && isPrimitive(lt, "DATETIME") && isInteger(rt)) return { kind: "binary", op: bop, left, right, operandType: T.DATETIME, type: T.DATETIME, range };
    if (bop === "-" && isPrimitive(lt, "DATETIME") && isInteger(rt)) return { kind: "binary", op: bop, left, right, operandType: T.DATETIME, type: T.DATETIME, range };
    // Collections: list append, map/bag merge, string lists crossed with `*`.
    const lk = collectionKind(lt);
    if (lk && lk === collectionKind(rt) && (bop === "+" || (bop === "*" && lk === "list"))) {
      return { kind: "binary", op: bop, left, right, operandType: lt, type: lt, range };
    }
    return fail();
  }
  if (BITS.has(bop)) {
    if (isInteger(lt) && isInteger(rt)) {
      const w = widen(lt, rt);
      return make(w, w);
    }
    return fail();
  }
  if (COMPARE.has(bop)) {
    if (isNumeric(lt) && isNumeric(rt)) {
      if ((bop === "==" || bop === "!=") && (isFloating(lt) || isFloating(rt))) cx.error("GSQL3012", range, { op });
      return make(widen(lt, rt), T.BOOL);
    }
    const eqOnly = bop === "==" || bop === "!=";
    const sameKind = (k: string) => lt.kind === k && rt.kind === k;
    if (isPrimitive(lt, "STRING") && isPrimitive(rt, "STRING")) return make(T.STRING, T.BOOL);
    if (isPrimitive(lt, "DATETIME") && isPrimitive(rt, "DATETIME")) return make(T.DATETIME, T.BOOL);
    if (eqOnly && isPrimitive(lt, "BOOL") && isPrimitive(rt, "BOOL")) return make(T.BOOL, T.BOOL);
    if ((sameKind("vertex") || sameKind("edge")) && (eqOnly || sameKind("vertex"))) return make(lt, T.BOOL);
    if (sameKind("tuple") && sameType(lt, rt) && (eqOnly || isOrderable(lt))) return make(lt, T.BOOL);
    if (eqOnly && lt.kind === "json" && sameType(lt, rt)) return make(lt, T.BOOL);
    return fail();
  }
  if (bop === "AND" || bop === "OR") {
    if (isPrimitive(lt, "BOOL") && isPrimitive(rt, "BOOL")) return make(T.BOOL, T.BOOL);
    return fail();
  }
  // UNION / INTERSECT / MINUS: vertex sets, or set/bag collections.
  if (lt.kind === "vertexSet" && rt.kind === "vertexSet") {
    const types = bop === "UNION" ? unionTypes(lt.vertexTypes, rt.vertexTypes) : lt.vertexTypes;
    return { kind: "binary", op: bop, left, right, operandType: lt, type: { kind: "vertexSet", vertexTypes: types }, range };
  }
  const lk = collectionKind(lt);
  const rk = collectionKind(rt);
  if ((lk === "set" || lk === "bag") && (rk === "set" || rk === "bag")) {
    const el = elementTypeOf(lt)!;
    if (!isAssignable(el, elementTypeOf(rt)!)) return fail();
    // Anything with a bag gives a bag.
    const type: GType = lk === "bag" || rk === "bag" ? { kind: "accum", accum: "BagAccum", element: el } : { kind: "accum", accum: "SetAccum", element: el };
    return { kind: "binary", op: bop, left, right, operandType: lt, type, range };
  }
  return fail();
}

function unionTypes(a?: string[], b?: string[]): string[] | undefined {
  if (!a || !b) return undefined;
  return [...new Set([...a, ...b])];
}

function collectionKind(t: GType): "list" | "set" | "bag" | "map" | undefined {
  if (t.kind === "collection") return t.collection === "LIST" ? "list" : t.collection === "SET" ? "set" : "bag";
  if (t.kind === "map") return "map";
  if (t.kind === "accum") {
    switch (t.accum) {
      case "ListAccum": return "list";
      case "SetAccum": return "set";
      case "BagAccum": return "bag";
      case "MapAccum": return "map";
      default: return undefined;
    }
  }
  return undefined;
}

// ---------------------------------------------------------------- indexing and seeds

export function bindIndex(cx: QueryContext, objAst: AstExpr, indexAsts: AstExpr[], range: SourceRange): BoundExpr {
  // Collect `a[i][j]` into one node over the innermost object.
  let obj = objAst;
  const idx = [...indexAsts];
  while (obj.kind === "Index") {
    idx.unshift(obj.index);
    obj = obj.object;
  }
  const target = bindExpr(cx, obj);
  const indices = idx.map((i) => bindExpecting(cx, i, T.INT));
  const t = target.type;
  if (t.kind === "error") return errorExpr(range);
  if (t.kind === "accum" && t.accum === "ArrayAccum") {
    if (indices.length !== t.dims) cx.error("GSQL3029", range, { what: `${typeToString(t)} with ${indices.length} index(es)` });
    return { kind: "index", target, indices, type: accumOutputType(t.element), range };
  }
  cx.error("GSQL3029", objAst.range, { what: typeToString(t) });
  return errorExpr(range);
}

/** `{A.*, v, @@s, ANY}` and `A.*`: a vertex-set seed. */
export function bindSeed(cx: QueryContext, items: AstExpr[], range: SourceRange): BoundExpr {
  const parts: SeedPart[] = [];
  let types: string[] | undefined = [];
  const addTypes = (ts: string[] | undefined) => {
    types = types && ts ? [...new Set([...types, ...ts])] : undefined;
  };
  for (const item of items) {
    if (item.kind === "TypeStar") {
      const name = item.typeName.name;
      if (!cx.view.vertexType(name)) {
        cx.error("GSQL2002", item.typeName.range, { name, graph: cx.graphName });
        continue;
      }
      parts.push({ kind: "allOfType", vertexType: name });
      addTypes([name]);
    } else if (item.kind === "AnyType" || (item.kind === "Ident" && item.name === "ANY")) {
      parts.push({ kind: "allVertices" });
      addTypes(undefined);
    } else if (item.kind === "Ident" && cx.view.vertexType(item.name) && !cx.scope.lookup(item.name)) {
      // `{Person}` is read as every Person vertex, as `{Person.*}`.
      parts.push({ kind: "allOfType", vertexType: item.name });
      addTypes([item.name]);
    } else {
      const e = bindExpr(cx, item);
      if (e.type.kind === "error") continue;
      if (e.type.kind === "vertexSet") {
        if (e.kind === "ref") {
          cx.error("GSQL3035", item.range, { what: "a vertex-set variable", where: "inside a seed's braces (assign it directly)" });
          continue;
        }
        // SelectVertex(...) and other vertex-set values may stand in braces.
        addTypes(e.type.vertexTypes);
        parts.push({ kind: "value", expr: e });
        continue;
      }
      const isString = (t: GType | undefined) => t?.kind === "primitive" && t.name === "STRING";
      if (e.type.kind === "vertex") addTypes(e.type.vertexType ? [e.type.vertexType] : undefined);
      else if (isString(e.type) || isString(elementTypeOf(e.type))) {
        // A STRING (or a collection of them) names vertex types at run time: `{v_type}`
        // seeds every vertex of the named types (schema-free library queries do this).
        addTypes(undefined);
      } else {
        const el = elementTypeOf(e.type);
        if (el?.kind !== "vertex") {
          cx.error("GSQL3001", item.range, { expected: "a vertex or a collection of vertices", actual: typeToString(e.type) });
          continue;
        }
        addTypes(el.vertexType ? [el.vertexType] : undefined);
      }
      parts.push({ kind: "value", expr: e });
    }
  }
  return { kind: "seed", parts, type: { kind: "vertexSet", vertexTypes: types }, range };
}
