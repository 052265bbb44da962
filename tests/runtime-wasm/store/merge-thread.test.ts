// Bulk linking with the merge thread (tables/merge-helper.ts): the target side of large runs
// is sorted and merged in another thread while the writer merges the source side. Loads must
// equal an independent model (every list in item order, duplicates found, both directions,
// undirected types seen from both ends) and the per-edge path (one upsert per edge, without
// the thread), over batches that span many merges; a pinned reader must see nothing move; a
// thread that fails or stalls must cost nothing but time.
import { expect } from "chai";
import { createStore, type EdgeColumns, type GraphStore } from "../../../runtime-wasm/store/index.js";
import { Adjacency } from "../../../runtime-wasm/store/tables/adjacency.js";
import { mergeHelperReady, mergeHelperSettings, warmMergeHelper } from "../../../runtime-wasm/store/tables/merge-helper.js";
import { dumpSnapshot, dumpStore } from "./dump.js";
import { edge, schemaOf, vertex } from "./fixtures.js";

const schema = () =>
  schemaOf(
    [vertex("Person", "STRING", []), vertex("City", "INT", [])],
    [
      edge("Follows", true, [["Person", "Person"]], [], { reverseEdge: "FollowedBy" }),
      edge("FollowedBy", true, [["Person", "Person"]], [], { reverseOf: "Follows" }),
      // Undirected between two vertex types: its two ends are two adjacencies, one merged in the thread.
      edge("Visits", false, [["Person", "City"]]),
    ],
  );

/** A batch: Follows items [from, to] and Visits items [person, city]. */
interface Batch {
  follows: [string, string][];
  visits: [string, number][];
}

function columns(batch: Batch): EdgeColumns[] {
  return [
    { type: "Follows", fromType: "Person", toType: "Person", from: batch.follows.map((f) => f[0]), to: batch.follows.map((f) => f[1]) },
    { type: "Visits", fromType: "Person", toType: "City", from: batch.visits.map((v) => v[0]), to: batch.visits.map((v) => v[1]) },
  ];
}

/**
 * The model: an item adds its edge unless the edge is stored already (a directed edge by its
 * ordered ends, an undirected one by its pair); a new edge is appended to the list at each
 * end, so every list holds its edges in item order.
 */
class Model {
  readonly out = new Map<string, string[]>();
  readonly in = new Map<string, string[]>();
  readonly visits = new Map<string, string[]>();
  private readonly seen = new Set<string>();

  apply(batch: Batch): void {
    for (const [a, b] of batch.follows) {
      if (this.seen.has(`F ${a} ${b}`)) continue;
      this.seen.add(`F ${a} ${b}`);
      push(this.out, a, b);
      push(this.in, b, a);
    }
    for (const [p, c] of batch.visits) {
      if (this.seen.has(`V ${p} ${c}`)) continue;
      this.seen.add(`V ${p} ${c}`);
      push(this.visits, `Person:${p}`, String(c));
      push(this.visits, `City:${c}`, p);
    }
  }

  get edges(): number {
    return this.seen.size;
  }
}

function push(lists: Map<string, string[]>, key: string, value: string): void {
  const list = lists.get(key);
  if (list) list.push(value);
  else lists.set(key, [value]);
}

/** Every non-empty list of the store, in stored order, keyed as the model keys them. */
function storedLists(store: GraphStore): { out: Map<string, string[]>; in: Map<string, string[]>; visits: Map<string, string[]> } {
  return store.read((s) => {
    const lists = { out: new Map<string, string[]>(), in: new Map<string, string[]>(), visits: new Map<string, string[]>() };
    for (const type of ["Person", "City"]) {
      for (const vid of s.vertices(type)) {
        const id = s.idText(vid);
        const read = (edgeType: string) => [...s.edges(vid, { type: edgeType })].map((e) => s.idText(e.to));
        if (type === "Person") {
          const out = read("Follows");
          const inn = read("FollowedBy");
          if (out.length > 0) lists.out.set(id, out);
          if (inn.length > 0) lists.in.set(id, inn);
        }
        const visits = read("Visits");
        if (visits.length > 0) lists.visits.set(`${type}:${id}`, visits);
      }
    }
    return lists;
  });
}

function expectModel(store: GraphStore, model: Model): void {
  const lists = storedLists(store);
  expect(sorted(lists.out)).to.deep.equal(sorted(model.out));
  expect(sorted(lists.in)).to.deep.equal(sorted(model.in));
  expect(sorted(lists.visits)).to.deep.equal(sorted(model.visits));
  expect(store.read((s) => s.storedEdgeCount("Follows") + s.storedEdgeCount("Visits"))).to.equal(model.edges);
}

const sorted = (lists: Map<string, string[]>) => [...lists].sort((a, b) => (a[0] < b[0] ? -1 : 1));

function random(seed: number): (n: number) => number {
  return (n) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
}

/** A skewed random batch: hubs, repeats (within the batch and of earlier batches), self-loops. */
function randomBatch(next: (n: number) => number, count: number, people: number): Batch {
  const batch: Batch = { follows: [], visits: [] };
  for (let i = 0; i < count; i++) {
    const a = `p${next(4) === 0 ? next(10) : next(people)}`;
    batch.follows.push([a, next(40) === 0 ? a : `p${next(4) === 0 ? next(10) : next(people)}`]);
    if (i % 2 === 0) batch.visits.push([a, next(people / 4)]);
  }
  return batch;
}

/** The per-edge path without the thread: one upsert per edge item. */
function oneByOne(batches: Batch[]): GraphStore {
  const enabled = mergeHelperSettings.enabled;
  mergeHelperSettings.enabled = false;
  try {
    const store = createStore(schema());
    for (const batch of batches) {
      for (const [a, b] of batch.follows) store.upsert({ edgeColumns: [{ type: "Follows", fromType: "Person", toType: "Person", from: [a], to: [b] }] });
      for (const [p, c] of batch.visits) store.upsert({ edgeColumns: [{ type: "Visits", fromType: "Person", toType: "City", from: [p], to: [c] }] });
    }
    return store;
  } finally {
    mergeHelperSettings.enabled = enabled;
  }
}

async function threadUp(): Promise<void> {
  warmMergeHelper(Number.MAX_SAFE_INTEGER);
  for (let i = 0; i < 500 && !mergeHelperReady(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(mergeHelperReady()).to.equal(true);
}

describe("store: bulk linking with the merge thread", () => {
  const saved = { ...mergeHelperSettings };
  beforeEach(async () => {
    // Every bulk run goes to the thread, however small.
    mergeHelperSettings.minEntries = 0;
    await threadUp();
  });
  afterEach(() => {
    mergeHelperSettings.minEntries = saved.minEntries;
    mergeHelperSettings.timeoutMs = saved.timeoutMs;
    mergeHelperSettings.enabled = saved.enabled;
    mergeHelperSettings.nextFault = undefined;
  });

  it("batches spanning many merges equal the model (both directions, repeats, undirected ends) and the per-edge path", () => {
    for (const seed of [1, 2]) {
      const next = random(seed);
      const batches = Array.from({ length: 6 }, (_, b) => randomBatch(next, 1500 + 400 * b, 900));
      const store = createStore(schema());
      const model = new Model();
      const before = mergeHelperSettings.merged;
      for (const batch of batches) {
        store.upsert({ edgeColumns: columns(batch) });
        model.apply(batch);
        expectModel(store, model);
      }
      // Follows' in-lists and Visits' City ends, in each batch.
      expect(mergeHelperSettings.merged - before).to.be.at.least(batches.length * 2);
      expect(dumpStore(store)).to.deep.equal(dumpStore(oneByOne(batches)));
    }
  });

  it("many edges to a few targets: sorted in the thread, appended list by list, equal to the model", () => {
    const next = random(3);
    const first = randomBatch(next, 4000, 3000);
    // 3000 distinct sources, 3 targets: three lists grow at the target side.
    const fanIn: Batch = { follows: Array.from({ length: 3000 }, (_, i) => [`p${i}`, `p${i % 3}`] as [string, string]), visits: [] };
    const store = createStore(schema());
    const model = new Model();
    store.upsert({ edgeColumns: columns(first) });
    model.apply(first);
    const proto = Adjacency.prototype;
    const appendMany = proto.appendMany;
    const merges = { merged: mergeHelperSettings.merged, lists: 0 };
    proto.appendMany = function (this: Adjacency, ...args: Parameters<Adjacency["appendMany"]>) {
      merges.lists++;
      return appendMany.apply(this, args);
    };
    try {
      store.upsert({ edgeColumns: columns(fanIn) });
    } finally {
      proto.appendMany = appendMany;
    }
    model.apply(fanIn);
    // The thread's job for the target side, then its three lists appended here.
    expect(mergeHelperSettings.merged).to.equal(merges.merged + 1);
    expect(merges.lists).to.equal(3);
    expectModel(store, model);
    expect(dumpStore(store)).to.deep.equal(dumpStore(oneByOne([first, fanIn])));
  });

  it("a pinned reader sees its version unchanged while later batches merge in the thread", () => {
    const next = random(4);
    const store = createStore(schema());
    const model = new Model();
    const batches = Array.from({ length: 4 }, () => randomBatch(next, 2000, 700));
    store.upsert({ edgeColumns: columns(batches[0]!) });
    model.apply(batches[0]!);
    const pinned = store.snapshot();
    const seen = dumpSnapshot(pinned);
    for (const batch of batches.slice(1)) {
      store.upsert({ edgeColumns: columns(batch) });
      model.apply(batch);
    }
    expect(dumpSnapshot(pinned)).to.deep.equal(seen);
    pinned.release();
    expectModel(store, model);
  });

  it("a batch whose every edge is stored already gives the thread's job up: nothing changes, and the next batch merges in the thread", () => {
    const next = random(7);
    const first = randomBatch(next, 3000, 900);
    const store = createStore(schema());
    const model = new Model();
    store.upsert({ edgeColumns: columns(first) });
    model.apply(first);
    const before = dumpStore(store);
    const counts = { merged: mergeHelperSettings.merged, recovered: mergeHelperSettings.recovered };
    // The thread gets the items (and sorts them) before the writer finds that none is new.
    store.upsert({ edgeColumns: columns({ follows: [...first.follows].reverse(), visits: first.visits }) });
    expect(dumpStore(store)).to.deep.equal(before);
    expect(mergeHelperSettings.merged).to.equal(counts.merged);
    expect(mergeHelperSettings.recovered).to.equal(counts.recovered);
    const later = randomBatch(next, 3000, 900);
    store.upsert({ edgeColumns: columns(later) });
    model.apply(later);
    expect(mergeHelperSettings.merged).to.be.at.least(counts.merged + 2);
    expectModel(store, model);
    expect(dumpStore(store)).to.deep.equal(dumpStore(oneByOne([first, later])));
  });

  it("linking that fails after the thread got its job lets the thread go: the next store's batches merge in it at once", () => {
    const next = random(8);
    const batch = randomBatch(next, 3000, 900);
    const proto = Adjacency.prototype;
    const degree = proto.degree;
    proto.degree = function () {
      throw new Error("injected: linking failed");
    };
    try {
      expect(() => createStore(schema()).upsert({ edgeColumns: columns(batch) })).to.throw("injected: linking failed");
    } finally {
      proto.degree = degree;
    }
    // A thread still waiting for the failed run would take the next run's go for it, and hand
    // back the failed run's edges as the next one's.
    mergeHelperSettings.timeoutMs = 5000;
    const counts = { merged: mergeHelperSettings.merged, recovered: mergeHelperSettings.recovered };
    const store = createStore(schema());
    const model = new Model();
    const other = randomBatch(next, 3000, 900);
    store.upsert({ edgeColumns: columns(other) });
    model.apply(other);
    expect(mergeHelperSettings.merged).to.equal(counts.merged + 2);
    expect(mergeHelperSettings.recovered).to.equal(counts.recovered);
    expectModel(store, model);
  });

  it("a job that fails in the thread is redone by the writer: the batch equals the model", () => {
    const next = random(5);
    const store = createStore(schema());
    const model = new Model();
    for (let b = 0; b < 4; b++) {
      const batch = randomBatch(next, 2500, 800);
      if (b === 1 || b === 3) mergeHelperSettings.nextFault = { kind: "throw" };
      const recovered = mergeHelperSettings.recovered;
      store.upsert({ edgeColumns: columns(batch) });
      model.apply(batch);
      if (b === 1 || b === 3) expect(mergeHelperSettings.recovered).to.equal(recovered + 1);
      expectModel(store, model);
    }
  });

  it("a thread that does not answer in time is given up: the writer does the work, later batches use a new thread", async () => {
    const next = random(6);
    const store = createStore(schema());
    const model = new Model();
    const first = randomBatch(next, 2500, 800);
    store.upsert({ edgeColumns: columns(first) });
    model.apply(first);
    const pinned = store.snapshot();
    const seen = dumpSnapshot(pinned);
    mergeHelperSettings.timeoutMs = 50;
    mergeHelperSettings.nextFault = { kind: "stall", ms: 400 };
    const recovered = mergeHelperSettings.recovered;
    const stalled = randomBatch(next, 2500, 800);
    store.upsert({ edgeColumns: columns(stalled) });
    model.apply(stalled);
    expect(mergeHelperSettings.recovered).to.equal(recovered + 1);
    expectModel(store, model);
    // Past the stall: whatever the given-up thread still wrote went to space nobody else uses.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expectModel(store, model);
    mergeHelperSettings.timeoutMs = saved.timeoutMs;
    await threadUp();
    const merged = mergeHelperSettings.merged;
    for (let b = 0; b < 2; b++) {
      const batch = randomBatch(next, 2500, 800);
      store.upsert({ edgeColumns: columns(batch) });
      model.apply(batch);
    }
    expect(mergeHelperSettings.merged).to.be.greaterThan(merged);
    expectModel(store, model);
    expect(dumpSnapshot(pinned)).to.deep.equal(seen);
    pinned.release();
  });
});
