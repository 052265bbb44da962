// v.neighbors([types]): a BagAccum<VERTEX> of the vertex's out/undirected neighbours, one
// copy per edge.
import { accumAdd, newContainer } from "./emit-accum.js";
import { alloc } from "./emit-arena.js";
import { walkEdges } from "./emit-edge-walk.js";
import { adjacencyHeader, edgeTypeHeader, localSlot, vidTypeOrdinal } from "./emit-graph.js";
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
  const target = f.local("i32", "nbr");
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
            walkEdges(qe, f, { adjacency: adjacencyHeader(cx, edgeTypeHeader(cx, key), "out", ord.get()), local: () => local.get(), target }, () => [
              accumAdd(cx, BAG_OF_VERTICES, cell.get(), target.get(), { t: "vertex" }),
            ]),
          ),
        ),
      ),
      m.load("i32", cell.get()),
    ],
    "i32",
  );
}
