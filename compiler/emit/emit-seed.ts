// Vertex-set seeds: `{T.*}`, `{ANY}`, `{v}`, `{@@setOfVertices}`, `{param}`, a STRING or a
// collection of STRINGs naming vertex types at run time (`{v_type}`), or a mix. In
// all-vertex mode (`__GQUERY__USING_ALL_ACTIVE_MODE=true`) every seed is every vertex.
import type { IrSeedPart } from "../ir/ir.js";
import type { IrType } from "../ir/types.js";
import { strConst, strEq } from "./emit-strings.js";
import { collectionForEach } from "./emit-accum.js";
import { vertexTypeHeader } from "./emit-graph.js";
import type { Expr } from "./module.js";
import type { QueryEmitter } from "./query-emitter.js";
import { vsetAdd, vsetAddType, vsetForEach, vsetNew } from "./emit-vset.js";
import { emitExpr } from "./emit-expr.js";

/** Global set from Ctl.flags by the prologue: 1 in all-vertex mode. */
export const ALL_ACTIVE = "all_active";

/** Adds every vertex of the graph's vertex types to `set`. */
export function addAllVertices(qe: QueryEmitter, set: () => Expr): Expr {
  const m = qe.m;
  const types = [...qe.view.vertexByName.values()];
  return m.seq(m.nop(), ...types.map((t) => vsetAddType(qe.cx, set(), vertexTypeHeader(qe.cx, t.key))));
}

/**
 * Adds every vertex of the vertex type named by `name` (a STRING read once) to `set`: the
 * graph's types are compared by name; a name that is no vertex type adds nothing.
 */
function addTypeNamed(qe: QueryEmitter, set: () => Expr, name: Expr): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const local = qe.f.local("i64", "type_name");
  let chain: Expr = m.nop();
  for (const t of [...qe.view.vertexByName.values()].reverse()) {
    chain = m.if(strEq(cx, local.get(), strConst(cx, t.name)), vsetAddType(cx, set(), vertexTypeHeader(cx, t.key)), chain);
  }
  return m.seq(local.set(name), chain);
}

/** A new vertex set holding the seed's vertices. */
export function emitSeed(qe: QueryEmitter, parts: IrSeedPart[]): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const f = qe.f;
  const set = f.local("i32", "seed");
  const fill: Expr[] = [];
  for (const part of parts) {
    switch (part.p) {
      case "type":
        fill.push(vsetAddType(cx, set.get(), vertexTypeHeader(cx, qe.vertexTypeKey(part.vertexType))));
        break;
      case "all":
        fill.push(addAllVertices(qe, () => set.get()));
        break;
      case "value": {
        const t = part.expr.type;
        const isString = (u: IrType) => u.t === "scalar" && u.name === "STRING";
        if (isString(t)) {
          const name = f.local("i64", "seed_type");
          fill.push(name.set(emitExpr(qe, part.expr)), addTypeNamed(qe, () => set.get(), name.get()));
        } else if (t.t === "accum" && (t.accum.a === "set" || t.accum.a === "bag" || t.accum.a === "list") && isString(t.accum.elem)) {
          fill.push(collectionForEach(cx, f, t.accum, emitExpr(qe, part.expr), (item) => [addTypeNamed(qe, () => set.get(), item.element!())]));
        } else if (t.t === "vertex") fill.push(m.drop(vsetAdd(cx, set.get(), emitExpr(qe, part.expr))));
        else if (t.t === "vset") fill.push(vsetForEach(cx, f, emitExpr(qe, part.expr), (v) => [m.drop(vsetAdd(cx, set.get(), v.get()))]));
        else if (t.t === "accum") fill.push(collectionForEach(cx, f, t.accum, emitExpr(qe, part.expr), (item) => [m.drop(vsetAdd(cx, set.get(), item.element!()))]));
        else throw new Error(`a ${t.t} value in a vertex-set seed`);
        break;
      }
    }
  }
  cx.ensureGlobal(ALL_ACTIVE, "i32");
  return m.block(
    null,
    [set.set(vsetNew(cx)), m.if(m.globalGet(ALL_ACTIVE, "i32"), addAllVertices(qe, () => set.get()), m.seq(m.nop(), ...fill)), set.get()],
    "i32",
  );
}
