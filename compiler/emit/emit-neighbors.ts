// v.neighbors([types]): a BagAccum<VERTEX> of the vertex's out/undirected neighbours, one
// copy per edge.
import { accumAdd, newContainer } from "./emit-accum.js";
import { alloc } from "./emit-arena.js";
import { adjacencyDegree, adjacencyEntryBytes, adjacencyHeader, adjacencyList, edgeTypeHeader, localSlot, vidTypeOrdinal } from "./emit-graph.js";
import type { Expr } from "./module.js";
import type { QueryEmitter } from "./query-emitter.js";
import type { IrAccum } from "../ir/types.js";

const BAG_OF_VERTICES: IrAccum = { a: "bag", elem: { t: "vertex" } };

export function neighbors(qe: QueryEmitter, vertex: Expr, edgeTypeKeys: string[]): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const f = qe.f;
  const v = f.local("i32", "v");
  const cell = f.local("i32", "bag");
  const ord = f.local("i32", "ord");
  const local = f.local("i32", "local");
  const adj = f.local("i32", "adj");
  const list = f.local("i32", "list");
  const eb = f.local("i32", "eb");
  const i = f.local("i32", "i");
  return m.block(
    null,
    [
      v.set(vertex),
      cell.set(alloc(cx, m.i32(8))),
      m.store("i32", cell.get(), newContainer(cx, BAG_OF_VERTICES)),
      m.if(
        m.ne("i32", v.get(), m.i32(-1)),
        m.seq(
          ord.set(vidTypeOrdinal(cx, v.get())),
          local.set(localSlot(cx, v.get())),
          ...edgeTypeKeys.map((key) =>
            m.seq(
              adj.set(adjacencyHeader(cx, edgeTypeHeader(cx, key), "out", ord.get())),
              m.if(
                m.ne("i32", adjacencyDegree(cx, adj.get(), local.get()), m.i32(0)),
                m.seq(
                  list.set(adjacencyList(cx, adj.get(), local.get())),
                  eb.set(adjacencyEntryBytes(cx, adj.get())),
                  f.forRange(i, m.i32(0), adjacencyDegree(cx, adj.get(), local.get()), () => [
                    accumAdd(cx, BAG_OF_VERTICES, cell.get(), m.load("i32", m.add("i32", list.get(), m.mul("i32", i.get(), eb.get()))), { t: "vertex" }),
                  ]),
                ),
              ),
            ),
          ),
        ),
      ),
      m.load("i32", cell.get()),
    ],
    "i32",
  );
}
