// The passes stage: `optimizeIr(ir, level)`. Every level runs the accumulator plan (it is
// part of the semantics, not an optimisation); level 1 (a default INSTALL) adds constant
// folding and dead-code removal; levels 2-3 (INSTALL QUERY -OPTIMIZE) are the same IR passes
// plus Binaryen's optimiser, which the emit stage runs at that level.
import type { IrQuery } from "../ir/ir.js";
import { planAccumulators } from "./accum-plan.js";
import { foldConstants } from "./fold-constants.js";

/** Returns an optimised copy of the query (the input is not changed). */
export function optimizeIr(ir: IrQuery, level: 0 | 1 | 2 | 3): IrQuery {
  let q = cloneIr(ir);
  if (level >= 1) q = foldConstants(q);
  return planAccumulators(q);
}

/** A deep copy (IR is plain data; bigint constants survive). */
export function cloneIr(ir: IrQuery): IrQuery {
  return structuredClone(ir);
}
