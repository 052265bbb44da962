// The accumulator pass: decides, per ACCUM and POST-ACCUM clause, which writes must be held
// back until the clause ends, and which vertex accumulators need their pre-ACCUM value
// kept for `@x'`. This is what makes the clause semantics exact (gsql-semantics §4.2) while
// letting the common algorithm shapes write straight to memory:
// - ACCUM: a target (accumulator or query variable) that the clause's WHERE or statements
//   also read must see its old value there, so its writes are logged and replayed; every
//   other write is applied at once, which gives the same result (Sum/Min/Max/... do not
//   depend on order; `=` has no defined winner anyway).
//   A vertex accumulator of an order-independent scalar type that is only `+=`-ed is not
//   logged: its writes go straight to memory and the clause reads the copy `@x'` keeps of
//   each written vertex's value from before the clause (snapshotAccums).
// - POST-ACCUM: statements of one vertex see each other's writes at once, so only global
//   accumulators and query variables read in the clause are held back.
import type { IrAccum, IrAccumPlan, IrExpr, IrQuery, IrSelect, IrStmt } from "../ir/ir.js";
import { markRelaxations } from "./relaxation.js";
import { stmtExprs, visitExpr, visitStmts, selectExprs } from "./walk-ir.js";

interface Access {
  readAccums: Set<number>;
  readVars: Set<number>;
  writtenAccums: Set<number>;
  writtenVars: Set<number>;
}

export function planAccumulators(q: IrQuery): IrQuery {
  const globals = new Set(q.vars.filter((v) => v.kind === "global").map((v) => v.id));
  const vertexAccums = new Set(q.accums.filter((a) => a.scope === "vertex").map((a) => a.id));
  const snapshotable = new Set(q.accums.filter((a) => a.scope === "vertex" && orderIndependent(a.type)).map((a) => a.id));
  const primed = new Set<number>();
  const noteReads = (x: IrExpr) =>
    visitExpr(x, (e) => {
      if (e.e === "vacc" && e.prime) primed.add(e.id);
    });
  visitStmts(q.body, (s) => {
    for (const x of stmtExprs(s)) noteReads(x);
    if (s.s === "select") {
      markRelaxations(q, s.select);
      for (const x of selectExprs(s.select)) noteReads(x);
      const plan = planClause(s.select.accum, s.select.where, globals, () => true);
      const snapshot = plan.bufferedAccums.filter((id) => snapshotable.has(id) && !plan.assigned.has(id));
      for (const id of snapshot) primed.add(id);
      s.select.accumPlan = {
        bufferedAccums: plan.bufferedAccums.filter((id) => !snapshot.includes(id)),
        bufferedVars: plan.bufferedVars,
        ...(snapshot.length ? { snapshotAccums: snapshot } : {}),
      };
      s.select.postPlans = s.select.postAccum.map((p) => {
        const { bufferedAccums, bufferedVars } = planClause(p.body, undefined, globals, (id) => !vertexAccums.has(id));
        return { bufferedAccums, bufferedVars };
      });
    }
  });
  for (const a of q.accums) if (primed.has(a.id)) a.primeUsed = true;
  return q;
}

/** Scalar accumulators whose `+=` gives the same state in any order. */
function orderIndependent(a: IrAccum): boolean {
  switch (a.a) {
    case "min":
    case "max":
      // tuples are immutable records compared field by field, so a kept copy of the
      // state (its address) is a copy of the value
      return a.elem.t === "tuple" || (a.elem.t === "scalar" && a.elem.name !== "STRING");
    case "sum":
      return a.elem.t === "scalar" && a.elem.name !== "STRING" && a.elem.name !== "DATETIME";
    case "avg":
    case "and":
    case "or":
    case "bitand":
    case "bitor":
      return true;
    default:
      return false;
  }
}

function planClause(body: IrStmt[], where: IrExpr | undefined, globals: Set<number>, holdable: (accumId: number) => boolean): IrAccumPlan & { assigned: Set<number> } {
  const access: Access = { readAccums: new Set(), readVars: new Set(), writtenAccums: new Set(), writtenVars: new Set() };
  const assigned = new Set<number>();
  const read = (x: IrExpr) =>
    visitExpr(x, (e) => {
      // a read of the current value (relaxation.ts) needs neither a log nor a copy
      if (e.e === "gacc" || (e.e === "vacc" && !e.prime && !e.current)) access.readAccums.add(e.id);
      if (e.e === "var" && globals.has(e.id)) access.readVars.add(e.id);
    });
  if (where) read(where);
  visitStmts(body, (s) => {
    for (const x of stmtExprs(s)) read(x);
    if (s.s === "assign" || s.s === "accumulate") {
      const t = s.target;
      if (t.t === "gacc" || t.t === "vacc") access.writtenAccums.add(t.id);
      if ((t.t === "gacc" || t.t === "vacc") && (s.s === "assign" || t.indices !== undefined)) assigned.add(t.id);
      if (t.t === "var" && globals.has(t.id)) access.writtenVars.add(t.id);
    }
    // a mutator method call reads and writes its accumulator
    if (s.s === "expr") visitExpr(s.expr, (e) => {
      if (e.e === "method" && (e.target.e === "gacc" || e.target.e === "vacc")) access.readAccums.add(e.target.id);
    });
  });
  return {
    bufferedAccums: [...access.writtenAccums].filter((id) => access.readAccums.has(id) && holdable(id)).sort((a, b) => a - b),
    bufferedVars: [...access.writtenVars].filter((id) => access.readVars.has(id)).sort((a, b) => a - b),
    assigned,
  };
}

export type { IrSelect };
