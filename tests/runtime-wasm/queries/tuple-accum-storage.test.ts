// MinAccum / MaxAccum of tuples keep the tuple's fields in the accumulator's own state. These
// tests pin what that storage must not change: a tuple read as a value (into a list, a
// variable, another accumulator) keeps the value it had when read, however the accumulator
// changes afterwards; `@x'` reads the tuple from before the clause, for tuples of one to
// three 8-byte words, with small and whole-graph sources; defaults, `=`, `+=` of a tuple
// value (not a constructor), map, GroupBy and global accumulators, and printing whole vertex
// records. Expected values are hand-computed on a small graph, or come from a plain
// TypeScript reference on a random one.
import { expect } from "chai";
import { mulberry32 } from "../../../tools/bench/rmat.js";
import { closeSharedRuntime, createDatabase, runGsql, type TestDatabase } from "./gsql-harness.js";

const DDL = `
CREATE VERTEX V (PRIMARY_ID id STRING, label INT, name STRING)
CREATE DIRECTED EDGE E (FROM V, TO V, w DOUBLE)
CREATE GRAPH R (V, E)
`;

/** v0 -> v1 (5), v0 -> v2 (2), v2 -> v1 (1), v1 -> v3 (4), v2 -> v3 (9). */
function smallGraph(): TestDatabase {
  const v = (i: number, label: number, name: string) => ({ type: "V", id: `v${i}`, attributes: [{ name: "label", value: label }, { name: "name", value: name }] });
  const e = (a: number, b: number, w: number) => ({ type: "E", from: { type: "V", id: `v${a}` }, to: { type: "V", id: `v${b}` }, attributes: [{ name: "w", value: w }] });
  return createDatabase(DDL, {
    vertices: [v(0, 30, "ann"), v(1, 10, "bob"), v(2, 20, "cid"), v(3, 40, "dee")],
    edges: [e(0, 1, 5), e(0, 2, 2), e(2, 1, 1), e(1, 3, 4), e(2, 3, 9)],
  });
}

async function run(db: TestDatabase, text: string, args: unknown[] = []): Promise<Record<string, unknown>[]> {
  const results: Record<string, unknown>[][] = [];
  for (const level of [1, 3] as const) {
    const r = await runGsql(db, text, args as never[], { level });
    expect(r.ok, JSON.stringify(r)).to.equal(true);
    results.push(r.json as Record<string, unknown>[]);
  }
  expect(results[1], "the same at -O3").to.deep.equal(results[0]);
  return results[0];
}

describe("Min/MaxAccum of tuples kept in place", function () {
  this.timeout(60000);
  after(closeSharedRuntime);

  it("a tuple read into a list keeps its value when the global accumulator changes later", async () => {
    const out = await run(
      smallGraph(),
      `CREATE QUERY q() FOR GRAPH R {
        TYPEDEF TUPLE<DOUBLE d, STRING s, INT n> Trio;
        MinAccum<Trio> @@best;
        MaxAccum<Trio> @@top;
        ListAccum<Trio> @@seen;
        @@seen += @@best;
        @@best = Trio(9, "z", 9);
        @@seen += @@best;
        @@best += Trio(5.5, "x", 1);
        @@seen += @@best;
        @@best += Trio(5.5, "a", 9);
        @@seen += @@best;
        @@best += Trio(7, "a", 0);
        @@top = Trio(1, "m", 2);
        @@seen += @@top;
        @@top += @@best;
        @@seen += @@top;
        PRINT @@seen, @@best, @@top;
      }`,
    );
    expect(out[0]).to.deep.equal({
      "@@seen": [
        // the default of a MinAccum of tuples: every field the default of its type
        { d: 0, s: "", n: 0 },
        { d: 9, s: "z", n: 9 },
        { d: 5.5, s: "x", n: 1 },
        { d: 5.5, s: "a", n: 9 },
        { d: 1, s: "m", n: 2 },
        { d: 5.5, s: "a", n: 9 },
      ],
      "@@best": { d: 5.5, s: "a", n: 9 },
      "@@top": { d: 5.5, s: "a", n: 9 },
    });
  });

  it("vertex tuples: values read before a later write, the prime in POST-ACCUM, whole vertex records", async () => {
    const out = await run(
      smallGraph(),
      `CREATE QUERY q(VERTEX<V> src) FOR GRAPH R {
        TYPEDEF TUPLE<DOUBLE d, VERTEX p> Step;
        MinAccum<Step> @best;
        ListAccum<Step> @history;
        ListAccum<Step> @before;
        All = {V.*};
        All = SELECT x FROM All:x POST-ACCUM x.@best = Step(100, x), x.@history += x.@best;
        F = {src};
        F = SELECT s FROM F:s POST-ACCUM s.@best = Step(0, s);
        WHILE F.size() > 0 DO
          F = SELECT t FROM F:s -(E:e)-> V:t
              WHERE s.@best.d + e.w < t.@best.d
              ACCUM t.@best += Step(s.@best.d + e.w, s)
              POST-ACCUM t.@before += t.@best', t.@history += t.@best;
        END;
        PRINT All[All.@best.d AS d, All.@best.p AS p, All.@history AS history, All.@before AS before];
      }`,
      [{ id: "v0" }],
    );
    const rows = new Map((out[0].All as { v_id: string; attributes: Record<string, unknown> }[]).map((r) => [r.v_id, r.attributes]));
    // round 1 from v0: v1 = 5 (via v0), v2 = 2 (via v0); round 2 from v1, v2: v1 = 3 (via v2),
    // v3 = 9 (via v1 at 5) and 11 (via v2): 9; round 3 from v1, v3: v3 = 7 (via v1 at 3)
    expect(rows.get("v0")).to.include({ d: 0 });
    expect(rows.get("v1")).to.include({ d: 3 });
    expect(rows.get("v2")).to.include({ d: 2 });
    expect(rows.get("v3")).to.include({ d: 7 });
    const history = (v: string) => (rows.get(v)!.history as { d: number }[]).map((s) => s.d);
    const before = (v: string) => (rows.get(v)!.before as { d: number }[]).map((s) => s.d);
    expect(history("v0")).to.deep.equal([100]);
    expect(history("v1")).to.deep.equal([100, 5, 3]);
    expect(history("v2")).to.deep.equal([100, 2]);
    expect(history("v3")).to.deep.equal([100, 9, 7]);
    expect(before("v1")).to.deep.equal([100, 5]);
    expect(before("v3")).to.deep.equal([100, 9]);
    // the last steps: v2 for v1, v0 for v2, v1 for v3; v0 keeps itself
    expect(["v0", "v1", "v2", "v3"].map((v) => rows.get(v)!.p)).to.deep.equal(["v0", "v2", "v0", "v1"]);
  });

  it("whole vertex records print the tuple; map, GroupBy and assignment from another tuple accumulator", async () => {
    const out = await run(
      smallGraph(),
      `CREATE QUERY q() FOR GRAPH R {
        TYPEDEF TUPLE<INT k, STRING name> Pair;
        MaxAccum<Pair> @top;
        MinAccum<Pair> @copy;
        MapAccum<INT, MaxAccum<Pair>> @@byParity;
        GroupByAccum<INT parity, MaxAccum<Pair> best> @@groups;
        All = {V.*};
        S = SELECT t FROM All:s -(E:e)-> V:t
            ACCUM t.@top += Pair(s.label, s.name),
                  @@byParity += (t.label % 20 -> Pair(100 - s.label, s.name)),
                  @@groups += (s.label % 20 -> Pair(t.label, t.name))
            POST-ACCUM t.@copy = t.@top, t.@top += Pair(1000, "zz");
        PRINT All;
        PRINT @@byParity, @@groups;
      }`,
    );
    const records = (out[0].All as { v_id: string; attributes: Record<string, unknown> }[]).sort((a, b) => a.v_id.localeCompare(b.v_id));
    expect(records.map((r) => [r.v_id, r.attributes["@top"], r.attributes["@copy"]])).to.deep.equal([
      // nothing reaches v0: both keep their default tuple
      ["v0", { k: 0, name: "" }, { k: 0, name: "" }],
      // @copy keeps the value @top had when it was copied
      ["v1", { k: 1000, name: "zz" }, { k: 30, name: "ann" }],
      ["v2", { k: 1000, name: "zz" }, { k: 30, name: "ann" }],
      ["v3", { k: 1000, name: "zz" }, { k: 20, name: "cid" }],
    ]);
    // targets v1 (10: parity 10), v2 (20: 0), v3 (40: 0); sources v0 (30), v2 (20), v1 (10)
    expect(out[1]["@@byParity"]).to.deep.equal({ "10": { k: 80, name: "cid" }, "0": { k: 90, name: "bob" } });
    const groups = (out[1]["@@groups"] as { parity: number; best: unknown }[]).sort((a, b) => a.parity - b.parity);
    expect(groups).to.deep.equal([
      { parity: 0, best: { k: 40, name: "dee" } },
      { parity: 10, best: { k: 40, name: "dee" } },
    ]);
  });

  for (const seed of [5, 17]) {
    it(`three-word tuples read through the prime in WHERE, small and whole-graph rounds, match the reference (seed ${seed})`, async () => {
      const rnd = mulberry32(seed);
      const n = 300;
      const edges = new Map<string, [number, number, number]>();
      for (let i = 0; i < 1500; i++) {
        const a = Math.floor(rnd() * n);
        const b = Math.floor(rnd() * n);
        if (a !== b) edges.set(`${a},${b}`, [a, b, 1 + Math.floor(rnd() * 9)]);
      }
      const db = createDatabase(DDL, {
        vertices: Array.from({ length: n }, (_, i) => ({ type: "V", id: `v${i}`, attributes: [{ name: "label", value: i }, { name: "name", value: `n${i % 7}` }] })),
        edges: [...edges.values()].map(([a, b, w]) => ({ type: "E", from: { type: "V", id: `v${a}` }, to: { type: "V", id: `v${b}` }, attributes: [{ name: "w", value: w }] })),
      });
      // (distance, name of the last step's source, hops): ties on the distance go to the smaller name
      type Step = [number, string, number];
      const less = (x: Step, y: Step) => x[0] < y[0] || (x[0] === y[0] && (x[1] < y[1] || (x[1] === y[1] && x[2] < y[2])));
      const best = Array.from({ length: n }, (): Step => [1e9, "", 0]);
      best[0] = [0, "", 0];
      const out: [number, number, number][][] = Array.from({ length: n }, () => []);
      for (const [a, b, w] of edges.values()) out[a].push([a, b, w]);
      let frontier = new Set([0]);
      const sizes: number[] = [];
      while (frontier.size > 0) {
        const before = best.map((s) => [...s] as Step);
        const next = new Set<number>();
        for (const s of frontier)
          for (const [, t, w] of out[s]) {
            if (before[s][0] + w < before[t][0]) {
              const step: Step = [before[s][0] + w, `n${s % 7}`, before[s][2] + 1];
              if (less(step, best[t])) best[t] = step;
              next.add(t);
            }
          }
        sizes.push(next.size);
        frontier = next;
      }
      expect(Math.max(...sizes)).to.be.greaterThan(n / 8);
      expect(sizes.filter((s) => s > 0 && s < n / 8).length).to.be.greaterThan(0);
      const res = await run(
        db,
        `CREATE QUERY q(VERTEX<V> src) FOR GRAPH R {
          TYPEDEF TUPLE<DOUBLE d, STRING via, INT hops> Step;
          MinAccum<Step> @best;
          ListAccum<INT> @@sizes;
          All = {V.*};
          All = SELECT x FROM All:x POST-ACCUM x.@best = Step(1000000000, "", 0);
          F = {src};
          F = SELECT s FROM F:s POST-ACCUM s.@best = Step(0, "", 0);
          WHILE F.size() > 0 DO
            F = SELECT t FROM F:s -(E:e)-> V:t
                WHERE s.@best.d + e.w < t.@best.d
                ACCUM t.@best += Step(s.@best.d + e.w, s.name, s.@best.hops + 1);
            @@sizes += F.size();
          END;
          PRINT @@sizes;
          PRINT All[All.@best AS best];
        }`,
        [{ id: "v0" }],
      );
      expect(res[0]["@@sizes"]).to.deep.equal(sizes);
      const got = new Map((res[1].All as { v_id: string; attributes: { best: { d: number; via: string; hops: number } } }[]).map((r) => [Number(r.v_id.slice(1)), r.attributes.best]));
      for (let v = 0; v < n; v++) expect([got.get(v)!.d, got.get(v)!.via, got.get(v)!.hops], `v${v}`).to.deep.equal(best[v]);
    });
  }
});
