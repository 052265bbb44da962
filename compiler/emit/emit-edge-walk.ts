// Walking the edges of one vertex in one adjacency (an edge type's out or in lists for the
// vertex's type): the one loop every traversal emits — SELECT hops, repeated-edge walks,
// neighbors(). The list's head is read once; the loop advances an entry address by the
// entry size (4 bytes: target; 8: target and edge id), with no multiply or bounds check per
// edge, and does nothing for a vertex without edges. A body reading 8-byte edge attributes
// (ListReads) gets per list the distance to the adjacency's entry-ordered copies, when the
// store has them, so those values are read in list order rather than by eid.
import { adjacencyDegree, adjacencyEntryBytes, adjacencyList, entryCopyDelta } from "./emit-graph.js";
import type { Expr, FunctionScope, Local } from "./module.js";
import type { ListReads, QueryEmitter } from "./query-emitter.js";

export interface EdgeWalk {
  /** The adjacency header address (0: the edge type has no list for the vertex's type). */
  adjacency: Expr;
  /** The vertex's local slot (read more than once: a local read). */
  local: () => Expr;
  /** Set to each edge's target vertex id before the body runs. */
  target: Local;
  /** When given, set to each edge's id (-1 when the lists carry none). */
  edgeId?: Local;
  /** The edge type's attributes the body reads in list order (its key, and the reads the body asked for). */
  listReads?: { typeKey: string; reads: ListReads };
}

/** The loop over the vertex's edges; `body` runs once per edge. */
export function walkEdges(qe: QueryEmitter, f: FunctionScope, walk: EdgeWalk, body: () => Expr[]): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const adj = f.local("i32", "adj");
  const deg = f.local("i32", "deg");
  const eb = f.local("i32", "eb");
  const i = f.local("i32", "i");
  const entry = walk.listReads?.reads.entry ?? f.local("i32", "entry");
  const nextEntry = f.local("i32", "next_entry");
  // The body first: its attribute reads decide which deltas each list needs.
  const perEdge = body();
  const deltas = walk.listReads ? [...walk.listReads.reads.deltas].map(([name, delta]) => delta.set(entryCopyDelta(cx, walk.listReads!.typeKey, name, adj.get(), nextEntry.get()))) : [];
  return m.seq(
    adj.set(walk.adjacency),
    deg.set(adjacencyDegree(cx, adj.get(), walk.local())),
    m.if(
      deg.get(),
      m.seq(
        eb.set(adjacencyEntryBytes(cx, adj.get())),
        nextEntry.set(adjacencyList(cx, adj.get(), walk.local())),
        ...deltas,
        f.forRange(i, m.i32(0), deg.get(), () => [
          entry.set(nextEntry.get()),
          nextEntry.set(m.add("i32", entry.get(), eb.get())),
          walk.target.set(m.load("i32", entry.get())),
          walk.edgeId ? walk.edgeId.set(m.if(m.eq("i32", eb.get(), m.i32(8)), m.load("i32", entry.get(), 4), m.i32(-1))) : m.nop(),
          ...perEdge,
        ]),
      ),
    ),
  );
}
