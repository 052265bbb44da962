// Repeated edges in V2 patterns, `-(E>*min..max)-` (gsql-semantics §4.1): from each source, a
// breadth-first walk over the matched edge types. A target is reached at the shortest length
// L >= min (and <= max) of a walk to it, and the pattern has one row per walk of that length
// (the shortest paths, each a row: ACCUM runs once per path). With no lower bound the
// zero-length path makes the source its own target. Lengths below `min` count every walk
// (a vertex may be passed several times on the way to the lower bound); from `min` on,
// a vertex already reached is not expanded again, so the walk ends on every graph.
//
// Three hash tables keyed by vertex, each entry holding an i64 path count: the current
// frontier, the next one, and the targets reached (in the order they were reached).
import { Ctl } from "../../runtime-wasm/query/abi.js";
import type { IrHop } from "../ir/ir.js";
import { VERTEX } from "../ir/types.js";
import { G } from "./context.js";
import { walkEdges } from "./emit-edge-walk.js";
import { adjacencyHeader, edgeTypeHeader, localSlot, vidTypeOrdinal } from "./emit-graph.js";
import { Entry, htClear, htCount, htFind, htForEach, htInsert, htNew } from "./emit-hash-table.js";
import type { Expr, FunctionScope, Local } from "./module.js";
import type { QueryEmitter } from "./query-emitter.js";

export interface RepeatTables {
  frontier: Local;
  next: Local;
  reached: Local;
}

/** An edge type a hop follows, in one direction; `named`: a run-time flag that enables it. */
export interface HopMatch {
  edgeType: string;
  direction: IrHop["edges"][number]["direction"];
  named?: Local;
}

/** The tables, made once per SELECT (each source clears and reuses them). */
export function repeatTables(qe: QueryEmitter, f: FunctionScope, out: Expr[]): RepeatTables {
  const tables = { frontier: f.local("i32", "rep_frontier"), next: f.local("i32", "rep_next"), reached: f.local("i32", "rep_reached") };
  for (const t of Object.values(tables)) out.push(t.set(htNew(qe.cx, 8)));
  return tables;
}

/**
 * The walk from `from`; then, per reached vertex (set into `target`) that passes `filter`, the
 * rows `inner` once per shortest path.
 */
export function repeatedHop(
  qe: QueryEmitter,
  f: FunctionScope,
  repeat: NonNullable<IrHop["repeat"]>,
  matches: HopMatch[],
  tables: RepeatTables,
  from: Local,
  target: Local,
  filter: Expr | undefined,
  inner: Expr[],
): Expr[] {
  const m = qe.m;
  const cx = qe.cx;
  const { frontier, next, reached } = tables;
  const k = f.local("i32", "rep_k");
  const u = f.local("i32", "rep_u");
  const paths = f.local("i64", "rep_paths");
  const slot = f.local("i32", "rep_slot");
  const ord = f.local("i32", "rep_ord");
  const local = f.local("i32", "rep_local");
  const swap = f.local("i32", "rep_swap");
  const reachedVertex = f.local("i32", "rep_t");
  const row = f.local("i64", "rep_row");
  const count = (entry: Local) => m.load("i64", entry.get(), Entry.value);
  const addPaths = (table: Local, vertex: Expr, n: Expr) => [slot.set(htInsert(cx, VERTEX, table.get(), vertex)), m.store("i64", slot.get(), m.add("i64", m.load("i64", slot.get(), Entry.value), n), Entry.value)];

  // From min on: the frontier's vertices not reached before are reached now; the others get
  // a zero count, so they are not expanded again.
  const settle = htForEach(cx, f, frontier.get(), (entry) => [
    u.set(m.load("i32", entry.get(), Entry.key)),
    m.if(m.ne("i32", htFind(cx, VERTEX, reached.get(), u.get()), m.i32(0)), m.store("i64", entry.get(), m.i64(0), Entry.value), m.seq(...addPaths(reached, u.get(), count(entry)))),
  ]);
  // Every edge of the matched types from each counted frontier vertex adds its paths to the next.
  const expand = htForEach(cx, f, frontier.get(), (entry, labels) => [
    paths.set(count(entry)),
    m.brIf(labels.next, m.eqz("i64", paths.get())),
    u.set(m.load("i32", entry.get(), Entry.key)),
    ord.set(vidTypeOrdinal(cx, u.get())),
    local.set(localSlot(cx, u.get(), u.get())),
    ...matches.map((match) => {
      const walk = walkEdges(
        qe,
        f,
        { adjacency: adjacencyHeader(cx, edgeTypeHeader(cx, qe.edgeTypeKey(match.edgeType)), match.direction === "in" ? "in" : "out", ord.get()), local: () => local.get(), target: reachedVertex },
        () => addPaths(next, reachedVertex.get(), paths.get()),
      );
      return match.named ? m.if(match.named.get(), walk) : walk;
    }),
  ]);
  const done = f.label("rep_done");
  const again = f.label("rep_level");
  const rows = f.forRange(row, m.i64(0), m.load("i64", slot.get(), Entry.value), () => inner);
  return [
    htClear(cx, frontier.get()),
    htClear(cx, reached.get()),
    ...addPaths(frontier, from.get(), m.i64(1)),
    k.set(m.i32(0)),
    m.block(done, [
      m.loop(
        again,
        m.seq(
          m.if(m.atomicLoad("i32", m.globalGet(G.ctl, "i32"), Ctl.cancel), m.unreachable()),
          m.if(m.ge("i32", k.get(), m.i32(repeat.min)), settle),
          repeat.max !== undefined ? m.brIf(done, m.ge("i32", k.get(), m.i32(repeat.max))) : m.nop(),
          htClear(cx, next.get()),
          expand,
          swap.set(frontier.get()),
          frontier.set(next.get()),
          next.set(swap.get()),
          k.set(m.add("i32", k.get(), m.i32(1))),
          m.brIf(done, m.eqz("i32", htCount(cx, frontier.get()))),
          m.br(again),
        ),
      ),
    ]),
    htForEach(cx, f, reached.get(), (entry) => [
      target.set(m.load("i32", entry.get(), Entry.key)),
      slot.set(entry.get()),
      filter ? m.if(filter, rows) : rows,
    ]),
  ];
}
