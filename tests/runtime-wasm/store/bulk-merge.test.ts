// The two ways a large run of edges reaches the lists (link-edges.ts): list by list
// (Adjacency.appendMany) or by one merge of the whole adjacency into a fresh CSR
// (Adjacency.mergeAppend), chosen by cost. Both must equal applying every edge as its own
// upsert (the per-edge path): the same edges, attributes, counts and list order, over random
// batches of directed, reverse, undirected and attributed types, with self-loops, repeats,
// emptied lists, deleted vertices, indexed hub lists and versions pinned by readers.
import { expect } from "chai";
import { createStore, type AttrWrite, type EdgeColumns, type GraphStore, type UpsertBatch } from "../../../runtime-wasm/store/index.js";
import { Adjacency } from "../../../runtime-wasm/store/tables/adjacency.js";
import { dumpSnapshot, dumpStore } from "./dump.js";
import { socialSchema } from "./fixtures.js";

type Step = { upsert: EdgeColumns[] } | { deleteVertices: string[] } | { deleteFollows: [string, string][] };

/** Counts calls of the two bulk appends while `run` runs. */
function countAppends(run: () => void): { merges: number; lists: number } {
  const proto = Adjacency.prototype;
  const merge = proto.mergeAppend;
  const many = proto.appendMany;
  const counts = { merges: 0, lists: 0 };
  proto.mergeAppend = function (this: Adjacency, ...args: Parameters<Adjacency["mergeAppend"]>) {
    counts.merges++;
    return merge.apply(this, args);
  };
  proto.appendMany = function (this: Adjacency, ...args: Parameters<Adjacency["appendMany"]>) {
    counts.lists++;
    return many.apply(this, args);
  };
  try {
    run();
  } finally {
    proto.mergeAppend = merge;
    proto.appendMany = many;
  }
  return counts;
}

function apply(store: GraphStore, step: Step): void {
  if ("upsert" in step) store.upsert({ edgeColumns: step.upsert });
  else if ("deleteVertices" in step) store.deleteVertices("Person", step.deleteVertices);
  else store.deleteEdges(step.deleteFollows.map(([a, b]) => ({ from: { type: "Person", id: a }, type: "Follows", to: { type: "Person", id: b } })));
}

/** The per-edge path: every edge item of every step as a batch of its own. */
function oneByOne(steps: Step[]): GraphStore {
  const store = createStore(socialSchema());
  for (const step of steps) {
    if (!("upsert" in step)) {
      apply(store, step);
      continue;
    }
    for (const group of step.upsert) {
      for (let i = 0; i < group.from.length; i++) {
        const one: UpsertBatch = { edgeColumns: [{ ...group, from: [group.from[i]], to: [group.to[i]], attributes: group.attributes ? [group.attributes[i]] : undefined }] };
        store.upsert(one);
      }
    }
  }
  return store;
}

/** Every list in order (a directed type's lists keep item order; undirected ones are compared as sets by the dump). */
function orderedLists(store: GraphStore): string[] {
  return store.read((s) =>
    [...s.vertices("Person")].map((vid) =>
      ["Follows", "FollowedBy", "LivesIn"].map((type) => `${s.idText(vid)} ${type}: ${[...s.edges(vid, { type })].map((e) => s.idText(e.to)).join(" ")}`).join(" | "),
    ),
  );
}

function counts(store: GraphStore): number[] {
  return store.read((s) => [s.vertexCount("Person"), s.vertexCount("City"), s.storedEdgeCount("Follows"), s.storedEdgeCount("Knows"), s.storedEdgeCount("LivesIn")]);
}

function random(seed: number): (n: number) => number {
  return (n) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
}

/** A run of `count` random edges of one type among `people` people (some ids repeat, some edges loop). */
function randomGroup(next: (n: number) => number, type: "Follows" | "FollowedBy" | "Knows" | "LivesIn", count: number, people: number): EdgeColumns {
  const from: string[] = [];
  const to: (string | number)[] = [];
  const attributes: AttrWrite[][] = [];
  for (let i = 0; i < count; i++) {
    // A skewed source: a few people get most edges (hub lists), as real graphs have.
    const a = `p${next(4) === 0 ? next(8) : next(people)}`;
    from.push(a);
    if (type === "LivesIn") to.push(next(40));
    else to.push(next(50) === 0 ? a : `p${next(people)}`);
    // Overwrites and ignore_if_exists: the value a repeated edge ends with shows the items' order.
    attributes.push([{ name: "weight", value: next(20), op: next(3) === 0 ? "~" : "=" }]);
  }
  if (type !== "Knows") return { type, fromType: "Person", toType: type === "LivesIn" ? "City" : "Person", from, to };
  return { type, fromType: "Person", toType: "Person", from, to, attributes };
}

function expectSame(steps: Step[]): { merges: number; lists: number } {
  const store = createStore(socialSchema());
  const used = countAppends(() => {
    for (const step of steps) apply(store, step);
  });
  const reference = oneByOne(steps);
  expect(counts(store)).to.deep.equal(counts(reference));
  expect(orderedLists(store)).to.deep.equal(orderedLists(reference));
  expect(dumpStore(store)).to.deep.equal(dumpStore(reference));
  return used;
}

describe("store: edges appended by merge or list by list equal the per-edge path", () => {
  it("random batches of every edge flavour into a small store (merges) equal one upsert per edge", () => {
    for (const seed of [1, 2, 3]) {
      const next = random(seed);
      const steps: Step[] = [];
      for (let b = 0; b < 4; b++) {
        steps.push({ upsert: [randomGroup(next, "Follows", 400, 300), randomGroup(next, "Knows", 300, 300), randomGroup(next, "FollowedBy", 200, 300), randomGroup(next, "LivesIn", 200, 300)] });
      }
      const used = expectSame(steps);
      expect(used.merges).to.be.greaterThan(0);
    }
  });

  it("a few edges into a large store go list by list, and equal one upsert per edge", () => {
    const next = random(9);
    const steps: Step[] = [{ upsert: [randomGroup(next, "Follows", 6000, 3000)] }];
    // Twenty edges from a handful of sources: few lists against thousands of slots.
    steps.push({ upsert: [{ type: "Follows", fromType: "Person", toType: "Person", from: Array.from({ length: 20 }, (_, i) => `p${i % 3}`), to: Array.from({ length: 20 }, (_, i) => `p${100 + i}`) }] });
    const store = createStore(socialSchema());
    apply(store, steps[0]!);
    const used = countAppends(() => apply(store, steps[1]!));
    expect(used.merges).to.equal(0);
    // The lists of the 3 sources and of the new edges' targets (an edge stored before is only found).
    expect(used.lists).to.be.within(4, 23);
    const reference = oneByOne(steps);
    expect(orderedLists(store)).to.deep.equal(orderedLists(reference));
    expect(dumpStore(store)).to.deep.equal(dumpStore(reference));
  });

  it("a mid-sized batch into packed lists (after a merge) is merged too, where appending would move every list, and equals one upsert per edge", () => {
    const next = random(12);
    // 6000 edges among 3000 people: merged, so every list is packed without spare capacity.
    const steps: Step[] = [{ upsert: [randomGroup(next, "Follows", 6000, 3000)] }];
    // Then 150 edges from 150 distinct sources to 150 distinct targets: too few lists for a
    // merge of lists with room to grow, enough when each would have to move.
    const sources = Array.from({ length: 150 }, (_, i) => `p${i * 19}`);
    steps.push({ upsert: [{ type: "Follows", fromType: "Person", toType: "Person", from: sources, to: sources.map((_, i) => `p${(i * 7 + 3) % 3000}`) }] });
    const store = createStore(socialSchema());
    apply(store, steps[0]!);
    const used = countAppends(() => apply(store, steps[1]!));
    expect(used).to.deep.equal({ merges: 2, lists: 0 });
    const reference = oneByOne(steps);
    expect(counts(store)).to.deep.equal(counts(reference));
    expect(orderedLists(store)).to.deep.equal(orderedLists(reference));
    expect(dumpStore(store)).to.deep.equal(dumpStore(reference));
  });

  it("an undirected type's new edges reach both their ends by one merge of its one adjacency, equal to one upsert per edge", () => {
    const next = random(13);
    const steps: Step[] = [0, 1, 2].map(() => ({ upsert: [randomGroup(next, "Knows", 1500, 300)] }));
    const store = createStore(socialSchema());
    for (const step of steps) expect(countAppends(() => apply(store, step))).to.deep.equal({ merges: 1, lists: 0 });
    const reference = oneByOne(steps);
    expect(counts(store)).to.deep.equal(counts(reference));
    expect(dumpStore(store)).to.deep.equal(dumpStore(reference));
  });

  it("merges after deletes (emptied lists, deleted vertices, slots reused) equal one upsert per edge", () => {
    const next = random(4);
    const steps: Step[] = [{ upsert: [randomGroup(next, "Follows", 800, 200), randomGroup(next, "Knows", 500, 200)] }];
    steps.push({ deleteVertices: ["p3", "p5", "p7", "p11", "p150"] });
    steps.push({ deleteFollows: Array.from({ length: 60 }, () => [`p${next(200)}`, `p${next(200)}`] as [string, string]) });
    steps.push({ upsert: [randomGroup(next, "Follows", 800, 220), randomGroup(next, "Knows", 500, 220)] });
    steps.push({ deleteVertices: ["p0", "p1"] });
    steps.push({ upsert: [randomGroup(next, "Follows", 500, 220), randomGroup(next, "LivesIn", 300, 220)] });
    expect(expectSame(steps).merges).to.be.greaterThan(0);
  });

  it("a hub list past the key index's threshold: repeats found, new edges added, by merge", () => {
    const hub = (from: number, count: number): EdgeColumns => ({ type: "Follows", fromType: "Person", toType: "Person", from: Array.from({ length: count }, () => "hub"), to: Array.from({ length: count }, (_, i) => `q${from + i}`) });
    // 5000 edges, then 3000 of which 1000 repeat the first ones (in a new order) and 2000 are new.
    const second = hub(4000, 3000);
    (second.to as string[]).reverse();
    const steps: Step[] = [{ upsert: [hub(0, 5000)] }, { upsert: [randomGroup(random(5), "Follows", 2000, 9000)] }, { upsert: [second] }];
    const store = createStore(socialSchema());
    const used = countAppends(() => steps.forEach((s) => apply(store, s)));
    expect(used.merges).to.be.greaterThan(0);
    expect(store.read((s) => s.degree(s.lookup("Person", "hub")!, "Follows"))).to.equal(7000);
    const reference = oneByOne(steps);
    expect(orderedLists(store)).to.deep.equal(orderedLists(reference));
    expect(counts(store)).to.deep.equal(counts(reference));
  });

  it("long lists asked by few items (edge filter, key index) and read whole for many items: repeats found either way, equal to one upsert per edge", () => {
    const next = random(11);
    // A hub past the key index's threshold (6000 entries) and a mid-sized list (1000 entries).
    const fan = (from: string, start: number, count: number, step = 1): EdgeColumns => ({
      type: "Follows",
      fromType: "Person",
      toType: "Person",
      from: Array.from({ length: count }, () => from),
      to: Array.from({ length: count }, (_, i) => `q${start + i * step}`),
    });
    const few: EdgeColumns = {
      type: "Follows",
      fromType: "Person",
      toType: "Person",
      // 40 items on the hub (6000 > 32 x 40) and 2 on the mid list (1000 > 256 x 2): half of each repeat a stored edge.
      from: [...Array.from({ length: 40 }, () => "hub"), "mid", "mid"],
      to: [...Array.from({ length: 40 }, (_, i) => `q${i % 2 === 0 ? next(6000) : 10000 + i}`), "q500", "q99999"],
    };
    const steps: Step[] = [{ upsert: [fan("hub", 0, 6000), fan("mid", 0, 1000)] }, { upsert: [few, randomGroup(next, "Follows", 1500, 3000)] }, { upsert: [fan("hub", 3000, 4000, 2), fan("mid", 900, 600)] }];
    const store = createStore(socialSchema());
    const proto = Adjacency.prototype;
    const find = proto.find;
    let asked = 0;
    proto.find = function (this: Adjacency, ...args: Parameters<Adjacency["find"]>) {
      // Short lists are scanned through find too (one item on a list of up to 32): not counted.
      if (this.degree(args[0]) > 32) asked++;
      return find.apply(this, args);
    };
    try {
      steps.forEach((step) => apply(store, step));
    } finally {
      proto.find = find;
    }
    // The few items asked their long lists; the last step's many items read them.
    expect(asked).to.be.at.least(42);
    // 20 new from the few; of the 4000 after, q3000-q5998 are stored already (1500), 2500 are new.
    expect(store.read((s) => s.degree(s.lookup("Person", "hub")!, "Follows"))).to.equal(6000 + 20 + 2500);
    const reference = oneByOne(steps);
    expect(orderedLists(store)).to.deep.equal(orderedLists(reference));
    expect(counts(store)).to.deep.equal(counts(reference));
  });

  it("small merges after a large one move the lists within their chunk (in place), also after a pinned version and deletes, equal to one upsert per edge", () => {
    const next = random(8);
    // Many sources, few edges each: worth a merge, and within the spare room the first merge left.
    const spread = (count: number): EdgeColumns => {
      const from: string[] = [];
      const to: string[] = [];
      for (let i = 0; i < count; i++) {
        from.push(`p${next(400)}`);
        to.push(`p${next(400)}`);
      }
      return { type: "Follows", fromType: "Person", toType: "Person", from, to };
    };
    const steps: Step[] = [{ upsert: [spread(6000), randomGroup(next, "Knows", 3000, 400)] }];
    for (let b = 0; b < 3; b++) steps.push({ upsert: [spread(150), randomGroup(next, "Knows", 100, 400)] });
    const store = createStore(socialSchema());
    const proto = Adjacency.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
    const inPlace = proto.mergeInPlace!;
    let moves = 0;
    proto.mergeInPlace = function (this: unknown, ...args: unknown[]) {
      moves++;
      return inPlace.apply(this, args);
    };
    try {
      steps.forEach((step) => apply(store, step));
      expect(moves).to.be.greaterThan(0);
      // A pinned version reads the chunk: the next merge copies instead, and the pin still sees its edges.
      const pinned = store.snapshot();
      const before = dumpSnapshot(pinned);
      const pinnedStep: Step = { upsert: [spread(150)] };
      steps.push(pinnedStep);
      moves = 0;
      apply(store, pinnedStep);
      expect(moves).to.equal(0);
      expect(dumpSnapshot(pinned)).to.deep.equal(before);
      pinned.release();
      // Deletes change lists in place: the lists are no longer packed, so the next merge copies.
      const more: Step[] = [{ deleteFollows: [["p1", "p2"], ["p3", "p4"]] }, { deleteVertices: ["p5"] }, { upsert: [spread(150)] }, { upsert: [spread(150)] }];
      more.forEach((step) => apply(store, step));
      steps.push(...more);
    } finally {
      proto.mergeInPlace = inPlace;
    }
    const reference = oneByOne(steps);
    expect(counts(store)).to.deep.equal(counts(reference));
    expect(orderedLists(store)).to.deep.equal(orderedLists(reference));
    expect(dumpStore(store)).to.deep.equal(dumpStore(reference));
  });

  it("a reader's pinned version is untouched by merges after it, and released cleanly", () => {
    const next = random(6);
    const steps: Step[] = [{ upsert: [randomGroup(next, "Follows", 1000, 300), randomGroup(next, "Knows", 600, 300)] }];
    for (let b = 0; b < 4; b++) steps.push({ upsert: [randomGroup(next, "Follows", 1000, 350), randomGroup(next, "Knows", 600, 350)] });
    const store = createStore(socialSchema());
    apply(store, steps[0]!);
    const pinned = store.snapshot();
    const before = dumpSnapshot(pinned);
    const used = countAppends(() => steps.slice(1, 4).forEach((s) => apply(store, s)));
    expect(used.merges).to.be.greaterThan(0);
    expect(dumpSnapshot(pinned)).to.deep.equal(before);
    pinned.release();
    apply(store, steps[4]!);
    const reference = oneByOne(steps);
    expect(orderedLists(store)).to.deep.equal(orderedLists(reference));
    expect(dumpStore(store)).to.deep.equal(dumpStore(reference));
  });
});
