// graphology, the graph library a JavaScript developer would otherwise reach for, as a peer
// of the algorithm-library bench: the same undirected weighted graph, then those of the
// library's algorithms graphology has (PageRank, connected components, BFS paths, Dijkstra,
// Louvain, closeness), each run once. Loaded from tools/bench/peers (npm run bench:peers).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { BenchReport } from "./run.js";

interface Graph {
  addNode(key: number): void;
  addEdge(source: number, target: number, attributes: { w: number }): void;
}

interface Figures {
  name: string;
  seconds: Map<string, number>;
  overLimit: Map<string, number>;
  /** The printed description of each result (louvain: its modularity). */
  results: Map<string, string>;
  notes: string[];
}

export async function graphologyAlgorithms(g: { n: number; src: Uint32Array; dst: Uint32Array; w: Float64Array }, peersDir: string, wanted: Set<string>, report: BenchReport): Promise<Figures> {
  const figures: Figures = { name: "graphology", seconds: new Map(), overLimit: new Map(), results: new Map(), notes: [] };
  const require = createRequire(join(peersDir, "package.json"));
  let lib;
  try {
    lib = {
      UndirectedGraph: (require("graphology") as { UndirectedGraph: new () => Graph }).UndirectedGraph,
      pagerank: require("graphology-metrics/centrality/pagerank") as (graph: Graph, options: object) => Record<string, number>,
      connectedComponents: (require("graphology-components") as { connectedComponents: (graph: Graph) => unknown[][] }).connectedComponents,
      bfsPaths: (require("graphology-shortest-path/unweighted") as { singleSource: (graph: Graph, source: string) => Record<string, string[]> }).singleSource,
      dijkstra: (require("graphology-shortest-path/dijkstra") as { singleSource: (graph: Graph, source: string, weight: string) => Record<string, string[]> }).singleSource,
      louvain: require("graphology-communities-louvain") as { detailed: (graph: Graph) => { count: number; modularity: number } },
      closeness: require("graphology-metrics/centrality/closeness") as (graph: Graph) => Record<string, number>,
    };
  } catch (err) {
    figures.notes.push(`graphology: not measured, its packages do not load from tools/bench/peers (npm run bench:peers): ${(err as Error).message.split("\n")[0]}`);
    return figures;
  }
  figures.name = `graphology ${(JSON.parse(readFileSync(join(peersDir, "node_modules", "graphology", "package.json"), "utf8")) as { version: string }).version}`;
  const t0 = performance.now();
  const graph = new lib.UndirectedGraph();
  for (let v = 0; v < g.n; v++) graph.addNode(v);
  for (let i = 0; i < g.src.length; i++) graph.addEdge(g.src[i], g.dst[i], { w: g.w[i] });
  report.line(`${figures.name}: build the graph`, (performance.now() - t0) / 1000, "s");

  // only the algorithms the bench measures on this graph
  const measure = <T>(algorithm: string, run: () => T, describe: (result: T) => string = String) => {
    if (!wanted.has(algorithm)) return;
    try {
      const t = performance.now();
      const result = run();
      const seconds = (performance.now() - t) / 1000;
      figures.seconds.set(algorithm, seconds);
      figures.results.set(algorithm, describe(result));
      report.line(`${figures.name} ${algorithm}`, seconds, "s", figures.results.get(algorithm));
    } catch (err) {
      figures.notes.push(`${figures.name} ${algorithm}: failed (${(err as Error).message})`);
    }
  };
  // the largest score, by a loop: spreading 262k values into Math.max overflows the stack
  measure("pageRank", () => Object.values(lib.pagerank(graph, { alpha: 0.85, getEdgeWeight: null })).reduce((a, b) => Math.max(a, b), 0));
  measure("conn_comp", () => lib.connectedComponents(graph).length);
  measure("shortest_ss", () => Object.keys(lib.bfsPaths(graph, "0")).length);
  measure("shortest_path_any_wt", () => Object.keys(lib.dijkstra(graph, "0", "w")).length);
  measure("louvain", () => lib.louvain.detailed(graph), (r) => `${r.count} communities, modularity ${r.modularity.toFixed(4)}`);
  measure("closeness_cent", () => Object.values(lib.closeness(graph)).reduce((a, b) => Math.max(a, b), 0));
  return figures;
}
