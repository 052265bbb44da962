// Loop-invariant hoisting (-OPTIMIZE). A SELECT runs its WHERE, ACCUM, POST-ACCUM and HAVING
// once per row or vertex, and WHILE / FOREACH run their bodies once per iteration; a
// computation there that reads only values the loop cannot change (parameters, query
// variables and global accumulators it does not write, constants) gives the same value
// every time. It is computed once, into a new query variable, just before the SELECT or the
// loop: PageRank's `(1.0 - damping)` is one subtraction per query instead of one per vertex
// per iteration. Only expressions that can neither fail nor have an effect move (effects.ts),
// since the loop may run zero times; inner loops are treated first, so what leaves a SELECT
// inside a WHILE leaves the WHILE too when the WHILE does not change it either.
import type { IrExpr, IrQuery, IrStmt, IrVar } from "../ir/ir.js";
import { freshIdAllocator, isSafe, readsOf, vertexHolders, worthKeeping, writesOf, type Writes } from "./effects.js";
import { mapChildren, mapStmtExprs } from "./rewrite-ir.js";
import { childBodies } from "./walk-ir.js";

export function hoistInvariants(q: IrQuery): IrQuery {
  new Hoister(q).block(q.body);
  return q;
}

class Hoister {
  private readonly fresh: () => number;
  private readonly vertices: Set<number>;
  private readonly kinds: Map<number, IrVar["kind"]>;
  /** Temporaries made here: a loop moves their whole declaration rather than a part of it. */
  private readonly temps = new Set<number>();

  constructor(private readonly q: IrQuery) {
    this.fresh = freshIdAllocator(q);
    this.vertices = vertexHolders(q);
    this.kinds = new Map(q.vars.map((v) => [v.id, v.kind]));
  }

  /** Rewrites a query-level statement list, inserting hoisted declarations before loops and SELECTs. */
  block(stmts: IrStmt[]): void {
    const out: IrStmt[] = [];
    for (const s of stmts) {
      for (const b of childBodies(s)) this.block(b);
      if (s.s === "select") out.push(...this.fromSelect(s));
      else if (s.s === "while" || s.s === "forRange" || s.s === "forEach") out.push(...this.fromLoop(s));
      out.push(s);
    }
    stmts.splice(0, stmts.length, ...out);
  }

  private fromSelect(s: Extract<IrStmt, { s: "select" }>): IrStmt[] {
    const sel = s.select;
    const written = writesOf([...sel.accum, ...sel.postAccum.flatMap((p) => p.body)]);
    written.vars.add(s.id);
    const lets: IrStmt[] = [];
    const hoist = (x: IrExpr) => this.extract(x, written, lets);
    if (sel.where) sel.where = hoist(sel.where);
    if (sel.having) sel.having = hoist(sel.having);
    for (const o of sel.orderBy) o.expr = hoist(o.expr);
    for (const body of [sel.accum, ...sel.postAccum.map((p) => p.body)]) this.clauseBody(body, hoist);
    return lets;
  }

  /** Every expression of a clause body, nested statements included. */
  private clauseBody(body: IrStmt[], hoist: (x: IrExpr) => IrExpr): void {
    for (const st of body) {
      // a WHILE condition inside a clause reruns after its body: it is still invariant when
      // nothing it reads is written anywhere in the SELECT, which `extract` checks
      mapStmtExprs(st, hoist);
      for (const b of childBodies(st)) this.clauseBody(b, hoist);
    }
  }

  private fromLoop(s: Extract<IrStmt, { s: "while" | "forRange" | "forEach" }>): IrStmt[] {
    const written = writesOf([s]);
    const lets: IrStmt[] = [];
    const hoist = (x: IrExpr) => this.extract(x, written, lets);
    if (s.s === "while") {
      s.cond = hoist(s.cond);
      if (s.limit) s.limit = hoist(s.limit);
    }
    this.loopBody(s.body, written, lets, hoist);
    return lets;
  }

  /** The loop body's own statements and those under IF / TRY (nested loops were done before). */
  private loopBody(body: IrStmt[], written: Writes, lets: IrStmt[], hoist: (x: IrExpr) => IrExpr): void {
    const kept: IrStmt[] = [];
    for (const st of body) {
      if (st.s === "let" && this.temps.has(st.id) && st.init && this.invariant(st.init, written)) {
        // a temporary hoisted out of an inner SELECT or loop: move its declaration out whole
        written.vars.delete(st.id);
        lets.push(st);
        continue;
      }
      kept.push(st);
      if (st.s === "select" || st.s === "while" || st.s === "forRange" || st.s === "forEach") continue;
      mapStmtExprs(st, hoist);
      if (st.s === "if" || st.s === "try") for (const b of childBodies(st)) this.loopBody(b, written, lets, hoist);
    }
    body.splice(0, body.length, ...kept);
  }

  /** `x` with its largest invariant parts replaced by new variables declared in `lets`. */
  private extract(x: IrExpr, written: Writes, lets: IrStmt[]): IrExpr {
    if (worthKeeping(x) && this.invariant(x, written)) {
      const id = this.fresh();
      this.q.vars.push({ id, name: "inv", kind: "global", type: x.type });
      this.kinds.set(id, "global");
      this.temps.add(id);
      lets.push({ s: "let", id, init: x });
      return { e: "var", id, type: x.type };
    }
    return mapChildren(x, (c) => this.extract(c, written, lets));
  }

  private invariant(x: IrExpr, written: Writes): boolean {
    if (!isSafe(x, this.vertices)) return false;
    const reads = readsOf(x);
    for (const id of reads.vars) {
      const kind = this.kinds.get(id);
      if (!(kind === "param" || kind === "global" || kind === "loop" || kind === "vset") || written.vars.has(id)) return false;
    }
    // vertex accumulators differ per vertex; global ones must not be written in the loop
    for (const id of reads.accums) if (written.accums.has(id) || this.q.accums.find((a) => a.id === id)?.scope !== "global") return false;
    return true;
  }
}
