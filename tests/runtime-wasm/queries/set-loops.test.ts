// Loops over sets that the compiler runs differently (compiler/emit/emit-intersect.ts):
// membership in a set the loop nest cannot change read from stamps, and intersection loops
// walking the smaller set. Results on random graphs are checked against plain TypeScript;
// a body whose result depends on the visiting order keeps the written order.
import { expect } from "chai";
import { mulberry32 } from "../../../tools/bench/rmat.js";
import { closeSharedRuntime, createDatabase, runGsql, type TestDatabase } from "./gsql-harness.js";

const DDL = `
CREATE VERTEX V (PRIMARY_ID id STRING, label INT)
CREATE UNDIRECTED EDGE U (FROM V, TO V)
CREATE DIRECTED EDGE E (FROM V, TO V)
CREATE GRAPH R (V, U, E)
`;

interface Graph {
  n: number;
  undirected: [number, number][];
  directed: [number, number][];
}

/** Distinct edges without self-loops; skewed endpoints give a few large neighbourhoods. */
function randomGraph(seed: number, n: number, m: number): Graph {
  const rnd = mulberry32(seed);
  const pick = () => Math.floor(n * rnd() * rnd());
  const seen = new Set<string>();
  const undirected: [number, number][] = [];
  const directed: [number, number][] = [];
  while (undirected.length < m) {
    const [x, y] = [pick(), Math.floor(rnd() * n)];
    const [a, b] = x < y ? [x, y] : [y, x];
    if (a === b || seen.has(`${a},${b}`)) continue;
    seen.add(`${a},${b}`);
    undirected.push([a, b]);
  }
  while (directed.length < m) {
    const [a, b] = [pick(), Math.floor(rnd() * n)];
    if (a === b || seen.has(`${a}>${b}`)) continue;
    seen.add(`${a}>${b}`);
    directed.push([a, b]);
  }
  return { n, undirected, directed };
}

function load(g: Graph): TestDatabase {
  return createDatabase(DDL, {
    vertices: Array.from({ length: g.n }, (_, i) => ({ type: "V", id: `v${i}`, attributes: [{ name: "label", value: (i * 37) % 101 }] })),
    edges: [
      ...g.undirected.map(([a, b]) => ({ type: "U", from: { type: "V", id: `v${a}` }, to: { type: "V", id: `v${b}` } })),
      ...g.directed.map(([a, b]) => ({ type: "E", from: { type: "V", id: `v${a}` }, to: { type: "V", id: `v${b}` } })),
    ],
  });
}

type VertexRecord = { v_id: string; attributes: Record<string, unknown> };

function perVertex(json: unknown, key: string): number[] {
  const out: number[] = [];
  for (const r of (json as { All: VertexRecord[] }[])[0].All) out[Number(r.v_id.slice(1))] = r.attributes[key] as number;
  return out;
}

// Triangles the natural way: each vertex's higher neighbours, then for each oriented edge
// s -> t the members of t's set found in s's set (s's set is stamped per row).
const TRIANGLES = `CREATE QUERY tri() FOR GRAPH R SYNTAX V1 {
  SetAccum<VERTEX> @higher;
  SumAccum<INT> @@cnt;
  SumAccum<INT> @tri;
  MaxAccum<INT> @@maxLabel;
  All = {V.*};
  All = SELECT s FROM All:s -(U:e)- V:t WHERE getvid(s) < getvid(t) ACCUM s.@higher += t;
  All = SELECT s FROM All:s
        ACCUM FOREACH t IN s.@higher DO
                FOREACH x IN t.@higher DO
                  IF x IN s.@higher THEN @@cnt += 1, s.@tri += 1, t.@tri += 1, x.@tri += 1, @@maxLabel += x.label END
                END
              END;
  PRINT @@cnt AS triangles, @@maxLabel AS maxLabel;
  All = {V.*};
  PRINT All[All.@tri];
}`;

// Common out-neighbours of the two ends of each directed edge, the intersection written as
// a loop with a membership test; and the same with a body that records the visiting order.
const COMMON = `CREATE QUERY common() FOR GRAPH R SYNTAX V1 {
  SetAccum<VERTEX> @out;
  SumAccum<INT> @common;
  MinAccum<INT> @minLabel;
  ListAccum<VERTEX> @ordered;
  All = {V.*};
  All = SELECT s FROM All:s -(E:e)-> V:t ACCUM s.@out += t;
  All = SELECT s FROM All:s -(E:e)-> V:t
        ACCUM FOREACH x IN s.@out DO
                IF x IN t.@out THEN s.@common += 1, s.@minLabel += x.label END
              END;
  All = SELECT s FROM All:s -(U:e)- V:t WHERE getvid(s) < getvid(t)
        ACCUM FOREACH x IN s.@out DO
                IF x IN t.@out THEN s.@ordered += x END
              END;
  PRINT All[All.@common, All.@minLabel, All.@ordered];
}`;

// A global set stamped at query level, probed from a nested loop.
const GLOBAL = `CREATE QUERY global_marks() FOR GRAPH R SYNTAX V1 {
  SetAccum<VERTEX> @@picked;
  SetAccum<VERTEX> @@targets;
  SumAccum<INT> @@hits;
  All = {V.*};
  All = SELECT s FROM All:s -(E:e)-> V:t
        ACCUM IF s.label % 2 == 0 THEN @@targets += t END
        POST-ACCUM IF s.label % 3 == 0 THEN @@picked += s END;
  FOREACH p IN @@picked DO
    FOREACH q IN @@targets DO
      IF q IN @@picked THEN @@hits += 1; END;
    END;
  END;
  PRINT @@hits AS hits;
}`;

describe("set loops: stamped membership and intersections, against TypeScript references", function () {
  this.timeout(120_000);
  after(closeSharedRuntime);

  for (const [seed, n, m] of [
    [71, 30, 90],
    [72, 150, 1200],
  ]) {
    it(`triangles written as nested set loops (seed ${seed})`, async () => {
      const g = randomGraph(seed, n, m);
      const r = await runGsql(load(g), TRIANGLES);
      expect(r.ok, r.ok ? "" : r.message).to.equal(true);
      const higher: Set<number>[] = Array.from({ length: n }, () => new Set());
      for (const [a, b] of g.undirected) higher[a].add(b);
      let count = 0;
      let maxLabel = -(2n ** 63n);
      const tri = new Array<number>(n).fill(0);
      for (let s = 0; s < n; s++)
        for (const t of higher[s])
          for (const x of higher[t])
            if (higher[s].has(x)) {
              count++;
              tri[s]++;
              tri[t]++;
              tri[x]++;
              if (BigInt((x * 37) % 101) > maxLabel) maxLabel = BigInt((x * 37) % 101);
            }
      const out = r.json as unknown[];
      expect(count).to.be.greaterThan(0);
      expect((out[0] as { triangles: number }).triangles).to.equal(count);
      expect(BigInt((out[0] as { maxLabel: number }).maxLabel)).to.equal(maxLabel);
      expect(perVertex([out[1]], "All.@tri")).to.deep.equal(tri);
    });

    it(`intersection loops, order-independent and ordered bodies (seed ${seed})`, async () => {
      const g = randomGraph(seed, n, m);
      const r = await runGsql(load(g), COMMON);
      expect(r.ok, r.ok ? "" : r.message).to.equal(true);
      const out: number[][] = Array.from({ length: n }, () => []);
      for (const [a, b] of g.directed) out[a].push(b);
      const label = (v: number) => (v * 37) % 101;
      const common = new Array<number>(n).fill(0);
      const minLabel = new Array<number>(n).fill(Number.MAX_SAFE_INTEGER);
      for (const [s, t] of g.directed)
        for (const x of out[s])
          if (out[t].includes(x)) {
            common[s]++;
            minLabel[s] = Math.min(minLabel[s], label(x));
          }
      const records = (r.json as { All: VertexRecord[] }[])[0].All;
      for (const rec of records) {
        const v = Number(rec.v_id.slice(1));
        expect(rec.attributes["All.@common"], `common of v${v}`).to.equal(common[v]);
        if (common[v] > 0) expect(rec.attributes["All.@minLabel"], `min label of v${v}`).to.equal(minLabel[v]);
        // a body that records the order is not reordered: it sees exactly the common elements
        const ordered = (rec.attributes["All.@ordered"] as string[]).map((id) => Number(id.slice(1)));
        const expected: number[] = [];
        for (const [a, b] of g.undirected) if (a === v) for (const x of out[v]) if (out[b].includes(x)) expected.push(x);
        expect([...ordered].sort((x, y) => x - y)).to.deep.equal(expected.sort((x, y) => x - y));
      }
    });

    it(`a global set stamped at query level (seed ${seed})`, async () => {
      const g = randomGraph(seed, n, m);
      const r = await runGsql(load(g), GLOBAL);
      expect(r.ok, r.ok ? "" : r.message).to.equal(true);
      const picked = new Set<number>();
      const targets = new Set<number>();
      const label = (v: number) => (v * 37) % 101;
      for (const [a, b] of g.directed) {
        if (label(a) % 2 === 0) targets.add(b);
        if (label(a) % 3 === 0) picked.add(a);
      }
      let hits = 0;
      for (const _p of picked) for (const q of targets) if (picked.has(q)) hits++;
      expect(hits).to.be.greaterThan(0);
      expect((r.json as { hits: number }[])[0].hits).to.equal(hits);
    });
  }
});
