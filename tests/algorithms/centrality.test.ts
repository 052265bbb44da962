// PageRank and closeness centrality from the algorithm library, against plain TypeScript
// references on hand-checked and seeded random graphs; the documented rules (vertices
// without out-edges keep 1, without in-edges end at 1 - damping, the n - 1 divisor,
// directed asymmetry, cc_subquery agreeing with closeness_cent), and the file and
// attribute variants read back.
import { expect } from "chai";
import { adjacency, attributes, choices, closeSharedRuntime, graph, id, index, load, randomGraph, readTable, run, scratchDir, type Loaded, type TestGraph } from "./algo-harness.js";

type Scores = { Vertex_ID: string; score: number }[];

/** A FLOAT as printed: single precision, at most 7 significant digits. */
const printedFloat = (x: number) => Number(Math.fround(x).toPrecision(7));

/** PageRank as the library defines it (FLOAT parameters, DOUBLE arithmetic). */
function pageRankReference(g: TestGraph, edge: "E" | "U" | "both", maxChange: number, maxIter: number, damping: number): number[] {
  const out = adjacency(g, edge);
  const [d, change] = [Math.fround(damping), Math.fround(maxChange)];
  const score = new Array<number>(g.n).fill(1);
  const received = new Array<number>(g.n).fill(0);
  let active = Array.from({ length: g.n }, (_, i) => i);
  let maxDiff = 9999;
  for (let iter = 0; maxDiff > change && iter < maxIter; iter++) {
    maxDiff = 0;
    for (const s of active) for (const [t] of out[s]) received[t] += score[s] / out[s].length;
    active = active.filter((s) => out[s].length > 0);
    for (const s of active) {
      const before = score[s];
      score[s] = 1 - d + d * received[s];
      received[s] = 0;
      maxDiff = Math.max(maxDiff, Math.abs(score[s] - before));
    }
  }
  return score;
}

function closenessReference(g: TestGraph, edge: "E" | "U" | "both"): number[] {
  const out = adjacency(g, edge);
  return Array.from({ length: g.n }, (_, src) => {
    const dist = new Array<number>(g.n).fill(-1);
    dist[src] = 0;
    const queue = [src];
    let sum = 0;
    for (let i = 0; i < queue.length; i++)
      for (const [t] of out[queue[i]])
        if (dist[t] < 0) {
          dist[t] = dist[queue[i]] + 1;
          sum += dist[t];
          queue.push(t);
        }
    return sum > 0 ? (g.n - 1) / sum : 0;
  });
}

/** Printed scores (FLOAT, 7 significant digits) are the reference's to that precision. */
function expectClose(actual: number, expected: number, what: string): void {
  expect(Math.abs(actual - expected), `${what}: ${actual} vs ${expected}`).to.be.at.most(1e-6 * Math.max(1, Math.abs(expected)));
}

function expectTopScores(printed: Scores, reference: number[], limit: number): void {
  const order = reference.map((s, i) => [s, i] as const).sort((a, b) => b[0] - a[0]);
  expect(printed).to.have.length(Math.min(limit, reference.length));
  printed.forEach((p, k) => {
    expectClose(p.score, reference[index(p.Vertex_ID)], `score of ${p.Vertex_ID}`);
    // best first: the k-th printed score is the k-th best score
    expectClose(p.score, order[k][0], `rank ${k}`);
  });
}

describe("algorithm library: PageRank", function () {
  this.timeout(60000);
  const files = scratchDir();
  after(async () => {
    files.cleanup();
    await closeSharedRuntime();
  });

  // 0 -> 1, 0 -> 2, 1 -> 2, 2 -> 0, 3 -> 2 (3 has no in-edges), 2 -> 5 (5 has no out-edges), 4 alone
  const hand = graph(6, [[0, 1], [0, 2], [1, 2], [2, 0], [3, 2], [2, 5]]);

  it("hand-checked graph: no out-edges keeps exactly 1, no in-edges ends at 1 - damping, the rest as the reference", async () => {
    const l = load(hand);
    const [out] = (await run(l, "pageRank", "stream", choices("E"), [0.001, 25n, 0.85, false, 100n])) as { "@@topScores": Scores }[];
    const byId = new Map(out["@@topScores"].map((s) => [s.Vertex_ID, s.score]));
    expect(byId.get("v5")).to.equal(1);
    expect(byId.get("v4")).to.equal(1);
    expect(byId.get("v3")).to.equal(0.15);
    expectTopScores(out["@@topScores"], pageRankReference(hand, "E", 0.001, 25, 0.85), 100);
  });

  it("outputLimit keeps the best scores, best first; display adds the edges", async () => {
    const l = load(hand);
    const r = (await run(l, "pageRank", "stream", choices("E"), [0.001, 25n, 0.85, true, 2n])) as Record<string, unknown>[];
    expectTopScores(r[0]["@@topScores"] as Scores, pageRankReference(hand, "E", 0.001, 25, 0.85), 2);
    const edges = (r[1]["@@edgeSet"] as { from_id: string; to_id: string; e_type: string }[]).map((e) => `${e.e_type}:${e.from_id}-${e.to_id}`).sort();
    expect(edges).to.deep.equal(hand.directed.map(([a, b]) => `E:${id(a)}-${id(b)}`).sort());
  });

  for (const seed of [11, 12]) {
    it(`random graph (seed ${seed}): directed, undirected and both edge types agree with the reference`, async () => {
      const g = randomGraph(seed, 60 + seed, 180);
      const l = load(g);
      for (const edge of ["E", "U", "both"] as const) {
        const [out] = (await run(l, "pageRank", "stream", choices(edge), [0.0001, 30n, 0.8, false, 1000n])) as { "@@topScores": Scores }[];
        expectTopScores(out["@@topScores"], pageRankReference(g, edge, 0.0001, 30, 0.8), 1000);
      }
    });
  }

  it("file variant writes every vertex under Vertex_ID,PageRank; attr variant stores the scores", async () => {
    const g = randomGraph(13, 40, 120);
    const l = load(g);
    const reference = pageRankReference(g, "E", 0.001, 25, 0.85);
    const path = files.path("pagerank.csv");
    expect(await run(l, "pageRank", "file", choices("E"), [0.001, 25n, 0.85, false, path])).to.deep.equal([]);
    const [header, ...rows] = readTable(path);
    expect(header).to.deep.equal(["Vertex_ID", "PageRank"]);
    expect(rows.map((r) => index(r[0])).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: g.n }, (_, i) => i));
    for (const [v, s] of rows) expectClose(Number(s), reference[index(v)], `file score of ${v}`);

    expect(await run(l, "pageRank", "attr", choices("E", { result: "score" }), [0.001, 25n, 0.85, false])).to.deep.equal([]);
    attributes(l, "score").forEach((s, i) => expect(Math.abs((s as number) - reference[i])).to.be.below(1e-12));
  });
});

describe("algorithm library: closeness centrality", function () {
  this.timeout(60000);
  const files = scratchDir();
  after(async () => {
    files.cleanup();
    await closeSharedRuntime();
  });

  async function closeness(l: Loaded, edge: "E" | "U" | "both"): Promise<Map<number, number>> {
    const [out] = (await run(l, "closeness_cent", "stream", choices(edge), [false, 100000n])) as { "@@topScores": Scores }[];
    return new Map(out["@@topScores"].map((s) => [index(s.Vertex_ID), s.score]));
  }

  it("hand-checked path: n - 1 over the sum of distances, directed edges are not symmetric", async () => {
    // 0 -> 1 -> 2 -> 3, and 4 alone: n = 5
    const l = load(graph(5, [[0, 1], [1, 2], [2, 3]], [[0, 1], [1, 2], [2, 3]]));
    const directed = await closeness(l, "E");
    expect([0, 1, 2, 3, 4].map((i) => directed.get(i))).to.deep.equal([4 / 6, 4 / 3, 4, 0, 0].map(printedFloat));
    const undirected = await closeness(l, "U");
    expect([0, 1, 2, 3, 4].map((i) => undirected.get(i))).to.deep.equal([4 / 6, 4 / 4, 4 / 4, 4 / 6, 0].map(printedFloat));
  });

  for (const seed of [21, 22]) {
    it(`random graph (seed ${seed}, more than 64 vertices): agrees with one BFS per vertex`, async () => {
      const g = randomGraph(seed, 150, 260);
      const l = load(g);
      for (const edge of ["E", "U"] as const) {
        const got = await closeness(l, edge);
        closenessReference(g, edge).forEach((c, i) => expectClose(got.get(i)!, c, `closeness of v${i} over ${edge}`));
      }
    });
  }

  it("cc_subquery gives each vertex's closeness, as closeness_cent does; maxHops limits the search", async () => {
    const g = randomGraph(23, 30, 50);
    const l = load(g);
    const all = await closeness(l, "E");
    for (let i = 0; i < g.n; i += 3) {
      const [out] = (await run(l, "cc_subquery", "stream", choices("E"), [{ id: id(i) }, BigInt(g.n), -1n])) as { closeness: number }[];
      expect(out.closeness, `v${i}`).to.equal(all.get(i));
    }
    // within one hop: (n - 1) / out-degree
    const out = adjacency(g, "E");
    const v = out.findIndex((o) => o.length > 1);
    const [one] = (await run(l, "cc_subquery", "stream", choices("E"), [{ id: id(v) }, BigInt(g.n), 1n])) as { closeness: number }[];
    expect(one.closeness).to.equal(printedFloat((g.n - 1) / out[v].length));
  });

  it("file and attr variants", async () => {
    const g = randomGraph(24, 70, 150);
    const l = load(g);
    const reference = closenessReference(g, "U");
    const path = files.path("closeness.csv");
    await run(l, "closeness_cent", "file", choices("U"), [false, path]);
    const [header, ...rows] = readTable(path);
    expect(header).to.deep.equal(["Vertex_ID", "Closeness"]);
    expect(rows).to.have.length(g.n);
    for (const [v, c] of rows) expectClose(Number(c), reference[index(v)], `file closeness of ${v}`);
    await run(l, "closeness_cent", "attr", choices("U", { result: "score" }), [false]);
    attributes(l, "score").forEach((c, i) => expect(Math.abs((c as number) - reference[i])).to.be.below(1e-12));
  });
});
