// SELECT, UPDATE and DELETE blocks: the FROM pattern with each edge type normalised to a
// direction (out / in / undirected) under the query's SYNTAX version, the aliases and the
// types they may take, then the clauses with their placement rules (HAVING on the selected
// alias only, one alias per V1 POST-ACCUM statement, OFFSET needing ORDER BY).
import type {
  AstAccumClause, AstExpr, AstIdent, AstLimit, AstOrderKey, AstPattern, AstPatternEdge, AstPatternVertex,
  AstPostAccumClause, AstSample, AstStatement,
} from "../ast/index.js";
import type { SourceRange } from "../diagnostics/index.js";
import type { AliasDecl, BoundExpr, BoundSelect, BoundStmt, EdgeMatch, PatternHop, VarDecl, VertexSetDecl } from "./bound.js";
import { bindCondition, bindExpecting, bindExpr, bindName } from "./bind-expr.js";
import { bindStatements } from "./bind-stmt.js";
import type { Clause, QueryContext, SelectScope } from "./context.js";
import { checkWhereGuards } from "./where-guards.js";
import { T, elementTypeOf, isOrderable, isPrimitive, typeToString } from "./types.js";

export interface SelectParts {
  range: SourceRange;
  selected: AstIdent;
  from: AstPattern[];
  sample?: AstSample;
  where?: AstExpr;
  accum?: AstAccumClause;
  postAccum: AstPostAccumClause[];
  having?: AstExpr;
  orderBy: AstOrderKey[];
  limit?: AstLimit;
}

/** Bind a SELECT-like block; `set` holds UPDATE's SET statements (bound in the select's scope). */
export function bindSelect(cx: QueryContext, p: SelectParts, set?: AstStatement[], edgeTarget = false): { select: BoundSelect; set: BoundStmt[] } {
  return inSelectScope(cx, (scope) => bindSelectBody(cx, scope, p, set, edgeTarget));
}

/** Runs `fn` with a fresh SELECT scope (aliases, clause) in its own block. */
export function inSelectScope<T>(cx: QueryContext, fn: (scope: SelectScope) => T): T {
  const saved = cx.select;
  const scope: SelectScope = { aliases: new Map(), vertexAliases: [], clause: "from", used: new Set(), usedLocals: new Set() };
  cx.select = scope;
  try {
    return cx.inBlock(() => fn(scope));
  } finally {
    cx.select = saved;
  }
}

/** The FROM patterns: the first pattern's source and every hop, with their aliases declared in `scope`. */
export function bindPatterns(cx: QueryContext, scope: SelectScope, patterns: AstPattern[], range: SourceRange): Pick<BoundSelect, "source" | "hops"> {
  let source: BoundSelect["source"] | undefined;
  const hops: PatternHop[] = [];
  for (const [i, pattern] of patterns.entries()) {
    // Comma-separated patterns are joined on their common aliases; one sharing none would
    // multiply the match tables.
    const earlier = new Set(scope.aliases.keys());
    const names = [...pattern.vertices.map((v) => v.alias), ...pattern.edges.map((e) => e.alias)].filter((a) => a !== undefined);
    if (i > 0 && !names.some((a) => earlier.has(a.name))) cx.error("GSQL3049", pattern.range);
    const src = bindSource(cx, scope, pattern.vertices[0]!, i === 0);
    if (i === 0) source = src;
    let from = src.alias;
    if (cx.syntax === "v1" && pattern.edges.length > 1) {
      cx.error("GSQL3035", pattern.edges[1]!.range, { what: "a multi-hop pattern", where: "in SYNTAX V1" });
    }
    for (const [j, edge] of pattern.edges.entries()) {
      const next = bindHops(cx, scope, from, edge, pattern.vertices[j + 1]!);
      hops.push(...next);
      from = next[next.length - 1]?.target ?? from;
    }
  }
  source ??= { alias: newAlias(cx, scope, "_", "vertex", undefined, range) };
  return { source, hops };
}

function bindSelectBody(cx: QueryContext, scope: SelectScope, p: SelectParts, setAst: AstStatement[] | undefined, edgeTarget: boolean) {
  const { source, hops } = bindPatterns(cx, scope, p.from, p.range);
  const selected = scope.aliases.get(p.selected.name);
  let selectedAlias = source.alias;
  if (!selected) cx.error("GSQL2005", p.selected.range, { name: p.selected.name });
  // UPDATE and DELETE may name an edge alias (they change or delete the matched edges).
  else if (selected.role === "edge" && !edgeTarget) cx.error("GSQL3011", p.selected.range, { name: selected.name, actual: "an edge", expected: "a vertex" });
  else selectedAlias = selected;

  const select: BoundSelect = { range: p.range, syntax: cx.syntax, source, hops, selected: selectedAlias, accum: [], postAccum: [], orderBy: [] };
  if (p.sample) {
    if (cx.syntax === "v2") cx.error("GSQL3035", p.sample.range, { what: "SAMPLE", where: "in SYNTAX V2" });
    select.sample = withClause(cx, scope, "sample", () => ({
      count: bindExpecting(cx, p.sample!.count, T.INT), percent: p.sample!.percent, what: p.sample!.unit, pinned: p.sample!.pinned,
      ...(p.sample!.when ? { when: bindCondition(cx, p.sample!.when) } : {}),
    }));
  }
  if (p.where) {
    select.where = withClause(cx, scope, "where", () => bindCondition(cx, p.where!));
    checkWhereGuards(cx, select.where);
  }
  if (p.accum) {
    for (const a of p.accum.per) if (!scope.aliases.has(a.name)) cx.error("GSQL2005", a.range, { name: a.name });
    select.accum = withClause(cx, scope, "accum", () => cx.atLevel("accum", () => cx.inBlock(() => bindStatements(cx, p.accum!.body))));
  }
  for (const clause of p.postAccum) select.postAccum.push(...bindPostAccum(cx, scope, clause, selectedAlias));
  if (cx.syntax === "v2" && p.postAccum.length > 1 && modifiesData([...select.accum, ...select.postAccum.flatMap((g) => g.stmts)])) {
    cx.error("GSQL3045", p.postAccum[1]!.range);
  }
  const set = setAst ? withClause(cx, scope, "set", () => cx.atLevel("update", () => cx.inBlock(() => bindStatements(cx, setAst)))) : [];
  if (p.having) {
    scope.used.clear();
    select.having = withClause(cx, scope, "having", () => bindCondition(cx, p.having!));
    for (const a of scope.used) {
      if (a !== selectedAlias) cx.error("GSQL3016", p.having.range, { selected: selectedAlias.name, used: a.name });
    }
  }
  for (const k of p.orderBy) {
    const expr = withClause(cx, scope, "orderBy", () => bindExpr(cx, k.expr));
    if (!isOrderable(expr.type) && !isPrimitive(expr.type, "BOOL")) cx.error("GSQL3040", k.range, { actual: typeToString(expr.type) });
    select.orderBy.push({ expr, desc: k.order === "DESC" });
  }
  if (p.limit) {
    const l = p.limit;
    withClause(cx, scope, "limit", () => {
      select.limit = bindExpecting(cx, l.count, T.INT);
      if (l.offset) select.offset = bindExpecting(cx, l.offset, T.INT);
    });
    if (l.form === "count-offset" && p.orderBy.length === 0) cx.error("GSQL3017", l.offset!.range);
  }
  return { select, set };
}

export function withClause<T>(cx: QueryContext, scope: SelectScope, clause: Clause, fn: () => T): T {
  const saved = scope.clause;
  scope.clause = clause;
  try {
    return cx.inWhereClause(clause === "where", fn);
  } finally {
    scope.clause = saved;
  }
}

function newAlias(cx: QueryContext, scope: SelectScope, name: string, role: "vertex" | "edge", types: string[] | undefined,
  range: SourceRange): AliasDecl {
  const existing = scope.aliases.get(name);
  if (existing && name !== "_") {
    if (existing.role !== role) cx.error("GSQL2011", range, { name });
    // A V2 alias repeated across comma-separated patterns joins them: keep the narrower types.
    else if (types && !existing.anyType) existing.types = existing.types.filter((t) => types.includes(t));
    else if (types && existing.anyType) Object.assign(existing, { types, anyType: false });
    return existing;
  }
  const all = role === "vertex" ? cx.allVertexTypeNames() : cx.allEdgeTypeNames();
  const a: AliasDecl = { declKind: "alias", id: cx.newId(), name, range, role, types: types ?? all, anyType: types === undefined };
  if (name !== "_") {
    scope.aliases.set(name, a);
    cx.scope.names.set(name, a);
  }
  if (role === "vertex") scope.vertexAliases.push(a);
  return a;
}

/** The FROM source: a vertex-set variable (V1 and V2), or in V2 vertex types, `_`/ANY, or nothing. */
function bindSource(cx: QueryContext, scope: SelectScope, v: AstPatternVertex, first: boolean): BoundSelect["source"] {
  const names = v.types;
  let vertexSet: VertexSetDecl | undefined;
  let types: string[] | undefined;
  if (names.length === 1 && names[0]!.kind === "Ident" && lookupVertexSet(cx, names[0]!.name)) {
    vertexSet = lookupVertexSet(cx, names[0]!.name)!;
    types = vertexSet.vertexTypes;
  } else {
    if (cx.syntax === "v1") {
      const n = names[0];
      if (n?.kind === "Ident" && !cx.view.vertexType(n.name)) cx.error("GSQL2019", n.range, { name: n.name });
      else cx.error("GSQL3038", n?.range ?? v.range, { name: n?.kind === "Ident" ? n.name : n?.kind === "AnyType" ? n.spelling : "(none)" });
    }
    types = patternVertexTypes(cx, v);
  }
  const aliasName = v.alias?.name ?? (vertexSet ? vertexSet.name : undefined);
  if (!aliasName && names.length === 0) cx.error("GSQL2005", v.range, { name: "(an alias for the FROM source)" });
  const alias = newAlias(cx, scope, aliasName ?? "_", "vertex", types, v.alias?.range ?? v.range);
  void first;
  const out: BoundSelect["source"] = { alias };
  if (vertexSet) out.vertexSet = vertexSet;
  else if (types) out.vertexTypes = types;
  return out;
}

function lookupVertexSet(cx: QueryContext, name: string): VertexSetDecl | undefined {
  const d = cx.scope.lookup(name);
  if (d) return d.declKind === "vset" ? d : undefined;
  return cx.vertexSets.get(name);
}

/** Vertex types named at a pattern position; undefined = any. Unknown names are logged. */
function patternVertexTypes(cx: QueryContext, v: AstPatternVertex): string[] | undefined {
  if (v.types.length === 0) return undefined;
  const out: string[] = [];
  for (const n of v.types) {
    if (n.kind === "AnyType" || (n.kind === "Ident" && (n.name === "ANY" || n.name === "_"))) return undefined;
    if (n.kind === "AccumRef") return undefined;
    if (cx.view.vertexType(n.name)) out.push(n.name);
    else {
      const vs = lookupVertexSet(cx, n.name);
      const d = cx.scope.lookup(n.name);
      if (vs) return vs.vertexTypes;
      if (d && (d.declKind === "param" || d.declKind === "var")) return undefined;
      cx.error("GSQL2002", n.range, { name: n.name, graph: cx.graphName });
    }
  }
  return out;
}

// ---------------------------------------------------------------- hops

interface EdgeChoice {
  matches: EdgeMatch[];
  dynamic?: PatternHop["dynamicEdges"];
}

/** One `-(...)-> target` step; a V2 concatenation `-(E1>.<E2)-` becomes one hop per segment. */
function bindHops(cx: QueryContext, scope: SelectScope, from: AliasDecl, edge: AstPatternEdge, target: AstPatternVertex): PatternHop[] {
  if (cx.syntax === "v2" && edge.arrow !== "none") {
    cx.error("GSQL3035", edge.range, { what: "an arrowhead outside the parentheses", where: "in SYNTAX V2 (write E> or <E inside)" });
  }
  const segments = edge.segments.length > 0 ? edge.segments : [undefined];
  if (segments.length > 1 && edge.alias) cx.error("GSQL3035", edge.alias.range, { what: "an alias", where: "on a concatenated edge pattern" });
  const hops: PatternHop[] = [];
  let src = from;
  segments.forEach((seg, i) => {
    const last = i === segments.length - 1;
    const choice = edgeChoice(cx, seg?.alternatives ?? [], edge.arrow, src);
    const hop: PatternHop = { range: seg?.range ?? edge.range, from: src, edges: choice.matches, target: src };
    if (choice.dynamic) hop.dynamicEdges = choice.dynamic;
    if (seg?.repeat) {
      if (cx.syntax === "v1") cx.error("GSQL3035", seg.repeat.range, { what: "a repeated edge (*)", where: "in SYNTAX V1" });
      if (edge.alias) cx.error("GSQL3035", edge.alias.range, { what: "an alias", where: "on a repeated edge" });
      hop.repeat = { min: seg.repeat.lower !== undefined ? Number(seg.repeat.lower) : 0 };
      if (seg.repeat.upper !== undefined) hop.repeat.max = Number(seg.repeat.upper);
    }
    if (last && edge.alias && !seg?.repeat) {
      hop.edgeAlias = newAlias(cx, scope, edge.alias.name, "edge", choice.dynamic ? undefined : [...new Set(choice.matches.map((m) => m.edgeType))], edge.alias.range);
    }
    const reach = reachableTypes(cx, src, choice);
    if (last) {
      const filter = bindTargetFilter(cx, target, hop);
      const types = filter === undefined ? reach : reach === undefined ? filter : reach.filter((t) => filter.includes(t));
      hop.target = newAlias(cx, scope, target.alias?.name ?? "_", "vertex", types, target.alias?.range ?? target.range);
    } else {
      hop.target = newAlias(cx, scope, "_", "vertex", reach, seg?.range ?? edge.range);
    }
    src = hop.target;
    hops.push(hop);
  });
  return hops;
}

function bindTargetFilter(cx: QueryContext, v: AstPatternVertex, hop: PatternHop): string[] | undefined {
  if (v.types.length === 1 && v.types[0]!.kind === "Ident") {
    const n = v.types[0];
    const vs = !cx.view.vertexType(n.name) ? lookupVertexSet(cx, n.name) : undefined;
    if (vs) {
      if (cx.syntax === "v1") cx.error("GSQL3035", n.range, { what: "a vertex-set variable", where: "as a target in SYNTAX V1" });
      hop.targetSet = vs;
      return vs.vertexTypes;
    }
    const d = cx.scope.lookup(n.name);
    if (d && (d.declKind === "param" || d.declKind === "var")) {
      hop.dynamicTargets = bindName(cx, n);
      return undefined;
    }
  }
  const acc = v.types.find((t) => t.kind === "AccumRef");
  if (acc) {
    hop.dynamicTargets = bindExpr(cx, acc);
    return undefined;
  }
  const types = patternVertexTypes(cx, v);
  if (types) hop.targetTypes = types;
  return types;
}

/**
 * Which edge types a step matches, and in which direction, under the SYNTAX version:
 * V1 `-(E)-`/`-(E)->` = out-edges of a directed E, both ends of an undirected E; V2 `E>` out,
 * `<E` in, bare `E` undirected (a directed one gets the V1 meaning and a warning); no type in
 * V2 = every edge both ways; `_` = undirected types, `_>`/`<_` = directed types.
 */
function edgeChoice(cx: QueryContext, alts: AstPatternEdge["segments"][number]["alternatives"], arrow: AstPatternEdge["arrow"], from: AliasDecl): EdgeChoice {
  const matches: EdgeMatch[] = [];
  let dynamic: EdgeChoice["dynamic"];
  const add = (edgeType: string, direction: EdgeMatch["direction"]) => {
    if (!matches.some((m) => m.edgeType === edgeType && m.direction === direction)) matches.push({ edgeType, direction });
  };
  const directed = () => cx.allEdgeTypeNames().filter((n) => cx.view.edgeType(n)!.directed);
  const undirected = () => cx.allEdgeTypeNames().filter((n) => !cx.view.edgeType(n)!.directed);
  const v1Dir = "out";
  if (alts.length === 0) {
    if (cx.syntax === "v1") directed().forEach((n) => add(n, v1Dir));
    else directed().forEach((n) => { add(n, "out"); add(n, "in"); });
    undirected().forEach((n) => add(n, "undirected"));
    return pruneWildcard(cx, matches, from);
  }
  let wildcard = false;
  for (const alt of alts) {
    const mark = alt.direction;
    const name = alt.name;
    if (name.kind === "AnyType" || (name.kind === "Ident" && (name.name === "_" || name.name === "ANY"))) {
      wildcard = true;
      if (cx.syntax === "v1" && mark === "none") {
        directed().forEach((n) => add(n, v1Dir));
        undirected().forEach((n) => add(n, "undirected"));
      } else if (mark === "none") undirected().forEach((n) => add(n, "undirected"));
      else directed().forEach((n) => add(n, mark === "forward" ? "out" : "in"));
      continue;
    }
    if (name.kind === "AccumRef" || !cx.view.edgeType(name.name)) {
      const d = name.kind === "Ident" ? cx.scope.lookup(name.name) : undefined;
      if (name.kind === "AccumRef" || (d && (d.declKind === "param" || d.declKind === "var" || d.declKind === "loopvar"))) {
        const expr = bindExpr(cx, name);
        const el = isPrimitive(expr.type, "STRING") ? expr.type : elementTypeOf(expr.type);
        if (expr.type.kind !== "error" && !(el && isPrimitive(el, "STRING"))) {
          cx.error("GSQL3001", name.range, { expected: "STRING or a collection of STRING (edge type names)", actual: typeToString(expr.type) });
        }
        dynamic = { expr, mark: mark === "none" ? "default" : mark };
      } else cx.error("GSQL2003", name.range, { name: name.name, graph: cx.graphName });
      continue;
    }
    const et = cx.view.edgeType(name.name)!;
    if (!et.directed) add(et.name, "undirected");
    else if (mark === "forward") add(et.name, "out");
    else if (mark === "backward") add(et.name, "in");
    else if (cx.syntax === "v1") add(et.name, v1Dir);
    else {
      cx.error("GSQL3030", alt.range, { name: et.name });
      add(et.name, "out");
    }
  }
  return { matches: wildcard ? pruneWildcard(cx, matches, from).matches : matches, ...(dynamic ? { dynamic } : {}) };
}

/** A wildcard keeps only edge types that can leave the source's vertex types. */
function pruneWildcard(cx: QueryContext, matches: EdgeMatch[], from: AliasDecl): EdgeChoice {
  if (from.anyType) return { matches };
  const src = new Set(from.types);
  return {
    matches: matches.filter((m) => cx.view.edgeType(m.edgeType)!.pairs.some((p) =>
      m.direction === "out" ? src.has(p.from) : m.direction === "in" ? src.has(p.to) : src.has(p.from) || src.has(p.to))),
  };
}

/** Vertex types at the far end of the matched edges (undefined: any, e.g. with dynamic edge types). */
function reachableTypes(cx: QueryContext, from: AliasDecl, choice: EdgeChoice): string[] | undefined {
  if (choice.dynamic) return undefined;
  const out = new Set<string>();
  const src = (t: string) => from.anyType || from.types.includes(t);
  for (const m of choice.matches) {
    for (const p of cx.view.edgeType(m.edgeType)!.pairs) {
      if ((m.direction === "out" || m.direction === "undirected") && src(p.from)) out.add(p.to);
      if ((m.direction === "in" || m.direction === "undirected") && src(p.to)) out.add(p.from);
    }
  }
  return [...out].filter((t) => cx.view.vertexType(t));
}

/** Whether any of `stmts` (nested bodies included) inserts, deletes or writes an attribute. */
function modifiesData(stmts: BoundStmt[]): boolean {
  return stmts.some((s) => {
    switch (s.kind) {
      case "insert": case "deleteValue": return true;
      case "assign": case "accumulate": return s.target.kind === "attr";
      case "expr": return s.expr.kind === "method" && s.expr.method.name === "setAttr";
      case "if": return s.branches.some((b) => modifiesData(b.body)) || modifiesData(s.else ?? []);
      case "case": return s.whens.some((w) => modifiesData(w.body)) || modifiesData(s.else ?? []);
      case "while": case "foreach": case "foreachRange": return modifiesData(s.body);
      default: return false;
    }
  });
}

// ---------------------------------------------------------------- POST-ACCUM

function checkLocalOwners(cx: QueryContext, range: SourceRange, bound: BoundStmt[], alias: AliasDecl | undefined,
  usedLocals: Set<VarDecl>, owners: Map<VarDecl, AliasDecl | undefined>): void {
  const touched = [...usedLocals];
  for (const b of bound) if (b.kind === "declVar" && b.decl.level === "dml") touched.push(b.decl);
  for (const local of touched) {
    const owner = owners.get(local);
    if (owner === undefined) owners.set(local, alias);
    else if (alias !== undefined && owner !== alias) {
      cx.error("GSQL3044", range, { name: local.name, first: owner.name, second: alias.name });
    }
  }
}

/** POST-ACCUM statements grouped into runs bound to one vertex alias each. */
function bindPostAccum(cx: QueryContext, scope: SelectScope, clause: AstPostAccumClause, selected: AliasDecl): BoundSelect["postAccum"] {
  const groups: BoundSelect["postAccum"] = [];
  let explicit: AliasDecl | undefined;
  if (clause.alias) {
    explicit = scope.aliases.get(clause.alias.name);
    if (!explicit) cx.error("GSQL2005", clause.alias.range, { name: clause.alias.name });
    else if (explicit.role === "edge") {
      cx.error("GSQL3011", clause.alias.range, { name: explicit.name, actual: "an edge", expected: "a vertex" });
      explicit = undefined;
    }
  }
  const clauseAliases = new Set<AliasDecl>();
  // V1: the alias each DML local of this clause belongs to (the first alias a statement
  // declaring or using it names); a statement of another alias may not use it.
  const localOwners = new Map<VarDecl, AliasDecl | undefined>();
  withClause(cx, scope, "postAccum", () => cx.atLevel("postAccum", () => cx.inBlock(() => {
    for (const s of clause.body) {
      scope.used.clear();
      scope.usedLocals.clear();
      const bound = bindStatements(cx, [s]);
      if (cx.syntax === "v1") checkLocalOwners(cx, s.range, bound, [...scope.used].find((a) => a.role === "vertex"), scope.usedLocals, localOwners);
      const used = [...scope.used];
      const edgeUse = used.find((a) => a.role === "edge");
      if (edgeUse) cx.error("GSQL3035", s.range, { what: `the edge alias '${edgeUse.name}'`, where: "in POST-ACCUM" });
      const vertexUse = used.filter((a) => a.role === "vertex");
      if (vertexUse.length > 1) {
        cx.error("GSQL3018", s.range, { first: vertexUse[0]!.name, second: vertexUse[1]!.name });
      }
      vertexUse.forEach((a) => clauseAliases.add(a));
      const alias = explicit ?? vertexUse[0] ?? (cx.syntax === "v1" ? selected : undefined);
      const last = groups[groups.length - 1];
      if (last && (alias === undefined || last.alias === alias)) last.stmts.push(...bound);
      else groups.push({ alias: alias ?? selected, stmts: bound });
    }
  })));
  // V2: one clause is bound to exactly one alias.
  if (cx.syntax === "v2" && !explicit && clauseAliases.size > 1) {
    const [a, b] = [...clauseAliases];
    cx.error("GSQL3018", clause.range, { first: a!.name, second: b!.name });
  }
  if (cx.syntax === "v2" && groups.length > 1) {
    const first = groups[0]!;
    for (const g of groups.slice(1)) first.stmts.push(...g.stmts);
    return [first];
  }
  return groups;
}

export type { BoundExpr };
