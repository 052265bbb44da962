// Shared setup of the algorithm-library tests: a graph schema with a directed and an
// undirected weighted edge type and attributes the `_attr` variants write, small graphs
// given as edge lists, rendering a library query for them and running it through the whole
// compiler and runtime, and reading results back from JSON, files and attributes.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mulberry32 } from "../../tools/bench/rmat.js";
import { algorithm, queryName, renderQuery } from "../../tools/algorithms/library.js";
import type { RenderChoices, Variant } from "../../tools/algorithms/render.js";
import type { QueryArgument } from "../../runtime-wasm/query/query-runtime.js";
import { compileGsql, createDatabase, sharedRuntime, type CompiledForTest, type TestDatabase } from "../runtime-wasm/queries/gsql-harness.js";

export { closeSharedRuntime } from "../runtime-wasm/queries/gsql-harness.js";

export const DDL = `
CREATE VERTEX V (PRIMARY_ID id STRING, score DOUBLE, label INT, dist INT, wdist DOUBLE, path STRING)
CREATE DIRECTED EDGE E (FROM V, TO V, w DOUBLE)
CREATE UNDIRECTED EDGE U (FROM V, TO V, w DOUBLE)
CREATE DIRECTED EDGE Similar (FROM V, TO V, score DOUBLE)
CREATE GRAPH G (V, E, U, Similar)
`;

/** A test graph: vertices 0..n-1 (ids "v0", "v1", ...) and weighted edges of E and U. */
export interface TestGraph {
  n: number;
  directed: [number, number, number][];
  undirected: [number, number, number][];
}

export const id = (i: number) => `v${i}`;
export const index = (vid: string) => Number(vid.slice(1));

export function graph(n: number, directed: [number, number, number?][] = [], undirected: [number, number, number?][] = []): TestGraph {
  return { n, directed: directed.map(([a, b, w]) => [a, b, w ?? 1]), undirected: undirected.map(([a, b, w]) => [a, b, w ?? 1]) };
}

/**
 * A seeded random simple graph: `m` distinct directed edges and `m` distinct undirected
 * ones, no self-loops, weights drawn from `weights`.
 */
export function randomGraph(seed: number, n: number, m: number, weights: () => number = () => 1): TestGraph {
  const rnd = mulberry32(seed);
  const pick = () => Math.floor(rnd() * n);
  const seen = new Set<string>();
  const directed: [number, number, number][] = [];
  const undirected: [number, number, number][] = [];
  while (directed.length < m) {
    const [a, b] = [pick(), pick()];
    if (a === b || seen.has(`d${a},${b}`)) continue;
    seen.add(`d${a},${b}`);
    directed.push([a, b, weights()]);
  }
  while (undirected.length < m) {
    const [x, y] = [pick(), pick()];
    const [a, b] = x < y ? [x, y] : [y, x];
    if (a === b || seen.has(`u${a},${b}`)) continue;
    seen.add(`u${a},${b}`);
    undirected.push([a, b, weights()]);
  }
  return { n, directed, undirected };
}

export interface Loaded {
  g: TestGraph;
  db: TestDatabase;
  /** Internal id of vertex i (the query language's getvid). */
  vid: number[];
}

export function load(g: TestGraph): Loaded {
  const db = createDatabase(DDL, {
    vertices: Array.from({ length: g.n }, (_, i) => ({ type: "V", id: id(i) })),
    edges: [
      ...g.directed.map(([a, b, w]) => ({ type: "E", from: { type: "V", id: id(a) }, to: { type: "V", id: id(b) }, attributes: [{ name: "w", value: w }] })),
      ...g.undirected.map(([a, b, w]) => ({ type: "U", from: { type: "V", id: id(a) }, to: { type: "V", id: id(b) }, attributes: [{ name: "w", value: w }] })),
    ],
  });
  const vid = db.store.read((s) => Array.from({ length: g.n }, (_, i) => s.lookup("V", id(i))!));
  return { g, db, vid };
}

/** Install-time choices on the test schema: one vertex type, the edge type by name. */
export function choices(edge: "E" | "U" | "both", slots: Record<string, string> = {}): RenderChoices {
  const edgeTypes = edge === "both" ? [{ name: "E", directed: true }, { name: "U", directed: false }] : [{ name: edge, directed: edge === "E" }];
  return { graph: "G", vertexTypes: ["V"], edgeTypes, weightAttribute: "w", slots };
}

const compiled = new Map<string, CompiledForTest>();

/** Runs one variant of a library algorithm; returns the results JSON. Fails the test on an error. */
export async function run(l: Loaded, name: string, variant: Variant, c: RenderChoices, args: QueryArgument[] = []): Promise<unknown[]> {
  const r = await tryRun(l, name, variant, c, args);
  if (!r.ok) throw new Error(`${queryName(algorithm(name), variant)} failed (${r.kind}): ${r.message}`);
  return r.json;
}

export async function tryRun(l: Loaded, name: string, variant: Variant, c: RenderChoices, args: QueryArgument[] = []) {
  const text = renderQuery(algorithm(name), variant, c);
  let q = compiled.get(text);
  if (q === undefined) {
    q = await compileGsql(l.db, text);
    compiled.set(text, q);
  }
  const r = await sharedRuntime().run(l.db.store, l.db.graph, q, args, { timeoutMs: 30000 });
  return r.ok ? { ...r, json: JSON.parse(r.results) as unknown[] } : r;
}

/** Attribute `name` of every vertex, by vertex index. */
export function attributes(l: Loaded, name: string): unknown[] {
  return l.db.store.read((s) => Array.from({ length: l.g.n }, (_, i) => s.attribute(l.vid[i], name)));
}

/** Edges of type `type` as [from index, to index, attribute value]. */
export function edgesOf(l: Loaded, type: string, attr: string): [number, number, number][] {
  return l.db.store.read((s) => {
    const out: [number, number, number][] = [];
    for (let i = 0; i < l.g.n; i++) for (const e of s.edges(l.vid[i], { type })) out.push([i, index(s.idText(e.to)), Number(s.edgeAttribute(e, attr))]);
    return out;
  });
}

/** A scratch directory for file variants, removed by `cleanup`. */
export function scratchDir(): { path: (name: string) => string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "wasmgraph-algo-"));
  return { path: (name) => join(dir, name), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A written file as rows of fields: [header, ...rows]. */
export function readTable(path: string): string[][] {
  const text = readFileSync(path, "utf8");
  if (!text.endsWith("\n")) throw new Error(`${path} does not end with a newline`);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line) => line.split(","));
}

/** Vertex records of a printed vertex set: index -> the one projected value under `key`. */
export function perVertex(records: unknown, key: string): Map<number, unknown> {
  return new Map((records as { v_id: string; attributes: Record<string, unknown> }[]).map((r) => [index(r.v_id), r.attributes[key]]));
}

/** Two labelings (by vertex index) describe the same partition. */
export function samePartition(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  const ab = new Map<unknown, unknown>();
  const ba = new Map<unknown, unknown>();
  for (let i = 0; i < a.length; i++) {
    if ((ab.has(a[i]) && ab.get(a[i]) !== b[i]) || (ba.has(b[i]) && ba.get(b[i]) !== a[i])) return false;
    ab.set(a[i], b[i]);
    ba.set(b[i], a[i]);
  }
  return true;
}

/** Out-neighbour lists over the chosen edges (undirected ones both ways), with weights. */
export function adjacency(g: TestGraph, edge: "E" | "U" | "both"): [number, number][][] {
  const out: [number, number][][] = Array.from({ length: g.n }, () => []);
  if (edge !== "U") for (const [a, b, w] of g.directed) out[a].push([b, w]);
  if (edge !== "E")
    for (const [a, b, w] of g.undirected) {
      out[a].push([b, w]);
      out[b].push([a, w]);
    }
  return out;
}
