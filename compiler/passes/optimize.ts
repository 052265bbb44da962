// The passes stage: `optimizeIr(ir, level)`. Every level runs the accumulator plan (it is
// part of the semantics, not an optimisation); level 1 (a default INSTALL) adds constant
// folding and dead-code removal, which cost next to nothing; levels 2-3 (INSTALL QUERY
// -OPTIMIZE) add the heavier passes, then Binaryen's optimiser runs in the emit stage:
//   strength reduction, copy propagation (then folding again), dead accumulator
//   elimination, loop-invariant hoisting out of SELECTs and loops, and common
//   subexpressions of ACCUM / POST-ACCUM clauses.
import type { IrQuery } from "../ir/ir.js";
import { planAccumulators } from "./accum-plan.js";
import { eliminateCommonSubexpressions } from "./clause-cse.js";
import { propagateCopies } from "./copy-propagation.js";
import { removeDeadAccums } from "./dead-accums.js";
import { foldConstants } from "./fold-constants.js";
import { hoistInvariants } from "./hoist-invariants.js";
import { reduceStrength } from "./strength-reduce.js";

/** Returns an optimised copy of the query (the input is not changed). */
export function optimizeIr(ir: IrQuery, level: 0 | 1 | 2 | 3): IrQuery {
  let q = cloneIr(ir);
  if (level >= 1) q = foldConstants(q);
  if (level >= 2) {
    q = reduceStrength(q);
    q = foldConstants(propagateCopies(q));
    q = removeDeadAccums(q);
    q = hoistInvariants(q);
    q = eliminateCommonSubexpressions(q);
  }
  return planAccumulators(q);
}

/** A deep copy (IR is plain data; bigint constants survive). */
export function cloneIr(ir: IrQuery): IrQuery {
  return structuredClone(ir);
}
