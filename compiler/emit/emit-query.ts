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

export interface EmitResult {
  bytes: Uint8Array;
  manifest: QueryManifest;
  /** The module in text form, when asked for (`gsqlc wat`). */
  text?: string;
}

export { UnsupportedError, type EmitOptions } from "./query-emitter.js";

/** Compiles an IR query to a WebAssembly module. Throws UnsupportedError or EmitError. */
export function emitQuery(ir: IrQuery, options: EmitOptions & { withText?: boolean }): EmitResult {
  const cx = new EmitContext();
  try {
    const qe = new QueryEmitter(cx, ir, options);
    const m = cx.m;
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
    finishParams(qe);
    finishGraph(cx);
    cx.finishMemory((n) => alloc(cx, n));
    m.validate();
    const level = options.optimizeLevel ?? 0;
    m.optimize(level);
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
    return { bytes: m.binary(), manifest, text: options.withText ? m.text() : undefined };
  } finally {
    cx.m.dispose();
  }
}
