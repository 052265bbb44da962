// The compiler back end as one call: a bound query → IR → passes → one WebAssembly module
// and its manifest. Used by the server's INSTALL, `gsqlc compile` and the tests. The
// optimisation level: 0 runs only the passes the semantics need, 1 (a default install) adds
// the cheap IR passes and Binaryen's inlining of small helpers, 2-3 (INSTALL QUERY -OPTIMIZE,
// `gsqlc compile -O2/-O3`) add the heavier IR passes and Binaryen's whole optimiser at that level.
import type { BoundQuery } from "./bind/bound.js";
import type { DatabaseSchema } from "../runtime-wasm/schema/types.js";
import type { QueryManifest } from "../runtime-wasm/query/manifest.js";
import { lower } from "./ir/lower.js";
import type { IrQuery } from "./ir/ir.js";
import { optimizeIr } from "./passes/optimize.js";
import { emitQuery } from "./emit/emit-query.js";

export type OptimizeLevel = 0 | 1 | 2 | 3;

export interface CompiledQueryModule {
  /** The IR after the passes (what was emitted). */
  ir: IrQuery;
  bytes: Uint8Array;
  manifest: QueryManifest;
  /** WebAssembly text, when asked for. */
  text?: string;
  /** Milliseconds spent per stage. */
  timings: { lower: number; passes: number; emit: number };
  /** Binaryen's report when its optimiser made the module invalid (the unoptimised module is kept). */
  optimizerFailure?: string;
}

export { LowerError } from "./ir/lower.js";
export { UnsupportedError } from "./emit/query-emitter.js";
export { EmitError } from "./emit/module.js";

/**
 * Compiles one bound query. `callees` are the bound queries it calls, directly or not (the
 * whole call graph below it): they are compiled into the same module. Throws LowerError,
 * UnsupportedError or EmitError when it cannot.
 */
export function compileQuery(bound: BoundQuery, schema: DatabaseSchema, level: OptimizeLevel = 1, withText = false, callees: BoundQuery[] = []): CompiledQueryModule {
  const t0 = performance.now();
  const ir = lower(bound);
  const calleeIrs = reachable(ir, callees.filter((c) => c.name !== bound.name));
  const t1 = performance.now();
  const optimized = optimizeIr(ir, level);
  const optimizedCallees = calleeIrs.map((c) => optimizeIr(c, level));
  const t2 = performance.now();
  const { bytes, manifest, text, optimizerFailure } = emitQuery(optimized, { schema, optimizeLevel: level, withText, callees: optimizedCallees });
  const t3 = performance.now();
  return { ir: optimized, bytes, manifest, text, timings: { lower: t1 - t0, passes: t2 - t1, emit: t3 - t2 }, ...(optimizerFailure !== undefined ? { optimizerFailure } : {}) };
}

/** The callees the query reaches through its calls, lowered (others given are left out). */
function reachable(query: IrQuery, callees: BoundQuery[]): IrQuery[] {
  const byName = new Map(callees.map((c) => [c.name, c]));
  const lowered = new Map<string, IrQuery>();
  const visit = (q: IrQuery) => {
    for (const name of q.calls) {
      const callee = byName.get(name);
      if (callee && !lowered.has(name)) {
        const ir = lower(callee);
        lowered.set(name, ir);
        visit(ir);
      }
    }
  };
  visit(query);
  return [...lowered.values()];
}
