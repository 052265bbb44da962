// Edge attributes read in list order from the store's entry-ordered copies (store
// tables/entry-copies.ts; compiled walks in emit-edge-walk.ts): per-vertex sums of edge
// attributes over undirected, directed (with a discriminator: parallel edges) and reverse
// edges, checked exactly against a plain TypeScript reference through the store's life:
// before any compaction (no copies), after a compaction (copies), after updates, inserts and
// deletes (copies dropped), after a second compaction, and after an image round trip. The
// copies themselves are checked entry by entry against the eid-indexed columns, and a version
// pinned before a change keeps its copies intact while later writes go on.
import { expect } from "chai";
import { mulberry32 } from "../../../tools/bench/rmat.js";
import { loadStore, type GraphStore } from "../../../runtime-wasm/store/index.js";
import { ADJ, ET, VH } from "../../../runtime-wasm/store/layout.js";
import { checkCopies, currentHeader } from "../store/entry-copies-check.js";
import { closeSharedRuntime, createDatabase, runGsql, type TestDatabase } from "./gsql-harness.js";

const DDL = `
CREATE VERTEX V (PRIMARY_ID id UINT) 
CREATE UNDIRECTED EDGE U (FROM V, TO V, w DOUBLE, k INT, name STRING)
CREATE DIRECTED EDGE D (FROM V, TO V, DISCRIMINATOR (tag INT), w DOUBLE, at DATETIME) WITH REVERSE_EDGE="D_rev"
CREATE GRAPH G (V, U, D, D_rev)
`;

const SUMS = `
CREATE QUERY sums() FOR GRAPH G {
  SumAccum<DOUBLE> @uw;
  SumAccum<INT> @uk;
  SumAccum<INT> @heavy;
  SumAccum<DOUBLE> @dw;
  SumAccum<INT> @dt;
  SumAccum<DOUBLE> @rw;
  SumAccum<INT> @rtag;
  All = {V.*};
  X = SELECT s FROM All:s -(U:e)- V:t ACCUM s.@uw += e.w, s.@uk += e.k;
  X = SELECT s FROM All:s -(U:e)- V:t WHERE e.w > 12.5 ACCUM s.@heavy += 1;
  X = SELECT s FROM All:s -(D:e)-> V:t ACCUM s.@dw += e.w, s.@dt += datetime_to_epoch(e.at);
  X = SELECT t FROM All:t -(D_rev:e)-> V:s ACCUM t.@rw += e.w * 3, t.@rtag += e.tag;
  PRINT All[All.@uw, All.@uk, All.@heavy, All.@dw, All.@dt, All.@rw, All.@rtag];
}`;

interface UEdge {
  a: number;
  b: number;
  w: number;
  k: number;
}
interface DEdge {
  a: number;
  b: number;
  tag: number;
  w: number;
  at: number;
}

/** The edges the store should hold (an independent record of every write). */
class Reference {
  readonly u = new Map<string, UEdge>();
  readonly d = new Map<string, DEdge>();
  constructor(readonly n: number) {}

  sums(): Record<string, number[]> {
    const zero = () => new Array<number>(this.n).fill(0);
    const out = { uw: zero(), uk: zero(), heavy: zero(), dw: zero(), dt: zero(), rw: zero(), rtag: zero() };
    for (const e of this.u.values()) {
      for (const s of [e.a, e.b]) {
        out.uw[s] += e.w;
        out.uk[s] += e.k;
        if (e.w > 12.5) out.heavy[s] += 1;
      }
    }
    for (const e of this.d.values()) {
      out.dw[e.a] += e.w;
      out.dt[e.a] += e.at;
      out.rw[e.b] += e.w * 3;
      out.rtag[e.b] += e.tag;
    }
    return out;
  }
}

const vertex = (i: number) => ({ type: "V", id: i });
const uRecord = (e: UEdge) => ({ type: "U", from: vertex(e.a), to: vertex(e.b), attributes: [{ name: "w", value: e.w }, { name: "k", value: e.k }, { name: "name", value: `e${e.a}-${e.b}` }] });
const dRecord = (e: DEdge) => ({ type: "D", from: vertex(e.a), to: vertex(e.b), attributes: [{ name: "tag", value: e.tag }, { name: "w", value: e.w }, { name: "at", value: e.at }] });

/** Random edges (weights multiples of 1/4, so every sum is exact in any order). */
function randomEdges(rnd: () => number, ref: Reference, count: number): { u: UEdge[]; d: DEdge[] } {
  const pick = () => Math.floor(rnd() * ref.n);
  const u: UEdge[] = [];
  const d: DEdge[] = [];
  for (let i = 0; i < count; i++) {
    const [x, y] = [pick(), pick()];
    if (x !== y) {
      const e = { a: Math.min(x, y), b: Math.max(x, y), w: Math.floor(rnd() * 100) / 4, k: Math.floor(rnd() * 2000) - 1000 };
      ref.u.set(`${e.a},${e.b}`, e);
      u.push(e);
    }
    const e = { a: pick(), b: pick(), tag: Math.floor(rnd() * 3), w: Math.floor(rnd() * 100) / 4, at: 1_600_000_000 + Math.floor(rnd() * 1e6) };
    ref.d.set(`${e.a},${e.b},${e.tag}`, e);
    d.push(e);
  }
  return { u, d };
}

async function expectSums(db: TestDatabase, ref: Reference, when: string): Promise<void> {
  const r = await runGsql(db, SUMS);
  if (!r.ok) throw new Error(`${when}: ${r.message}`);
  const rows = (r.json as { All: { v_id: string; attributes: Record<string, number> }[] }[])[0].All;
  expect(rows.length, when).to.equal(ref.n);
  const want = ref.sums();
  const got: Record<string, number[]> = {};
  for (const name of Object.keys(want)) got[name] = new Array<number>(ref.n).fill(NaN);
  for (const row of rows) for (const name of Object.keys(want)) got[name][Number(row.v_id)] = row.attributes[`All.@${name}`];
  for (const name of Object.keys(want)) expect(got[name], `${when}: @${name}`).to.deep.equal(want[name]);
}

/** Overwrite every value of one attribute's copy (test only: the copies are never written); returns how to undo it. */
function overwriteCopies(store: GraphStore, header: number, key: string, ordinal: number, value: number): () => void {
  const u32 = new Uint32Array(store.memory.buffer);
  const f64 = new Float64Array(store.memory.buffer);
  const state = (store as unknown as { state: { edgeByKey: Map<string, { ordinal: number }> } }).state;
  const et = u32[(u32[(header + VH.EDGE_TYPE_TABLE) >>> 2] >>> 2) + state.edgeByKey.get(key)!.ordinal];
  const adj = u32[u32[(et + ET.OUT_TABLE) >>> 2] >>> 2];
  const [base, end] = [u32[(adj + ADJ.ENTRY_BASE) >>> 2], u32[(adj + ADJ.ENTRY_END) >>> 2]];
  const delta = u32[(u32[(adj + ADJ.ENTRY_COPIES) >>> 2] >>> 2) + ordinal];
  expect(delta, "a copy to overwrite").to.not.equal(0);
  const from = ((base + delta) >>> 0) >>> 3;
  const saved = f64.slice(from, from + (end - base) / 8);
  f64.fill(value, from, from + saved.length);
  return () => f64.set(saved, from);
}

async function image(store: GraphStore): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  await store.serialize((chunk) => void parts.push(chunk.slice()));
  return Buffer.concat(parts);
}

describe("edge attributes read in list order (entry-ordered copies)", function () {
  this.timeout(120_000);
  after(closeSharedRuntime);

  for (const seed of [3, 11]) {
    it(`keeps query results exact through compaction, writes, pins and an image round trip (seed ${seed})`, async () => {
      const rnd = mulberry32(seed);
      const ref = new Reference(120);
      const first = randomEdges(rnd, ref, 900);
      const db = createDatabase(DDL, { vertices: Array.from({ length: ref.n }, (_, i) => vertex(i)), edges: [...first.u.map(uRecord), ...first.d.map(dRecord)] });
      expect(checkCopies(db.store, currentHeader(db.store)).values, "no copies before a compaction").to.equal(0);
      await expectSums(db, ref, "before compaction");

      db.store.compact();
      const compacted = checkCopies(db.store, currentHeader(db.store));
      // U: w and k (not the STRING); D out and in lists: tag, w and at
      expect(compacted.copies).to.deep.equal({ U: 2, D: 6 });
      expect(compacted.values).to.equal(2 * 2 * ref.u.size + 6 * ref.d.size);
      await expectSums(db, ref, "after compaction");
      // the walks do read the copies: with U's w copy overwritten by 0.25, @uw is a quarter of the degree
      const restore = overwriteCopies(db.store, currentHeader(db.store), "U", 0, 0.25);
      const r = await runGsql(db, SUMS);
      if (!r.ok) throw new Error(r.message);
      const degree = new Array<number>(ref.n).fill(0);
      for (const e of ref.u.values()) (degree[e.a]++, degree[e.b]++);
      const rows = (r.json as { All: { v_id: string; attributes: Record<string, number> }[] }[])[0].All;
      for (const row of rows) expect([row.attributes["All.@uw"], row.attributes["All.@heavy"]]).to.deep.equal([degree[Number(row.v_id)] / 4, 0]);
      restore();
      await expectSums(db, ref, "after compaction, copies restored");

      // pin the compacted version, then change weights, add and delete edges
      const pinned = db.store.snapshot();
      const before = checkCopies(db.store, pinned.headerAddress);
      const changed = [...ref.u.values()].filter((_, i) => i % 5 === 0).map((e) => ({ ...e, w: e.w + 100 }));
      for (const e of changed) ref.u.set(`${e.a},${e.b}`, e);
      db.store.upsert({ edges: changed.map(uRecord) });
      expect(checkCopies(db.store, currentHeader(db.store)).copies, "a changed attribute drops the type's copies").to.deep.equal({ U: 0, D: 6 });
      const more = randomEdges(rnd, ref, 200);
      db.store.upsert({ edges: [...more.u.map(uRecord), ...more.d.map(dRecord)] });
      const doomed = [...ref.d.values()].filter((_, i) => i % 7 === 2);
      db.store.deleteEdges(doomed.map((e) => ({ from: vertex(e.a), type: "D", toType: "V", to: vertex(e.b), discriminator: { tag: e.tag } })));
      for (const e of doomed) ref.d.delete(`${e.a},${e.b},${e.tag}`);
      expect(checkCopies(db.store, currentHeader(db.store)).values, "no copies after writes").to.equal(0);
      await expectSums(db, ref, "after writes");
      // the pinned version's copies are untouched by the writes
      expect(checkCopies(db.store, pinned.headerAddress)).to.deep.equal(before);
      pinned.release();

      db.store.compact();
      expect(checkCopies(db.store, currentHeader(db.store)).values).to.equal(2 * 2 * ref.u.size + 6 * ref.d.size);
      await expectSums(db, ref, "after a second compaction");

      const bytes = await image(db.store);
      for (const entryCopies of [true, false]) {
        const restored = await loadStore(bytes, { entryCopies });
        const found = checkCopies(restored, currentHeader(restored));
        expect(found.values, `image loaded with entryCopies ${entryCopies}`).to.equal(entryCopies ? 2 * 2 * ref.u.size + 6 * ref.d.size : 0);
        await expectSums({ ...db, store: restored }, ref, `after an image round trip (entryCopies ${entryCopies})`);
      }
    });
  }
});
