// Copy propagation (-OPTIMIZE): a variable declared once as a copy of a constant or of another
// variable, and never written again, is replaced by what it copies, and its declaration
// dropped (`INT limit = 10`, `VERTEX me = s`, `DOUBLE d = damping`). The source variable
// must not change either (a parameter, a SELECT alias, or a variable whose only write is its
// own declaration), so every read of the copy sees the same value the source holds there.
// Only values that copy by value (numbers, strings, booleans, datetimes, vertices) and
// declarations without a conversion qualify. Constant folding runs again afterwards.
import type { IrExpr, IrQuery, IrStmt } from "../ir/ir.js";
import { sameIrType } from "../ir/types.js";
import { addStmtWrites, allBlocks, type Writes } from "./effects.js";
import { visitStmts } from "./walk-ir.js";
import { mapChildren, mapStmtExprs } from "./rewrite-ir.js";

export function propagateCopies(q: IrQuery): IrQuery {
  const lets = new Map<number, number>();
  visitStmts(q.body, (s) => {
    if (s.s === "let") lets.set(s.id, (lets.get(s.id) ?? 0) + 1);
  });
  // writes other than a variable's declaration
  const written: Writes = { vars: new Set(), accums: new Set() };
  visitStmts(q.body, (s) => addStmtWrites(withoutLets(s), written));
  const kind = new Map(q.vars.map((v) => [v.id, v]));
  const stable = (id: number): boolean => {
    const v = kind.get(id);
    if (v === undefined) return false;
    if (v.kind === "param" || v.kind === "alias") return true;
    return (v.kind === "global" || v.kind === "local") && lets.get(id) === 1 && !written.vars.has(id);
  };
  const copies = new Map<number, IrExpr>();
  visitStmts(q.body, (s) => {
    if (s.s !== "let" || s.init === undefined || !stable(s.id)) return;
    const v = kind.get(s.id)!;
    // VERTEX holds any typed vertex as it is
    const sameValue = sameIrType(v.type, s.init.type) || (v.type.t === "vertex" && v.type.vertexType === undefined && s.init.type.t === "vertex");
    if (!(v.type.t === "scalar" || v.type.t === "vertex") || !sameValue) return;
    if (s.init.e === "const" || (s.init.e === "var" && s.init.id !== s.id && stable(s.init.id))) copies.set(s.id, s.init);
  });
  if (copies.size === 0) return q;
  // a copy of a copy reads the original
  const resolve = (x: IrExpr): IrExpr => {
    let seen = 0;
    while (x.e === "var" && copies.has(x.id) && seen++ < copies.size) x = copies.get(x.id)!;
    return x;
  };
  const replace = (x: IrExpr): IrExpr => {
    if (x.e === "var" && copies.has(x.id)) return structuredClone(resolve(x));
    return mapChildren(x, replace);
  };
  allBlocks(q.body, (block) => {
    const out = block.filter((s) => !(s.s === "let" && copies.has(s.id)));
    for (const s of out) mapStmtExprs(s, replace);
    block.splice(0, block.length, ...out);
  });
  q.vars = q.vars.filter((v) => !copies.has(v.id));
  return q;
}

/** A statement's writes apart from its `let` (which declares, not reassigns). */
function withoutLets(s: IrStmt): IrStmt {
  return s.s === "let" ? { s: "expr", expr: s.init ?? { e: "const", value: 0n, type: { t: "void" } } } : s;
}
