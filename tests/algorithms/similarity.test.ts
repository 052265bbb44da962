// Cosine and Jaccard neighbourhood similarity from the algorithm library, single source and
// all pairs, against brute-force scores: the top K (ties in any order, so scores are compared
// as ranked lists and every printed pair is checked on its own), the empty result without a
// shared neighbour, directed edges followed from their source; file variants read back and
// the edges the attribute variants create read back.
import { expect } from "chai";
import { adjacency, choices, closeSharedRuntime, edgesOf, graph, id, index, load, randomGraph, readTable, run, scratchDir, type Loaded, type TestGraph } from "./algo-harness.js";
import { mulberry32 } from "../../tools/bench/rmat.js";

type Edge = "E" | "U" | "both";
type Pair = { vertex1: string; vertex2: string; score: number };

/** score(a, b) for every pair sharing a neighbour (a != b), by the library's definitions. */
function scores(g: TestGraph, edge: Edge, kind: "cosine" | "jaccard"): Map<string, number> {
  const out = adjacency(g, edge);
  const weight = out.map((nbrs) => {
    const m = new Map<number, number>();
    for (const [t, w] of nbrs) m.set(t, (m.get(t) ?? 0) + w);
    return m;
  });
  const normSq = out.map((nbrs) => nbrs.reduce((s, [, w]) => s + w * w, 0));
  const result = new Map<string, number>();
  for (let a = 0; a < g.n; a++)
    for (let b = 0; b < g.n; b++) {
      if (a === b) continue;
      let dot = 0;
      let common = 0;
      for (const [n, w] of weight[a])
        if (weight[b].has(n)) {
          dot += w * weight[b].get(n)!;
          common++;
        }
      if (common === 0) continue;
      result.set(`${a},${b}`, kind === "cosine" ? dot / Math.sqrt(normSq[a] * normSq[b]) : common / (weight[a].size + out[b].length - common));
    }
  return result;
}

const printed = (x: number) => Number(Math.fround(x).toPrecision(7));

/** The printed pairs are the top K of `reference` (restricted to `from` when given), best first. */
function expectTopK(pairs: Pair[], reference: Map<string, number>, k: number, from?: number, ordered = true): void {
  const candidates = [...reference].filter(([key]) => from === undefined || Number(key.split(",")[0]) === from);
  const unordered = from === undefined;
  const keyOf = (p: Pair) => {
    const [a, b] = [index(p.vertex1), index(p.vertex2)];
    return unordered && a > b ? `${b},${a}` : `${a},${b}`;
  };
  const sorted = candidates.map(([, s]) => s).sort((x, y) => y - x);
  const best = unordered ? sorted.filter((_, i) => i % 2 === 0) : sorted; // each pair appears twice
  expect(pairs).to.have.length(Math.min(k, best.length));
  const got = pairs.map((p) => p.score);
  expect(ordered ? got : [...got].sort((x, y) => y - x)).to.deep.equal(best.slice(0, k).map(printed));
  for (const p of pairs) {
    if (from !== undefined) expect(index(p.vertex1)).to.equal(from);
    expect(p.score, `score of ${p.vertex1}, ${p.vertex2}`).to.equal(printed(reference.get(keyOf(p))!));
  }
}

function weighted(seed: number, n: number, m: number): TestGraph {
  const rnd = mulberry32(seed * 7);
  return randomGraph(seed, n, m, () => 1 + Math.floor(rnd() * 10) / 2);
}

for (const kind of ["cosine", "jaccard"] as const) {
  describe(`algorithm library: ${kind} similarity, single source`, function () {
    this.timeout(60000);
    const files = scratchDir();
    after(async () => {
      files.cleanup();
      await closeSharedRuntime();
    });
    const name = `${kind}_nbor_ss`;
    const topK = async (l: Loaded, edge: Edge, src: number, k: number) =>
      ((await run(l, name, "stream", choices(edge), [{ id: id(src) }, BigInt(k)])) as { "@@result_topk": Pair[] }[])[0]["@@result_topk"];

    it("hand-checked graph: scores by hand, best first; no shared neighbour gives an empty array", async () => {
      // 0 - 2 (1), 0 - 3 (3), 1 - 2 (2), 1 - 3 (4), 4 - 3 (1); 5 - 6 shares nothing with 0
      const l = load(graph(7, [], [[0, 2, 1], [0, 3, 3], [1, 2, 2], [1, 3, 4], [4, 3, 1], [5, 6, 1]]));
      const got = await topK(l, "U", 0, 10);
      const expected =
        kind === "cosine"
          ? [{ vertex1: "v0", vertex2: "v1", score: printed(14 / Math.sqrt(10 * 20)) }, { vertex1: "v0", vertex2: "v4", score: printed(3 / Math.sqrt(10)) }]
          : [{ vertex1: "v0", vertex2: "v1", score: 1 }, { vertex1: "v0", vertex2: "v4", score: 0.5 }];
      expect(got).to.deep.equal(expected);
      expect(await topK(l, "U", 5, 10)).to.deep.equal([]);
    });

    for (const seed of [91, 92]) {
      it(`random graph (seed ${seed}): the top K of the brute-force scores; directed edges from their source`, async () => {
        const g = weighted(seed, 60, 240);
        const l = load(g);
        for (const edge of ["U", "E"] as const) {
          const reference = scores(g, edge, kind);
          for (const [src, k] of [[0, 5], [9, 1000]]) expectTopK(await topK(l, edge, src, k), reference, k, src);
        }
      });
    }

    it("file variant writes the top K pairs; attr variant creates an edge to every vertex scoring above 0", async () => {
      const g = weighted(93, 40, 160);
      const l = load(g);
      const reference = scores(g, "U", kind);
      const path = files.path(`${kind}.csv`);
      await run(l, name, "file", choices("U"), [{ id: id(3) }, 4n, path]);
      const [header, ...rows] = readTable(path);
      expect(header).to.deep.equal(["Vertex1", "Vertex2", "Similarity"]);
      expectTopK(rows.map(([a, b, s]) => ({ vertex1: a, vertex2: b, score: Number(s) })), reference, 4, 3, false);
      const [created] = (await run(l, name, "attr", choices("U", { edge: "Similar", edgeAttr: "score" }), [{ id: id(3) }])) as { edges_created: number }[];
      const expected = [...reference].filter(([key, s]) => key.startsWith("3,") && s > 0).map(([key, s]) => [3, Number(key.split(",")[1]), s]);
      expect(created.edges_created).to.equal(expected.length);
      const edges = edgesOf(l, "Similar", "score").sort((x, y) => x[1] - y[1]);
      expect(edges.map(([a, b]) => [a, b])).to.deep.equal(expected.sort((x, y) => x[1] - y[1]).map(([a, b]) => [a, b]));
      edges.forEach(([, b, s]) => expect(Math.fround(s)).to.equal(Math.fround(reference.get(`3,${b}`)!)));
    });
  });

  describe(`algorithm library: ${kind} similarity, all pairs`, function () {
    this.timeout(60000);
    const files = scratchDir();
    after(async () => {
      files.cleanup();
      await closeSharedRuntime();
    });
    const name = `${kind}_nbor_ap`;

    for (const seed of [94, 95]) {
      it(`random graph (seed ${seed}): the top K pairs of the brute-force scores`, async () => {
        const g = weighted(seed, 50, 150);
        const l = load(g);
        for (const edge of ["U", "E"] as const) {
          const reference = scores(g, edge, kind);
          if (edge === "E") for (const [key, s] of [...reference]) reference.set(key.split(",").reverse().join(","), s); // symmetric
          for (const k of [1, 7, 30]) {
            const [out] = (await run(l, name, "stream", choices(edge), [BigInt(k)])) as { "@@total_result": Pair[] }[];
            expectTopK(out["@@total_result"], reference, k);
          }
        }
      });
    }

    it("a graph whose two-hop walks take several slices: the same top K, ties included", async () => {
      // Ten hubs every other vertex links to, and random edges: each vertex walks about
      // 10 x 800 two-hop paths, over 2^21 in all, so the query counts in several slices, and
      // the many equal scores of pairs sharing only hubs test ties across slices.
      const n = 800;
      const base = weighted(97, n, 1600);
      const hubEdges: [number, number, number][] = [];
      for (let h = 0; h < 10; h++) for (let a = 10; a < n; a++) hubEdges.push([a, h, 1 + ((a + h) % 4)]);
      const g: TestGraph = { n, directed: [...base.directed.filter(([a, b]) => !(b < 10 && a >= 10)), ...hubEdges], undirected: [...base.undirected.filter(([a, b]) => !(a < 10 && b >= 10)), ...hubEdges.map(([a, h, w]) => [h, a, w] as [number, number, number])] };
      const out = adjacency(g, "E");
      const fanIn = new Array<number>(n).fill(0);
      for (const nbrs of out) for (const [t] of nbrs) fanIn[t]++;
      expect(out.reduce((sum, nbrs) => sum + nbrs.reduce((s, [t]) => s + fanIn[t], 0), 0)).to.be.greaterThan(2 ** 21 * 2);
      const l = load(g);
      for (const edge of ["U", "E"] as const) {
        const reference = scores(g, edge, kind);
        if (edge === "E") for (const [key, s] of [...reference]) reference.set(key.split(",").reverse().join(","), s);
        const [result] = (await run(l, name, "stream", choices(edge), [25n])) as { "@@total_result": Pair[] }[];
        expectTopK(result["@@total_result"], reference, 25);
      }
    });

    it("file variant writes the top K pairs; attr variant creates K edges", async () => {
      const g = weighted(96, 30, 90);
      const l = load(g);
      const reference = scores(g, "U", kind);
      const path = files.path(`${kind}-ap.csv`);
      await run(l, name, "file", choices("U"), [5n, path]);
      const [header, ...rows] = readTable(path);
      expect(header).to.deep.equal(["Vertex1", "Vertex2", "Similarity"]);
      expectTopK(rows.map(([a, b, s]) => ({ vertex1: a, vertex2: b, score: Number(s) })), reference, 5, undefined, false);
      expect(await run(l, name, "attr", choices("U", { edge: "Similar", edgeAttr: "score" }), [5n])).to.deep.equal([{ edges_created: 5 }]);
      const edges = edgesOf(l, "Similar", "score");
      expect(edges).to.have.length(5);
      for (const [a, b, s] of edges) expect(Math.fround(s)).to.equal(Math.fround(reference.get(`${a},${b}`)!));
    });
  });
}
