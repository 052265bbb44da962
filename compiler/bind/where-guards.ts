// The WHERE type-guard rule: when a SELECT alias may have several edge or vertex types, a
// WHERE condition that reads an attribute only some of them have must be guarded by type
// tests (`e.type == "Knows" AND e.weight > 1`, several such terms joined with OR), or the
// query does not compile. The established server refuses the unguarded form at compile time;
// we do the same rather than silently reading nothing for the other types' rows.
//
// Narrowing follows the shapes a guard is written in: the conjuncts of an AND chain narrow
// each other (a conjunct may be one type test, or type tests of one alias joined with OR);
// `CASE WHEN e.type == "A" THEN ...` narrows its THEN; `CASE e.type WHEN "A" THEN ...` too.
// Aliases whose types are not known statically (wildcards, type names from parameters) are
// not checked: they may have any type at run time.

import type { AliasDecl, BoundExpr } from "./bound.js";
import type { QueryContext } from "./context.js";

/** For each narrowed alias, the types it can still have at a point of the condition. */
type Narrowing = ReadonlyMap<AliasDecl, ReadonlySet<string>>;

/** Reports GSQL3050 for each attribute read that some possible type of its alias lacks. */
export function checkWhereGuards(cx: QueryContext, where: BoundExpr): void {
  visit(cx, where, new Map());
}

function visit(cx: QueryContext, e: BoundExpr, narrowed: Narrowing): void {
  if (e.kind === "binary" && e.op === "AND") {
    const terms = conjuncts(e);
    const inner = narrowByAll(terms, narrowed);
    for (const t of terms) visit(cx, t, inner);
    return;
  }
  if (e.kind === "case") {
    visitCase(cx, e, narrowed);
    return;
  }
  if (e.kind === "attr") checkAttribute(cx, e, narrowed);
  for (const child of children(e)) visit(cx, child, narrowed);
}

function visitCase(cx: QueryContext, e: Extract<BoundExpr, { kind: "case" }>, narrowed: Narrowing): void {
  const subjectAlias = e.subject ? typeTestAlias(e.subject) : undefined;
  if (e.subject) visit(cx, e.subject, narrowed);
  for (const w of e.whens) {
    visit(cx, w.when, narrowed);
    let guard: TypeTest | undefined;
    if (subjectAlias && w.when.kind === "literal" && typeof w.when.value === "string") {
      guard = { alias: subjectAlias, types: new Set([w.when.value]) };
    } else if (!e.subject) guard = typeTestOf(w.when);
    visit(cx, w.then, guard ? narrow(narrowed, guard) : narrowed);
  }
  if (e.else) visit(cx, e.else, narrowed);
}

function checkAttribute(cx: QueryContext, e: Extract<BoundExpr, { kind: "attr" }>, narrowed: Narrowing): void {
  const alias = aliasOf(e.target);
  if (!alias || alias.anyType || alias.types.length < 2) return;
  const possible = narrowed.get(alias) ?? new Set(alias.types);
  const owners = new Set(e.attr.owners.map((o) => o.typeName));
  const lacking = alias.types.filter((t) => possible.has(t) && !owners.has(t));
  if (lacking.length === 0) return;
  cx.error("GSQL3050", e.range, {
    name: e.attr.name, alias: alias.name, lacking: lacking.join(" or "), owner: [...owners][0] ?? alias.types[0]!,
  });
}

// ---------------------------------------------------------------- type tests

interface TypeTest {
  alias: AliasDecl;
  types: ReadonlySet<string>;
}

function narrowByAll(terms: BoundExpr[], narrowed: Narrowing): Narrowing {
  let out = narrowed;
  for (const t of terms) {
    const test = typeTestOf(t);
    if (test) out = narrow(out, test);
  }
  return out;
}

function narrow(narrowed: Narrowing, test: TypeTest): Narrowing {
  const before = narrowed.get(test.alias) ?? new Set(test.alias.types);
  const out = new Map(narrowed);
  out.set(test.alias, new Set([...before].filter((t) => test.types.has(t))));
  return out;
}

/** `a.type == "T"`, `a.type != "T"`, or such tests of one alias joined with OR. */
function typeTestOf(e: BoundExpr): TypeTest | undefined {
  if (e.kind !== "binary") return undefined;
  if (e.op === "OR") {
    const l = typeTestOf(e.left);
    const r = typeTestOf(e.right);
    if (!l || !r || l.alias !== r.alias) return undefined;
    return { alias: l.alias, types: new Set([...l.types, ...r.types]) };
  }
  if (e.op !== "==" && e.op !== "!=") return undefined;
  const [side, other] = e.left.kind === "pseudoAttr" ? [e.left, e.right] : [e.right, e.left];
  const alias = typeTestAlias(side);
  if (!alias || other.kind !== "literal" || typeof other.value !== "string") return undefined;
  const name = other.value;
  const types = e.op === "==" ? [name] : alias.types.filter((t) => t !== name);
  return { alias, types: new Set(types) };
}

/** The alias of `a.type`, when `e` is one. */
function typeTestAlias(e: BoundExpr): AliasDecl | undefined {
  return e.kind === "pseudoAttr" && e.name === "type" ? aliasOf(e.target) : undefined;
}

function aliasOf(e: BoundExpr): AliasDecl | undefined {
  return e.kind === "ref" && e.decl.declKind === "alias" ? e.decl : undefined;
}

function conjuncts(e: BoundExpr): BoundExpr[] {
  return e.kind === "binary" && e.op === "AND" ? [...conjuncts(e.left), ...conjuncts(e.right)] : [e];
}

// ---------------------------------------------------------------- traversal

/** The sub-expressions of `e` a condition can read attributes through. */
function children(e: BoundExpr): BoundExpr[] {
  switch (e.kind) {
    case "vertexAccum": case "attr": case "pseudoAttr": case "tupleField":
      return [e.target];
    case "unary": case "convert":
      return [e.operand];
    case "binary":
      return [e.left, e.right];
    case "call": case "subquery": case "tupleCtor":
      return e.args;
    case "method":
      return [e.target, ...e.args];
    case "listLit": case "setLit":
      return e.elements;
    case "entry":
      return [...e.keys, ...e.values];
    case "index":
      return [e.target, ...e.indices];
    case "in":
      return [e.value, e.collection];
    case "between":
      return [e.value, e.low, e.high];
    case "like":
      return [e.value, e.pattern];
    case "datetimeInterval":
      return [e.value];
    case "seed":
      return e.parts.flatMap((p) => (p.kind === "value" ? [p.expr] : []));
    default:
      return [];
  }
}
