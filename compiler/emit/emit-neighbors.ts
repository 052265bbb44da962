// The vertex functions that walk a vertex's edges into a BagAccum, one element per edge:
// v.neighbors([types]) (the neighbours), v.neighborAttribute("E", "T", "attr") (an attribute
// of the neighbours of type T over E) and v.edgeAttribute("E", "attr") (an attribute of the
// E edges). Like a SELECT hop, they follow the out-lists: outgoing directed and undirected
// edges. An optional `.filter(cond)` keeps the elements whose edge satisfies `cond`, where
// the edge type's name stands for the edge and (for neighborAttribute) the target type's
// name for the neighbour, as aliases do in a SELECT.
import type { IrExpr } from "../ir/ir.js";
import type { IrAccum, IrType } from "../ir/types.js";
import { readsOf } from "../passes/effects.js";
import { accumAdd, newContainer } from "./emit-accum.js";
import { alloc } from "./emit-arena.js";
import { readEdgeAttrStatic, readVertexAttr } from "./emit-attr.js";
import { walkEdges } from "./emit-edge-walk.js";
import { emitExpr } from "./emit-expr.js";
import { adjacencyHeader, edgeTypeHeader, localSlot, vertexTypeOrdinal, vidTypeOrdinal } from "./emit-graph.js";
import type { Expr, Local } from "./module.js";
import { UnsupportedError, type EdgeBinding, type QueryEmitter } from "./query-emitter.js";

/** What the walk collects per edge. */
export type EdgeBagElement =
  | { kind: "neighbor" }
  | { kind: "neighborAttribute"; targetType: string; attr: string }
  | { kind: "edgeAttribute"; attr: string };

export interface EdgeBagWalk {
  /** The vertex whose edges are walked (an i32 vid; -1 gives an empty bag). */
  vertex: Expr;
  /** The edge types followed, by name. */
  edgeTypes: string[];
  element: EdgeBagElement;
  /** The bag's element type. */
  elementType: IrType;
  /** The `.filter(...)` condition, when one follows the call. */
  filter?: IrExpr;
  /** Edge types named at run time: whether the type is walked (an i32 test). */
  walked?: (edgeTypeName: string) => Expr;
}

/** The bag of one element per out/undirected edge of the vertex (see the file header). */
export function edgeBag(qe: QueryEmitter, walk: EdgeBagWalk): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const f = qe.f;
  const { element, elementType } = walk;
  if (elementType.t !== "scalar" && elementType.t !== "vertex") throw new UnsupportedError(`${element.kind}() of a collection or tuple attribute`);
  const bagType: IrAccum = { a: "bag", elem: elementType };
  const v = f.local("i32", "v");
  const cell = f.local("i32", "bag");
  const ord = f.local("i32", "ord");
  const local = f.local("i32", "local");
  const target = f.local("i32", "nbr");
  const eid = f.local("i32", "eid");
  const aliases = filterAliases(qe, walk);
  const eidNeeded = element.kind === "edgeAttribute" || aliases.edges.length > 0;
  const targetType = element.kind === "neighborAttribute" ? qe.view.vertexType(element.targetType) : undefined;
  if (element.kind === "neighborAttribute" && targetType === undefined) throw new UnsupportedError(`neighborAttribute() of the unknown vertex type ${element.targetType}`);

  const perEdge = (edgeTypeName: string): Expr[] => {
    const value = (): Expr => {
      switch (element.kind) {
        case "neighbor":
          return target.get();
        case "neighborAttribute":
          return readVertexAttr(qe, target.get(), element.attr, [{ typeName: element.targetType, primaryId: !targetType!.attributes.some((a) => a.name === element.attr) }], elementType);
        case "edgeAttribute":
          return readEdgeAttrStatic(qe, edgeTypeName, eid.get(), element.attr, elementType);
      }
    };
    const add = accumAdd(cx, bagType, cell.get(), value(), elementType);
    const keep = walk.filter ? withAliases(qe, aliases, edgeTypeName, { eid, from: v, to: target }, () => emitExpr(qe, walk.filter!)) : undefined;
    const kept = keep ? m.if(keep, add) : add;
    // neighborAttribute: only neighbours of the named type
    const ofType = targetType ? m.if(m.eq("i32", vidTypeOrdinal(cx, target.get()), vertexTypeOrdinal(cx, qe.vertexTypeKey(targetType.name))), kept) : kept;
    return [ofType];
  };

  return m.block(
    null,
    [
      v.set(walk.vertex),
      cell.set(alloc(cx, m.i32(8))),
      m.store("i32", cell.get(), newContainer(cx, bagType)),
      m.if(
        m.ne("i32", v.get(), m.i32(-1)),
        m.seq(
          ord.set(vidTypeOrdinal(cx, v.get())),
          local.set(localSlot(cx, v.get())),
          m.nop(),
          ...walk.edgeTypes.map((name) => {
            const adjacency = adjacencyHeader(cx, edgeTypeHeader(cx, qe.edgeTypeKey(name)), "out", ord.get());
            const loop = walkEdges(qe, f, { adjacency, local: () => local.get(), target, edgeId: eidNeeded ? eid : undefined }, () => perEdge(name));
            return walk.walked ? m.if(walk.walked(name), loop) : loop;
          }),
        ),
      ),
      m.load("i32", cell.get()),
    ],
    "i32",
  );
}

interface FilterAliases {
  /** Edge-type aliases: variable id and the edge type it names. */
  edges: { id: number; typeName: string }[];
  /** The target-type alias of neighborAttribute. */
  vertex?: number;
}

/**
 * The aliases the filter condition reads: the binder declares them, named after the edge
 * types and the target type, in the condition's own scope, so they are the alias variables
 * it reads that carry those names and are not bound to anything outside it.
 */
function filterAliases(qe: QueryEmitter, walk: EdgeBagWalk): FilterAliases {
  const found: FilterAliases = { edges: [] };
  if (!walk.filter) return found;
  for (const id of readsOf(walk.filter).vars) {
    const variable = qe.vars.get(id);
    if (variable === undefined || variable.kind !== "alias" || qe.clause.edges.has(id) || qe.hasStorage(id)) continue;
    if (variable.type.t === "edge" && walk.edgeTypes.includes(variable.name)) found.edges.push({ id, typeName: variable.name });
    else if (variable.type.t === "vertex" && walk.element.kind === "neighborAttribute" && variable.name === walk.element.targetType) found.vertex = id;
  }
  return found;
}

/**
 * Emits `fn` with the filter's aliases bound to the edge being walked (of type
 * `edgeTypeName`). An alias of another of the walked edge types stands for no edge here:
 * its attributes read their defaults.
 */
function withAliases(qe: QueryEmitter, aliases: FilterAliases, edgeTypeName: string, edge: { eid: Local; from: Local; to: Local }, fn: () => Expr): Expr {
  const noEdge = qe.f.local("i32", "no_edge");
  const bindings: [number, EdgeBinding][] = aliases.edges.map(({ id, typeName }) => {
    const et = qe.view.edgeType(typeName);
    const current = typeName === edgeTypeName;
    return [id, { edgeTypeKey: qe.edgeTypeKey(typeName), edgeTypeName: typeName, directed: et?.directed ?? true, eid: current ? edge.eid : noEdge, from: edge.from, to: edge.to }];
  });
  for (const [id, b] of bindings) qe.clause.edges.set(id, b);
  const unbind = aliases.vertex !== undefined ? qe.bindLocal(aliases.vertex, edge.to) : () => {};
  try {
    const cond = fn();
    return bindings.some(([, b]) => b.eid === noEdge) ? qe.m.block(null, [noEdge.set(qe.m.i32(-1)), cond], "i32") : cond;
  } finally {
    unbind();
    for (const [id] of bindings) qe.clause.edges.delete(id);
  }
}
