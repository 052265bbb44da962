// Connected components, label propagation and Louvain from the algorithm library, against
// plain TypeScript references: partitions compared (ids are internal numbers), label
// propagation's documented rule replayed exactly, Louvain's modularity against a sequential
// Louvain; file and attribute variants read back.
import { expect } from "chai";
import { adjacency, attributes, choices, closeSharedRuntime, graph, index, load, perVertex, randomGraph, readTable, run, samePartition, scratchDir, type Loaded, type TestGraph } from "./algo-harness.js";
import { mulberry32 } from "../../tools/bench/rmat.js";

function componentsReference(g: TestGraph): number[] {
  const parent = Array.from({ length: g.n }, (_, i) => i);
  const find = (x: number): number => (parent[x] === x ? x : (parent[x] = find(parent[x])));
  for (const [a, b] of g.undirected) parent[find(a)] = find(b);
  return Array.from({ length: g.n }, (_, i) => find(i));
}

/** The library's rule: synchronous rounds, own label counted once, most frequent wins, smallest on a tie. */
function labelPropReference(l: Loaded, maxIter: number): number[] {
  const out = adjacency(l.g, "U");
  let label = [...l.vid];
  for (let iter = 0, changed = 1; changed > 0 && iter < maxIter; iter++) {
    changed = 0;
    const next = [...label];
    for (let s = 0; s < l.g.n; s++) {
      if (out[s].length === 0) continue;
      const count = new Map<number, number>();
      for (const [t] of out[s]) count.set(label[t], (count.get(label[t]) ?? 0) + 1);
      let best = label[s];
      let bestCount = (count.get(label[s]) ?? 0) + 1;
      for (const [lab, n] of count) if (n > bestCount || (n === bestCount && lab < best)) [best, bestCount] = [lab, n];
      if (best !== label[s]) changed++;
      next[s] = best;
    }
    label = next;
  }
  return label;
}

/** Newman modularity of a partition of the undirected edges (every edge weight 1). */
function modularity(g: TestGraph, community: readonly unknown[]): number {
  const m = g.undirected.length;
  const degree = new Array<number>(g.n).fill(0);
  for (const [a, b] of g.undirected) degree[a]++, degree[b]++;
  const inside = new Map<unknown, number>();
  const total = new Map<unknown, number>();
  for (const [a, b] of g.undirected) if (community[a] === community[b]) inside.set(community[a], (inside.get(community[a]) ?? 0) + 1);
  for (let i = 0; i < g.n; i++) total.set(community[i], (total.get(community[i]) ?? 0) + degree[i]);
  let q = 0;
  for (const [c, t] of total) q += (inside.get(c) ?? 0) / m - (t / (2 * m)) ** 2;
  return q;
}

/** Sequential Louvain (vertices visited in order, best gain, then aggregation), for comparison. */
function louvainReference(g: TestGraph): number[] {
  let n = g.n;
  let edges = new Map<string, number>();
  for (const [a, b] of g.undirected) edges.set(a < b ? `${a},${b}` : `${b},${a}`, (edges.get(a < b ? `${a},${b}` : `${b},${a}`) ?? 0) + 1);
  let member = Array.from({ length: g.n }, (_, i) => i);
  for (;;) {
    const nbr: Map<number, number>[] = Array.from({ length: n }, () => new Map());
    const k = new Array<number>(n).fill(0);
    let m2 = 0;
    for (const [key, w] of edges) {
      const [a, b] = key.split(",").map(Number);
      if (a === b) {
        k[a] += 2 * w;
        m2 += 2 * w;
        continue;
      }
      nbr[a].set(b, (nbr[a].get(b) ?? 0) + w);
      nbr[b].set(a, (nbr[b].get(a) ?? 0) + w);
      k[a] += w;
      k[b] += w;
      m2 += 2 * w;
    }
    const comm = Array.from({ length: n }, (_, i) => i);
    const tot = [...k];
    let moved = false;
    for (let improved = true; improved; ) {
      improved = false;
      for (let u = 0; u < n; u++) {
        const toComm = new Map<number, number>();
        for (const [v, w] of nbr[u]) toComm.set(comm[v], (toComm.get(comm[v]) ?? 0) + w);
        tot[comm[u]] -= k[u];
        let best = comm[u];
        let bestGain = (toComm.get(comm[u]) ?? 0) - (k[u] * tot[comm[u]]) / m2;
        for (const [c, w] of toComm) {
          const gain = w - (k[u] * tot[c]) / m2;
          if (gain > bestGain + 1e-12) [best, bestGain] = [c, gain];
        }
        tot[best] += k[u];
        if (best !== comm[u]) (comm[u] = best), (improved = true), (moved = true);
      }
    }
    if (!moved) return member;
    const renumber = new Map<number, number>();
    for (const c of comm) if (!renumber.has(c)) renumber.set(c, renumber.size);
    member = member.map((u) => renumber.get(comm[u])!);
    const next = new Map<string, number>();
    for (const [key, w] of edges) {
      const [a, b] = key.split(",").map(Number).map((x) => renumber.get(comm[x])!);
      const k2 = a < b ? `${a},${b}` : `${b},${a}`;
      next.set(k2, (next.get(k2) ?? 0) + w);
    }
    edges = next;
    n = renumber.size;
  }
}

/** Undirected graph of `groups` dense groups of `size` vertices with a few edges between groups. */
function plantedGraph(seed: number, groups: number, size: number, pIn: number, between: number): TestGraph {
  const rnd = mulberry32(seed);
  const undirected: [number, number][] = [];
  for (let c = 0; c < groups; c++)
    for (let i = 0; i < size; i++) for (let j = i + 1; j < size; j++) if (rnd() < pIn) undirected.push([c * size + i, c * size + j]);
  const seen = new Set(undirected.map(([a, b]) => `${a},${b}`));
  while (between > 0) {
    const [x, y] = [Math.floor(rnd() * groups * size), Math.floor(rnd() * groups * size)];
    const [a, b] = x < y ? [x, y] : [y, x];
    if (Math.floor(a / size) === Math.floor(b / size) || seen.has(`${a},${b}`)) continue;
    seen.add(`${a},${b}`);
    undirected.push([a, b]);
    between--;
  }
  return graph(groups * size, [], undirected);
}

async function labels(l: Loaded, name: string, args: unknown[], key: string): Promise<unknown[]> {
  const [out] = (await run(l, name, "stream", choices("U"), args as never[])) as Record<string, unknown>[];
  const byVertex = perVertex(Object.values(out)[0], key);
  return Array.from({ length: l.g.n }, (_, i) => byVertex.get(i));
}

describe("algorithm library: connected components", function () {
  this.timeout(60000);
  const files = scratchDir();
  after(async () => {
    files.cleanup();
    await closeSharedRuntime();
  });

  it("hand-checked graph: one id per component, vertices without edges alone", async () => {
    const l = load(graph(7, [], [[0, 1], [1, 2], [3, 4], [6, 4]]));
    const got = await labels(l, "conn_comp", [], "Start.@cc_id");
    expect(samePartition(got, [0, 0, 0, 3, 3, 5, 3])).to.equal(true);
  });

  for (const seed of [31, 32, 33]) {
    it(`random sparse graph (seed ${seed}) has the reference's partition`, async () => {
      const g = randomGraph(seed, 200, 150);
      const l = load(g);
      expect(samePartition(await labels(l, "conn_comp", [], "Start.@cc_id"), componentsReference(g))).to.equal(true);
    });
  }

  it("file and attr variants", async () => {
    const g = randomGraph(34, 80, 60);
    const l = load(g);
    const path = files.path("cc.csv");
    await run(l, "conn_comp", "file", choices("U"), [path]);
    const [header, ...rows] = readTable(path);
    expect(header).to.deep.equal(["Vertex_ID", "Component_ID"]);
    const fromFile = new Array<string>(g.n);
    for (const [v, c] of rows) fromFile[index(v)] = c;
    expect(samePartition(fromFile, componentsReference(g))).to.equal(true);
    await run(l, "conn_comp", "attr", choices("U", { result: "label" }), []);
    expect(samePartition(attributes(l, "label").map(String), componentsReference(g))).to.equal(true);
  });
});

describe("algorithm library: label propagation", function () {
  this.timeout(60000);
  const files = scratchDir();
  after(async () => {
    files.cleanup();
    await closeSharedRuntime();
  });

  it("hand-checked graph: two triangles joined by one edge become two communities", async () => {
    const l = load(graph(7, [], [[0, 1], [1, 2], [0, 2], [2, 3], [3, 4], [4, 5], [3, 5]]));
    const got = await labels(l, "label_prop", [10n], "Start.@label");
    expect(samePartition(got, [0, 0, 0, 1, 1, 1, 6])).to.equal(true);
    expect(got).to.deep.equal(labelPropReference(l, 10));
  });

  for (const seed of [41, 42]) {
    it(`random graph (seed ${seed}): the documented rule replayed gives the same labels`, async () => {
      const l = load(randomGraph(seed, 120, 200));
      for (const maxIter of [1, 3, 20]) expect(await labels(l, "label_prop", [BigInt(maxIter)], "Start.@label"), `maxIter ${maxIter}`).to.deep.equal(labelPropReference(l, maxIter));
    });
  }

  it("a graph of more candidates than one counting slice holds (40000 vertices): same labels as the rule replayed", async () => {
    const l = load(randomGraph(44, 40000, 70000));
    for (const maxIter of [1, 10]) expect(await labels(l, "label_prop", [BigInt(maxIter)], "Start.@label"), `maxIter ${maxIter}`).to.deep.equal(labelPropReference(l, maxIter));
  });

  it("file and attr variants", async () => {
    const l = load(plantedGraph(43, 4, 10, 0.7, 4));
    const reference = labelPropReference(l, 10);
    const path = files.path("lp.csv");
    await run(l, "label_prop", "file", choices("U"), [10n, path]);
    const [header, ...rows] = readTable(path);
    expect(header).to.deep.equal(["Vertex_ID", "Label"]);
    const fromFile = new Array<number>(l.g.n);
    for (const [v, c] of rows) fromFile[index(v)] = Number(c);
    expect(fromFile).to.deep.equal(reference);
    await run(l, "label_prop", "attr", choices("U", { result: "label" }), [10n]);
    expect(attributes(l, "label").map(Number)).to.deep.equal(reference);
  });
});

describe("algorithm library: Louvain", function () {
  this.timeout(60000);
  const files = scratchDir();
  after(async () => {
    files.cleanup();
    await closeSharedRuntime();
  });

  it("hand-checked graphs: two cliques joined by an edge; a ring of six triangles", async () => {
    const clique = (base: number, size: number): [number, number][] => {
      const e: [number, number][] = [];
      for (let i = 0; i < size; i++) for (let j = i + 1; j < size; j++) e.push([base + i, base + j]);
      return e;
    };
    const twoCliques = load(graph(10, [], [...clique(0, 5), ...clique(5, 5), [4, 5]]));
    expect(samePartition(await labels(twoCliques, "louvain", [], "All.@cid"), [0, 0, 0, 0, 0, 1, 1, 1, 1, 1])).to.equal(true);
    const ring: [number, number][] = [];
    for (let t = 0; t < 6; t++) ring.push(...clique(3 * t, 3), [3 * t + 2, (3 * t + 3) % 18]);
    const l = load(graph(18, [], ring));
    expect(samePartition(await labels(l, "louvain", [], "All.@cid"), Array.from({ length: 18 }, (_, i) => Math.floor(i / 3)))).to.equal(true);
  });

  for (const seed of [51, 52]) {
    it(`planted communities (seed ${seed}): modularity close to a sequential Louvain's`, async () => {
      const g = plantedGraph(seed, 6, 15, 0.35, 25);
      const l = load(g);
      const ours = modularity(g, await labels(l, "louvain", [], "All.@cid"));
      const reference = modularity(g, louvainReference(g));
      expect(ours, `ours ${ours}, reference ${reference}`).to.be.at.least(reference - 0.02);
    });
  }

  it("several levels: a ring of 30 five-cliques keeps every clique whole and merges neighbours", async () => {
    const ring: [number, number][] = [];
    for (let c = 0; c < 30; c++) {
      for (let i = 0; i < 5; i++) for (let j = i + 1; j < 5; j++) ring.push([5 * c + i, 5 * c + j]);
      ring.push([5 * c + 4, (5 * c + 5) % 150]);
    }
    const g = graph(150, [], ring);
    const found = await labels(load(g), "louvain", [], "All.@cid");
    for (let c = 0; c < 30; c++) expect(new Set(found.slice(5 * c, 5 * c + 5)).size, `clique ${c}`).to.equal(1);
    // level 0 finds the 30 cliques; joining neighbouring cliques raises the modularity
    // further (the resolution limit), which only a contracted level can do
    const communities = new Set(found).size;
    expect(communities).to.be.below(30);
    const cliquesAlone = modularity(g, Array.from({ length: 150 }, (_, i) => Math.floor(i / 5)));
    const ours = modularity(g, found);
    expect(ours).to.be.above(cliquesAlone);
    expect(ours, `ours ${ours}, reference ${modularity(g, louvainReference(g))}`).to.be.at.least(modularity(g, louvainReference(g)) - 0.01);
  });

  it("larger planted graph: modularity close to a sequential Louvain's", async () => {
    const g = plantedGraph(55, 12, 25, 0.3, 150);
    const ours = modularity(g, await labels(load(g), "louvain", [], "All.@cid"));
    const reference = modularity(g, louvainReference(g));
    expect(ours, `ours ${ours}, reference ${reference}`).to.be.at.least(reference - 0.02);
  });

  it(`random graph without structure: modularity close to a sequential Louvain's`, async () => {
    const g = randomGraph(53, 150, 400);
    const ours = modularity(g, await labels(load(g), "louvain", [], "All.@cid"));
    const reference = modularity(g, louvainReference(g));
    expect(ours, `ours ${ours}, reference ${reference}`).to.be.at.least(reference - 0.03);
  });

  it("self-loops and isolated vertices: every isolated vertex alone, modularity close to a sequential Louvain's", async () => {
    const planted = plantedGraph(56, 5, 14, 0.4, 20);
    const loops: [number, number][] = [0, 15, 16, 33, 69].map((v) => [v, v]);
    const g = graph(planted.n + 6, [], [...planted.undirected, ...loops]);
    const found = await labels(load(g), "louvain", [], "All.@cid");
    for (let v = planted.n; v < g.n; v++) expect(found.filter((c) => c === found[v]).length, `isolated vertex ${v}`).to.equal(1);
    const ours = modularity(g, found);
    const reference = modularity(g, louvainReference(g));
    expect(ours, `ours ${ours}, reference ${reference}`).to.be.at.least(reference - 0.02);
  });

  it("file and attr variants give the stream's partition", async () => {
    const g = plantedGraph(54, 4, 12, 0.5, 8);
    const l = load(g);
    const stream = await labels(l, "louvain", [], "All.@cid");
    const path = files.path("louvain.csv");
    await run(l, "louvain", "file", choices("U"), [path]);
    const [header, ...rows] = readTable(path);
    expect(header).to.deep.equal(["Vertex_ID", "Community_ID"]);
    const fromFile = new Array<number>(g.n);
    for (const [v, c] of rows) fromFile[index(v)] = Number(c);
    expect(fromFile).to.deep.equal(stream);
    await run(l, "louvain", "attr", choices("U", { result: "label" }), []);
    expect(attributes(l, "label").map(Number)).to.deep.equal(stream);
  });
});
