// Edge lists in memory (tables/adjacency.ts) against a reference of plain arrays: appends one
// by one and in bulk, removals, clears, tidying (lists repacked in place, chunk ends given back)
// and compaction, with and without a pinned version whose lists must never change; the size
// classes lists grow through.
import { expect } from "chai";
import { Arena } from "../../../runtime-wasm/store/memory/arena.js";
import { Space } from "../../../runtime-wasm/store/memory/space.js";
import { createSharedMemory } from "../../../runtime-wasm/store/memory/wasm-memory.js";
import { Adjacency, classFor, classSize, classWithin } from "../../../runtime-wasm/store/tables/adjacency.js";
import { EdgeFilter } from "../../../runtime-wasm/store/tables/edge-filter.js";
import { createStore, type Snapshot } from "../../../runtime-wasm/store/index.js";
import { edge, schemaOf, vertex } from "./fixtures.js";

function random(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
}

function space(): Space {
  return new Space(new Arena(createSharedMemory(16, 4096), 4096));
}

/** Set equality (chai's deep equality is quadratic on large sets). */
function expectSame(got: Set<number>, want: Set<number>): void {
  expect(got.size).to.equal(want.size);
  for (const k of want) if (!got.has(k)) expect.fail(`missing ${k}`);
}

function listOf(adj: Adjacency, local: number): number[] {
  const out: number[] = [];
  adj.forEach(local, (target, eid) => out.push(target, eid));
  return out;
}

describe("store: edge lists", () => {
  it("size classes: the smallest class holding n; 1 to 4, then two per doubling", () => {
    for (let n = 1; n <= 50_000; n++) {
      const c = classFor(n);
      expect(classSize(c) >= n && (c === 0 || classSize(c - 1) < n), `n=${n}`).to.equal(true);
      if (n > 4) expect(classSize(c) / n, `n=${n}`).to.be.at.most(1.5);
    }
    expect(Array.from({ length: 12 }, (_, c) => classSize(c))).to.deep.equal([1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64]);
    for (let c = 0; c < 50; c++) {
      expect(classWithin(classSize(c))).to.equal(c);
      expect(classWithin(classSize(c + 1) - 1)).to.equal(c);
    }
  });

  for (const entryBytes of [4, 8] as const) {
    it(`${entryBytes}-byte entries: appends, bulk appends, removals, tidy and compaction match a reference`, () => {
      const sp = space();
      const adj = new Adjacency(sp, entryBytes, true);
      const next = random(entryBytes);
      const slots = 300;
      const ref: number[][] = Array.from({ length: slots }, () => []);
      let eid = 0;
      const eidOf = () => (entryBytes === 8 ? eid++ : -1);
      const check = () => {
        for (let local = 0; local < slots; local++) {
          const want = ref[local].flatMap((t, i) => [t, wantEids[local][i]]);
          expect(listOf(adj, local), `slot ${local}`).to.deep.equal(want);
        }
        expect(adj.entryCount).to.equal(ref.reduce((n, l) => n + l.length, 0));
      };
      const wantEids: number[][] = Array.from({ length: slots }, () => []);
      for (let step = 0; step < 2500; step++) {
        const op = next(100);
        // Skewed sources: a few lists grow long (past the scan limit and past a chunk's start size).
        const local = next(4) === 0 ? next(3) : next(slots);
        if (op < 55) {
          const target = next(1000);
          const e = eidOf();
          adj.append(local, target, e);
          ref[local].push(target);
          wantEids[local].push(e);
        } else if (op < 80) {
          const count = 1 + next(next(10) === 0 ? 3000 : 40);
          const targets = new Uint32Array(count + 2);
          const eids = new Int32Array(count + 2);
          for (let k = 0; k < count; k++) {
            targets[k + 1] = next(1000);
            eids[k + 1] = eidOf();
          }
          adj.appendMany(local, targets, eids, 1, count);
          for (let k = 1; k <= count; k++) {
            ref[local].push(targets[k]);
            wantEids[local].push(eids[k]);
          }
        } else if (op < 92) {
          const cut = next(1000);
          adj.removeWhere(local, (target) => target < cut / 4);
          const keep = ref[local].map((t, i) => [t, wantEids[local][i]]).filter(([t]) => !(t < cut / 4));
          ref[local] = keep.map(([t]) => t);
          wantEids[local] = keep.map(([, e]) => e);
        } else if (op < 94) {
          adj.clear(local);
          ref[local] = [];
          wantEids[local] = [];
        } else if (op < 99) {
          adj.tidy();
          expect(adj.garbage).to.be.at.least(0);
        } else {
          adj.compact();
        }
        if (step % 97 === 0) check();
        // find agrees with the reference (lists past the scan limit go through the key index)
        // (with the target listed twice, either entry's eid).
        const probe = next(1000);
        const eids = wantEids[local].filter((_, i) => ref[local][i] === probe);
        const found = adj.find(local, probe, null);
        if (eids.length === 0) expect(found).to.equal(-2);
        else expect(eids).to.include(found);
      }
      check();
      adj.tidy();
      check();
      expect(adj.slack).to.be.below(adj.chunkBytes / 8 + 8 * 1024);
    });
  }

  it("the edge filter never forgets a pair, says 'maybe' to few absent ones, and asks for a rebuild when full or stale", () => {
    const f = new EdgeFilter();
    expect(f.needsRebuild).to.equal(true);
    f.reset(100_000);
    const next = random(3);
    const pairs: [number, number][] = [];
    for (let i = 0; i < 100_000; i++) pairs.push([next(50_000), next(1 << 30)]);
    for (const [a, b] of pairs) f.add(a, b);
    for (const [a, b] of pairs) if (!f.mightHave(a, b)) expect.fail(`forgot ${a} ${b}`);
    let maybe = 0;
    for (let i = 0; i < 100_000; i++) if (f.mightHave(50_000 + next(50_000), next(1 << 30))) maybe++;
    expect(maybe / 100_000).to.be.below(0.03);
    expect(f.needsRebuild).to.equal(false);
    f.noteRemoved(30_000);
    expect(f.needsRebuild).to.equal(true);
    f.reset(10);
    for (let i = 0; i < 128; i++) f.add(i, i);
    expect(f.built).to.equal(true);
    f.add(999, 999); // past twice its size: full
    expect(f.needsRebuild).to.equal(true);
  });

  it("a list that outgrows the chunk size of a young adjacency gets space of its own size", () => {
    // Two lists growing side by side, one entry at a time, past the first chunks' size.
    const sp = space();
    const a = new Adjacency(sp, 4, false);
    const b = new Adjacency(sp, 4, false);
    for (let i = 0; i < 3000; i++) {
      a.append(0, i, -1);
      b.append(0, 100_000 + i, -1);
    }
    expect(listOf(a, 0).filter((_, k) => k % 2 === 0)).to.deep.equal(Array.from({ length: 3000 }, (_, i) => i));
    expect(listOf(b, 0).filter((_, k) => k % 2 === 0)).to.deep.equal(Array.from({ length: 3000 }, (_, i) => 100_000 + i));
  });

  it("tidy never moves or changes a list a pinned version can read", () => {
    const sp = space();
    const adj = new Adjacency(sp, 4, true);
    const next = random(7);
    for (let i = 0; i < 20_000; i++) adj.append(next(500), next(1000), -1);
    sp.publish();
    sp.pin(sp.published);
    const seen = Array.from({ length: 500 }, (_, local) => ({ addr: adj.listAddress(local), list: listOf(adj, local) }));
    for (let i = 0; i < 20_000; i++) adj.append(next(500), next(1000), -1);
    adj.removeWhere(3, () => true);
    adj.tidy();
    const u32 = sp.arena.u32;
    for (const { addr, list } of seen) {
      const now: number[] = [];
      for (let i = 0; i < list.length / 2; i++) now.push(u32[(addr >>> 2) + i], -1);
      expect(now).to.deep.equal(list);
    }
    sp.unpin(sp.published);
  });

  it("a bulk load tidied along the way keeps every edge, and a snapshot pinned meanwhile is unchanged", () => {
    const store = createStore(schemaOf([vertex("V", "INT", [])], [edge("E", true, [["V", "V"]]), edge("U", false, [["V", "V"]])]));
    const next = random(11);
    const want = new Set<number>();
    const edgesOf = (s: Snapshot) => {
      const got = new Set<number>();
      for (const v of s.vertices("V")) for (const e of s.edges(v, { type: "E" })) got.add(Number(s.idOf(v)) * 32768 + Number(s.idOf(e.to)));
      return got;
    };
    let pinned: Snapshot | null = null;
    let pinnedEdges = new Set<number>();
    for (let b = 0; b < 36; b++) {
      const from: number[] = [];
      const to: number[] = [];
      for (let k = 0; k < 10_000; k++) {
        // Skewed ends, as real graphs have: a few hubs and a long tail.
        const a = next(3) === 0 ? next(50) : next(30_000);
        const c = next(30_000);
        from.push(a);
        to.push(c);
        want.add(a * 32768 + c);
      }
      store.upsert({ edgeColumns: [{ type: "E", fromType: "V", toType: "V", from, to }], edges: from.slice(0, 50).map((a, i) => ({ type: "U", from: { type: "V", id: a }, to: { type: "V", id: to[i] } })) });
      if (b === 18) {
        pinned = store.snapshot();
        pinnedEdges = edgesOf(pinned);
      }
    }
    expectSame(edgesOf(pinned!), pinnedEdges);
    pinned!.release();
    store.read((s) => {
      expectSame(edgesOf(s), want);
      expect(s.storedEdgeCount("E")).to.equal(want.size);
    });
  });
});
