// Part "optimize" of the queries bench: what INSTALL QUERY -OPTIMIZE buys. Every library
// query the algorithms suite measures is installed at the default level (1) and at -OPTIMIZE's
// level (3) and run on the same R-MAT graph, alternating levels, best of BENCH_OPT_RUNS
// (default 3) runs each; reported per query: install ms and run ms at both levels and the
// speed-up. The two levels must print the same results (checked on every run). Graph size:
// BENCH_OPT_SCALE (default 16) and BENCH_OPT_EDGES (default 1000000 generated edges).
import { QueryRuntime } from "../../runtime-wasm/query/query-runtime.js";
import { buildAlgoGraph, install, loadStore, MEASURED } from "./algorithms.js";
import type { BenchReport } from "./run.js";

export async function benchOptimize(report: BenchReport): Promise<void> {
  const scale = Number(process.env.BENCH_OPT_SCALE ?? 16);
  const edges = Number(process.env.BENCH_OPT_EDGES ?? 1_000_000);
  const runs = Number(process.env.BENCH_OPT_RUNS ?? 3);
  const only = process.env.BENCH_ALGO_ONLY?.split(",");
  const g = buildAlgoGraph(scale, edges);
  report.note(`-OPTIMIZE: R-MAT scale ${scale}, ${g.n} vertices, ${g.src.length} distinct undirected edges`);
  const store = loadStore(g);
  const runtime = new QueryRuntime({ workers: 1 });
  let totalDefault = 0;
  let totalOptimized = 0;
  try {
    for (const m of MEASURED.filter((x) => only === undefined || only.includes(x.name))) {
      const t0 = performance.now();
      const base = await install(m.name, 1);
      const t1 = performance.now();
      const optimized = await install(m.name, 3);
      const t2 = performance.now();
      const best = { base: Infinity, optimized: Infinity };
      for (let i = 0; i < runs; i++) {
        const a = await runtime.run(store, "R", base, m.args, { timeoutMs: 3_600_000 });
        const b = await runtime.run(store, "R", optimized, m.args, { timeoutMs: 3_600_000 });
        if (!a.ok || !b.ok) throw new Error(`${m.name} failed: ${!a.ok ? a.message : ""} ${!b.ok ? b.message : ""}`);
        if (a.results !== b.results) throw new Error(`${m.name}: -OPTIMIZE printed different results`);
        best.base = Math.min(best.base, a.ms);
        best.optimized = Math.min(best.optimized, b.ms);
      }
      totalDefault += best.base;
      totalOptimized += best.optimized;
      report.line(`${m.name} run, default install`, best.base, "ms", `install ${(t1 - t0).toFixed(0)} ms`);
      report.line(`${m.name} run, -OPTIMIZE`, best.optimized, "ms", `install ${(t2 - t1).toFixed(0)} ms`);
      report.ratio(`${m.name} -OPTIMIZE vs default`, best.optimized, best.base, "default");
    }
    report.ratio("library total -OPTIMIZE vs default", totalOptimized, totalDefault, "default");
  } finally {
    await runtime.close();
  }
}
