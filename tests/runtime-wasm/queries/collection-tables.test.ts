// The hash tables behind SetAccum, MapAccum and BagAccum: small tables (scanned, no index)
// growing into indexed ones, removals and re-insertions (tombstones), duplicates, keys that
// are vertices (tag = key), INTs and STRINGs (tag = hash). Random graphs drive per-vertex and
// global accumulators of many sizes; every result is checked against plain TypeScript Sets
// and Maps computing the same thing.
import { expect } from "chai";
import { mulberry32 } from "../../../tools/bench/rmat.js";
import { closeSharedRuntime, createDatabase, runGsql, type TestDatabase } from "./gsql-harness.js";

const DDL = `
CREATE VERTEX V (PRIMARY_ID id STRING, label INT, name STRING)
CREATE DIRECTED EDGE E (FROM V, TO V)
CREATE DIRECTED EDGE P (FROM V, TO V)
CREATE GRAPH R (V, E, P)
`;

interface Graph {
  n: number;
  /** E: the edges that fill the sets (repeated pairs allowed: duplicates). */
  fill: [number, number][];
  /** P: the edges whose targets are probed for membership. */
  probe: [number, number][];
}

/** Out-degrees spread from 0 to about 3 * mean, so tables of every size occur. */
function randomGraph(seed: number, n: number, m: number): Graph {
  const rnd = mulberry32(seed);
  const fill: [number, number][] = [];
  const probe: [number, number][] = [];
  for (let i = 0; i < m; i++) {
    // skewed sources: a few vertices get far more edges than the small-table capacity
    const a = Math.floor(n * rnd() * rnd());
    fill.push([a, Math.floor(rnd() * n)]);
    probe.push([Math.floor(n * rnd() * rnd()), Math.floor(rnd() * n)]);
  }
  return { n, fill, probe };
}

const label = (i: number) => (i * 7919) % 1000;
const name = (i: number) => `n${i % 37}`;

function load(g: Graph): TestDatabase {
  return createDatabase(DDL, {
    vertices: Array.from({ length: g.n }, (_, i) => ({ type: "V", id: `v${i}`, attributes: [{ name: "label", value: label(i) }, { name: "name", value: name(i) }] })),
    edges: [
      ...g.fill.map(([a, b]) => ({ type: "E", from: { type: "V", id: `v${a}` }, to: { type: "V", id: `v${b}` } })),
      ...g.probe.map(([a, b]) => ({ type: "P", from: { type: "V", id: `v${a}` }, to: { type: "V", id: `v${b}` } })),
    ],
  });
}

/** Distinct edges (the store keeps one edge per pair and type). */
function distinct(edges: [number, number][]): [number, number][] {
  const seen = new Set<string>();
  return edges.filter(([a, b]) => !seen.has(`${a},${b}`) && seen.add(`${a},${b}`));
}

const PER_VERTEX = `CREATE QUERY per_vertex() FOR GRAPH R SYNTAX V1 {
  SetAccum<VERTEX> @nb;
  SetAccum<VERTEX> @drop;
  SumAccum<INT> @hits;
  SumAccum<INT> @size;
  SumAccum<INT> @walked;
  All = {V.*};
  X = SELECT s FROM All:s -(E:e)-> V:t ACCUM s.@nb += t, s.@nb += t;
  X = SELECT s FROM All:s -(E:e)-> V:t WHERE t.label % 3 == 0 ACCUM s.@drop += t
      POST-ACCUM FOREACH x IN s.@drop DO s.@nb.remove(x) END;
  X = SELECT s FROM All:s -(E:e)-> V:t WHERE t.label % 5 == 0 ACCUM s.@nb += t;
  X = SELECT s FROM All:s -(P:e)-> V:t ACCUM IF t IN s.@nb THEN s.@hits += 1 END;
  All = SELECT s FROM All:s POST-ACCUM s.@size = s.@nb.size(), FOREACH x IN s.@nb DO s.@walked += x.label END;
  PRINT All[All.@nb, All.@hits, All.@size, All.@walked];
}`;

const GLOBAL = `CREATE QUERY global_tables() FOR GRAPH R SYNTAX V1 {
  MapAccum<INT, SumAccum<INT>> @@byLabel;
  MapAccum<STRING, SumAccum<INT>> @@byName;
  MapAccum<VERTEX, SumAccum<INT>> @@byVertex;
  SetAccum<INT> @@products;
  BagAccum<INT> @@bag;
  All = {V.*};
  X = SELECT s FROM All:s -(E:e)-> V:t
      ACCUM @@byLabel += (t.label % 97 -> 1), @@byName += (t.name -> s.label), @@byVertex += (t -> 1),
            @@products += (s.label * t.label) % 500, @@bag += t.label % 13;
  FOREACH i IN RANGE[0, 96] DO
    IF i % 4 == 0 THEN @@byLabel.remove(i); END;
  END;
  FOREACH i IN RANGE[0, 499] DO
    IF i % 3 == 0 THEN @@products.remove(i); END;
  END;
  FOREACH i IN RANGE[0, 499] DO
    IF i % 9 == 0 THEN @@products += i; END;
  END;
  PRINT @@byLabel, @@byName, @@byVertex.size() AS vertices, @@products, @@bag.size() AS bagSize, @@bag.contains(12) AS has12;
}`;

// Per-vertex maps of numeric sums (the fused lookup-insert-add path): a vertex-keyed map of
// DOUBLE weights with removals and re-insertions, an INT-keyed map of INT counts emptied
// with clear() on some vertices and refilled; the weights are multiples of 1/4, so every
// sum is exact in any order.
const SUM_MAPS = `CREATE QUERY sum_maps() FOR GRAPH R SYNTAX V1 {
  MapAccum<VERTEX, SumAccum<DOUBLE>> @w;
  MapAccum<INT, SumAccum<INT>> @byLabel;
  SetAccum<VERTEX> @drop;
  SumAccum<INT> @count;
  SumAccum<DOUBLE> @dot;
  All = {V.*};
  X = SELECT s FROM All:s -(E:e)-> V:t
      ACCUM s.@w += (t -> 0.5), s.@w += (t -> t.label * 0.25), s.@byLabel += (t.label % 7 -> 3);
  X = SELECT s FROM All:s -(E:e)-> V:t WHERE t.label % 2 == 0 ACCUM s.@drop += t
      POST-ACCUM FOREACH x IN s.@drop DO s.@w.remove(x) END;
  X = SELECT s FROM All:s -(E:e)-> V:t WHERE t.label % 5 == 0 ACCUM s.@w += (t -> 1.0);
  X = SELECT s FROM All:s WHERE s.label % 3 == 0 POST-ACCUM s.@byLabel.clear();
  X = SELECT s FROM All:s -(E:e)-> V:t WHERE s.label % 3 == 0 ACCUM s.@byLabel += (t.label % 11 -> 2);
  All = SELECT s FROM All:s POST-ACCUM s.@count = s.@w.size(), FOREACH (k, v) IN s.@w DO s.@dot += k.label * v END;
  PRINT All[All.@count, All.@dot, All.@byLabel];
}`;

// clear() gives a large (indexed) table's buffers back to the run's free lists: maps and
// sets emptied on half the vertices, then other vertices' tables (kept ones growing, the
// emptied ones refilled) take those buffers again; every table must still hold exactly its
// own entries. Kept tables are checked too: a buffer handed out twice would show there.
const CLEAR_REUSE = `CREATE QUERY clear_reuse() FOR GRAPH R SYNTAX V1 {
  MapAccum<INT, SumAccum<INT>> @m;
  SetAccum<VERTEX> @s;
  All = {V.*};
  X = SELECT s FROM All:s -(E:e)-> V:t ACCUM s.@m += (t.label -> 1), s.@s += t;
  X = SELECT s FROM All:s WHERE s.label % 2 == 0 POST-ACCUM s.@m.clear(), s.@s.clear();
  X = SELECT s FROM All:s -(P:e)-> V:t WHERE s.label % 4 == 0 OR s.label % 2 == 1
      ACCUM s.@m += (t.label + 1000 -> 2), s.@s += t;
  PRINT All[All.@m, All.@s.size() AS setSize];
}`;

type VertexRecord = { v_id: string; attributes: { [k: string]: unknown } };

describe("collection hash tables (small and indexed) against TypeScript references", function () {
  this.timeout(120_000);
  after(closeSharedRuntime);

  for (const [seed, n, m] of [
    [61, 40, 300],
    [62, 120, 2500],
  ]) {
    it(`per-vertex vertex sets: duplicates, removals, re-insertions, membership (seed ${seed})`, async () => {
      const g = randomGraph(seed, n, m);
      const r = await runGsql(load(g), PER_VERTEX);
      expect(r.ok, r.ok ? "" : r.message).to.equal(true);
      const nb: Set<number>[] = Array.from({ length: n }, () => new Set());
      const fill = distinct(g.fill);
      for (const [a, b] of fill) nb[a].add(b);
      for (const [a, b] of fill) if (label(b) % 3 === 0) nb[a].delete(b);
      for (const [a, b] of fill) if (label(b) % 5 === 0) nb[a].add(b);
      const hits = new Array<number>(n).fill(0);
      for (const [a, b] of distinct(g.probe)) if (nb[a].has(b)) hits[a]++;
      const records = (r.json as { All: VertexRecord[] }[])[0].All;
      expect(records.length).to.equal(n);
      let large = 0;
      for (const rec of records) {
        const v = Number(rec.v_id.slice(1));
        const got = (rec.attributes["All.@nb"] as string[]).map((id) => Number(id.slice(1)));
        expect(got.length, `v${v} has no duplicates`).to.equal(new Set(got).size);
        expect([...got].sort((x, y) => x - y), `v${v}`).to.deep.equal([...nb[v]].sort((x, y) => x - y));
        expect(rec.attributes["All.@hits"], `hits of v${v}`).to.equal(hits[v]);
        expect(rec.attributes["All.@size"]).to.equal(nb[v].size);
        expect(rec.attributes["All.@walked"]).to.equal([...nb[v]].reduce((s, x) => s + label(x), 0));
        if (nb[v].size > 8) large++;
      }
      // both representations were exercised
      expect(large).to.be.greaterThan(0);
      expect(records.length - large).to.be.greaterThan(0);
    });

    it(`per-vertex maps of numeric sums: adds, removals, re-insertions, clear and refill (seed ${seed})`, async () => {
      const g = randomGraph(seed, n, m);
      const r = await runGsql(load(g), SUM_MAPS);
      expect(r.ok, r.ok ? "" : r.message).to.equal(true);
      const w: Map<number, number>[] = Array.from({ length: n }, () => new Map());
      const byLabel: Map<number, number>[] = Array.from({ length: n }, () => new Map());
      const add = <K>(map: Map<K, number>, k: K, v: number) => map.set(k, (map.get(k) ?? 0) + v);
      const fill = distinct(g.fill);
      for (const [a, b] of fill) add(w[a], b, 0.5 + label(b) * 0.25), add(byLabel[a], label(b) % 7, 3);
      for (const [a, b] of fill) if (label(b) % 2 === 0) w[a].delete(b);
      for (const [a, b] of fill) if (label(b) % 5 === 0) add(w[a], b, 1);
      for (let v = 0; v < n; v++) if (label(v) % 3 === 0) byLabel[v].clear();
      for (const [a, b] of fill) if (label(a) % 3 === 0) add(byLabel[a], label(b) % 11, 2);
      const records = (r.json as { All: VertexRecord[] }[])[0].All;
      expect(records.length).to.equal(n);
      let large = 0;
      for (const rec of records) {
        const v = Number(rec.v_id.slice(1));
        expect(rec.attributes["All.@count"], `entries of v${v}`).to.equal(w[v].size);
        expect(rec.attributes["All.@dot"], `weights of v${v}`).to.equal([...w[v]].reduce((sum, [k, x]) => sum + label(k) * x, 0));
        expect(rec.attributes["All.@byLabel"], `counts of v${v}`).to.deep.equal(Object.fromEntries([...byLabel[v]].map(([k, x]) => [String(k), x])));
        if (w[v].size > 8) large++;
      }
      // small (scanned) and indexed tables both occur
      expect(large).to.be.greaterThan(0);
      expect(records.length - large).to.be.greaterThan(0);
    });

    it(`clear() on large tables, then other tables reuse their buffers (seed ${seed})`, async () => {
      const g = randomGraph(seed, n, m);
      const r = await runGsql(load(g), CLEAR_REUSE);
      expect(r.ok, r.ok ? "" : r.message).to.equal(true);
      const counts: Map<number, number>[] = Array.from({ length: n }, () => new Map());
      const sets: Set<number>[] = Array.from({ length: n }, () => new Set());
      const add = (map: Map<number, number>, k: number, v: number) => map.set(k, (map.get(k) ?? 0) + v);
      for (const [a, b] of distinct(g.fill)) add(counts[a], label(b), 1), sets[a].add(b);
      for (let v = 0; v < n; v++) if (label(v) % 2 === 0) counts[v].clear(), sets[v].clear();
      for (const [a, b] of distinct(g.probe)) if (label(a) % 4 === 0 || label(a) % 2 === 1) add(counts[a], label(b) + 1000, 2), sets[a].add(b);
      const records = (r.json as { All: VertexRecord[] }[])[0].All;
      expect(records.length).to.equal(n);
      let clearedLarge = 0;
      for (const rec of records) {
        const v = Number(rec.v_id.slice(1));
        expect(rec.attributes["All.@m"], `map of v${v}`).to.deep.equal(Object.fromEntries([...counts[v]].map(([k, x]) => [String(k), x])));
        expect(rec.attributes["setSize"], `set of v${v}`).to.equal(sets[v].size);
        if (label(v) % 2 === 0 && distinct(g.fill).filter(([a]) => a === v).length > 8) clearedLarge++;
      }
      // tables past the small capacity were emptied (their buffers given back)
      expect(clearedLarge).to.be.greaterThan(0);
    });

    it(`global INT, STRING and VERTEX keyed maps, sets and bags (seed ${seed})`, async () => {
      const g = randomGraph(seed, n, m);
      const r = await runGsql(load(g), GLOBAL);
      expect(r.ok, r.ok ? "" : r.message).to.equal(true);
      const byLabel = new Map<number, number>();
      const byName = new Map<string, number>();
      const byVertex = new Set<number>();
      const products = new Set<number>();
      let bagSize = 0;
      let has12 = false;
      for (const [a, b] of distinct(g.fill)) {
        byLabel.set(label(b) % 97, (byLabel.get(label(b) % 97) ?? 0) + 1);
        byName.set(name(b), (byName.get(name(b)) ?? 0) + label(a));
        byVertex.add(b);
        products.add((label(a) * label(b)) % 500);
        bagSize++;
        has12 ||= label(b) % 13 === 12;
      }
      for (let i = 0; i <= 96; i += 4) byLabel.delete(i);
      for (let i = 0; i < 500; i += 3) products.delete(i);
      for (let i = 0; i < 500; i += 9) products.add(i);
      const out = r.json as Record<string, unknown>[];
      const sortedEntries = (o: object) => Object.entries(o).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
      expect(sortedEntries(out[0]["@@byLabel"] as object)).to.deep.equal(sortedEntries(Object.fromEntries(byLabel)));
      expect(sortedEntries(out[0]["@@byName"] as object)).to.deep.equal(sortedEntries(Object.fromEntries(byName)));
      expect(out[0].vertices).to.equal(byVertex.size);
      expect([...(out[0]["@@products"] as number[])].sort((x, y) => x - y)).to.deep.equal([...products].sort((x, y) => x - y));
      expect(out[0].bagSize).to.equal(bagSize);
      expect(out[0].has12).to.equal(has12);
    });
  }
});
