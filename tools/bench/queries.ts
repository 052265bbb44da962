// Bench suite "queries": INSTALL latency of GSQL queries and of the whole algorithm library, and run time of GSQL PageRank
// (20 iterations), BFS, WCC and triangle counting on an R-MAT graph (2^18 vertices, 4M
// generated edges) against the same algorithms as plain JavaScript over typed-array CSR,
// a hand-written WebAssembly PageRank kernel reading the store's own adjacency arrays, and
// graphology. Options (environment): BENCH_SCALE (default 18), BENCH_EDGES (default 4000000),
// BENCH_GRAPHOLOGY=0 to skip graphology (its graph alone takes minutes to build), BENCH_PARTS
// (comma-separated subset of install,library,optimize,pagerank,bfs,wcc,triangles; default
// all). Part "optimize" (query-optimize.ts) compares library queries installed with and
// without -OPTIMIZE.
import { analyzeSource } from "../../compiler/front-end.js";
import { compileQuery } from "../../compiler/back-end.js";
import { createStore, type GraphStore } from "../../runtime-wasm/store/index.js";
import { QueryRuntime } from "../../runtime-wasm/query/query-runtime.js";
import { rmat } from "./rmat.js";
import type { BenchReport, BenchSuite } from "./run.js";
import { jsBfs, jsPageRank, jsTriangles, jsWcc, toCsr, type Csr } from "./query-peers-js.js";
import { wasmPageRankKernel } from "./query-peers-wasm.js";
import { graphologyPeers } from "./query-peers-graphology.js";
import { installLibrary } from "./query-library.js";
import { benchOptimize } from "./query-optimize.js";

const DDL = `
CREATE VERTEX V (PRIMARY_ID id UINT)
CREATE DIRECTED EDGE E (FROM V, TO V) WITH REVERSE_EDGE="E_rev"
CREATE GRAPH R (V, E, E_rev)
`;

export const PAGERANK = `CREATE QUERY pagerank(DOUBLE maxChange = 0, INT maxIter = 20, DOUBLE damping = 0.85) FOR GRAPH R SYNTAX V1 {
  MaxAccum<DOUBLE> @@max_diff = 9999;
  SumAccum<DOUBLE> @sum_recvd_score = 0;
  SumAccum<DOUBLE> @sum_score = 1;
  Start = {V.*};
  WHILE @@max_diff > maxChange LIMIT maxIter DO
    @@max_diff = 0;
    Start = SELECT s FROM Start:s -(E:e)-> V:t
            ACCUM t.@sum_recvd_score += s.@sum_score / s.outdegree("E")
            POST-ACCUM s.@sum_score = (1.0 - damping) + damping * s.@sum_recvd_score,
                       s.@sum_recvd_score = 0,
                       @@max_diff += abs(s.@sum_score - s.@sum_score');
  END;
  MaxAccum<DOUBLE> @@top;
  All = {V.*};
  All = SELECT v FROM All:v ACCUM @@top += v.@sum_score;
  PRINT @@top;
}`;

export const BFS = `CREATE QUERY bfs(VERTEX<V> src) FOR GRAPH R SYNTAX V1 {
  OrAccum @visited;
  SumAccum<INT> @@reached;
  INT depth = 0;
  Start = {src};
  Start = SELECT s FROM Start:s ACCUM s.@visited = TRUE;
  WHILE Start.size() > 0 DO
    depth = depth + 1;
    Start = SELECT t FROM Start:s -(E:e)-> V:t WHERE t.@visited == FALSE ACCUM t.@visited = TRUE;
    @@reached += Start.size();
  END;
  PRINT @@reached, depth;
}`;

export const WCC = `CREATE QUERY wcc() FOR GRAPH R SYNTAX V1 {
  MinAccum<INT> @cc;
  SetAccum<INT> @@ids;
  Start = {V.*};
  S = SELECT x FROM Start:x POST-ACCUM x.@cc = getvid(x);
  WHILE S.size() > 0 DO
    S = SELECT t FROM S:s -((E|E_rev):e)- V:t WHERE s.@cc < t.@cc ACCUM t.@cc += s.@cc;
  END;
  Start = SELECT x FROM Start:x ACCUM @@ids += x.@cc;
  PRINT @@ids.size() AS components;
}`;

/**
 * Triangles of the undirected graph: every edge oriented from the lower to the higher id
 * (@fwd), then each triangle a < b < c counted once, at a, as c in fwd(a) ∩ fwd(b).
 */
export const TRIANGLES = `CREATE QUERY triangles() FOR GRAPH R SYNTAX V1 {
  SetAccum<VERTEX> @fwd;
  SumAccum<INT> @@cnt;
  All = {V.*};
  All = SELECT s FROM All:s -((E|E_rev):e)- V:t WHERE getvid(s) < getvid(t) ACCUM s.@fwd += t;
  All = SELECT s FROM All:s
        ACCUM FOREACH t IN s.@fwd DO
                FOREACH x IN t.@fwd DO IF x IN s.@fwd THEN @@cnt += 1 END END
              END;
  PRINT @@cnt AS triangles;
}`;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** "min / median" of per-iteration times, the min being the steady state on a busy machine. */
function spread(xs: number[]): string {
  return `min ${Math.min(...xs).toFixed(2)} ms, median ${median(xs).toFixed(2)} ms over ${xs.length}`;
}

interface BenchGraph {
  n: number;
  src: Uint32Array;
  dst: Uint32Array;
  csr: Csr;
  undirected: Csr;
}

function buildGraph(scale: number, edges: number): BenchGraph {
  const g = rmat({ scale, edges, seed: 42, noSelfLoops: true });
  // Keep each (src, dst) once, as the store does for a type without a discriminator.
  const seen = new Set<number>();
  const src: number[] = [];
  const dst: number[] = [];
  for (let i = 0; i < g.src.length; i++) {
    const key = g.src[i] * g.vertexCount + g.dst[i];
    if (seen.has(key)) continue;
    seen.add(key);
    src.push(g.src[i]);
    dst.push(g.dst[i]);
  }
  const s = Uint32Array.from(src);
  const d = Uint32Array.from(dst);
  return { n: g.vertexCount, src: s, dst: d, csr: toCsr(g.vertexCount, s, d, false), undirected: toCsr(g.vertexCount, s, d, true) };
}

function loadStore(g: BenchGraph): { store: GraphStore; schema: ReturnType<typeof schemaOf> } {
  const schema = schemaOf();
  const store = createStore(schema, { initialBytes: 512 << 20 });
  const batch = 200_000;
  for (let i = 0; i < g.n; i += batch) {
    const vertices = [];
    for (let j = i; j < Math.min(g.n, i + batch); j++) vertices.push({ type: "V", id: j });
    store.upsert({ vertices });
  }
  for (let i = 0; i < g.src.length; i += batch) {
    const edges = [];
    for (let j = i; j < Math.min(g.src.length, i + batch); j++) edges.push({ type: "E", from: { type: "V", id: g.src[j] }, to: { type: "V", id: g.dst[j] } });
    store.upsert({ edges });
  }
  store.compact();
  return { store, schema };
}

function schemaOf() {
  const fe = analyzeSource(DDL, "bench.gsql");
  return fe.bound!.schema;
}

/** Front end + back end + WebAssembly.compile of one query, in ms. */
async function install(text: string, level: 0 | 1 | 2 | 3): Promise<{ ms: number; module: WebAssembly.Module; manifest: ReturnType<typeof compileQuery>["manifest"] }> {
  const t0 = performance.now();
  const fe = analyzeSource(DDL + "\n" + text, "q.gsql");
  if (fe.log.diagnostics.some((d) => d.severity === "error")) throw new Error(`bench query does not compile: ${fe.log.diagnostics[0]?.message}`);
  const q = fe.bound!.queries[fe.bound!.queries.length - 1];
  const compiled = compileQuery(q, fe.bound!.schema, level);
  const module = await WebAssembly.compile(compiled.bytes as Uint8Array<ArrayBuffer>);
  return { ms: performance.now() - t0, module, manifest: compiled.manifest };
}

async function run(report: BenchReport): Promise<void> {
  const scale = Number(process.env.BENCH_SCALE ?? 18);
  const edges = Number(process.env.BENCH_EDGES ?? 4_000_000);
  const parts = new Set((process.env.BENCH_PARTS ?? "install,library,optimize,pagerank,bfs,wcc,triangles").split(","));

  // ---- INSTALL latency (parse, bind, lower, passes, emit, WebAssembly.compile)
  for (const [name, text] of parts.has("install") ? ([["pagerank", PAGERANK], ["bfs", BFS], ["wcc", WCC], ["triangles", TRIANGLES]] as const) : []) {
    for (const level of [1, 2] as const) {
      await install(text, level); // warm
      const times: number[] = [];
      for (let i = 0; i < 9; i++) times.push((await install(text, level)).ms);
      report.line(`INSTALL ${name} -O${level} (median of 9)`, median(times), "ms");
    }
  }

  // ---- INSTALL of the whole algorithm library (every algorithm, every variant)
  if (parts.has("library")) {
    await installLibrary(); // warm
    const runs = [await installLibrary(), await installLibrary(), await installLibrary()];
    const best = runs.reduce((a, b) => (a.bindMs + a.compileMs <= b.bindMs + b.compileMs ? a : b));
    report.line(
      `INSTALL the algorithm library (${best.queries} queries, best of 3)`,
      best.bindMs + best.compileMs,
      "ms",
      `bind ${best.bindMs.toFixed(0)} ms, compile ${best.compileMs.toFixed(0)} ms; slowest ${best.slowest.name} ${best.slowest.ms.toFixed(0)} ms`,
    );
  }
  if (parts.has("optimize")) await benchOptimize(report);
  if (![...parts].some((p) => p !== "install" && p !== "library" && p !== "optimize")) return;

  // ---- data
  const t0 = performance.now();
  const g = buildGraph(scale, edges);
  report.note(`R-MAT scale ${scale}: ${g.n} vertices, ${g.src.length} distinct directed edges (generated in ${(performance.now() - t0).toFixed(0)} ms)`);
  const t1 = performance.now();
  const { store } = loadStore(g);
  report.line("store load (upsert in batches of 200k, then compact)", performance.now() - t1, "ms");

  const runtime = new QueryRuntime({ workers: 1 });
  try {
    const gsql: { pageRankIteration?: number; bfs?: number; wcc?: number } = {};
    if (parts.has("pagerank")) gsql.pageRankIteration = await benchPageRank(report, store, g, runtime);
    if (parts.has("bfs")) gsql.bfs = await benchBfs(report, store, g, runtime);
    if (parts.has("wcc")) gsql.wcc = await benchWcc(report, store, g, runtime);
    if (parts.has("triangles")) await benchTriangles(report, store, g, runtime);
    if (process.env.BENCH_GRAPHOLOGY !== "0") {
      const gl = await graphologyPeers(g, report);
      if (gsql.pageRankIteration !== undefined) report.ratio("PageRank per iteration vs graphology", gsql.pageRankIteration, gl.pageRankMsPerIteration, "graphology");
      if (gsql.bfs !== undefined) report.ratio("BFS vs graphology", gsql.bfs, gl.bfsMs, "graphology");
      if (gsql.wcc !== undefined) report.ratio("WCC vs graphology", gsql.wcc, gl.wccMs, "graphology");
    }
  } finally {
    await runtime.close();
  }
}

/** GSQL PageRank against the WebAssembly kernel and plain JS; the GSQL per-iteration ms. */
async function benchPageRank(report: BenchReport, store: GraphStore, g: BenchGraph, runtime: QueryRuntime): Promise<number> {
  const pr = await install(PAGERANK, 1);
  const prRun = await runtime.run(store, "R", pr, [], { monitor: true, timeoutMs: 600000 });
  if (!prRun.ok) throw new Error(`pagerank failed: ${prRun.message}`);
  const iterations = (prRun.monitor ?? []).filter((t) => t.select === 0).map((t) => t.ms);
  // Per-iteration figures are the fastest of the 20 passes (steady state: compiled code has
  // tiered up, and on a shared machine the minimum is the least disturbed measurement).
  const gsqlIter = Math.min(...iterations);
  report.line("GSQL PageRank per iteration", gsqlIter, "ms", `${spread(iterations)}; whole query ${prRun.ms.toFixed(0)} ms`);
  const { iterationMs: kernel, top: kernelTop } = wasmPageRankKernel(store, 20);
  report.line("hand-written WebAssembly PageRank per iteration", Math.min(...kernel), "ms", spread(kernel));
  const { iterationMs: js, scores: jsScores } = jsPageRank(g.csr, 20);
  // The three compute the same scores: check the highest one agrees.
  const jsTop = jsScores.reduce((a, b) => Math.max(a, b), -Infinity);
  const gsqlTop = Number((JSON.parse(prRun.results) as Record<string, unknown>[])[0]["@@top"]);
  for (const [who, top] of [["GSQL", gsqlTop], ["WebAssembly kernel", kernelTop]] as const) {
    if (!(Math.abs(top - jsTop) <= 1e-9 * Math.abs(jsTop))) throw new Error(`PageRank: ${who} top score ${top}, plain JS ${jsTop}`);
  }
  report.line("plain JS typed-array PageRank per iteration", Math.min(...js), "ms", spread(js));
  report.ratio("PageRank per iteration vs hand-written WebAssembly", gsqlIter, Math.min(...kernel), "wasm kernel");
  report.ratio("PageRank per iteration vs plain JS", gsqlIter, Math.min(...js), "plain JS");
  return gsqlIter;
}

/** GSQL BFS from the biggest hub (vertex 0 in R-MAT) against plain JS; the GSQL ms. */
async function benchBfs(report: BenchReport, store: GraphStore, g: BenchGraph, runtime: QueryRuntime): Promise<number> {
  const bfs = await install(BFS, 1);
  const bfsRun = await runtime.run(store, "R", bfs, [{ id: 0 }], { timeoutMs: 600000 });
  if (!bfsRun.ok) throw new Error(`bfs failed: ${bfsRun.message}`);
  const jsb = jsBfs(g.csr, 0);
  report.line("GSQL BFS", bfsRun.ms, "ms", bfsRun.results);
  report.line("plain JS BFS", jsb.ms, "ms", `reached ${jsb.reached}`);
  report.ratio("BFS vs plain JS", bfsRun.ms, jsb.ms, "plain JS");
  return bfsRun.ms;
}

/** GSQL WCC against plain JS label propagation; the GSQL ms. */
async function benchWcc(report: BenchReport, store: GraphStore, g: BenchGraph, runtime: QueryRuntime): Promise<number> {
  const wcc = await install(WCC, 1);
  const wccRun = await runtime.run(store, "R", wcc, [], { timeoutMs: 600000 });
  if (!wccRun.ok) throw new Error(`wcc failed: ${wccRun.message}`);
  const jsw = jsWcc(g.undirected);
  report.line("GSQL WCC", wccRun.ms, "ms", wccRun.results);
  report.line("plain JS WCC (label propagation)", jsw.ms, "ms", `${jsw.components} components`);
  report.ratio("WCC vs plain JS", wccRun.ms, jsw.ms, "plain JS");
  return wccRun.ms;
}

/** GSQL triangle counting against plain JS. */
async function benchTriangles(report: BenchReport, store: GraphStore, g: BenchGraph, runtime: QueryRuntime): Promise<void> {
  const tri = await install(TRIANGLES, 1);
  const triRun = await runtime.run(store, "R", tri, [], { timeoutMs: 1800000 });
  if (!triRun.ok) throw new Error(`triangles failed: ${triRun.message}`);
  const jst = jsTriangles(g.undirected);
  report.line("GSQL triangle counting", triRun.ms, "ms", triRun.results);
  report.line("plain JS triangle counting", jst.ms, "ms", `${jst.triangles} triangles`);
  report.ratio("triangle counting vs plain JS", triRun.ms, jst.ms, "plain JS");
}

export const suite: BenchSuite = {
  name: "queries",
  description: "INSTALL latency; PageRank, BFS, WCC, triangles in GSQL vs plain JS, a WebAssembly kernel and graphology",
  run,
};
