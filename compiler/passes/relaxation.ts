// Relaxation SELECTs: `WHERE ... x < t.@m ... ACCUM t.@m += x` with @m a MinAccum of numbers
// (or `x > t.@m` with a MaxAccum), the shape of connected components' min-id propagation and
// of single-source shortest paths written with a scalar distance. By the clause semantics the
// WHERE compares with the target's value from before the SELECT; this pass lets it compare
// with the current value instead, which gives the same result and the same selected vertices:
//  - a row that passes against the current value also passes against the older one (the
//    value only goes down during the SELECT);
//  - a row that passes against the older value but not the current one finds t already
//    lowered in this SELECT, by a row that passed and so already selected t; its `+=` of a
//    value no better than the current one changes nothing.
// The shape must make that argument hold: one hop, the ACCUM exactly that one `+=` of the
// compared value (nothing else a row does could tell the rows apart), the result and every
// POST-ACCUM on the target alias, the compared value and the other WHERE conjuncts unable to
// fail (whether they are evaluated may differ) and free of side effects.
// What it buys: a row reads one state instead of the pre-SELECT copy and the state, and far
// fewer rows pass (on the bench's R-MAT graph, WCC's first round: 162k instead of 3.6M), so
// the per-edge work is one load and a compare that is rarely true. The read is marked
// `current` on the WHERE's accumulator node; the accumulator plan and the emitter honour it.
import type { IrExpr, IrQuery, IrSelect } from "../ir/ir.js";
import { isSafe, vertexHolders } from "./effects.js";
import { childExprs } from "./walk-ir.js";

type Comparison = "lt" | "le" | "gt" | "ge";

/** Marks the target reads of every relaxation SELECT's WHERE in `q` as reads of the current value. */
export function markRelaxations(q: IrQuery, select: IrSelect): void {
  const found = relaxedConjunct(q, select);
  if (found === undefined) return;
  select.where = replaceNode(select.where!, found.read, { ...found.read, current: true });
}

/** The WHERE's `t.@m` node that may read the current value, if the SELECT has the shape. */
function relaxedConjunct(q: IrQuery, sel: IrSelect): { read: Extract<IrExpr, { e: "vacc" }> } | undefined {
  if (sel.where === undefined || sel.hops.length !== 1 || sel.sample !== undefined) return undefined;
  const hop = sel.hops[0];
  const target = hop.target;
  if (hop.repeat !== undefined || sel.selected !== target || sel.postAccum.some((p) => p.alias !== target)) return undefined;
  if (sel.accum.length !== 1) return undefined;
  const write = sel.accum[0];
  if (write.s !== "accumulate" || write.target.t !== "vacc" || write.target.indices !== undefined) return undefined;
  if (!(write.target.vertex.e === "var" && write.target.vertex.id === target)) return undefined;
  const accumId = write.target.id;
  const decl = q.accums.find((a) => a.id === accumId);
  if (decl === undefined || decl.scope !== "vertex") return undefined;
  const a = decl.type;
  if ((a.a !== "min" && a.a !== "max") || a.elem.t !== "scalar" || !["INT", "UINT", "FLOAT", "DOUBLE"].includes(a.elem.name)) return undefined;
  const value = write.value;
  if (!(value.type.t === "scalar" && value.type.name === a.elem.name)) return undefined;
  const vertices = vertexHolders(q);
  if (!isSafe(value, vertices) || readsTargetState(value, accumId, target)) return undefined;

  const conjuncts = conjunctsOf(sel.where);
  let read: Extract<IrExpr, { e: "vacc" }> | undefined;
  for (const c of conjuncts) {
    const candidate = read === undefined ? comparedRead(c, a.a, accumId, target, value) : undefined;
    if (candidate !== undefined) read = candidate;
    else if (!isSafe(c, vertices)) return undefined;
  }
  return read === undefined ? undefined : { read };
}

/** `x < t.@m` / `t.@m > x` (Min; `>` / `<` for Max, `<=` / `>=` too) with `x` the ACCUM's value. */
function comparedRead(c: IrExpr, kind: "min" | "max", accumId: number, target: number, value: IrExpr): Extract<IrExpr, { e: "vacc" }> | undefined {
  if (c.e !== "binary") return undefined;
  const op = c.op as Comparison;
  const valueFirst: Comparison[] = kind === "min" ? ["lt", "le"] : ["gt", "ge"];
  const stateFirst: Comparison[] = kind === "min" ? ["gt", "ge"] : ["lt", "le"];
  let state: IrExpr;
  let other: IrExpr;
  if (valueFirst.includes(op)) [other, state] = [c.left, c.right];
  else if (stateFirst.includes(op)) [state, other] = [c.left, c.right];
  else return undefined;
  if (state.e !== "vacc" || state.prime || state.id !== accumId || !(state.vertex.e === "var" && state.vertex.id === target)) return undefined;
  return sameExpr(other, value) ? state : undefined;
}

/** The operands of a tree of ANDs, left to right. */
function conjunctsOf(x: IrExpr): IrExpr[] {
  return x.e === "binary" && x.op === "and" ? [...conjunctsOf(x.left), ...conjunctsOf(x.right)] : [x];
}

/** Whether `x` reads accumulator `accumId` of the target alias. */
function readsTargetState(x: IrExpr, accumId: number, target: number): boolean {
  if (x.e === "vacc" && x.id === accumId && x.vertex.e === "var" && x.vertex.id === target) return true;
  return childExprs(x).some((c) => readsTargetState(c, accumId, target));
}

function sameExpr(a: IrExpr, b: IrExpr): boolean {
  const text = (x: IrExpr) => JSON.stringify(x, (_key, v: unknown) => (typeof v === "bigint" ? `${v}n` : v));
  return text(a) === text(b);
}

/** A copy of `x` with node `from` (by identity) replaced by `to`. */
function replaceNode(x: IrExpr, from: IrExpr, to: IrExpr): IrExpr {
  if (x === from) return to;
  if (x.e === "binary") return { ...x, left: replaceNode(x.left, from, to), right: replaceNode(x.right, from, to) };
  return x;
}
