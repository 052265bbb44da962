// Single-source shortest paths from the algorithm library: hop counts (shortest_ss) and
// weights that may be negative (shortest_path_any_wt), against plain TypeScript breadth-first
// search and Bellman-Ford; maxDepth, directed versus undirected edges, the tie rule, negative
// cycles, the printed paths, and the file and attribute variants read back.
import { expect } from "chai";
import { adjacency, attributes, choices, closeSharedRuntime, graph, id, index, load, perVertex, randomGraph, readTable, run, scratchDir, tryRun, type Loaded, type TestGraph } from "./algo-harness.js";
import { mulberry32 } from "../../tools/bench/rmat.js";
import { algorithm, renderQuery } from "../../tools/algorithms/library.js";
import { runGsql } from "../runtime-wasm/queries/gsql-harness.js";

type Edge = "E" | "U" | "both";

/** BFS distances and the library's paths: the parent is the previous-level in-neighbour with the smallest internal id. */
function bfsReference(l: Loaded, edge: Edge, src: number, maxDepth: number): { dist: number[]; path: string[] } {
  const out = adjacency(l.g, edge);
  const dist = new Array<number>(l.g.n).fill(-1);
  const path = new Array<string>(l.g.n).fill("");
  dist[src] = 0;
  path[src] = id(src);
  let frontier = [src];
  for (let depth = 1; frontier.length > 0 && (maxDepth < 0 || depth <= maxDepth); depth++) {
    const parent = new Map<number, number>();
    for (const s of frontier) for (const [t] of out[s]) if (dist[t] < 0 && (!parent.has(t) || l.vid[s] < l.vid[parent.get(t)!])) parent.set(t, s);
    for (const [t, p] of parent) {
      dist[t] = depth;
      path[t] = `${path[p]}->${id(t)}`;
    }
    frontier = [...parent.keys()];
  }
  return { dist, path };
}

/** Bellman-Ford in rounds (distances over at most k edges after k rounds); undefined on a negative cycle. */
function bellmanFordReference(g: TestGraph, edge: Edge, src: number, maxDepth: number): number[] | undefined {
  const out = adjacency(g, edge);
  let dist = new Array<number>(g.n).fill(Infinity);
  dist[src] = 0;
  const rounds = maxDepth >= 0 ? maxDepth : g.n;
  let changed = true;
  for (let r = 0; r < rounds && changed; r++) {
    changed = false;
    const next = [...dist];
    for (let a = 0; a < g.n; a++) for (const [b, w] of out[a]) if (dist[a] + w < next[b]) (next[b] = dist[a] + w), (changed = true);
    dist = next;
  }
  if (maxDepth < 0 && changed) return undefined;
  return dist;
}

/** Every printed path starts at the source, follows existing edges, and has the printed length. */
function expectValidPath(g: TestGraph, edge: Edge, src: number, target: number, path: string, length: number, weighted: boolean): void {
  const steps = path.split("->").map(index);
  expect(steps[0]).to.equal(src);
  expect(steps.at(-1)).to.equal(target);
  const out = adjacency(g, edge);
  let total = 0;
  for (let i = 1; i < steps.length; i++) {
    const weights = out[steps[i - 1]].filter(([t]) => t === steps[i]).map(([, w]) => w);
    expect(weights, `edge ${steps[i - 1]} -> ${steps[i]} of ${path}`).to.not.be.empty;
    total += Math.min(...weights);
  }
  expect(weighted ? total : steps.length - 1, `length of ${path}`).to.equal(length);
}

type PathRecord = { dis: number; path: string };

async function paths(l: Loaded, name: string, edge: Edge, src: number, maxDepth: number, display = false): Promise<{ byVertex: Map<number, PathRecord>; edges?: string[] }> {
  const out = (await run(l, name, "stream", choices(edge), [{ id: id(src) }, BigInt(maxDepth), display])) as Record<string, unknown>[];
  const dis = perVertex(out[0].ResultSet, "dis");
  const path = perVertex(out[0].ResultSet, "path");
  const byVertex = new Map([...dis.keys()].map((v) => [v, { dis: dis.get(v) as number, path: path.get(v) as string }]));
  const edges = display ? (out[1]["@@edgeSet"] as { from_id: string; to_id: string }[]).map((e) => `${e.from_id}->${e.to_id}`).sort() : undefined;
  return { byVertex, edges };
}

describe("algorithm library: shortest_ss (hop count)", function () {
  this.timeout(60000);
  const files = scratchDir();
  after(async () => {
    files.cleanup();
    await closeSharedRuntime();
  });

  it("hand-checked graph: distances, one path per vertex by the tie rule, unreached vertices left out", async () => {
    // 0 -> 1 -> 3, 0 -> 2 -> 3, 3 -> 4; 5 unreachable
    const l = load(graph(6, [[0, 1], [1, 3], [0, 2], [2, 3], [3, 4]]));
    const { byVertex, edges } = await paths(l, "shortest_ss", "E", 0, -1, true);
    expect(Object.fromEntries(byVertex)).to.deep.equal({
      0: { dis: 0, path: "v0" },
      1: { dis: 1, path: "v0->v1" },
      2: { dis: 1, path: "v0->v2" },
      3: { dis: 2, path: "v0->v1->v3" },
      4: { dis: 3, path: "v0->v1->v3->v4" },
    });
    expect(edges).to.deep.equal(["v0->v1", "v0->v2", "v1->v3", "v3->v4"]);
  });

  it("directed edges are followed from their source only; maxDepth limits the hops", async () => {
    const l = load(graph(4, [[1, 0], [1, 2], [2, 3]], [[1, 0], [1, 2], [2, 3]]));
    expect([...(await paths(l, "shortest_ss", "E", 0, -1)).byVertex.keys()]).to.deep.equal([0]);
    expect([...(await paths(l, "shortest_ss", "U", 0, -1)).byVertex.keys()].sort()).to.deep.equal([0, 1, 2, 3]);
    expect([...(await paths(l, "shortest_ss", "U", 0, 2)).byVertex.keys()].sort()).to.deep.equal([0, 1, 2]);
    expect([...(await paths(l, "shortest_ss", "U", 0, 0)).byVertex.keys()]).to.deep.equal([0]);
  });

  for (const seed of [61, 62]) {
    it(`random graph (seed ${seed}): distances and paths as the reference`, async () => {
      const l = load(randomGraph(seed, 150, 300));
      for (const edge of ["E", "U", "both"] as const)
        for (const [src, maxDepth] of [[0, -1], [7, 3]]) {
          const ref = bfsReference(l, edge, src, maxDepth);
          const { byVertex } = await paths(l, "shortest_ss", edge, src, maxDepth);
          const expected = new Map<number, PathRecord>();
          ref.dist.forEach((d, v) => d >= 0 && expected.set(v, { dis: d, path: ref.path[v] }));
          expect(Object.fromEntries(byVertex), `${edge} from v${src}, maxDepth ${maxDepth}`).to.deep.equal(Object.fromEntries(expected));
        }
    });
  }

  it("file and attr variants", async () => {
    const l = load(randomGraph(63, 80, 120));
    const ref = bfsReference(l, "U", 5, -1);
    const path = files.path("ss.csv");
    await run(l, "shortest_ss", "file", choices("U"), [{ id: id(5) }, -1n, false, path]);
    const [header, ...rows] = readTable(path);
    expect(header).to.deep.equal(["Vertex_ID", "Distance", "Path"]);
    expect(rows.map(([v, d, p]) => [index(v), Number(d), p]).sort((a, b) => (a[0] as number) - (b[0] as number))).to.deep.equal(
      ref.dist.flatMap((d, v) => (d >= 0 ? [[v, d, ref.path[v]]] : [])),
    );
    await run(l, "shortest_ss", "attr", choices("U", { dist: "dist", path: "path" }), [{ id: id(5) }, -1n, false]);
    expect(attributes(l, "dist").map(Number)).to.deep.equal(ref.dist);
    expect(attributes(l, "path")).to.deep.equal(ref.path);
  });
});

describe("algorithm library: shortest_path_any_wt (Bellman-Ford)", function () {
  this.timeout(60000);
  const files = scratchDir();
  after(async () => {
    files.cleanup();
    await closeSharedRuntime();
  });

  function expectMatches(l: Loaded, edge: Edge, src: number, maxDepth: number, got: Map<number, PathRecord>): void {
    const ref = bellmanFordReference(l.g, edge, src, maxDepth)!;
    const reached = ref.flatMap((d, v) => (d < Infinity ? [v] : []));
    expect([...got.keys()].sort((a, b) => a - b), "reached vertices").to.deep.equal(reached);
    for (const v of reached) {
      expect(got.get(v)!.dis, `distance to v${v}`).to.equal(ref[v]);
      // within maxDepth rounds a path may be longer than its distance says only if it is not
      // the one the rounds found; with no limit every printed path has the printed weight
      if (maxDepth < 0) expectValidPath(l.g, edge, src, v, got.get(v)!.path, ref[v], true);
    }
  }

  it("hand-checked graph with a negative edge: the cheaper, longer path wins; ties keep one path", async () => {
    // 0 -> 1 (4), 0 -> 2 (1), 2 -> 1 (-2), 1 -> 3 (1), 2 -> 3 (0): to 3 both 0-2-1-3 and 0-2-3 cost 0... and 1
    const l = load(graph(5, [[0, 1, 4], [0, 2, 1], [2, 1, -2], [1, 3, 1], [2, 3, 0]]));
    const { byVertex, edges } = await paths(l, "shortest_path_any_wt", "E", 0, -1, true);
    expect(Object.fromEntries(byVertex)).to.deep.equal({
      0: { dis: 0, path: "v0" },
      1: { dis: -1, path: "v0->v2->v1" },
      2: { dis: 1, path: "v0->v2" },
      3: { dis: 0, path: "v0->v2->v1->v3" },
    });
    expect(edges).to.deep.equal(["v0->v2", "v1->v3", "v2->v1"]);
    // within one round only direct edges count
    expect(Object.fromEntries((await paths(l, "shortest_path_any_wt", "E", 0, 1)).byVertex)).to.deep.equal({
      0: { dis: 0, path: "v0" },
      1: { dis: 4, path: "v0->v1" },
      2: { dis: 1, path: "v0->v2" },
    });
  });

  it("a negative cycle reachable from the source is an error; one that is not reachable is not", async () => {
    const l = load(graph(5, [[0, 1, 1], [1, 2, -3], [2, 1, 1], [3, 4, 1]]));
    const r = await tryRun(l, "shortest_path_any_wt", "stream", choices("E"), [{ id: id(0) }, -1n, false]);
    expect(r).to.deep.include({ ok: false, kind: "exception", code: 40001, message: "The graph has a cycle of negative weight reachable from the source vertex." });
    expect((await paths(l, "shortest_path_any_wt", "E", 3, -1)).byVertex.get(4)).to.deep.equal({ dis: 1, path: "v3->v4" });
    // with a depth limit the rounds simply stop
    expect((await paths(l, "shortest_path_any_wt", "E", 0, 3)).byVertex.get(2)!.dis).to.equal(-2);
  });

  for (const seed of [71, 72]) {
    it(`random graph (seed ${seed}) with negative weights, no cycles: distances as Bellman-Ford`, async () => {
      const rnd = mulberry32(seed);
      const base = randomGraph(seed, 100, 250, () => 1 + Math.floor(rnd() * 9));
      // directed edges all from a lower to a higher index (no cycle), a third of them negative
      const seen = new Set<string>();
      const directed = base.directed
        .map(([a, b, w]): [number, number, number] => [Math.min(a, b), Math.max(a, b), rnd() < 0.3 ? -w : w])
        .filter(([a, b]) => !seen.has(`${a},${b}`) && seen.add(`${a},${b}`));
      const g: TestGraph = { ...base, directed };
      const l = load(g);
      for (const [src, maxDepth] of [[0, -1], [3, -1], [3, 2]]) {
        expectMatches(l, "E", src, maxDepth, (await paths(l, "shortest_path_any_wt", "E", src, maxDepth)).byVertex);
      }
      expectMatches(l, "U", 1, -1, (await paths(l, "shortest_path_any_wt", "U", 1, -1)).byVertex);
    });
  }

  it("file and attr variants", async () => {
    const rnd = mulberry32(73);
    const g = randomGraph(73, 60, 150, () => 1 + Math.floor(rnd() * 5));
    const l = load(g);
    const ref = bellmanFordReference(g, "E", 2, -1)!;
    const path = files.path("wt.csv");
    await run(l, "shortest_path_any_wt", "file", choices("E"), [{ id: id(2) }, -1n, false, path]);
    const [header, ...rows] = readTable(path);
    expect(header).to.deep.equal(["Vertex_ID", "Distance", "Path"]);
    const reached = ref.flatMap((d, v) => (d < Infinity ? [v] : []));
    expect(rows.map(([v]) => index(v)).sort((a, b) => a - b)).to.deep.equal(reached);
    for (const [v, d, p] of rows) {
      expect(Number(d)).to.equal(ref[index(v)]);
      expectValidPath(g, "E", 2, index(v), p, ref[index(v)], true);
    }
    await run(l, "shortest_path_any_wt", "attr", choices("E", { dist: "wdist", path: "path" }), [{ id: id(2) }, -1n, false]);
    expect(attributes(l, "wdist")).to.deep.equal(ref.map((d) => (d < Infinity ? d : -1)));
    attributes(l, "path").forEach((p, v) => (ref[v] < Infinity ? expectValidPath(g, "E", 2, v, p as string, ref[v], true) : expect(p).to.equal("")));
  });
});

/**
 * All-pairs shortest paths have no query of their own: a query of the user's calls the
 * single-source file query once per vertex, every call writing to the same file. Each call
 * writes its header, then one row per vertex reached; a path starts at its source.
 */
function allPairsQuery(fileQuery: string): string {
  return `CREATE QUERY all_pairs_paths(FILE f) FOR GRAPH G SYNTAX V1 {
  ListAccum<VERTEX> @@sources;
  All = {V.*};
  All = SELECT s FROM All:s ACCUM @@sources += s;
  FOREACH src IN @@sources DO
    ${fileQuery}(src, -1, FALSE, f);
  END;
}`;
}

describe("algorithm library: all-pairs shortest paths composed from the single-source file queries", function () {
  this.timeout(60000);
  const files = scratchDir();
  after(async () => {
    files.cleanup();
    await closeSharedRuntime();
  });

  for (const [name, edge, weighted] of [["shortest_ss", "U", false], ["shortest_path_any_wt", "E", true]] as const) {
    it(`${name}_file called per vertex: every pair's distance as the reference, one header per source`, async () => {
      const rnd = mulberry32(weighted ? 75 : 65);
      const g = randomGraph(weighted ? 75 : 65, 30, 60, () => (weighted ? 1 + Math.floor(rnd() * 9) : 1));
      const l = load(g);
      const text = renderQuery(algorithm(name), "file", choices(edge)) + "\n" + allPairsQuery(`${name}_file`);
      const path = files.path(`${name}-all-pairs.csv`);
      const r = await runGsql(l.db, text, [path]);
      expect(r.ok, r.ok ? "" : r.message).to.equal(true);
      const rows = readTable(path);
      expect(rows.filter((row) => row.join(",") === "Vertex_ID,Distance,Path")).to.have.length(g.n);
      const found = new Map<string, number>();
      for (const [v, d, p] of rows) {
        if (v === "Vertex_ID") continue;
        const src = index(p.split("->")[0]);
        expect(found.has(`${src},${index(v)}`), `pair ${src},${index(v)} written once`).to.equal(false);
        found.set(`${src},${index(v)}`, Number(d));
        expectValidPath(g, edge, src, index(v), p, Number(d), weighted);
      }
      const expected = new Map<string, number>();
      for (let src = 0; src < g.n; src++) {
        const dist = weighted ? bellmanFordReference(g, edge, src, -1)! : bfsReference(l, edge, src, -1).dist.map((d) => (d < 0 ? Infinity : d));
        dist.forEach((d, v) => d < Infinity && expected.set(`${src},${v}`, d));
      }
      expect(Object.fromEntries(found)).to.deep.equal(Object.fromEntries(expected));
    });
  }
});
