// Property tests: GSQL versions of BFS distances, PageRank, weakly connected components and
// triangle counting, compiled and run over random graphs, agree with independent plain
// TypeScript implementations of the same definitions.
import { expect } from "chai";
import { mulberry32 } from "../../../tools/bench/rmat.js";
import { closeSharedRuntime, compileGsql, createDatabase, sharedRuntime, type TestDatabase } from "./gsql-harness.js";
import type { UpsertBatch } from "../../../runtime-wasm/store/index.js";

const DDL = `
CREATE VERTEX V (PRIMARY_ID id STRING, label INT)
CREATE DIRECTED EDGE E (FROM V, TO V)
CREATE UNDIRECTED EDGE U (FROM V, TO V)
CREATE GRAPH R (V, E, U)
`;

interface RandomGraph {
  n: number;
  /** Directed edges (E), no duplicates, no self loops. */
  directed: [number, number][];
  /** Undirected edges (U), each once with a < b. */
  undirected: [number, number][];
}

function randomGraph(seed: number, n: number, m: number): RandomGraph {
  const rnd = mulberry32(seed);
  const pick = () => Math.floor(rnd() * n);
  const seenD = new Set<string>();
  const seenU = new Set<string>();
  const directed: [number, number][] = [];
  const undirected: [number, number][] = [];
  while (directed.length < m) {
    const [a, b] = [pick(), pick()];
    if (a === b || seenD.has(`${a},${b}`)) continue;
    seenD.add(`${a},${b}`);
    directed.push([a, b]);
  }
  while (undirected.length < m) {
    const [x, y] = [pick(), pick()];
    const [a, b] = x < y ? [x, y] : [y, x];
    if (a === b || seenU.has(`${a},${b}`)) continue;
    seenU.add(`${a},${b}`);
    undirected.push([a, b]);
  }
  return { n, directed, undirected };
}

function load(g: RandomGraph): TestDatabase {
  const batch: UpsertBatch = {
    vertices: Array.from({ length: g.n }, (_, i) => ({ type: "V", id: `v${i}`, attributes: [{ name: "label", value: i }] })),
    edges: [
      ...g.directed.map(([a, b]) => ({ type: "E", from: { type: "V", id: `v${a}` }, to: { type: "V", id: `v${b}` } })),
      ...g.undirected.map(([a, b]) => ({ type: "U", from: { type: "V", id: `v${a}` }, to: { type: "V", id: `v${b}` } })),
    ],
  };
  return createDatabase(DDL, batch);
}

type VertexRecord = { v_id: string; attributes: Record<string, unknown> };

/** `id -> attribute` from printed vertex records. */
function byId(records: VertexRecord[], key: string): Map<number, unknown> {
  return new Map(records.map((r) => [Number(r.v_id.slice(1)), r.attributes[key]]));
}

// ---------------------------------------------------------------- references

function bfsReference(g: RandomGraph, src: number): number[] {
  const out: number[][] = Array.from({ length: g.n }, () => []);
  for (const [a, b] of g.directed) out[a].push(b);
  const dist = new Array<number>(g.n).fill(-1);
  dist[src] = 0;
  const queue = [src];
  for (let i = 0; i < queue.length; i++) for (const t of out[queue[i]]) if (dist[t] < 0) (dist[t] = dist[queue[i]] + 1), queue.push(t);
  return dist;
}

/** PageRank exactly as the GSQL below defines it (the source set keeps only vertices with out-edges). */
function pageRankReference(g: RandomGraph, maxChange: number, maxIter: number, damping: number): number[] {
  const out: number[][] = Array.from({ length: g.n }, () => []);
  for (const [a, b] of g.directed) out[a].push(b);
  const score = new Array<number>(g.n).fill(1);
  const recvd = new Array<number>(g.n).fill(0);
  let start = Array.from({ length: g.n }, (_, i) => i);
  let maxDiff = 9999;
  for (let iter = 0; maxDiff > maxChange && iter < maxIter; iter++) {
    maxDiff = 0;
    for (const s of start) for (const t of out[s]) recvd[t] += score[s] / out[s].length;
    start = start.filter((s) => out[s].length > 0);
    for (const s of start) {
      const before = score[s];
      score[s] = 1 - damping + damping * recvd[s];
      recvd[s] = 0;
      maxDiff = Math.max(maxDiff, Math.abs(score[s] - before));
    }
  }
  return score;
}

function componentsReference(g: RandomGraph): number[] {
  const parent = Array.from({ length: g.n }, (_, i) => i);
  const find = (x: number): number => (parent[x] === x ? x : (parent[x] = find(parent[x])));
  for (const [a, b] of g.undirected) parent[find(a)] = find(b);
  return Array.from({ length: g.n }, (_, i) => find(i));
}

function trianglesReference(g: RandomGraph): number {
  const adj: Set<number>[] = Array.from({ length: g.n }, () => new Set());
  for (const [a, b] of g.undirected) {
    adj[a].add(b);
    adj[b].add(a);
  }
  let count = 0;
  for (let a = 0; a < g.n; a++) for (const b of adj[a]) if (b > a) for (const c of adj[b]) if (c > b && adj[a].has(c)) count++;
  return count;
}

/** Two labelings describe the same partition. */
function samePartition(a: number[], b: number[]): boolean {
  const ab = new Map<number, number>();
  const ba = new Map<number, number>();
  for (let i = 0; i < a.length; i++) {
    if ((ab.get(a[i]) ?? b[i]) !== b[i] || (ba.get(b[i]) ?? a[i]) !== a[i]) return false;
    ab.set(a[i], b[i]);
    ba.set(b[i], a[i]);
  }
  return true;
}

// ---------------------------------------------------------------- GSQL

const BFS = `CREATE QUERY bfs(VERTEX<V> src) FOR GRAPH R SYNTAX V1 {
  OrAccum @visited;
  SumAccum<INT> @dist = -1;
  INT d = 0;
  Start = {src};
  Start = SELECT s FROM Start:s ACCUM s.@visited = TRUE, s.@dist = 0;
  WHILE Start.size() > 0 DO
    d = d + 1;
    Start = SELECT t FROM Start:s -(E:e)-> V:t
            WHERE t.@visited == FALSE
            ACCUM t.@visited = TRUE, t.@dist = d;
  END;
  All = {V.*};
  PRINT All[All.@dist AS dist];
}`;

const PAGERANK = `CREATE QUERY pagerank(DOUBLE maxChange = 0.001, INT maxIter = 20, DOUBLE damping = 0.85) FOR GRAPH R SYNTAX V1 {
  MaxAccum<DOUBLE> @@max_diff = 9999;
  SumAccum<DOUBLE> @sum_recvd_score = 0;
  SumAccum<DOUBLE> @sum_score = 1;
  Start = {V.*};
  WHILE @@max_diff > maxChange LIMIT maxIter DO
    @@max_diff = 0;
    Start = SELECT s FROM Start:s -(E:e)-> V:t
            ACCUM t.@sum_recvd_score += s.@sum_score / s.outdegree("E")
            POST-ACCUM s.@sum_score = (1.0 - damping) + damping * s.@sum_recvd_score,
                       s.@sum_recvd_score = 0,
                       @@max_diff += abs(s.@sum_score - s.@sum_score');
  END;
  All = {V.*};
  PRINT All[All.@sum_score AS score];
}`;

const WCC = `CREATE QUERY wcc() FOR GRAPH R SYNTAX V1 {
  MinAccum<INT> @cc_id;
  Start = {V.*};
  S = SELECT x FROM Start:x POST-ACCUM x.@cc_id = getvid(x);
  WHILE S.size() > 0 DO
    S = SELECT t FROM S:s -(U:e)- V:t
        WHERE s.@cc_id < t.@cc_id
        ACCUM t.@cc_id += s.@cc_id;
  END;
  PRINT Start[Start.@cc_id AS cc];
}`;

const TRIANGLES = `CREATE QUERY triangles() FOR GRAPH R SYNTAX V1 {
  SetAccum<VERTEX> @nb;
  SumAccum<INT> @@cnt;
  All = {V.*};
  All = SELECT s FROM All:s -(U:e)- V:t ACCUM s.@nb += t;
  All = SELECT s FROM All:s -(U:e)- V:t
        WHERE getvid(s) < getvid(t)
        ACCUM FOREACH x IN s.@nb DO
                IF getvid(x) > getvid(t) AND x IN t.@nb THEN @@cnt += 1 END
              END;
  PRINT @@cnt AS triangles;
}`;

describe("algorithms in GSQL agree with plain TypeScript references on random graphs", function () {
  this.timeout(60000);
  after(closeSharedRuntime);
  const seeds = [1, 2, 3];

  for (const seed of seeds) {
    const g = randomGraph(seed, 120 + 40 * seed, 300 + 100 * seed);

    it(`BFS distances (seed ${seed})`, async () => {
      const db = load(g);
      const q = await compileGsql(db, BFS);
      for (const src of [0, 7]) {
        const r = await sharedRuntime().run(db.store, db.graph, q, [{ id: `v${src}` }]);
        if (!r.ok) throw new Error(r.message);
        const dist = byId((JSON.parse(r.results) as { All: VertexRecord[] }[])[0].All, "dist");
        const want = bfsReference(g, src);
        for (let i = 0; i < g.n; i++) expect(dist.get(i), `distance of v${i} from v${src}`).to.equal(want[i]);
      }
    });

    it(`PageRank (seed ${seed})`, async () => {
      const db = load(g);
      const q = await compileGsql(db, PAGERANK);
      const r = await sharedRuntime().run(db.store, db.graph, q, []);
      if (!r.ok) throw new Error(r.message);
      const score = byId((JSON.parse(r.results) as { All: VertexRecord[] }[])[0].All, "score");
      const want = pageRankReference(g, 0.001, 20, 0.85);
      for (let i = 0; i < g.n; i++) expect(score.get(i) as number, `score of v${i}`).to.be.closeTo(want[i], 1e-9);
    });

    it(`weakly connected components (seed ${seed})`, async () => {
      const db = load(g);
      const q = await compileGsql(db, WCC);
      const r = await sharedRuntime().run(db.store, db.graph, q, []);
      if (!r.ok) throw new Error(r.message);
      const cc = byId((JSON.parse(r.results) as { Start: VertexRecord[] }[])[0].Start, "cc");
      const got = Array.from({ length: g.n }, (_, i) => cc.get(i) as number);
      expect(samePartition(got, componentsReference(g))).to.equal(true);
    });

    it(`triangle counting (seed ${seed})`, async () => {
      const db = load(g);
      const q = await compileGsql(db, TRIANGLES);
      const r = await sharedRuntime().run(db.store, db.graph, q, []);
      if (!r.ok) throw new Error(r.message);
      expect(JSON.parse(r.results)).to.deep.equal([{ triangles: trianglesReference(g) }]);
    });
  }
});
