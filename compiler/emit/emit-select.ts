// SELECT blocks (gsql-semantics §4.2). Each SELECT is a function of its own that:
//  1. walks the source set and, per hop, the adjacency lists of the matched edge types
//     (an undirected type's list holds the edge at both ends, so it matches from both);
//  2. per row, filters by WHERE (values as before the SELECT), runs the ACCUM statements
//     and records the row's vertices per alias (distinct: a vertex set per alias);
//  3. applies the ACCUM writes that were held back, in order;
//  4. runs each POST-ACCUM clause once per distinct vertex of its alias;
//  5. keeps the selected alias's vertices that pass HAVING, sorts by ORDER BY, cuts by
//     LIMIT/OFFSET, and assigns the result to the target vertex-set variable.
// The ACCUM body is emitted once per matched edge type, so `e.type` and `e.attr` resolve
// statically. All-vertex mode ignores WHERE and HAVING.
import { Ctl, RESULT_VERTEX_ID_BYTES, RunFlags, RunStatus, SELECT_RESULT_LIMIT_BYTES } from "../../runtime-wasm/query/abi.js";
import { accumSize } from "./emit-accum.js";
import type { IrExpr, IrHop, IrSelect } from "../ir/ir.js";
import { BOOL, STRING } from "../ir/types.js";
import { selectExprs, stmtExprs, visitExpr, visitStmts } from "../passes/walk-ir.js";
import { G } from "./context.js";
import { alloc, freeBuffer } from "./emit-arena.js";
import { replayLogs } from "./emit-deferred.js";
import { convert, emitExpr } from "./emit-expr.js";
import { walkEdges } from "./emit-edge-walk.js";
import {
  adjacencyDegree,
  adjacencyHeader,
  edgeTypeHeader,
  localSlot,
  vertexTypeOrdinal,
  vidTypeOrdinal,
} from "./emit-graph.js";
import { primeSelectStart, primesWhole, SELECT_EPOCH } from "./emit-prime.js";
import { ALL_ACTIVE, emitSeed } from "./emit-seed.js";
import { repeatedHop, repeatTables, type HopMatch, type RepeatTables } from "./emit-repeat.js";
import { sampleState } from "./emit-sample.js";
import { sortRows } from "./emit-sort.js";
import { emitStmts } from "./emit-stmt.js";
import { cmpValue, loadValue, storeValue } from "./emit-values.js";
import { emitParallelRange, parallelDispatch, parallelEligible, parallelWanted } from "./parallel-select.js";
import { vsetAdd, vsetAddInline, vsetCount, vsetForEach, vsetFree, vsetHas, vsetNew, vsetSetOrder, vsetToList } from "./emit-vset.js";
import type { Expr, FunctionScope, Local } from "./module.js";
import { QueryEmitter, type ClauseState, type ListReads } from "./query-emitter.js";
import { clauseLocals, sourceInvariants, whereInvariants } from "./hoist.js";
import { wasmType } from "./wasm-types.js";


/** Run flags copied from the control block by the prologue. */
export const RUN_FLAGS = "run_flags";

/** Emits the SELECT's function and returns the call that runs it and assigns the result. */
export function emitSelect(qe: QueryEmitter, targetId: number, sel: IrSelect): Expr {
  const m = qe.m;
  const name = qe.fn(`select_${sel.index}`);
  if (!qe.m.hasFunction(name)) {
    qe.m.func(name, [], "none", (f) =>
      qe.inFunction(f, () => {
        const kind = qe.functionKind;
        qe.functionKind = "select";
        try {
          return qe.inClause(QueryEmitter.queryClause(), () => selectBody(qe, f, targetId, sel));
        } finally {
          qe.functionKind = kind;
        }
      }),
    );
  }
  return m.call(name, [], "none");
}

function selectBody(qe: QueryEmitter, f: FunctionScope, targetId: number, sel: IrSelect): Expr[] {
  const m = qe.m;
  const cx = qe.cx;
  cx.ensureGlobal(RUN_FLAGS, "i32");
  cx.ensureGlobal(ALL_ACTIVE, "i32");
  cx.ensureGlobal(SELECT_EPOCH, "i32");
  const monitor = () => m.and("i32", m.globalGet(RUN_FLAGS, "i32"), m.i32(RunFlags.Monitor));
  const out: Expr[] = [
    m.if(monitor(), cx.host("selectBegin", [m.i32(sel.index)])),
    m.globalSet(SELECT_EPOCH, m.add("i32", m.globalGet(SELECT_EPOCH, "i32"), m.i32(1))),
  ];

  // The source: a vertex-set variable, or (V2) vertex types / any vertex.
  const src = f.local("i32", "src");
  const ownSource = sel.source.vset === undefined;
  if (sel.source.vset !== undefined) out.push(src.set(qe.readVar(sel.source.vset)));
  else {
    const parts = sel.source.vertexTypes ? sel.source.vertexTypes.map((t) => ({ p: "type" as const, vertexType: t })) : [{ p: "all" as const }];
    out.push(src.set(emitSeed(qe, parts)));
  }

  // Aliases whose distinct vertices matter: the selected one and each POST-ACCUM's (edge
  // aliases, selected by UPDATE / DELETE of edges, give an empty vertex set).
  const marked = new Map<number, Local>();
  for (const id of [sel.selected, ...sel.postAccum.map((p) => p.alias)]) {
    if (qe.variable(id).type.t === "edge") {
      if (id === sel.selected && !marked.has(id)) {
        const set = f.local("i32", "no_rows");
        marked.set(id, set);
        out.push(set.set(vsetNew(cx)));
      }
      continue;
    }
    if (!marked.has(id)) {
      const set = f.local("i32", `rows_${id}`);
      marked.set(id, set);
      out.push(set.set(vsetNew(cx)));
    }
  }

  // ACCUM clause state (held-back writes per the accumulator plan).
  const accumClause: ClauseState = {
    level: "accum",
    deferredAccums: new Set(sel.accumPlan?.bufferedAccums ?? []),
    deferredVars: new Set(sel.accumPlan?.bufferedVars ?? []),
    snapshotAccums: new Set(sel.accumPlan?.snapshotAccums ?? []),
    logs: [],
    edges: new Map(),
  };
  // Edge and target types named at run time: which of the graph's types they name, once per
  // SELECT; repeated edges: the walk's tables.
  const dynamic = new Map<IrHop, HopPrep>();
  for (const hop of sel.hops) {
    const prep: HopPrep = hop.dynamicEdges || hop.dynamicTargets ? dynamicTypes(qe, f, hop, out) : { edges: [] };
    if (hop.repeat) prep.tables = repeatTables(qe, f, out);
    dynamic.set(hop, prep);
  }
  // One source vertex's work, built in function `fn` (the SELECT's own, or its range
  // function for parallel runs) with the result sets `sets`.
  const walkSource = (fn: FunctionScope, sets: Map<number, Local>, v: Local): Expr[] => walkOneSource(qe, fn, sel, accumClause, sets, dynamic, v);
  // A walk several threads may share (parallel-select.ts): its range function, and the run-time
  // choice, made before the pre-clause copies are taken (a split walk needs them whole).
  const range = parallelEligible(qe, sel) ? emitParallelRange(qe, sel, [...marked.keys()], walkSource) : undefined;
  const threads = f.local("i32", "par_threads");
  out.push(threads.set(range ? parallelWanted(qe, src) : m.i32(0)));
  out.push(primeSelectStart(qe, sel, () => vsetCount(cx, src.get()), () => m.ne("i32", threads.get(), m.i32(0))));
  const ran = f.local("i32", "par_ran");
  if (range) out.push(parallelDispatch(qe, f, sel, range, src, marked, m.and("i32", m.ne("i32", threads.get(), m.i32(0)), primesWhole(qe, sel)), threads, ran));
  const plain = vsetForEach(cx, f, src.get(), (v) => walkSource(f, marked, v));
  const walk = range ? m.if(m.eqz("i32", ran.get()), plain) : plain;
  out.push(walk, qe.inClause(accumClause, () => replayLogs(qe)));

  // POST-ACCUM: per distinct vertex of the clause's alias, statements in order.
  for (const clause of sel.postAccum) {
    const post: ClauseState = {
      level: "postAccum",
      deferredAccums: new Set(sel.postPlans?.[sel.postAccum.indexOf(clause)]?.bufferedAccums ?? []),
      deferredVars: new Set(sel.postPlans?.[sel.postAccum.indexOf(clause)]?.bufferedVars ?? []),
      logs: [],
      postAlias: clause.alias,
      edges: new Map(),
    };
    const alias = qe.declareLocal(clause.alias);
    out.push(
      qe.inClause(post, () =>
        m.seq(
          vsetForEach(cx, f, marked.get(clause.alias)!.get(), (v) => [alias.set(v.get()), ...emitStmts(qe, clause.body)]),
          replayLogs(qe),
        ),
      ),
    );
  }

  // Result: the selected alias's distinct vertices, through HAVING, ORDER BY, LIMIT.
  const result = f.local("i32", "result");
  out.push(result.set(marked.get(sel.selected)!.get()));
  if (sel.having) {
    const alias = qe.declareLocal(sel.selected);
    const kept = f.local("i32", "kept");
    out.push(
      m.if(
        m.eqz("i32", m.globalGet(ALL_ACTIVE, "i32")),
        m.seq(
          kept.set(vsetNew(cx)),
          vsetForEach(cx, f, result.get(), (v) => [alias.set(v.get()), m.if(emitExpr(qe, sel.having!), m.drop(vsetAdd(cx, kept.get(), v.get())))]),
          vsetFree(cx, result.get()),
          result.set(kept.get()),
        ),
      ),
    );
  }
  if (sel.orderBy.length > 0 || sel.limit) out.push(orderAndLimit(qe, f, sel, result));

  // Assign, and give back what the SELECT no longer needs.
  const old = f.local("i32", "old");
  out.push(old.set(qe.readVar(targetId)), qe.writeVar(targetId, result.get()));
  for (const [id, set] of marked) if (id !== sel.selected) out.push(vsetFree(cx, set.get()));
  out.push(m.if(m.and("i32", m.ne("i32", old.get(), m.i32(0)), m.ne("i32", old.get(), result.get())), vsetFree(cx, old.get())));
  if (ownSource) out.push(vsetFree(cx, src.get()));
  out.push(resultLimit(qe, result), m.if(monitor(), cx.host("selectEnd", [m.i32(sel.index), vsetCount(cx, result.get())])));
  return out;
}

/** The per-source work of the walk: WHERE, ACCUM and recording the rows' vertices in `marked`. */
function walkOneSource(qe: QueryEmitter, f: FunctionScope, sel: IrSelect, accumClause: ClauseState, marked: Map<number, Local>, dynamic: Map<IrHop, HopPrep>, v: Local): Expr[] {
  const m = qe.m;
  const cx = qe.cx;
  const addVertex = (set: () => Expr, vid: () => Expr): Expr => vsetAddInline(cx, f, set, vid);
  return qe.inFunction(f, () => {
    const sourceAlias = qe.declareLocal(sel.source.alias);
    // Per-source work, done at the source's first row: hoisted expressions (hoist.ts) and
    // recording the source alias's vertex.
    const otherAliases = [...sel.hops.map((h) => h.target), ...sel.hops.flatMap((h) => (h.edgeAlias !== undefined ? [h.edgeAlias] : []))];
    const invariants = sel.hops.length > 0 ? sourceInvariants(sel.accum, sel.source.alias, clauseLocals(sel.accum, otherAliases)) : [];
    // the WHERE's source-only parts, computed before each source's edges are walked
    const whereParts = sel.where && sel.hops.length > 0 ? whereInvariants(sel.where, sel.source.alias, clauseLocals(sel.accum, otherAliases)) : [];
    const whereHoisted = new Map(whereParts.map((x) => [x, f.local(wasmType(x.type), "where_hoisted")]));
    // an ACCUM expression the WHERE already computes (`s.@cc_id` in both) reuses its local
    const exprText = (x: IrExpr) => JSON.stringify(x, (_key, v: unknown) => (typeof v === "bigint" ? `${v}n` : v));
    const whereByText = new Map(whereParts.map((x) => [exprText(x), whereHoisted.get(x)!]));
    const ownHoisted = new Map(invariants.filter((x) => !whereByText.has(exprText(x))).map((x) => [x, f.local(wasmType(x.type), "hoisted")]));
    const hoisted = new Map(invariants.map((x) => [x, ownHoisted.get(x) ?? whereByText.get(exprText(x))!]));
    const firstRowWork = ownHoisted.size > 0 || marked.has(sel.source.alias);
    const firstRow = f.local("i32", "first_row");
    // Per-source work, done once per source before its first row.
    const perSourceWork = (): Expr[] =>
      qe.inClause(accumClause, () => {
        const perSource: Expr[] = [firstRow.set(m.i32(0))];
        for (const [x, local] of ownHoisted) perSource.push(local.set(emitExpr(qe, x)));
        for (const [id, set] of marked) if (id === sel.source.alias) perSource.push(addVertex(() => set.get(), () => qe.readVar(id)));
        return perSource;
      });
    // A row: WHERE, then (unless the caller did it before the walk) the per-source work at the
    // source's first row, the ACCUM statements and the recording of the aliases' vertices.
    const rowBody = (perSourceBefore = false): Expr[] =>
      qe.inClause(accumClause, () => {
        qe.hoisted = whereHoisted;
        let where: Expr | undefined;
        try {
          where = sel.where ? m.if(m.globalGet(ALL_ACTIVE, "i32"), m.i32(1), emitExpr(qe, sel.where)) : undefined;
        } finally {
          qe.hoisted = new Map();
        }
        const first = perSourceBefore || !firstRowWork ? [] : [m.if(firstRow.get(), m.seq(...perSourceWork()))];
        qe.hoisted = hoisted;
        let stmts: Expr[];
        try {
          stmts = emitStmts(qe, sel.accum);
        } finally {
          qe.hoisted = new Map();
        }
        const row = [
          ...first,
          ...stmts,
          ...[...marked].filter(([id]) => id !== sel.source.alias && qe.variable(id).type.t !== "edge").map(([id, set]) => addVertex(() => set.get(), () => qe.readVar(id))),
        ];
        return [where ? m.if(where, m.seq(m.nop(), ...row)) : m.seq(m.nop(), ...row)];
      });
    return [
      m.if(m.atomicLoad("i32", m.globalGet(G.ctl, "i32"), Ctl.cancel), m.unreachable()),
      sourceAlias.set(v.get()),
      firstRow.set(m.i32(1)),
      ...qe.inClause(accumClause, () => [...whereHoisted].map(([x, local]) => local.set(emitExpr(qe, x)))),
      ...hops(qe, f, sel, 0, accumClause, { row: rowBody, perSource: perSourceWork, unconditional: sel.where === undefined }, dynamic),
    ];
  });
}

/** The nested loops of hops `h..`, ending in the row body. Each hop leaves from its `from` alias. */
/** How hops reach a row: `row(true)` leaves out the per-source work, done by the caller before the walk. */
interface RowEmitter {
  row: (perSourceBefore?: boolean) => Expr[];
  perSource: () => Expr[];
  /** No WHERE: every row of the pattern is a row of the clause. */
  unconditional: boolean;
}

function hops(qe: QueryEmitter, f: FunctionScope, sel: IrSelect, h: number, clause: ClauseState, rows: RowEmitter, dynamic: Map<IrHop, HopPrep>, perSourceBefore = false): Expr[] {
  if (h === sel.hops.length) return rows.row(perSourceBefore);
  const m = qe.m;
  const cx = qe.cx;
  const hop: IrHop = sel.hops[h];
  const named = dynamic.get(hop);
  const from = f.local("i32", "from");
  const target = qe.declareLocal(hop.target);
  const ord = f.local("i32", "ord");
  const local = f.local("i32", "local");
  const eid = f.local("i32", "eid");
  // The edge's id is read only when the clauses refer to the edge alias.
  const edgeIdUsed = hop.edgeAlias !== undefined && aliasUsed(sel, hop.edgeAlias);
  const out: Expr[] = [from.set(qe.readVar(hop.from)), ord.set(vidTypeOrdinal(cx, from.get())), local.set(localSlot(cx, from.get(), from.get()))];
  const matches: HopMatch[] = [...hop.edges, ...(named?.edges ?? [])];
  const adjacencyOf = (match: (typeof matches)[number]) => adjacencyHeader(cx, edgeTypeHeader(cx, qe.edgeTypeKey(match.edgeType)), match.direction === "in" ? "in" : "out", ord.get());
  // SAMPLE (V1: one hop): the source's degree over every matched type sets the quota.
  const sampler = sel.sample && h === 0 ? sampleState(qe, f, sel.sample, from) : undefined;
  // Filters on the target: its types (unless the schema guarantees them: every FROM/TO pair
  // of the edge type), types named at run time, membership in a vertex set (V2).
  const typesGuaranteed = (match: HopMatch | undefined): boolean => {
    const possible = match ? possibleTargets(qe, match.edgeType, match.direction) : undefined;
    return hop.targetTypes !== undefined && possible !== undefined && possible.every((t) => hop.targetTypes!.includes(t));
  };
  const hasTargetFilter = (match: HopMatch): boolean => (hop.targetTypes !== undefined && !typesGuaranteed(match)) || named?.targets !== undefined || hop.targetSet !== undefined;
  const targetFilters = (match: HopMatch | undefined): Expr[] => {
    const filters: Expr[] = [];
    if (hop.targetTypes && !typesGuaranteed(match)) {
      let ok: Expr = m.i32(0);
      for (const t of hop.targetTypes) ok = m.or("i32", ok, m.eq("i32", vidTypeOrdinal(cx, target.get()), vertexTypeOrdinal(cx, qe.vertexTypeKey(t))));
      filters.push(ok);
    }
    if (named?.targets) {
      let ok: Expr = m.i32(0);
      for (const [t, flag] of named.targets) ok = m.or("i32", ok, m.and("i32", flag.get(), m.eq("i32", vidTypeOrdinal(cx, target.get()), vertexTypeOrdinal(cx, qe.vertexTypeKey(t)))));
      filters.push(ok);
    }
    if (hop.targetSet !== undefined) filters.push(vsetHas(cx, qe.readVar(hop.targetSet), target.get()));
    return filters;
  };
  if (hop.repeat) {
    const filters = targetFilters(undefined);
    const filter = filters.length ? filters.reduce((a, b) => m.and("i32", a, b)) : undefined;
    out.push(...repeatedHop(qe, f, hop.repeat, matches, named!.tables!, from, target, filter, hops(qe, f, sel, h + 1, clause, rows, dynamic)));
    return out;
  }
  if (sampler) {
    let degree: Expr = m.i32(0);
    for (const match of matches) {
      const d = m.if(match.named ? match.named.get() : m.i32(1), adjacencyDegree(cx, adjacencyOf(match), local.get()), m.i32(0));
      degree = m.add("i32", degree, d);
    }
    out.push(sampler.start(degree));
  }
  // A one-hop pattern whose every edge is a row (no WHERE, SAMPLE or target filter): the
  // source has a row exactly when its lists are not all empty, so its per-source work is done
  // before the walk and the edge loop carries no first-row test.
  const peeled = sel.hops.length === 1 && rows.unconditional && !sampler && matches.every((mt) => !mt.named && !hasTargetFilter(mt));
  if (peeled) {
    let degree: Expr = m.i32(0);
    for (const match of matches) degree = m.or("i32", degree, adjacencyDegree(cx, adjacencyOf(match), local.get()));
    out.push(m.if(degree, m.seq(...rows.perSource())));
  }
  for (const match of matches) {
    const key = qe.edgeTypeKey(match.edgeType);
    const et = qe.view.edgeType(match.edgeType);
    // attributes of the edge read in its list's order where the store keeps copies in that order
    const listReads: ListReads | undefined = edgeIdUsed ? { entry: f.local("i32", "entry"), deltas: new Map(), newLocal: (name) => f.local("i32", name) } : undefined;
    if (hop.edgeAlias !== undefined) {
      clause.edges.set(hop.edgeAlias, { edgeTypeKey: key, edgeTypeName: match.edgeType, directed: et?.directed ?? true, eid, from, to: target, inList: listReads });
    }
    const filters = targetFilters(match);
    const inner = hops(qe, f, sel, h + 1, clause, rows, dynamic, peeled);
    const guarded = filters.length ? m.if(filters.reduce((a, b) => m.and("i32", a, b)), m.seq(m.nop(), ...inner)) : m.seq(m.nop(), ...inner);
    const sampled = sampler ? m.if(sampler.keep(), guarded) : guarded;
    const walkList = [walkEdges(qe, f, { adjacency: adjacencyOf(match), local: () => local.get(), target, edgeId: edgeIdUsed ? eid : undefined, listReads: listReads && { typeKey: key, reads: listReads } }, () => [sampled])];
    out.push(match.named ? m.if(match.named.get(), m.seq(...walkList)) : m.seq(...walkList));
  }
  if (hop.edgeAlias !== undefined) clause.edges.delete(hop.edgeAlias);
  return out;
}

/**
 * What a hop needs set up once per SELECT: per graph type it may follow or reach by a name
 * given at run time, a flag; for repeated edges, the walk's tables.
 */
interface HopPrep {
  /** Edge types (not already matched by name in the pattern) with the direction they follow. */
  edges: { edgeType: string; direction: IrHop["edges"][number]["direction"]; named: Local }[];
  /** Allowed target vertex types, when the target's types are named at run time. */
  targets?: Map<string, Local>;
  tables?: RepeatTables;
}

/**
 * Flags for the types a hop's run-time names pick (a STRING, or a collection of STRING, as
 * the binder checked). Each type is matched in the direction its static name would be:
 * directed types from their FROM end (`<` in V2: from their TO end), undirected from both.
 * Names that are no type of the graph match nothing.
 */
function dynamicTypes(qe: QueryEmitter, f: FunctionScope, hop: IrHop, out: Expr[]): HopPrep {
  const names = (expr: IrExpr, candidates: string[]): Map<string, Local> => {
    const flags = new Map<string, Local>();
    for (const name of candidates) {
      const constant: IrExpr = { e: "const", value: name, type: STRING };
      const test: IrExpr = expr.type.t === "scalar" ? { e: "binary", op: "eq", left: expr, right: constant, type: BOOL } : { e: "in", value: constant, collection: expr, negated: false, type: BOOL };
      const flag = f.local("i32", "named_type");
      out.push(flag.set(emitExpr(qe, test)));
      flags.set(name, flag);
    }
    return flags;
  };
  const result: HopPrep = { edges: [] };
  if (hop.dynamicEdges) {
    const { expr, mark } = hop.dynamicEdges;
    const candidates: HopPrep["edges"] = [];
    for (const [name, et] of qe.view.edgeByName) {
      const direction = !et.directed ? "undirected" : mark === "backward" ? "in" : "out";
      if (hop.edges.some((e) => e.edgeType === name && e.direction === direction)) continue;
      candidates.push({ edgeType: name, direction, named: undefined as unknown as Local });
    }
    const flags = names(expr, candidates.map((c) => c.edgeType));
    result.edges = candidates.map((c) => ({ ...c, named: flags.get(c.edgeType)! }));
  }
  if (hop.dynamicTargets) result.targets = names(hop.dynamicTargets, [...qe.view.vertexByName.keys()]);
  return result;
}

/**
 * A result over the SELECT result limit (interface: 2 GB; the host may set a lower one) ends
 * the run with nothing returned and no error. Each vertex counts its id and the states of
 * the query's vertex accumulators.
 */
function resultLimit(qe: QueryEmitter, result: Local): Expr {
  const m = qe.m;
  const perVertex = RESULT_VERTEX_ID_BYTES + qe.ir.accums.filter((a) => a.scope === "vertex").reduce((n, a) => n + accumSize(a.type), 0);
  const ctl = () => m.globalGet(G.ctl, "i32");
  const limit = m.convert("i32", "i64", m.load("i32", ctl(), Ctl.selectResultLimit), true);
  const bytes = m.mul("i64", m.convert("i32", "i64", vsetCount(qe.cx, result.get()), true), m.i64(perVertex));
  return m.if(
    m.gt("i64", bytes, m.select(m.eqz("i32", m.load("i32", ctl(), Ctl.selectResultLimit)), m.i64(SELECT_RESULT_LIMIT_BYTES), limit), true),
    m.seq(m.store("i32", ctl(), m.i32(RunStatus.ResultTooLarge), Ctl.status), m.unreachable()),
  );
}

/** Whether any clause of the SELECT refers to alias `id`. */
function aliasUsed(sel: IrSelect, id: number): boolean {
  if (sel.selected === id || sel.postAccum.some((p) => p.alias === id)) return true;
  let used = false;
  const look = (x: IrExpr) => visitExpr(x, (e) => {
    if (e.e === "var" && e.id === id) used = true;
  });
  selectExprs(sel).forEach(look);
  if (sel.sample) [sel.sample.count, ...(sel.sample.when ? [sel.sample.when] : [])].forEach(look);
  visitStmts([...sel.accum, ...sel.postAccum.flatMap((p) => p.body)], (st) => stmtExprs(st).forEach(look));
  return used;
}

/** Vertex type names an edge type can lead to in a direction (undefined: unknown). */
function possibleTargets(qe: QueryEmitter, edgeType: string, direction: "out" | "in" | "undirected"): string[] | undefined {
  const et = qe.view.edgeType(edgeType);
  if (et === undefined) return undefined;
  const names = new Set<string>();
  for (const p of et.pairs) {
    if (direction === "out" || direction === "undirected") names.add(p.to);
    if (direction === "in" || direction === "undirected") names.add(p.from);
  }
  return [...names];
}

/** ORDER BY keys (then LIMIT/OFFSET): the result becomes an ordered set. */
function orderAndLimit(qe: QueryEmitter, f: FunctionScope, sel: IrSelect, result: Local): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const alias = qe.declareLocal(sel.selected);
  const list = f.local("i32", "order");
  const n = f.local("i32", "n");
  const rows = f.local("i32", "rows");
  const ptrs = f.local("i32", "ptrs");
  const i = f.local("i32", "i");
  const row = f.local("i32", "row");
  const rowBytes = 8 + 8 * sel.orderBy.length;
  const keyTypes = sel.orderBy.map((o) => o.expr.type);
  const cmp = cx.helper(qe.fn(`order_cmp_${sel.index}`), [{ name: "a", type: "i32" }, { name: "b", type: "i32" }], "i32", (cf) => {
    const c = cf.local("i32", "c");
    return [
      ...sel.orderBy.map((o, k) =>
        m.seq(
          c.set(cmpValue(cx, keyTypes[k], loadValue(cx, keyTypes[k], cf.param(0).get(), 8 + 8 * k), loadValue(cx, keyTypes[k], cf.param(1).get(), 8 + 8 * k))),
          m.if(c.get(), m.return(o.desc ? m.sub("i32", m.i32(0), c.get()) : c.get())),
        ),
      ),
      m.i32(0),
    ];
  });
  const skip = f.local("i32", "skip");
  const take = f.local("i32", "take");
  const kept = f.local("i32", "kept");
  const INT = { t: "scalar" as const, name: "INT" as const };
  const asCount = (e: NonNullable<IrSelect["limit"]>) => {
    const v = f.local("i64", "lim");
    return m.block(null, [v.set(convert(qe, e.type, INT, emitExpr(qe, e))), m.select(m.lt("i64", v.get(), m.i64(0)), m.i32(0), m.select(m.gt("i64", v.get(), m.i64(0x7fffffff)), m.i32(0x7fffffff), m.convert("i64", "i32", v.get())))], "i32");
  };
  return m.seq(
    list.set(vsetToList(cx, result.get())),
    n.set(m.load("i32", list.get())),
    rows.set(alloc(cx, m.mul("i32", m.select(n.get(), n.get(), m.i32(1)), m.i32(rowBytes)))),
    ptrs.set(alloc(cx, m.shl("i32", m.add("i32", n.get(), m.i32(1)), m.i32(2)))),
    f.forRange(i, m.i32(0), n.get(), () => [
      row.set(m.add("i32", rows.get(), m.mul("i32", i.get(), m.i32(rowBytes)))),
      alias.set(m.load("i32", m.add("i32", list.get(), m.shl("i32", m.add("i32", i.get(), m.i32(1)), m.i32(2))))),
      m.store("i32", row.get(), alias.get()),
      ...sel.orderBy.map((o, k) => storeValue(cx, o.expr.type, row.get(), emitExpr(qe, o.expr), 8 + 8 * k)),
      m.store("i32", m.add("i32", ptrs.get(), m.shl("i32", i.get(), m.i32(2))), row.get()),
    ]),
    sel.orderBy.length ? sortRows(cx, cmp, ptrs.get(), n.get()) : m.nop(),
    skip.set(sel.offset ? asCount(sel.offset) : m.i32(0)),
    take.set(sel.limit ? asCount(sel.limit) : n.get()),
    m.if(m.gt("i32", skip.get(), n.get(), true), skip.set(n.get())),
    m.if(m.gt("i32", take.get(), m.sub("i32", n.get(), skip.get()), true), take.set(m.sub("i32", n.get(), skip.get()))),
    // the kept rows, in order, become the new result (the list buffer is reused for the order)
    kept.set(vsetNew(cx)),
    m.store("i32", list.get(), take.get()),
    f.forRange(i, m.i32(0), take.get(), () => [
      row.set(m.load("i32", m.add("i32", ptrs.get(), m.shl("i32", m.add("i32", i.get(), skip.get()), m.i32(2))))),
      m.drop(vsetAdd(cx, kept.get(), m.load("i32", row.get()))),
      m.store("i32", m.add("i32", list.get(), m.shl("i32", m.add("i32", i.get(), m.i32(1)), m.i32(2))), m.load("i32", row.get())),
    ]),
    sel.orderBy.length ? vsetSetOrder(cx, kept.get(), list.get()) : m.nop(),
    freeBuffer(cx, list.get(), m.shl("i32", m.add("i32", n.get(), m.i32(1)), m.i32(2))),
    vsetFree(cx, result.get()),
    result.set(kept.get()),
  );
}
