// Parallel SELECT of MapAccum and tuple Min/MaxAccum writes: label propagation's
// neighbour-label counts (a MapAccum written at the source vertex, in place by the thread
// walking it) and Bellman-Ford's `MinAccum<Step>` (per-thread partial tuples folded). Each
// query runs on a one-thread runtime and on one that splits every eligible SELECT into
// chunks of one source across three threads; the JSON must be identical (maps in the same
// insertion order), the split must have happened with helper threads taking part, and the
// values must match a plain TypeScript reference computed here.
import { expect } from "chai";
import { mulberry32 } from "../../../tools/bench/rmat.js";
import { algorithm, renderQuery } from "../../../tools/algorithms/library.js";
import { adjacency, choices, load, randomGraph, type Loaded } from "../../algorithms/algo-harness.js";
import { SplitRuns } from "./split-runs.js";

const runs = new SplitRuns();

type Rec = { v_id: string; attributes: Record<string, unknown> };
const index = (vid: string) => Number(vid.slice(1));

/** The printed vertex set's records, by vertex index. */
function records(results: string, at = 0): Map<number, Record<string, unknown>> {
  const printed = JSON.parse(results) as Record<string, Rec[]>[];
  return new Map(Object.values(printed[at])[0].map((r) => [index(r.v_id), r.attributes]));
}

/** Synchronous label propagation as the library documents it: own label counts once, ties to the smallest. */
function labelPropReference(l: Loaded, maxIter: number): number[] {
  const out = adjacency(l.g, "U");
  let label = [...l.vid];
  for (let iter = 0; iter < maxIter; iter++) {
    const next = label.map((own, s) => {
      if (out[s].length === 0) return own;
      const count = new Map<number, number>([[own, 1]]);
      for (const [t] of out[s]) count.set(label[t], (count.get(label[t]) ?? 0) + 1);
      let best = own;
      for (const [lab, n] of count) if (n > count.get(best)! || (n === count.get(best)! && lab < best)) best = lab;
      return best;
    });
    const moved = next.some((x, i) => x !== label[i]);
    label = next;
    if (!moved) break;
  }
  return label;
}

/** Bellman-Ford distances over E from `source` (Infinity: unreached). */
function distancesReference(l: Loaded, source: number): number[] {
  const dist = new Array<number>(l.g.n).fill(Infinity);
  dist[source] = 0;
  for (let round = 0; round < l.g.n; round++) {
    let changed = false;
    for (const [a, b, w] of l.g.directed) if (dist[a] + w < dist[b]) (dist[b] = dist[a] + w), (changed = true);
    if (!changed) break;
  }
  return dist;
}

describe("parallel SELECT of maps and tuples", function () {
  this.timeout(60000);

  it("label_prop from the library: split equals one thread and the reference on random graphs", async () => {
    for (const [seed, n, m] of [
      [3, 300, 500],
      [5, 500, 1500],
    ]) {
      const l = load(randomGraph(seed, n, m));
      const text = renderQuery(algorithm("label_prop"), "stream", choices("U"));
      for (const maxIter of [1, 4, 30]) {
        const { one, many } = await runs.both(l.db, text, [BigInt(maxIter)]);
        expect(many.parallel?.splits, "SELECT walks split").to.be.greaterThan(maxIter === 1 ? 1 : 2);
        expect(many.results, `seed ${seed}, maxIter ${maxIter}`).to.equal(one.results);
        const got = records(many.results);
        const want = labelPropReference(l, maxIter);
        expect(got.size).to.equal(n);
        for (let i = 0; i < n; i++) expect(got.get(i)!["Start.@label"], `v${i}, maxIter ${maxIter}`).to.equal(want[i]);
      }
    }
  });

  it("source-side MapAccums of every value kind, empty maps and a POST-ACCUM reading them equal one thread and the reference", async () => {
    // vertices 240..299 have no edges at all: their maps stay empty
    const rnd = mulberry32(21);
    const g = randomGraph(9, 240, 900, () => Math.floor(rnd() * 8) / 4);
    g.n = 300;
    const l = load(g);
    const text = `
CREATE QUERY maps() FOR GRAPH G {
  MapAccum<INT, SumAccum<INT>> @byMod;
  MapAccum<VERTEX, MinAccum<DOUBLE>> @lightest;
  MapAccum<INT, MaxAccum<INT>> @maxIdByMod;
  MapAccum<BOOL, OrAccum> @heavy;
  MapAccum<INT, AvgAccum> @avgW;
  MapAccum<INT, SumAccum<DOUBLE>> @wByMod;
  SumAccum<INT> @total; SumAccum<INT> @keys; SumAccum<DOUBLE> @fromDouble;
  S = {V.*};
  S = SELECT s FROM S:s -(U:e)- V:t
      ACCUM s.@byMod += (getvid(t) % 5 -> 1),
            s.@lightest += (t -> e.w), s.@lightest += (s -> e.w + 1),
            s.@maxIdByMod += (getvid(s) % 3 -> getvid(t)),
            s.@avgW += (getvid(t) % 2 -> e.w),
            IF e.w > 1 THEN s.@heavy += (TRUE -> TRUE) ELSE s.@heavy += (FALSE -> e.w > 0) END,
            s.@wByMod += (getvid(t) % 4 -> e.w)
      POST-ACCUM
        FOREACH (k, n) IN s.@byMod DO s.@total += n END,
        s.@keys = s.@byMod.size() + s.@lightest.size() + s.@heavy.size(),
        s.@fromDouble = s.@wByMod.get(0) + s.@wByMod.get(3);
  All = {V.*};
  PRINT All[All.@byMod, All.@lightest, All.@maxIdByMod, All.@heavy, All.@avgW, All.@wByMod, All.@total, All.@keys, All.@fromDouble];
}`;
    const { one, many } = await runs.both(l.db, text);
    expect(many.parallel?.splits).to.equal(1);
    expect(many.results).to.equal(one.results);
    // against the edges: per source, counts of neighbours by internal id mod 5
    const out = adjacency(l.g, "U");
    const got = records(many.results);
    for (let i = 0; i < 300; i++) {
      const a = got.get(i)!;
      const byMod: Record<string, number> = {};
      let total = 0;
      for (const [t] of out[i]) {
        const k = String(l.vid[t] % 5);
        byMod[k] = (byMod[k] ?? 0) + 1;
        total++;
      }
      expect(a["All.@byMod"], `v${i}`).to.deep.equal(byMod);
      expect(a["All.@total"], `v${i}`).to.equal(total);
      const heavy = out[i].some(([, w]) => w > 1);
      const light = out[i].filter(([, w]) => w <= 1);
      const expectHeavy: Record<string, boolean> = {};
      if (heavy) expectHeavy["true"] = true;
      if (light.length > 0) expectHeavy["false"] = light.some(([, w]) => w > 0);
      expect(a["All.@heavy"], `v${i}`).to.deep.equal(expectHeavy);
      if (out[i].length === 0) expect(a["All.@keys"], `v${i}`).to.equal(0);
    }
  });

  it("a map written at the target alias stays on one thread, with the same results", async () => {
    const l = load(randomGraph(4, 200, 600));
    const text = `
CREATE QUERY targetMaps() FOR GRAPH G {
  MapAccum<INT, SumAccum<INT>> @in;
  S = {V.*};
  S = SELECT t FROM S:s -(E:e)-> V:t ACCUM t.@in += (getvid(s) % 3 -> 1);
  PRINT S[S.@in];
}`;
    const { one, many } = await runs.both(l.db, text);
    expect(many.parallel?.splits ?? 0).to.equal(0);
    expect(many.results).to.equal(one.results);
  });

  it("shortest_path_any_wt from the library: split equals one thread and Bellman-Ford on random graphs", async () => {
    // weights in quarters, some negative on edges that go up in index (no negative cycle)
    for (const seed of [2, 8]) {
      const g = randomGraph(seed, 400, 1600);
      for (const e of g.directed) e[2] = e[0] < e[1] ? Math.floor(((e[0] * 7 + e[1] * 13) % 40) - 8) / 4 : ((e[0] + e[1]) % 20) / 4 + 3;
      const l = load(g);
      const text = renderQuery(algorithm("shortest_path_any_wt"), "stream", choices("E"));
      const { one, many } = await runs.both(l.db, text, [{ id: "v0" }, -1n, false]);
      expect(many.parallel?.splits, "SELECT walks split").to.be.greaterThan(2);
      expect(many.results, `seed ${seed}`).to.equal(one.results);
      const want = distancesReference(l, 0);
      const got = records(many.results);
      expect(got.size).to.equal(want.filter((d) => d < Infinity).length);
      for (const [i, a] of got) {
        expect(a["dis"], `v${i}`).to.equal(want[i]);
        // the path ends in a step whose parent's distance plus the edge's weight is the distance
        const path = String(a["path"]).split("->");
        expect(path[0]).to.equal("v0");
        expect(path[path.length - 1]).to.equal(`v${i}`);
        if (i !== 0) {
          const p = index(path[path.length - 2]);
          expect(l.g.directed.some(([x, y, w]) => x === p && y === i && want[p] + w === want[i]), `v${i} from v${p}`).to.equal(true);
        }
      }
    }
  });

  it("Min and MaxAccum of tuples with INT, DOUBLE, UINT and VERTEX fields fold exactly, ties included", async () => {
    const rnd = mulberry32(22);
    const l = load(randomGraph(12, 300, 1500, () => (rnd() < 0.5 ? 1 : 2)));
    const text = `
CREATE QUERY tuples() FOR GRAPH G {
  TYPEDEF TUPLE<INT k, DOUBLE w, UINT u, VERTEX via> Pick;
  MinAccum<Pick> @lo; MaxAccum<Pick> @hi; MinAccum<Pick> @never;
  S = {V.*};
  T = SELECT t FROM S:s -(E:e)-> V:t
      WHERE getvid(s) % 7 != 3
      ACCUM t.@lo += Pick(getvid(s) % 4 - 2, e.w, getvid(s) % 2, s),
            t.@hi += Pick(getvid(s) % 4 - 2, e.w, getvid(s) % 2, s),
            IF e.w > 100 THEN t.@never += Pick(0, 0, 0, s) END;
  PRINT T[T.@lo.k, T.@lo.w, T.@lo.u, T.@lo.via, T.@hi.k, T.@hi.w, T.@hi.u, T.@hi.via, T.@never.via];
}`;
    const { one, many } = await runs.both(l.db, text);
    expect(many.parallel?.splits).to.equal(1);
    expect(many.results).to.equal(one.results);
    // reference: the lexicographic min and max of (k, w, u, internal id) over each target's
    // in-edges, starting from the accumulators' default (0, 0, 0, no vertex: ranked last)
    const UNKNOWN = 2 ** 32 - 1;
    const byVid = new Map(l.vid.map((v, i) => [v, `v${i}`]));
    const cmp = (x: number[], y: number[]) => x.map((a, j) => a - y[j]).find((d) => d !== 0) ?? 0;
    const lo = new Map<number, number[]>();
    const hi = new Map<number, number[]>();
    for (const [a, b, w] of l.g.directed) {
      const v = l.vid[a];
      if (v % 7 === 3) continue;
      const pick = [(v % 4) - 2, w, v % 2, v];
      if (cmp(pick, lo.get(b) ?? [0, 0, 0, UNKNOWN]) < 0) lo.set(b, pick);
      if (cmp(pick, hi.get(b) ?? [0, 0, 0, UNKNOWN]) > 0) hi.set(b, pick);
      if (!lo.has(b)) lo.set(b, [0, 0, 0, UNKNOWN]);
      if (!hi.has(b)) hi.set(b, [0, 0, 0, UNKNOWN]);
    }
    const shown = (t: number[]) => [t[0], t[1], t[2], t[3] === UNKNOWN ? "" : byVid.get(t[3])];
    const got = records(many.results);
    expect(got.size).to.equal(lo.size);
    expect([...lo.values()].filter((t) => t[3] !== UNKNOWN).length, "tuples that beat the default").to.be.greaterThan(50);
    for (const [i, a] of got) {
      expect([a["T.@lo.k"], a["T.@lo.w"], a["T.@lo.u"], a["T.@lo.via"]], `v${i} lo`).to.deep.equal(shown(lo.get(i)!));
      expect([a["T.@hi.k"], a["T.@hi.w"], a["T.@hi.u"], a["T.@hi.via"]], `v${i} hi`).to.deep.equal(shown(hi.get(i)!));
      expect(a["T.@never.via"], `v${i} never`).to.equal("");
    }
  });
});
