// Triangle counting from the algorithm library, both variants (minimal memory and fast),
// against a brute-force count: the total, and per vertex in the attribute variants; the
// file variants read back.
import { expect } from "chai";
import { attributes, choices, closeSharedRuntime, graph, load, randomGraph, readTable, run, scratchDir, type TestGraph } from "./algo-harness.js";

function triangles(g: TestGraph): { total: number; perVertex: number[] } {
  const adj: Set<number>[] = Array.from({ length: g.n }, () => new Set());
  for (const [a, b] of g.undirected) {
    adj[a].add(b);
    adj[b].add(a);
  }
  const perVertex = new Array<number>(g.n).fill(0);
  let total = 0;
  for (let a = 0; a < g.n; a++)
    for (const b of adj[a])
      if (b > a)
        for (const c of adj[b])
          if (c > b && adj[a].has(c)) {
            total++;
            perVertex[a]++;
            perVertex[b]++;
            perVertex[c]++;
          }
  return { total, perVertex };
}

const clique = (size: number): [number, number][] => {
  const e: [number, number][] = [];
  for (let i = 0; i < size; i++) for (let j = i + 1; j < size; j++) e.push([i, j]);
  return e;
};

for (const name of ["tri_count", "tri_count_fast"]) {
  describe(`algorithm library: ${name}`, function () {
    this.timeout(60000);
    const files = scratchDir();
    after(async () => {
      files.cleanup();
      await closeSharedRuntime();
    });

    it("hand-checked graphs: K5 has 10 triangles, a 4-cycle none, a triangle with a tail one", async () => {
      expect(await run(load(graph(5, [], clique(5))), name, "stream", choices("U"))).to.deep.equal([{ num_triangles: 10 }]);
      expect(await run(load(graph(4, [], [[0, 1], [1, 2], [2, 3], [3, 0]])), name, "stream", choices("U"))).to.deep.equal([{ num_triangles: 0 }]);
      expect(await run(load(graph(5, [], [[0, 1], [1, 2], [2, 0], [2, 3]])), name, "stream", choices("U"))).to.deep.equal([{ num_triangles: 1 }]);
    });

    for (const [seed, n, m] of [[81, 40, 300], [82, 120, 700], [83, 300, 400]]) {
      it(`random graph (seed ${seed}, ${n} vertices, ${m} edges): the brute-force count, in total and per vertex`, async () => {
        const g = randomGraph(seed, n, m);
        const l = load(g);
        const ref = triangles(g);
        expect(await run(l, name, "stream", choices("U"))).to.deep.equal([{ num_triangles: ref.total }]);
        expect(await run(l, name, "attr", choices("U", { result: "label" }))).to.deep.equal([{ num_triangles: ref.total }]);
        expect(attributes(l, "label").map(Number)).to.deep.equal(ref.perVertex);
      });
    }

    it("file variant writes the count under num_triangles", async () => {
      const g = randomGraph(84, 60, 400);
      const path = files.path("tri.csv");
      expect(await run(load(g), name, "file", choices("U"), [path])).to.deep.equal([]);
      expect(readTable(path)).to.deep.equal([["num_triangles"], [String(triangles(g).total)]]);
    });
  });
}
