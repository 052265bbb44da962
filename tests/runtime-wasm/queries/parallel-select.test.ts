// Parallel SELECT: a SELECT's walk split into ranges run by the query's thread and helper
// threads at once. Every query runs on a one-thread runtime and on a runtime that splits every
// eligible SELECT into chunks of one or two sources; results must be identical (integer, Min,
// Max, Or, And accumulators and result sets), or, for floating-point sums whose terms are not
// exact in binary, equal within rounding. Each check also asserts that the split happened and
// that helper threads ran part of it. Cancellation stops every thread, and a helper thread
// that dies makes the run fail instead of hanging.
import { expect } from "chai";
import { mulberry32 } from "../../../tools/bench/rmat.js";
import { Board } from "../../../runtime-wasm/query/abi.js";
import { compileGsql, createDatabase, type TestDatabase } from "./gsql-harness.js";
import { SplitRuns, type OkResult } from "./split-runs.js";

const DDL = `
CREATE VERTEX V (PRIMARY_ID id STRING, w INT, x DOUBLE)
CREATE DIRECTED EDGE E (FROM V, TO V, w DOUBLE)
CREATE UNDIRECTED EDGE U (FROM V, TO V, k INT)
CREATE GRAPH G (V, E, U)
`;

/** A seeded random graph of `n` vertices with `m` edges of each type. */
function randomDatabase(seed: number, n: number, m: number): { db: TestDatabase; edges: { e: [number, number, number][]; u: [number, number, number][] } } {
  const rnd = mulberry32(seed);
  const pick = () => Math.floor(rnd() * n);
  const e: [number, number, number][] = [];
  const u: [number, number, number][] = [];
  // distinct pairs (a repeated edge would update the first), self-loops allowed
  const seen = new Set<string>();
  const fresh = (key: string) => !seen.has(key) && seen.add(key) !== undefined;
  while (e.length < m) {
    const [a, b] = [pick(), pick()];
    if (fresh(`e${a},${b}`)) e.push([a, b, Math.floor(rnd() * 100) / 4]);
  }
  while (u.length < m) {
    const [a, b] = [pick(), pick()];
    if (fresh(`u${Math.min(a, b)},${Math.max(a, b)}`)) u.push([a, b, Math.floor(rnd() * 1000) - 500]);
  }
  const db = createDatabase(DDL, {
    vertices: Array.from({ length: n }, (_, i) => ({ type: "V", id: `v${i}`, attributes: [{ name: "w", value: (i * 7919) % 101 }, { name: "x", value: ((i * 31) % 17) / 3 }] })),
    edges: [
      ...e.map(([a, b, w]) => ({ type: "E", from: { type: "V", id: `v${a}` }, to: { type: "V", id: `v${b}` }, attributes: [{ name: "w", value: w }] })),
      ...u.map(([a, b, k]) => ({ type: "U", from: { type: "V", id: `v${a}` }, to: { type: "V", id: `v${b}` }, attributes: [{ name: "k", value: k }] })),
    ],
  });
  return { db, edges: { e, u } };
}

const runs = new SplitRuns();

function expectSplit(r: OkResult, splits: number): void {
  expect(r.parallel?.splits, "SELECT walks split").to.equal(splits);
  expect(r.parallel?.helperChunks ?? 0, "chunks run by helper threads").to.be.greaterThan(0);
}

describe("parallel SELECT", function () {
  this.timeout(60000);

  it("integer Sum, Min, Max, Or, And accumulators and the result set equal the one-thread run and a reference", async () => {
    const { db, edges } = randomDatabase(7, 400, 3000);
    const text = `
CREATE QUERY acc() FOR GRAPH G {
  SumAccum<INT> @cnt; SumAccum<INT> @ksum; MinAccum<INT> @kmin; MaxAccum<INT> @kmax;
  MaxAccum<DOUBLE> @xmax; MinAccum<UINT> @umin; OrAccum @anyNeg; AndAccum @allPos;
  SumAccum<DOUBLE> @quarter;
  S = {V.*};
  T = SELECT t FROM S:s -(U:e)- V:t
      WHERE e.k > -400
      ACCUM t.@cnt += 1, t.@ksum += e.k, t.@kmin += e.k, t.@kmax += e.k + s.w,
            t.@xmax += s.x, t.@umin += s.w, t.@anyNeg += e.k < 0, t.@allPos += e.k > 0,
            IF s.w > 50 THEN t.@quarter += 0.25 * s.w END;
  PRINT T.size();
  PRINT T[T.@cnt, T.@ksum, T.@kmin, T.@kmax, T.@xmax, T.@umin, T.@anyNeg, T.@allPos, T.@quarter];
}`;
    const { one, many } = await runs.both(db, text);
    expectSplit(many, 1);
    expect(many.results).to.equal(one.results);
    // against a reference computed here: per target, the undirected edges seen from both ends
    const cnt = new Map<number, number>();
    const ksum = new Map<number, number>();
    for (const [a, b, k] of edges.u) {
      if (k <= -400) continue;
      const ends: [number, number][] = a === b ? [[a, b]] : [[a, b], [b, a]];
      for (const [, t] of ends) {
        cnt.set(t, (cnt.get(t) ?? 0) + 1);
        ksum.set(t, (ksum.get(t) ?? 0) + k);
      }
    }
    const printed = JSON.parse(one.results) as [{ "T.size()": number }, { T: { v_id: string; attributes: Record<string, unknown> }[] }];
    expect(printed[0]["T.size()"]).to.equal(cnt.size);
    for (const rec of printed[1].T) {
      const i = Number(rec.v_id.slice(1));
      expect(rec.attributes["T.@cnt"], rec.v_id).to.equal(cnt.get(i));
      expect(rec.attributes["T.@ksum"], rec.v_id).to.equal(ksum.get(i));
    }
  });

  it("conn_comp's shape: a relaxation stays on one thread; with a second ACCUM it splits, and both give the union-find's components", async () => {
    const { db, edges } = randomDatabase(11, 600, 500);
    const query = (name: string, accum: string) => `
CREATE QUERY ${name}() FOR GRAPH G {
  MinAccum<INT> @cc_id;
  SumAccum<INT> @seen;
  Start = {V.*};
  Start = SELECT x FROM Start:x POST-ACCUM x.@cc_id = getvid(x);
  Changed = Start;
  WHILE Changed.size() > 0 DO
    Changed = SELECT t FROM Changed:s -(U:e)- V:t WHERE s.@cc_id < t.@cc_id ACCUM ${accum};
  END;
  PRINT Start[Start.@cc_id];
}`;
    // WHERE x < t.@m ACCUM t.@m += x alone reads t.@m live (passes/relaxation.ts): splitting
    // would lose that, so it is not split
    const relaxed = await runs.both(db, query("cc", "t.@cc_id += s.@cc_id"));
    expect(relaxed.many.parallel?.splits ?? 0).to.equal(0);
    expect(relaxed.many.results).to.equal(relaxed.one.results);
    const { one, many } = await runs.both(db, query("cc2", "t.@cc_id += s.@cc_id, t.@seen += 1"));
    expect(many.parallel?.splits).to.be.greaterThan(2);
    expect(many.parallel?.helperChunks).to.be.greaterThan(0);
    expect(many.results).to.equal(one.results);
    expect(many.results).to.equal(relaxed.one.results);
    // the partition against a union-find over the undirected edges (ids compared as groups)
    const parent = Array.from({ length: 600 }, (_, i) => i);
    const find = (x: number): number => (parent[x] === x ? x : (parent[x] = find(parent[x])));
    for (const [a, b] of edges.u) parent[find(a)] = find(b);
    type Rec = { v_id: string; attributes: { "Start.@cc_id": number } };
    const records = (JSON.parse(many.results) as [{ Start: Rec[] }])[0].Start;
    expect(records.length).to.equal(600);
    const byComponent = new Map<number, number>();
    const byId = new Map<number, number>();
    for (const r of records) {
      const root = find(Number(r.v_id.slice(1)));
      const id = r.attributes["Start.@cc_id"];
      expect(byComponent.get(root) ?? id, r.v_id).to.equal(id);
      expect(byId.get(id) ?? root, r.v_id).to.equal(root);
      byComponent.set(root, id);
      byId.set(id, root);
    }
  });

  it("PageRank's floating-point sums agree within rounding", async () => {
    const { db } = randomDatabase(13, 500, 4000);
    const text = `
CREATE QUERY pr(INT iters) FOR GRAPH G {
  SumAccum<DOUBLE> @received; SumAccum<DOUBLE> @score = 1;
  Start = {V.*};
  WHILE TRUE LIMIT iters DO
    Start = SELECT s FROM Start:s -(E:e)-> V:t
            ACCUM t.@received += s.@score / s.outdegree("E")
            POST-ACCUM s.@score = 0.15 + 0.85 * s.@received, s.@received = 0;
  END;
  PRINT Start[Start.@score];
}`;
    const { one, many } = await runs.both(db, text, [10n]);
    expectSplit(many, 10);
    type Rec = { v_id: string; attributes: { "Start.@score": number } };
    const scores = (r: string) => new Map((JSON.parse(r) as [{ Start: Rec[] }])[0].Start.map((x) => [x.v_id, x.attributes["Start.@score"]]));
    const a = scores(one.results);
    const b = scores(many.results);
    expect(b.size).to.equal(a.size);
    for (const [k, v] of a) expect(b.get(k), k).to.be.closeTo(v, 1e-9 * Math.max(1, Math.abs(v)));
  });

  it("leaves SELECTs that allocate, print or write variables on one thread", async () => {
    const { db } = randomDatabase(17, 300, 1000);
    const text = `
CREATE QUERY notsplit() FOR GRAPH G {
  ListAccum<INT> @seen; SumAccum<STRING> @names; SumAccum<INT> @@total; MaxAccum<INT> @m;
  S = {V.*};
  A = SELECT t FROM S:s -(U:e)- V:t ACCUM t.@seen += e.k;
  B = SELECT t FROM S:s -(U:e)- V:t ACCUM t.@names += to_string(s.w);
  C = SELECT t FROM S:s -(U:e)- V:t ACCUM @@total += e.k;
  D = SELECT t FROM S:s -(U:e)- V:t ACCUM t.@m += e.k / (s.w - s.w + 1);
  PRINT A.size(), B.size(), C.size(), D.size(), @@total;
}`;
    const q = await compileGsql(db, text);
    const r = await runs.split.run(db.store, db.graph, q, [], { timeoutMs: 30000 });
    expect(r.ok).to.equal(true);
    if (r.ok) expect(r.parallel).to.equal(undefined);
    const one = await runs.single.run(db.store, db.graph, q, [], { timeoutMs: 30000 });
    expect(one.ok && r.ok && one.results === r.results).to.equal(true);
  });

  it("a timeout during a split SELECT stops every thread; the runtime keeps working", async () => {
    const { db } = randomDatabase(19, 2000, 20000);
    const text = `
CREATE QUERY spin() FOR GRAPH G {
  SumAccum<INT> @c;
  S = {V.*};
  WHILE TRUE DO
    S = SELECT t FROM S:s -(U:e)- V:t ACCUM t.@c += 1;
  END;
}`;
    const q = await compileGsql(db, text);
    const started = performance.now();
    const r = await runs.split.run(db.store, db.graph, q, [], { timeoutMs: 300 });
    expect(r.ok).to.equal(false);
    if (!r.ok) expect(r.kind).to.equal("timeout");
    expect(performance.now() - started).to.be.lessThan(5000);
    // the job board was released: the next split query runs and splits again
    const { one, many } = await runs.both(db, `
CREATE QUERY after() FOR GRAPH G {
  SumAccum<INT> @c;
  S = {V.*};
  S = SELECT t FROM S:s -(U:e)- V:t ACCUM t.@c += 1;
  PRINT S[S.@c];
}`);
    expectSplit(many, 1);
    expect(many.results).to.equal(one.results);
  });

  it("a helper thread that dies inside a split SELECT fails the run instead of hanging it", async () => {
    const { db } = randomDatabase(23, 2000, 20000);
    const q = await compileGsql(db, `
CREATE QUERY spin(INT rounds) FOR GRAPH G {
  SumAccum<INT> @c;
  S = {V.*};
  WHILE TRUE LIMIT rounds DO
    S = SELECT t FROM S:s -(U:e)- V:t ACCUM t.@c += 1;
  END;
  PRINT S.size();
}`);
    // a first run starts the helpers and gives them the module
    const warm = await runs.split.run(db.store, db.graph, q, [2n], { timeoutMs: 30000 });
    expect(warm.ok).to.equal(true);
    let settled = false;
    const running = runs.split.run(db.store, db.graph, q, [1_000_000n], { timeoutMs: 60000 }).finally(() => (settled = true));
    // the helpers and their job board are internal to the pool: reach them to kill a helper
    // while it is inside a job
    type Internals = { helpers: { helpers: { worker: { terminate(): Promise<number> } }[]; boards: { memory: WebAssembly.Memory; board: number }[] } };
    const internals = (runs.split.pool as unknown as Internals).helpers;
    const board = internals.boards.find((b) => b.memory === (db.store.memory as unknown as WebAssembly.Memory))!;
    const words = new Int32Array(board.memory.buffer);
    // kill every helper seen inside a job until the run ends (a kill may land just after the
    // helper left its job; a replacement gets the module and joins again a second later)
    let kills = 0;
    while (!settled) {
      for (let k = 0; k < internals.helpers.length; k++) {
        if (Atomics.load(words, (board.board + Board.inJob + 4 * k) >> 2) !== 0) {
          await internals.helpers[k]!.worker.terminate();
          kills++;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(kills, "helpers killed inside a job").to.be.greaterThan(0);
    const r = await running;
    expect(r.ok).to.equal(false);
    if (!r.ok) {
      expect(r.kind).to.equal("error");
      expect(r.message).to.match(/^Runtime Error/);
    }
  });
});
