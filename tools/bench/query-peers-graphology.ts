// graphology, the graph library a JavaScript developer would otherwise reach for: the same
// graph built as a graphology DirectedGraph, then its PageRank (20 iterations), BFS and
// connected components.
import { createRequire } from "node:module";
import type { BenchReport } from "./run.js";

const require = createRequire(import.meta.url);

interface GraphologyGraph {
  addNode(key: number): void;
  addEdge(source: number, target: number): void;
  size: number;
}

export async function graphologyPeers(
  g: { n: number; src: Uint32Array; dst: Uint32Array },
  report: BenchReport,
): Promise<{ pageRankMsPerIteration: number; bfsMs: number; wccMs: number }> {
  const { DirectedGraph } = require("graphology") as { DirectedGraph: new () => GraphologyGraph };
  const pagerank = require("graphology-metrics/centrality/pagerank") as (graph: GraphologyGraph, options: object) => unknown;
  const { connectedComponents } = require("graphology-components") as { connectedComponents: (graph: GraphologyGraph) => unknown[][] };
  const { bfsFromNode } = require("graphology-traversal") as { bfsFromNode: (graph: GraphologyGraph, node: number, cb: () => void) => void };
  const t0 = performance.now();
  const graph = new DirectedGraph();
  for (let v = 0; v < g.n; v++) graph.addNode(v);
  for (let i = 0; i < g.src.length; i++) graph.addEdge(g.src[i], g.dst[i]);
  report.line("graphology: build the graph", performance.now() - t0, "ms");

  const t1 = performance.now();
  try {
    // a tolerance no run reaches: exactly maxIterations passes (it then reports non-convergence)
    pagerank(graph, { maxIterations: 20, tolerance: 1e-300, getEdgeWeight: null });
  } catch {
    // expected: "failed to converge" after the 20 passes
  }
  const pageRankMsPerIteration = (performance.now() - t1) / 20;
  report.line("graphology PageRank per iteration", pageRankMsPerIteration, "ms");

  const t2 = performance.now();
  let reached = 0;
  bfsFromNode(graph, 0, () => {
    reached++;
  });
  const bfsMs = performance.now() - t2;
  report.line("graphology BFS", bfsMs, "ms", `reached ${reached - 1}`);

  const t3 = performance.now();
  const components = connectedComponents(graph).length;
  const wccMs = performance.now() - t3;
  report.line("graphology connected components", wccMs, "ms", `${components} components`);
  return { pageRankMsPerIteration, bfsMs, wccMs };
}
