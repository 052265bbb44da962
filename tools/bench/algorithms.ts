// Bench suite "algorithms": each query of the algorithm library (its stream variant, as the
// installer renders it) on one R-MAT graph, 2^18 vertices and about 3.8M distinct undirected
// edges with weights, against igraph and NetworkX (Python, from Debian's packages, installed
// on demand by peers/install-debian-peers.sh) and graphology (npm, tools/bench/peers), each
// run once on the same graph in the same process run. Reported: seconds per system and our
// speed-up over each peer and over the fastest peer. Options (environment): BENCH_ALGO_SCALE
// (default 18), BENCH_ALGO_EDGES (default 4000000 generated), BENCH_PEER_LIMIT (seconds one
// peer algorithm may take before it is stopped and reported as slower than that; default
// 600), BENCH_ALGO_PEERS (comma-separated subset of igraph,networkx,graphology; "none"),
// BENCH_ALGO_ONLY (comma-separated library queries to measure; default all), BENCH_ALGO_THREADS
// (threads per SELECT for the parallel-SELECT run of each query, measured after the one-thread
// run in the same process; default: the machine's cores; 1 skips it), BENCH_ALGO_CLOCKS=1 (notes
// where each run's time went: the busiest thread on a processor or waiting, other processes).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { analyzeSource } from "../../compiler/front-end.js";
import { compileQuery } from "../../compiler/back-end.js";
import { createStore, type GraphStore } from "../../runtime-wasm/store/index.js";
import { QueryRuntime, type QueryArgument } from "../../runtime-wasm/query/query-runtime.js";
import { compileQueryModule } from "../../runtime-wasm/query/compile-module.js";
import { algorithm, renderQuery } from "../algorithms/library.js";
import { mulberry32, rmat } from "./rmat.js";
import { graphologyAlgorithms } from "./algorithm-peers-graphology.js";
import type { BenchReport, BenchSuite } from "./run.js";
import { describeClocks, readClocks } from "./thread-clocks.js";

const PEERS_DIR = fileURLToPath(new URL("../../../tools/bench/peers/", import.meta.url));

export const ALGO_DDL = `
CREATE VERTEX V (PRIMARY_ID id UINT)
CREATE UNDIRECTED EDGE U (FROM V, TO V, w DOUBLE)
CREATE GRAPH R (V, U)
`;

/** The library queries measured, with their arguments (source vertex 0: R-MAT's biggest hub). */
export const MEASURED: { name: string; args: QueryArgument[]; note?: string; maxScale?: number }[] = [
  { name: "pageRank", args: [0.001, 25n, 0.85, false, 100n] },
  { name: "conn_comp", args: [] },
  { name: "shortest_ss", args: [{ id: 0 }, -1n, false] },
  { name: "shortest_path_any_wt", args: [{ id: 0 }, -1n, false], note: "ours Bellman-Ford (negative weights allowed); igraph and graphology Dijkstra" },
  { name: "tri_count", args: [] },
  { name: "tri_count_fast", args: [] },
  { name: "label_prop", args: [10n] },
  { name: "louvain", args: [] },
  { name: "jaccard_nbor_ss", args: [{ id: 0 }, 10n] },
  { name: "cosine_nbor_ss", args: [{ id: 0 }, 10n], note: "no peer has it" },
  // one breadth-first search per vertex (V x E) for every system: beyond reach at scale 18,
  // so measured on a smaller graph (BENCH_ALGO_SCALE=12 BENCH_ALGO_ONLY=closeness_cent,...)
  { name: "closeness_cent", args: [false, 10n], maxScale: 13 },
  // all pairs sharing a neighbour: grows with the two-hop pairs, so the smaller graph as well
  { name: "jaccard_nbor_ap", args: [10n], maxScale: 13 },
  { name: "cosine_nbor_ap", args: [10n], maxScale: 13, note: "no peer has it" },
];

/** Peer algorithm that matches a library query (tri_count_fast is measured against the same triangle counts). */
const PEER_NAME: Record<string, string> = { tri_count_fast: "tri_count" };

export interface AlgoGraph {
  n: number;
  src: Uint32Array;
  dst: Uint32Array;
  w: Float64Array;
}

/** R-MAT edges made undirected and distinct (no self-loops), with weights 1..100. */
export function buildAlgoGraph(scale: number, edges: number): AlgoGraph {
  const g = rmat({ scale, edges, seed: 42, noSelfLoops: true });
  const seen = new Set<number>();
  const src: number[] = [];
  const dst: number[] = [];
  for (let i = 0; i < g.src.length; i++) {
    const [a, b] = g.src[i] < g.dst[i] ? [g.src[i], g.dst[i]] : [g.dst[i], g.src[i]];
    const key = a * g.vertexCount + b;
    if (seen.has(key)) continue;
    seen.add(key);
    src.push(a);
    dst.push(b);
  }
  const rnd = mulberry32(7);
  const w = Float64Array.from(src, () => 1 + Math.floor(rnd() * 100));
  return { n: g.vertexCount, src: Uint32Array.from(src), dst: Uint32Array.from(dst), w };
}

export function loadStore(g: AlgoGraph): GraphStore {
  const store = createStore(analyzeSource(ALGO_DDL, "bench.gsql").bound!.schema, { initialBytes: 1024 << 20 });
  const batch = 200_000;
  for (let i = 0; i < g.n; i += batch) store.upsert({ vertices: Array.from({ length: Math.min(batch, g.n - i) }, (_, j) => ({ type: "V", id: i + j })) });
  for (let i = 0; i < g.src.length; i += batch) {
    const edges = [];
    for (let j = i; j < Math.min(g.src.length, i + batch); j++) edges.push({ type: "U", from: { type: "V", id: g.src[j] }, to: { type: "V", id: g.dst[j] }, attributes: [{ name: "w", value: g.w[j] }] });
    store.upsert({ edges });
  }
  store.compact();
  return store;
}

export async function install(name: string, level: 0 | 1 | 2 | 3 = 1) {
  const text = renderQuery(algorithm(name), "stream", { graph: "R", vertexTypes: ["V"], edgeTypes: [{ name: "U", directed: false }], weightAttribute: "w" });
  const fe = analyzeSource(ALGO_DDL + "\n" + text, "q.gsql");
  const errors = fe.log.diagnostics.filter((d) => d.severity === "error");
  if (errors.length) throw new Error(`${name} does not compile: ${errors[0].message}`);
  const compiled = compileQuery(fe.bound!.queries.at(-1)!, fe.bound!.schema, level);
  return { module: await compileQueryModule(compiled.bytes), manifest: compiled.manifest };
}

/** Number of communities and modularity of louvain's printed partition (`All.@cid` per vertex). */
function describeCommunities(g: AlgoGraph, results: string): string {
  const records = (JSON.parse(results) as { All: { v_id: string; attributes: Record<string, number> }[] }[])[0].All;
  const community = new Float64Array(g.n);
  for (const r of records) community[Number(r.v_id)] = r.attributes["All.@cid"];
  const degreeSum = new Map<number, number>();
  let inside = 0;
  for (let i = 0; i < g.src.length; i++) {
    const [a, b] = [community[g.src[i]], community[g.dst[i]]];
    degreeSum.set(a, (degreeSum.get(a) ?? 0) + 1);
    degreeSum.set(b, (degreeSum.get(b) ?? 0) + 1);
    if (a === b) inside += 2;
  }
  const twiceEdges = 2 * g.src.length;
  let squares = 0;
  for (const d of degreeSum.values()) squares += d * d;
  const communities = new Set(community).size;
  return `${communities} communities, modularity ${(inside / twiceEdges - squares / (twiceEdges * twiceEdges)).toFixed(4)}`;
}

/** The modularity in a printed louvain description ("..., modularity 0.0851"). */
function modularityIn(description: string | undefined): number | undefined {
  const found = description === undefined ? null : /modularity (-?[0-9.]+)/.exec(description);
  return found === null ? undefined : Number(found[1]);
}

/** Seconds per algorithm of one peer (undefined: not measured, with the reason in `notes`). */
interface PeerFigures {
  name: string;
  seconds: Map<string, number>;
  /** Stopped after this many seconds. */
  overLimit: Map<string, number>;
  /** The printed description of each result (louvain: its modularity). */
  results: Map<string, string>;
  notes: string[];
}

function graphFile(g: AlgoGraph, dir: string): string {
  const header = new Uint32Array([g.n, g.src.length]);
  const path = join(dir, "graph.bin");
  writeFileSync(path, Buffer.concat([Buffer.from(header.buffer), Buffer.from(g.src.buffer), Buffer.from(g.dst.buffer), Buffer.from(g.w.buffer)]));
  return path;
}

function pythonPeer(library: "igraph" | "networkx", path: string, limit: number, algorithms: string[], report: BenchReport): Promise<PeerFigures> {
  const figures: PeerFigures = { name: library, seconds: new Map(), overLimit: new Map(), results: new Map(), notes: [] };
  return new Promise((resolve) => {
    const child = spawn("/usr/bin/python3", [join(PEERS_DIR, "python-peers.py"), library, path, String(limit), ...algorithms], { stdio: ["ignore", "pipe", "pipe"] });
    let pending = "";
    let errors = "";
    child.stdout.on("data", (d: Buffer) => {
      pending += d.toString("utf8");
      for (let i = pending.indexOf("\n"); i >= 0; i = pending.indexOf("\n")) {
        const line = JSON.parse(pending.slice(0, i)) as { algorithm: string; library?: string; seconds?: number; overLimit?: number; skipped?: string; result?: string };
        pending = pending.slice(i + 1);
        if (line.algorithm === "build") {
          figures.name = line.library!;
          report.line(`${figures.name}: build the graph`, line.seconds!, "s");
        } else if (line.seconds !== undefined) {
          figures.seconds.set(line.algorithm, line.seconds);
          if (line.result !== undefined) figures.results.set(line.algorithm, line.result);
          report.line(`${figures.name} ${line.algorithm}`, line.seconds, "s", line.result);
        } else if (line.overLimit !== undefined) {
          figures.overLimit.set(line.algorithm, line.overLimit);
          report.note(`${figures.name} ${line.algorithm}: stopped after ${line.overLimit} s`);
        } else report.note(`${figures.name} ${line.algorithm}: ${line.skipped}`);
      }
    });
    child.stderr.on("data", (d: Buffer) => (errors += d.toString("utf8")));
    child.on("close", (code) => {
      if (code !== 0) figures.notes.push(`${library} exited with ${code}: ${errors.trim().split("\n").at(-1)}`);
      resolve(figures);
    });
  });
}

/** Whether the Python peers can be imported, installing them first when they cannot (Debian, as root). */
function pythonPeersReady(report: BenchReport): boolean {
  const installer = spawnSync("sh", [join(PEERS_DIR, "install-debian-peers.sh")], { encoding: "utf8" });
  report.note((installer.stdout || installer.stderr || "python peers: installer did not run").trim());
  return spawnSync("/usr/bin/python3", ["-c", "import igraph, networkx, numpy"]).status === 0;
}

async function run(report: BenchReport): Promise<void> {
  const scale = Number(process.env.BENCH_ALGO_SCALE ?? 18);
  const edges = Number(process.env.BENCH_ALGO_EDGES ?? 4_000_000);
  const limit = Number(process.env.BENCH_PEER_LIMIT ?? 600);
  const peersWanted = new Set((process.env.BENCH_ALGO_PEERS ?? "igraph,networkx,graphology").split(","));

  const t0 = performance.now();
  const g = buildAlgoGraph(scale, edges);
  report.note(`R-MAT scale ${scale}: ${g.n} vertices, ${g.src.length} distinct undirected edges, weights 1..100 (generated in ${(performance.now() - t0).toFixed(0)} ms)`);
  const t1 = performance.now();
  const store = loadStore(g);
  report.line("wasmgraph: store load (upsert in batches, compact)", (performance.now() - t1) / 1000, "s");

  const only = process.env.BENCH_ALGO_ONLY?.split(",");
  const measured = MEASURED.filter((m) => (only === undefined || only.includes(m.name)) && (m.maxScale === undefined || scale <= m.maxScale));
  for (const m of MEASURED)
    if (m.maxScale !== undefined && scale > m.maxScale && (only === undefined || only.includes(m.name)))
      report.note(`${m.name}: not measured at scale ${scale} (V x E work for every system); run it with BENCH_ALGO_SCALE=12 BENCH_ALGO_EDGES=62500 BENCH_ALGO_ONLY=${m.name}`);
  const peerAlgorithms = [...new Set(measured.map((m) => PEER_NAME[m.name] ?? m.name))];
  const ours = new Map<string, number>();
  const runtime = new QueryRuntime({ workers: 1, selectThreads: 1 });
  const threads = Number(process.env.BENCH_ALGO_THREADS ?? availableParallelism());
  const parallelRuntime = threads > 1 ? new QueryRuntime({ workers: 1, selectThreads: threads }) : undefined;
  const ourResults = new Map<string, string>();
  // BENCH_ALGO_CLOCKS=1: where each run's time went (scheduler counters) and the graph memory's size
  const clocks = process.env.BENCH_ALGO_CLOCKS === "1";
  const memoryBytes = () => ((store.memory as unknown as WebAssembly.Memory).buffer.byteLength / 2 ** 20).toFixed(0);
  const parallelResults = new Map<string, { ms: number; results: string }>();
  try {
    for (const m of measured) {
      const q = await install(m.name);
      const started = performance.now();
      const before = clocks ? readClocks() : undefined;
      const r = await runtime.run(store, "R", q, m.args, { timeoutMs: 3_600_000 });
      const endToEnd = (performance.now() - started) / 1000;
      if (before) report.note(`clocks ${m.name}: ${describeClocks(before, readClocks(), loadavg()[0])}; graph memory ${memoryBytes()} MiB`);
      if (!r.ok) {
        report.note(`wasmgraph ${m.name}: failed (${r.kind}): ${r.message}`);
        continue;
      }
      ours.set(m.name, r.ms / 1000);
      const quality = m.name === "louvain" ? `${describeCommunities(g, r.results)}; ` : "";
      if (quality) ourResults.set(m.name, quality);
      // the figure compared is the run in the worker (to the typed output stream); turning
      // that stream into the response's JSON text happens after, on the calling thread
      report.line(`wasmgraph ${m.name}`, r.ms / 1000, "s", `${quality}${r.results.length} bytes of JSON, ${endToEnd.toFixed(3)} s with the JSON text${m.note ? "; " + m.note : ""}`);
      if (parallelRuntime) {
        // then the same query with its eligible SELECTs split over `threads` threads
        const before = clocks ? readClocks() : undefined;
        const r = await parallelRuntime.run(store, "R", q, m.args, { timeoutMs: 3_600_000 });
        if (before) report.note(`clocks ${m.name}, ${threads} threads: ${describeClocks(before, readClocks(), loadavg()[0])}`);
        if (r.ok) {
          const splits = r.parallel ? `${r.parallel.splits} SELECT walks split, ${r.parallel.helperChunks} chunks run by helper threads` : "no SELECT split";
          report.line(`wasmgraph ${m.name}, ${threads} threads per SELECT`, r.ms / 1000, "s", splits);
          parallelResults.set(m.name, { ms: r.ms, results: r.results });
        } else report.note(`wasmgraph ${m.name} with ${threads} threads per SELECT: failed (${r.kind}): ${r.message}`);
      }
      const par = parallelResults.get(m.name);
      if (par) report.line(`wasmgraph ${m.name}: ${threads} threads per SELECT against 1`, r.ms / par.ms, "x", par.results === r.results ? "same results JSON" : "results JSON differs (floating-point sums added in another order)");
    }
  } finally {
    await runtime.close();
    await parallelRuntime?.close();
  }

  const peers: PeerFigures[] = [];
  const dir = mkdtempSync(join(tmpdir(), "wasmgraph-bench-algo-"));
  try {
    if ((peersWanted.has("igraph") || peersWanted.has("networkx")) && pythonPeersReady(report)) {
      const path = graphFile(g, dir);
      for (const library of ["igraph", "networkx"] as const) if (peersWanted.has(library)) peers.push(await pythonPeer(library, path, limit, peerAlgorithms, report));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (peersWanted.has("graphology")) peers.push(await graphologyAlgorithms(g, PEERS_DIR, new Set(peerAlgorithms), report));
  for (const p of peers) for (const note of p.notes) report.note(note);

  // ---- ratios: ours against each peer, and against the fastest peer
  for (const m of MEASURED) {
    const mine = ours.get(m.name);
    if (mine === undefined) continue;
    const peerName = PEER_NAME[m.name] ?? m.name;
    let fastest: { name: string; seconds: number } | undefined;
    for (const p of peers) {
      const s = p.seconds.get(peerName);
      if (s !== undefined) {
        report.ratio(`${m.name} vs ${p.name}`, mine, s, p.name);
        if (fastest === undefined || s < fastest.seconds) fastest = { name: p.name, seconds: s };
      }
      const stopped = p.overLimit.get(peerName);
      if (stopped !== undefined) report.note(`${m.name} vs ${p.name}: more than ${(stopped / mine).toPrecision(3)}x (${p.name} stopped after ${stopped} s)`);
    }
    if (fastest) report.ratio(`${m.name} vs the fastest peer`, mine, fastest.seconds, fastest.name);
  }
  // Louvain's quality next to its speed: our modularity against each peer's on this graph
  const ourModularity = modularityIn(ourResults.get("louvain"));
  if (ourModularity !== undefined)
    for (const p of peers) {
      const theirs = modularityIn(p.results.get("louvain"));
      if (theirs !== undefined) report.note(`louvain modularity: ours ${ourModularity.toFixed(4)}, ${p.name} ${theirs.toFixed(4)} (difference ${(ourModularity - theirs).toFixed(4)})`);
    }
}

export const suite: BenchSuite = {
  name: "algorithms",
  description: "the algorithm library's queries on a 2^18-vertex R-MAT graph vs igraph, NetworkX and graphology",
  run,
};
