// The back end's entry point: one IR query in, one WebAssembly module and its manifest out.
// The module's `run(ctl)` sets up the run (arena, string constants, the snapshot's
// addresses and the bound schema elements, flags, parameters), runs the query body, and
// publishes its output in the control block.
import { Ctl, RUN_EXPORT, RunFlags, RunStatus } from "../../runtime-wasm/query/abi.js";
import type { QueryManifest } from "../../runtime-wasm/query/manifest.js";
import type { IrQuery } from "../ir/ir.js";
import { EmitContext, G } from "./context.js";
import { alloc, initArena } from "./emit-arena.js";
import { declareGraphGlobals, finishGraph, graphPrologue } from "./emit-graph.js";
import { finishOutput } from "./emit-output.js";
import { finishParams, paramsPrologue, paramType } from "./emit-params.js";
import { ALL_ACTIVE } from "./emit-seed.js";
import { RUN_FLAGS } from "./emit-select.js";
import { emitStmts } from "./emit-stmt.js";
import { QueryEmitter, type EmitOptions } from "./query-emitter.js";
import { emitSubqueryFunction } from "./emit-subquery.js";
import { finishParallel } from "./parallel-select.js";
import { childExprs, visitStmts, stmtExprs, selectExprs } from "../passes/walk-ir.js";
import type { IrExpr } from "../ir/ir.js";

/** Whether the query's body calls query `name`. */
function calls(ir: IrQuery, name: string): boolean {
  let found = false;
  const visit = (x: IrExpr): void => {
    if (x.e === "subquery" && x.query === name) found = true;
    childExprs(x).forEach(visit);
  };
  visitStmts(ir.body, (s) => {
    stmtExprs(s).forEach(visit);
    if (s.s === "select") selectExprs(s.select).forEach(visit);
  });
  return found;
}

export interface EmitResult {
  bytes: Uint8Array;
  manifest: QueryManifest;
  /** The module in text form, when asked for (`gsqlc wat`). */
  text?: string;
  /** Binaryen's report when its optimiser made the module invalid (the unoptimised module is kept). */
  optimizerFailure?: string;
}

export { UnsupportedError, type EmitOptions } from "./query-emitter.js";

/**
 * Compiles an IR query to a WebAssembly module, with every query it calls (`callees`, the
 * whole call graph below it) as functions of the same module. Throws UnsupportedError or
 * EmitError.
 */
export function emitQuery(ir: IrQuery, options: EmitOptions & { withText?: boolean; callees?: IrQuery[] }): EmitResult {
  const cx = new EmitContext();
  try {
    const qe = new QueryEmitter(cx, ir, options);
    const m = cx.m;
    const emitters = new Map<string, QueryEmitter>([[ir.name, qe]]);
    (options.callees ?? []).forEach((c, i) => {
      if (!emitters.has(c.name)) emitters.set(c.name, new QueryEmitter(cx, c, options, `q${i + 1}_`));
    });
    for (const e of emitters.values()) e.callee = (name) => emitters.get(name);
    // A query calling itself needs its own body as a function too.
    if (calls(ir, ir.name)) emitters.set(ir.name, Object.assign(new QueryEmitter(cx, ir, options, "self_"), { callee: (n: string) => emitters.get(n) }));
    declareGraphGlobals(cx);
    cx.ensureGlobal(RUN_FLAGS, "i32");
    cx.ensureGlobal(ALL_ACTIVE, "i32");
    m.func(
      RUN_EXPORT,
      [{ name: "ctl", type: "i32" }],
      "i32",
      (f) =>
        qe.inFunction(f, () => {
          const ctl = () => m.globalGet(G.ctl, "i32");
          return [
            m.globalSet(G.ctl, f.param(0).get()),
            initArena(cx),
            cx.copyStrings(),
            graphPrologue(cx),
            m.globalSet(RUN_FLAGS, m.load("i32", ctl(), Ctl.flags)),
            m.globalSet(ALL_ACTIVE, m.and("i32", m.globalGet(RUN_FLAGS, "i32"), m.i32(RunFlags.AllActive))),
            paramsPrologue(qe),
            m.block(qe.bodyEnd, emitStmts(qe, ir.body)),
            finishOutput(cx),
            m.store("i32", ctl(), m.i32(RunStatus.Ok), Ctl.status),
            m.i32(RunStatus.Ok),
          ];
        }),
      RUN_EXPORT,
    );
    for (const e of new Set(emitters.values())) if (e !== qe || calls(ir, ir.name)) if (e.prefix !== "") emitSubqueryFunction(e);
    finishParams(qe);
    finishGraph(cx);
    finishParallel(cx);
    cx.finishMemory((n) => alloc(cx, n));
    m.validate();
    const level = options.optimizeLevel ?? 0;
    // A default install (level 1) only inlines small helpers; -OPTIMIZE runs the whole optimiser.
    // Should the optimiser ever turn the valid module into an invalid one, the query keeps
    // the module as it was (correct, only slower) rather than failing to install.
    const unoptimized = level >= 1 ? m.binary() : undefined;
    if (level === 1) m.inlineSmallFunctions();
    else m.optimize(level);
    const optimizerFailure = unoptimized === undefined ? undefined : m.validationReport();
    const bytes = optimizerFailure === undefined ? m.binary() : unoptimized!;
    const manifest: QueryManifest = {
      name: ir.name,
      graph: ir.graph,
      params: ir.params.map((id) => {
        const v = qe.variable(id);
        const d = v.default;
        return { name: v.name, type: paramType(v.type), ...(d === undefined ? {} : { default: typeof d === "bigint" ? d.toString() : d }) };
      }),
      keys: cx.keys,
      bindings: cx.bindings,
      calls: ir.calls,
      selects: ir.selects,
    };
    return { bytes, manifest, text: options.withText ? m.text() : undefined, ...(optimizerFailure !== undefined ? { optimizerFailure } : {}) };
  } finally {
    cx.m.dispose();
  }
}
