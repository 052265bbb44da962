// Common-subexpression elimination in ACCUM and POST-ACCUM clauses (-OPTIMIZE). The same
// computation written twice in one clause, with nothing it reads written in between
// (`(bits | t.@seen) - t.@seen`, then `t.@seen = t.@seen | bits`), is computed once into a
// new clause-local variable declared before the first statement that uses it. Candidates
// are the computations the clause's own statements evaluate (not those inside nested IF
// or FOREACH bodies, whose writes still end a run of uses); only expressions that can
// neither fail nor have an effect are merged (effects.ts), the largest first. In ACCUM,
// computations on the source vertex alone are left to the emitter, which already computes
// them once per source vertex.
import type { IrExpr, IrQuery, IrSelect, IrStmt } from "../ir/ir.js";
import { addStmtWrites, exprKey, freshIdAllocator, intersects, isSafe, readsOf, vertexHolders, worthKeeping, writesOf, type Writes } from "./effects.js";
import { mapChildren, mapStmtExprs } from "./rewrite-ir.js";
import { childBodies, childExprs, stmtExprs, visitStmts } from "./walk-ir.js";

/** At most this many merges per clause (each rescans the clause). */
const MAX_MERGES = 32;

export function eliminateCommonSubexpressions(q: IrQuery): IrQuery {
  const fresh = freshIdAllocator(q);
  const vertices = vertexHolders(q);
  visitStmts(q.body, (s) => {
    if (s.s !== "select") return;
    const sel = s.select;
    const sourceOnly = (x: IrExpr) => onlyReadsAlias(x, sel, sel.source.alias);
    new ClauseCse(q, fresh, vertices, sel.hops.length > 0 ? sourceOnly : () => false).run(sel.accum);
    for (const p of sel.postAccum) new ClauseCse(q, fresh, vertices, () => false).run(p.body);
  });
  return q;
}

/** Whether `x` reads the SELECT's source alias and no other alias of it. */
function onlyReadsAlias(x: IrExpr, sel: IrSelect, alias: number): boolean {
  const aliases = new Set([sel.source.alias, ...sel.hops.flatMap((h) => [h.target, ...(h.edgeAlias !== undefined ? [h.edgeAlias] : [])])]);
  const reads = readsOf(x).vars;
  return reads.has(alias) && [...reads].every((id) => id === alias || !aliases.has(id));
}

interface Group {
  expr: IrExpr;
  /** Statement indexes (in the clause) of the uses, in order; a statement may repeat. */
  uses: number[];
}

class ClauseCse {
  constructor(
    private readonly q: IrQuery,
    private readonly fresh: () => number,
    private readonly vertices: Set<number>,
    private readonly leaveToEmitter: (x: IrExpr) => boolean,
  ) {}

  run(body: IrStmt[]): void {
    for (let i = 0; i < MAX_MERGES; i++) {
      const best = this.largestRepeated(body);
      if (best === undefined) return;
      this.merge(body, best);
    }
  }

  /** The largest computation used twice or more without a write to what it reads in between. */
  private largestRepeated(body: IrStmt[]): Group | undefined {
    const open = new Map<string, Group>();
    let best: { group: Group; size: number } | undefined;
    const close = (key: string) => {
      const g = open.get(key)!;
      open.delete(key);
      if (g.uses.length >= 2) {
        const size = key.length;
        if (best === undefined || size > best.size) best = { group: g, size };
      }
    };
    body.forEach((s, index) => {
      if (s.s !== "while") for (const x of stmtExprs(s)) this.collect(x, index, open);
      const writes: Writes = { vars: new Set(), accums: new Set() };
      addStmtWrites(s, writes);
      for (const b of childBodies(s)) writesOf(b, writes);
      for (const [key, g] of [...open]) if (intersects(readsOf(g.expr), writes)) close(key);
    });
    for (const key of [...open.keys()]) close(key);
    return best?.group;
  }

  private collect(x: IrExpr, index: number, open: Map<string, Group>): void {
    if (worthKeeping(x) && isSafe(x, this.vertices) && !this.leaveToEmitter(x)) {
      const key = exprKey(x);
      const g = open.get(key);
      if (g) g.uses.push(index);
      else open.set(key, { expr: x, uses: [index] });
    }
    // a `.filter(cond)` after neighbors() and the like: cond reads aliases bound per edge
    if (x.e === "method" && x.method === "bag.filter") return this.collect(x.target, index, open);
    for (const c of childExprs(x)) this.collect(c, index, open);
  }

  private merge(body: IrStmt[], g: Group): void {
    const id = this.fresh();
    this.q.vars.push({ id, name: "cse", kind: "local", type: g.expr.type });
    const key = exprKey(g.expr);
    // a fresh node per use: the emitter may key facts by node
    const replace = (x: IrExpr): IrExpr => (exprKey(x) === key ? { e: "var", id, type: g.expr.type } : mapChildren(x, replace));
    const first = g.uses[0];
    for (const index of new Set(g.uses)) mapStmtExprs(body[index], replace);
    body.splice(first, 0, { s: "let", id, init: g.expr });
  }
}
