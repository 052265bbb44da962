// The traversal fast paths against plain TypeScript references, on a graph with pending
// writes (edges upserted after the last compaction, edges and vertices deleted): SELECT rounds
// whose ACCUM reads what it writes (the pre-clause snapshot), `@x'` in POST-ACCUM, and rounds
// whose frontier is first small then a large share of the graph, so both ways of keeping the
// snapshot (per-vertex copies for small sources, whole-column copies for large ones) run in
// one query. Per-round frontier sizes are compared exactly: they depend on every row seeing
// the values from before its SELECT.
import { expect } from "chai";
import { mulberry32 } from "../../../tools/bench/rmat.js";
import { closeSharedRuntime, createDatabase, runGsql, type TestDatabase } from "./gsql-harness.js";

const DDL = `
CREATE VERTEX V (PRIMARY_ID id STRING, label INT)
CREATE DIRECTED EDGE E (FROM V, TO V)
CREATE UNDIRECTED EDGE U (FROM V, TO V)
CREATE GRAPH R (V, E, U)
`;

/** The live graph the store holds after all writes: vertex numbers, edges by number. */
interface LiveGraph {
  alive: Set<number>;
  directed: [number, number][];
  undirected: [number, number][];
}

/**
 * A random graph plus a chain of `chain` vertices hanging off vertex 0 (late rounds of a
 * propagation then have tiny frontiers), loaded and compacted; then more edges upserted,
 * some edges deleted and some vertices deleted without compacting again.
 */
function build(seed: number, n: number, m: number, chain: number): { db: TestDatabase; live: LiveGraph } {
  const rnd = mulberry32(seed);
  const total = n + chain;
  const pick = () => Math.floor(rnd() * n);
  const directed = new Map<string, [number, number]>();
  const undirected = new Map<string, [number, number]>();
  const addD = (a: number, b: number) => a !== b && directed.set(`${a},${b}`, [a, b]);
  const addU = (x: number, y: number) => x !== y && undirected.set(x < y ? `${x},${y}` : `${y},${x}`, x < y ? [x, y] : [y, x]);
  for (let i = 0; i < m; i++) addD(pick(), pick());
  for (let i = 0; i < m / 2; i++) addU(pick(), pick());
  for (let i = 0; i < chain; i++) {
    addD(i === 0 ? 0 : n + i - 1, n + i);
    addU(i === 0 ? 0 : n + i - 1, n + i);
  }
  const key = (i: number) => ({ type: "V", id: `v${i}` });
  const edgesOf = (d: Iterable<[number, number]>, u: Iterable<[number, number]>) => [
    ...[...d].map(([a, b]) => ({ type: "E", from: key(a), to: key(b) })),
    ...[...u].map(([a, b]) => ({ type: "U", from: key(a), to: key(b) })),
  ];
  // labels are a permutation, so the smallest label of a component is one vertex's
  const labels = Array.from({ length: total }, (_, i) => i);
  for (let i = total - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [labels[i], labels[j]] = [labels[j], labels[i]];
  }
  const db = createDatabase(DDL, {
    vertices: Array.from({ length: total }, (_, i) => ({ type: "V", id: `v${i}`, attributes: [{ name: "label", value: labels[i] }] })),
    edges: edgesOf(directed.values(), undirected.values()),
  });
  db.store.compact();
  // pending writes: new edges, deleted edges, deleted vertices (with their edges)
  const moreD: [number, number][] = [];
  const moreU: [number, number][] = [];
  for (let i = 0; i < m / 10; i++) {
    const [a, b] = [pick(), pick()];
    if (a !== b && !directed.has(`${a},${b}`)) (moreD.push([a, b]), addD(a, b));
    const [x, y] = [pick(), pick()];
    if (x !== y && !undirected.has(x < y ? `${x},${y}` : `${y},${x}`)) (moreU.push([x, y]), addU(x, y));
  }
  db.store.upsert({ edges: edgesOf(moreD, moreU) });
  // (the chain's edges stay)
  const inChain = ([a, b]: [number, number]) => a >= n || b >= n;
  const dropped = [...directed.values()].filter((e, i) => i % 13 === 5 && !inChain(e));
  const droppedU = [...undirected.values()].filter((e, i) => i % 11 === 3 && !inChain(e));
  db.store.deleteEdges([
    ...dropped.map(([a, b]) => ({ from: key(a), type: "E", toType: "V", to: key(b) })),
    ...droppedU.map(([a, b]) => ({ from: key(a), type: "U", toType: "V", to: key(b) })),
  ]);
  for (const [a, b] of dropped) directed.delete(`${a},${b}`);
  for (const [a, b] of droppedU) undirected.delete(`${a},${b}`);
  const deadVertices = [7, 19, 23, n - 2].filter((v) => v > 0 && v < n);
  db.store.deleteVertices("V", deadVertices.map((v) => `v${v}`));
  const alive = new Set(Array.from({ length: total }, (_, i) => i).filter((v) => !deadVertices.includes(v)));
  const liveEdge = ([a, b]: [number, number]) => alive.has(a) && alive.has(b);
  const live = { alive, directed: [...directed.values()].filter(liveEdge), undirected: [...undirected.values()].filter(liveEdge) };
  (db as TestDatabase & { labels?: number[] }).labels = labels;
  return { db, live };
}

function labelsOf(db: TestDatabase): number[] {
  return (db as TestDatabase & { labels: number[] }).labels;
}

type VertexRecord = { v_id: string; attributes: Record<string, unknown> };

/** Min-label propagation, each round reading the labels from before it; per-round frontier sizes and the final labels. */
function propagationReference(live: LiveGraph, labels: number[]): { sizes: number[]; cc: Map<number, number> } {
  const nbrs = new Map<number, number[]>([...live.alive].map((v) => [v, []]));
  for (const [a, b] of live.undirected) (nbrs.get(a)!.push(b), nbrs.get(b)!.push(a));
  const cc = new Map([...live.alive].map((v) => [v, labels[v]]));
  let frontier = new Set(live.alive);
  const sizes: number[] = [];
  while (frontier.size > 0) {
    const before = new Map(cc);
    const next = new Set<number>();
    for (const s of frontier) {
      for (const t of nbrs.get(s)!) {
        if (before.get(s)! < before.get(t)!) {
          cc.set(t, Math.min(cc.get(t)!, before.get(s)!));
          next.add(t);
        }
      }
    }
    sizes.push(next.size);
    frontier = next;
  }
  return { sizes, cc };
}

const PROPAGATION = `CREATE QUERY propagate() FOR GRAPH R {
  MinAccum<INT> @cc;
  ListAccum<INT> @@sizes;
  Start = {V.*};
  S = SELECT x FROM Start:x POST-ACCUM x.@cc = x.label;
  WHILE S.size() > 0 DO
    S = SELECT t FROM S:s -(U:e)- V:t WHERE s.@cc < t.@cc ACCUM t.@cc += s.@cc;
    @@sizes += S.size();
  END;
  PRINT @@sizes;
  PRINT Start[Start.@cc];
}`;

/**
 * From one vertex, rounds over the directed edges: a row passes unless the target's value
 * (before the round) is 3 modulo 7, and adds the source's value (before the round) to the target; POST-ACCUM sums
 * the targets' values from before the round (`@val'`) and after it.
 */
const SPREAD = `CREATE QUERY spread(VERTEX<V> src, INT rounds) FOR GRAPH R {
  SumAccum<INT> @val;
  ListAccum<INT> @@sizes;
  ListAccum<INT> @@before;
  ListAccum<INT> @@after;
  SumAccum<INT> @@b;
  SumAccum<INT> @@a;
  INT k = 0;
  All = {V.*};
  All = SELECT x FROM All:x POST-ACCUM x.@val = x.label;
  F = {src};
  WHILE k < rounds DO
    k = k + 1;
    @@b = 0;
    @@a = 0;
    F = SELECT t FROM F:s -(E:e)-> V:t
        WHERE t.@val % 7 != 3
        ACCUM t.@val += s.@val
        POST-ACCUM @@b += t.@val', @@a += t.@val;
    @@sizes += F.size();
    @@before += @@b;
    @@after += @@a;
  END;
  PRINT @@sizes, @@before, @@after;
  PRINT All[All.@val];
}`;

function spreadReference(live: LiveGraph, labels: number[], src: number, rounds: number) {
  const out = new Map<number, number[]>([...live.alive].map((v) => [v, []]));
  for (const [a, b] of live.directed) out.get(a)!.push(b);
  const val = new Map([...live.alive].map((v) => [v, labels[v]]));
  let frontier = new Set([src]);
  const sizes: number[] = [];
  const beforeSums: number[] = [];
  const afterSums: number[] = [];
  for (let k = 0; k < rounds; k++) {
    const before = new Map(val);
    const next = new Set<number>();
    for (const s of frontier) {
      for (const t of out.get(s)!) {
        if (before.get(t)! % 7 !== 3) {
          val.set(t, val.get(t)! + before.get(s)!);
          next.add(t);
        }
      }
    }
    sizes.push(next.size);
    beforeSums.push([...next].reduce((x, t) => x + before.get(t)!, 0));
    afterSums.push([...next].reduce((x, t) => x + val.get(t)!, 0));
    frontier = next;
  }
  return { sizes, beforeSums, afterSums, val };
}

describe("traversal fast paths on a graph with pending writes", function () {
  this.timeout(60000);
  after(closeSharedRuntime);

  for (const seed of [3, 11]) {
    it(`min-label propagation: per-round frontiers and labels match the reference (seed ${seed})`, async () => {
      const { db, live } = build(seed, 400, 900, 40);
      const expected = propagationReference(live, labelsOf(db));
      // both kinds of rounds happen: whole-graph ones and ones of a few vertices
      expect(expected.sizes[0]).to.be.greaterThan(100);
      expect(expected.sizes.filter((s) => s > 0 && s < 5).length).to.be.greaterThan(5);
      for (const level of [1, 3] as const) {
        const r = await runGsql(db, PROPAGATION, [], { level });
        expect(r.ok, JSON.stringify(r)).to.equal(true);
        const [sizes, vertices] = r.json as [{ "@@sizes": number[] }, { Start: VertexRecord[] }];
        expect(sizes["@@sizes"]).to.deep.equal(expected.sizes);
        const got = new Map(vertices.Start.map((x) => [Number(x.v_id.slice(1)), x.attributes["Start.@cc"]]));
        expect(got).to.deep.equal(expected.cc);
      }
    });

    it(`rounds from one vertex reading @val and @val' match the reference (seed ${seed})`, async () => {
      const { db, live } = build(seed, 400, 1200, 40);
      const rounds = 7;
      const expected = spreadReference(live, labelsOf(db), 0, rounds);
      expect(expected.sizes[0]).to.be.lessThan(10);
      expect(Math.max(...expected.sizes)).to.be.greaterThan(100);
      for (const level of [1, 3] as const) {
        const r = await runGsql(db, SPREAD, [{ id: "v0" }, BigInt(rounds)], { level });
        expect(r.ok, JSON.stringify(r)).to.equal(true);
        const [lists, vertices] = r.json as [Record<string, number[]>, { All: VertexRecord[] }];
        expect(lists["@@sizes"]).to.deep.equal(expected.sizes);
        expect(lists["@@before"]).to.deep.equal(expected.beforeSums);
        expect(lists["@@after"]).to.deep.equal(expected.afterSums);
        const got = new Map(vertices.All.map((x) => [Number(x.v_id.slice(1)), x.attributes["All.@val"]]));
        expect(got).to.deep.equal(expected.val);
      }
    });
  }
});
