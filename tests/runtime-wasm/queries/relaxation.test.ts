// Relaxation SELECTs (`WHERE x < t.@m ACCUM t.@m += x`, compiler/passes/relaxation.ts), whose
// WHERE compares with the target's current value instead of its value from before the SELECT:
// per-round frontier sizes and final values against a plain TypeScript reference that reads
// every value as it was before the round (the clause semantics), on random graphs with
// self-loops, equal values and the INT and UINT extremes; Min and Max, `<` and `<=`, either
// operand order, another WHERE conjunct, a DOUBLE distance. Shapes the argument does not
// cover keep the pre-SELECT read (checked on the IR), and still match the reference.
import { expect } from "chai";
import { mulberry32 } from "../../../tools/bench/rmat.js";
import { printIr } from "../../../compiler/ir/print-ir.js";
import { closeSharedRuntime, compileGsql, createDatabase, runGsql, type TestDatabase } from "./gsql-harness.js";

const DDL = `
CREATE VERTEX V (PRIMARY_ID id STRING, label INT, ulabel UINT)
CREATE DIRECTED EDGE E (FROM V, TO V, w DOUBLE)
CREATE UNDIRECTED EDGE U (FROM V, TO V)
CREATE GRAPH R (V, E, U)
`;

const INT_MIN = -(2n ** 63n);
const INT_MAX = 2n ** 63n - 1n;
const UINT_MAX = 2n ** 64n - 1n;

interface Graph {
  db: TestDatabase;
  n: number;
  labels: bigint[];
  ulabels: bigint[];
  directed: [number, number, number][];
  undirected: [number, number][];
}

/** A random graph with self-loops, a chain (long tails of small rounds) and labels with repeats and extremes. */
function build(seed: number, n: number, m: number): Graph {
  const rnd = mulberry32(seed);
  const pick = () => Math.floor(rnd() * n);
  const directed = new Map<string, [number, number, number]>();
  const undirected = new Map<string, [number, number]>();
  for (let i = 0; i < m; i++) {
    const [a, b] = [pick(), pick()];
    // weights 0..4 (ties on distances), a few self-loops
    if (i % 17 === 0) directed.set(`${a},${a}`, [a, a, i % 5]);
    else directed.set(`${a},${b}`, [a, b, Math.floor(rnd() * 5)]);
    const [x, y] = [pick(), pick()];
    const [lo, hi] = i % 19 === 0 ? [x, x] : x < y ? [x, y] : [y, x];
    undirected.set(`${lo},${hi}`, [lo, hi]);
  }
  for (let i = n - 30; i < n - 1; i++) (directed.set(`${i},${i + 1}`, [i, i + 1, 1]), undirected.set(`${i},${i + 1}`, [i, i + 1]));
  const extremes = [INT_MIN, INT_MIN + 1n, INT_MAX, INT_MAX - 1n, 0n, -1n];
  const labels = Array.from({ length: n }, (_, i) => (i % 23 === 0 ? extremes[(i / 23) % extremes.length] : BigInt(Math.floor(rnd() * (n / 3)) - 20)));
  const uextremes = [UINT_MAX, UINT_MAX - 1n, 2n ** 63n, 2n ** 63n - 1n, 0n];
  const ulabels = Array.from({ length: n }, (_, i) => (i % 29 === 0 ? uextremes[(i / 29) % uextremes.length] : BigInt(Math.floor(rnd() * (n / 3)))));
  const key = (i: number) => ({ type: "V", id: `v${i}` });
  const db = createDatabase(DDL, {
    vertices: labels.map((l, i) => ({ type: "V", id: `v${i}`, attributes: [{ name: "label", value: l }, { name: "ulabel", value: ulabels[i] }] })),
    edges: [
      ...[...directed.values()].map(([a, b, w]) => ({ type: "E", from: key(a), to: key(b), attributes: [{ name: "w", value: w }] })),
      ...[...undirected.values()].map(([a, b]) => ({ type: "U", from: key(a), to: key(b) })),
    ],
  });
  db.store.compact();
  return { db, n, labels, ulabels, directed: [...directed.values()], undirected: [...undirected.values()] };
}

type Value = bigint | number;

/** One relaxation round after another with every read seeing the values from before the round. */
function reference<T extends Value>(
  g: Graph,
  init: T[],
  spec: {
    edges: "E" | "U";
    passes: (x: T, t: T) => boolean;
    better: (x: T, cur: T) => boolean;
    value: (s: number, sv: T, w: number) => T;
    filter?: (t: number) => boolean;
    rounds: number;
    start?: number[];
  },
): { sizes: number[]; values: T[]; rows: number } {
  const out: [number, number][][] = Array.from({ length: g.n }, () => []);
  if (spec.edges === "E") for (const [a, b, w] of g.directed) out[a].push([b, w]);
  else for (const [a, b] of g.undirected) (out[a].push([b, 0]), a !== b && out[b].push([a, 0]));
  const values = [...init];
  let frontier = new Set(spec.start ?? Array.from({ length: g.n }, (_, i) => i));
  const sizes: number[] = [];
  let rows = 0;
  for (let round = 0; round < spec.rounds && frontier.size > 0; round++) {
    const before = [...values];
    const next = new Set<number>();
    for (const s of frontier) {
      for (const [t, w] of out[s]) {
        const x = spec.value(s, before[s], w);
        if ((spec.filter?.(t) ?? true) && spec.passes(x, before[t])) {
          if (spec.better(x, values[t])) values[t] = x;
          next.add(t);
          rows++;
        }
      }
    }
    sizes.push(next.size);
    frontier = next;
  }
  return { sizes, values, rows };
}

/** A propagation query over `edges`: @m starts from `init`, rounds of `where` / `accum` until nothing passes or `rounds`. */
function query(opts: { accum: string; init: string; edges: string; where: string; accumStmt: string; rounds: number; start?: string }): string {
  return `CREATE QUERY relax(${opts.start ? "VERTEX<V> src" : ""}) FOR GRAPH R {
  ${opts.accum} @m;
  SumAccum<INT> @@rows;
  ListAccum<INT> @@sizes;
  Start = {V.*};
  S = SELECT x FROM Start:x POST-ACCUM x.@m = ${opts.init};
  ${opts.start ? "S = {src};" : ""}
  WHILE S.size() > 0 LIMIT ${opts.rounds} DO
    S = SELECT t FROM S:s -(${opts.edges}:e)- V:t WHERE ${opts.where} ACCUM ${opts.accumStmt};
    @@sizes += S.size();
  END;
  PRINT @@sizes, @@rows;
  PRINT Start[Start.@m AS m];
}`;
}

/** The run's sizes and per-vertex values, integers read from the JSON text exactly. */
async function runRelax(g: Graph, text: string, level: 1 | 3, args: unknown[] = []): Promise<{ sizes: number[]; rows: number; values: Map<number, string> }> {
  const r = await runGsql(g.db, text, args as never[], { level });
  expect(r.ok, JSON.stringify(r)).to.equal(true);
  if (!r.ok) throw new Error("failed");
  const exact = JSON.parse(r.results.replace(/("m":\s*)(-?[0-9][0-9.e+-]*)/g, '$1"$2"')) as [{ "@@sizes": number[]; "@@rows": number }, { Start: { v_id: string; attributes: { m: string } }[] }];
  return { sizes: exact[0]["@@sizes"], rows: exact[0]["@@rows"], values: new Map(exact[1].Start.map((x) => [Number(x.v_id.slice(1)), x.attributes.m])) };
}

function expectValues<T extends Value>(got: Map<number, string>, want: T[], text: (v: T) => string = String): void {
  expect(got.size).to.equal(want.length);
  for (let i = 0; i < want.length; i++) expect(got.get(i), `v${i}`).to.equal(text(want[i]));
}

/** Whether the compiled IR reads the target's current value in a WHERE. */
async function readsCurrent(g: Graph, text: string, level: 1 | 3): Promise<boolean> {
  return printIr((await compileGsql(g.db, text, level)).ir).includes("(current)");
}

const minOf = <T extends Value>(x: T, cur: T) => x < cur;
const maxOf = <T extends Value>(x: T, cur: T) => x > cur;

describe("relaxation SELECTs read the target's current value, with the results of the clause semantics", function () {
  this.timeout(60000);
  after(closeSharedRuntime);

  for (const seed of [5, 21]) {
    const g = build(seed, 300, 500);
    const cases: { name: string; text: string; relaxed: boolean; want: () => { sizes: number[]; values: Value[]; rows: number }; text2?: (v: Value) => string }[] = [
      {
        name: "MinAccum<INT>, s.@m < t.@m over an undirected type (connected components)",
        text: query({ accum: "MinAccum<INT>", init: "x.label", edges: "U", where: "s.@m < t.@m", accumStmt: "t.@m += s.@m", rounds: 1000 }),
        relaxed: true,
        want: () => reference(g, g.labels, { edges: "U", passes: (x, t) => x < t, better: minOf, value: (_s, sv) => sv, rounds: 1000 }),
      },
      {
        name: "MinAccum<INT>, t.@m > s.@m (state first)",
        text: query({ accum: "MinAccum<INT>", init: "x.label", edges: "U", where: "t.@m > s.@m", accumStmt: "t.@m += s.@m", rounds: 1000 }),
        relaxed: true,
        want: () => reference(g, g.labels, { edges: "U", passes: (x, t) => x < t, better: minOf, value: (_s, sv) => sv, rounds: 1000 }),
      },
      {
        name: "MinAccum<INT>, s.@m <= t.@m (equal values pass), limited rounds",
        text: query({ accum: "MinAccum<INT>", init: "x.label", edges: "U", where: "s.@m <= t.@m", accumStmt: "t.@m += s.@m", rounds: 6 }),
        relaxed: true,
        want: () => reference(g, g.labels, { edges: "U", passes: (x, t) => x <= t, better: minOf, value: (_s, sv) => sv, rounds: 6 }),
      },
      {
        name: "MaxAccum<INT>, s.@m > t.@m over a directed type with self-loops",
        text: query({ accum: "MaxAccum<INT>", init: "x.label", edges: "E>", where: "s.@m > t.@m", accumStmt: "t.@m += s.@m", rounds: 1000 }),
        relaxed: true,
        want: () => reference(g, g.labels, { edges: "E", passes: (x, t) => x > t, better: maxOf, value: (_s, sv) => sv, rounds: 1000 }),
      },
      {
        name: "MinAccum<UINT> around 2^63 and 2^64 - 1 (unsigned order)",
        text: query({ accum: "MinAccum<UINT>", init: "x.ulabel", edges: "U", where: "s.@m < t.@m", accumStmt: "t.@m += s.@m", rounds: 1000 }),
        relaxed: true,
        want: () => reference(g, g.ulabels, { edges: "U", passes: (x, t) => x < t, better: minOf, value: (_s, sv) => sv, rounds: 1000 }),
      },
      {
        name: "MinAccum<INT> with another WHERE conjunct on the target",
        text: query({ accum: "MinAccum<INT>", init: "x.label", edges: "U", where: "t.label % 3 != 0 AND s.@m < t.@m", accumStmt: "t.@m += s.@m", rounds: 1000 }),
        relaxed: true,
        want: () => reference(g, g.labels, { edges: "U", passes: (x, t) => x < t, better: minOf, value: (_s, sv) => sv, filter: (t) => g.labels[t] % 3n !== 0n, rounds: 1000 }),
      },
      {
        name: "MinAccum<DOUBLE> distances with weights 0..4 from one vertex (ties)",
        text: query({ accum: "MinAccum<DOUBLE>", init: "1e18", edges: "E>", where: "s.@m + e.w < t.@m", accumStmt: "t.@m += s.@m + e.w", rounds: 1000, start: "src" })
          .replace("S = {src};", "S = {src};\n  S = SELECT x FROM S:x POST-ACCUM x.@m = 0;"),
        relaxed: true,
        want: () => {
          const init: number[] = Array.from({ length: g.n }, (_, i) => (i === 0 ? 0 : 1e18));
          return reference(g, init, { edges: "E", passes: (x, t) => x < t, better: minOf, value: (_s, sv, w) => sv + w, rounds: 1000, start: [0] });
        },
        text2: (v) => (v === 1e18 ? "1e+18" : String(v)),
      },
      {
        name: "(not relaxed) a second ACCUM statement counts the rows",
        text: query({ accum: "MinAccum<INT>", init: "x.label", edges: "U", where: "s.@m < t.@m", accumStmt: "t.@m += s.@m, @@rows += 1", rounds: 1000 }),
        relaxed: false,
        want: () => reference(g, g.labels, { edges: "U", passes: (x, t) => x < t, better: minOf, value: (_s, sv) => sv, rounds: 1000 }),
      },
    ];
    for (const c of cases) {
      it(`${c.name} (seed ${seed})`, async () => {
        const want = c.want();
        // the rounds are not trivial: whole-graph ones and small ones
        expect(want.sizes.length).to.be.greaterThan(2);
        for (const level of [1, 3] as const) {
          expect(await readsCurrent(g, c.text, level), "reads the current value").to.equal(c.relaxed);
          const got = await runRelax(g, c.text, level, c.text.includes("VERTEX<V> src") ? [{ id: "v0" }] : []);
          expect(got.sizes, `level ${level}`).to.deep.equal(want.sizes);
          // the rows that passed WHERE, where the ACCUM counts them (the clause semantics' count)
          expect(got.rows).to.equal(c.text.includes("@@rows += 1") ? want.rows : 0);
          expectValues(got.values, want.values, c.text2);
        }
      });
    }
  }

  it("shapes the argument does not cover keep the value from before the SELECT", async () => {
    const g = build(2, 40, 60);
    const select = (where: string, accum: string, rest = "") => `CREATE QUERY q() FOR GRAPH R {
  MinAccum<INT> @m; MaxAccum<INT> @x; SumAccum<INT> @sum; MinAccum<INT> @@low;
  TYPEDEF TUPLE<INT d, INT p> Step; MinAccum<Step> @best;
  S = {V.*};
  S = SELECT ${rest.includes("SELECT s") ? "s" : "t"} FROM S:s -(U:e)- V:t WHERE ${where} ACCUM ${accum} ${rest.replace("SELECT s", "")};
  PRINT S.size();
}`;
    const relaxed = (text: string) => readsCurrent(g, text, 1);
    expect(await relaxed(select("s.@m < t.@m", "t.@m += s.@m"))).to.equal(true);
    // the selected alias is the source
    expect(await relaxed(select("s.@m < t.@m", "t.@m += s.@m", "SELECT s"))).to.equal(false);
    // a POST-ACCUM on the source alias
    expect(await relaxed(select("s.@m < t.@m", "t.@m += s.@m", "POST-ACCUM s.@sum += 1"))).to.equal(false);
    // a POST-ACCUM on the target is fine
    expect(await relaxed(select("s.@m < t.@m", "t.@m += s.@m", "POST-ACCUM t.@sum += 1"))).to.equal(true);
    // a conjunct that can fail (division by a value)
    expect(await relaxed(select("10 / (t.label + 1) > 0 AND s.@m < t.@m", "t.@m += s.@m"))).to.equal(false);
    // the value added is not the value compared
    expect(await relaxed(select("s.@m < t.@m", "t.@m += s.@m - 1"))).to.equal(false);
    // a MaxAccum compared the Min way, a MinAccum the Max way
    expect(await relaxed(select("s.@x < t.@x", "t.@x += s.@x"))).to.equal(false);
    expect(await relaxed(select("s.@m > t.@m", "t.@m += s.@m"))).to.equal(false);
    // a SumAccum, a tuple MinAccum (ties on the compared field change the tuple)
    expect(await relaxed(select("s.@sum < t.@sum", "t.@sum += s.@sum"))).to.equal(false);
    expect(await relaxed(select("s.@best.d < t.@best.d", "t.@best += Step(s.@best.d, 1)"))).to.equal(false);
    // an OR, a comparison under NOT, a global accumulator
    expect(await relaxed(select("s.@m < t.@m OR t.label > 0", "t.@m += s.@m"))).to.equal(false);
    expect(await relaxed(select("NOT (s.@m >= t.@m)", "t.@m += s.@m"))).to.equal(false);
    expect(await relaxed(select("s.@m < @@low", "@@low += s.@m"))).to.equal(false);
  });
});
