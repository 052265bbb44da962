// Planning a bulk load's plain edges (runs with no attribute writes and no discriminator,
// planned without per-edge writes: EdgePlans "bare" runs) and the vertices they create
// (integer keys kept in a plain array per batch, others in a Map: BatchVertices). Batches of
// edge columns must equal applying every edge as its own upsert: the same vertices, created
// in the same order, the same edges in the same list order, for integer ids below and above
// the array's reach, negative ones, ids given as text, self-loops and repeats; a bad id
// anywhere rejects the whole batch with its path.
import { expect } from "chai";
import { createStore, StoreError, type EdgeColumns, type EdgeUpsert, type GraphStore, type UpsertBatch } from "../../../runtime-wasm/store/index.js";
import { dumpStore } from "./dump.js";
import { attr, edge, INT, schemaOf, vertex } from "./fixtures.js";

function schema() {
  return schemaOf(
    [vertex("N", "INT", [attr("score", INT, 7)]), vertex("M", "UINT", [])],
    [edge("Link", true, [["N", "N"]], [], { reverseEdge: "LinkedBy" }), edge("LinkedBy", true, [["N", "N"]], [], { reverseOf: "Link" }), edge("Pair", false, [["N", "N"]]), edge("Tie", true, [["N", "M"]]), edge("Weighted", true, [["N", "N"]], [attr("w", INT)])],
  );
}

function random(seed: number): (n: number) => number {
  return (n) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
}

/** An INT id: mostly small, some past 2^22 and past 2^32, some negative, some written as text. */
function randomId(next: (n: number) => number): number | string {
  const kind = next(20);
  if (kind === 0) return 5_000_000 + next(50);
  if (kind === 1) return 6_000_000_000 + next(50);
  if (kind === 2) return -1 - next(50);
  if (kind === 3) return String(next(400));
  return next(400);
}

function randomColumns(next: (n: number) => number, type: "Link" | "LinkedBy" | "Pair" | "Tie", count: number, packed: boolean): EdgeColumns {
  const from: (number | string)[] = [];
  const to: (number | string)[] = [];
  for (let i = 0; i < count; i++) {
    const a = randomId(next);
    from.push(a);
    to.push(type === "Tie" ? next(100) : next(40) === 0 ? a : randomId(next));
  }
  const numeric = (ids: (number | string)[]) => (packed && ids.every((x) => typeof x === "number") ? Float64Array.from(ids as number[]) : ids);
  return { type, fromType: "N", toType: type === "Tie" ? "M" : "N", from: numeric(from), to: numeric(to) };
}

/** Every edge item of the batch as its own upsert (vertex items first, as the store applies them). */
function oneByOne(store: GraphStore, batch: UpsertBatch): void {
  for (const e of batch.edges ?? []) store.upsert({ edges: [e] });
  for (const group of batch.edgeColumns ?? []) {
    for (let i = 0; i < group.from.length; i++) store.upsert({ edgeColumns: [{ ...group, from: [group.from[i]!], to: [group.to[i]!], attributes: group.attributes ? [group.attributes[i]!] : undefined }] });
  }
}

/** Vertices in creation order and every list of a directed type in order (undirected lists are compared as sets, by the dump). */
function ordered(store: GraphStore): string[] {
  return store.read((s) => [
    [...s.vertices("N")].map((vid) => s.idText(vid)).join(" "),
    ...[...s.vertices("N")].map((vid) => ["Link", "LinkedBy", "Tie", "Weighted"].map((type) => `${s.idText(vid)} ${type}: ${[...s.edges(vid, { type })].map((e) => s.idText(e.to)).join(" ")}`).join(" | ")),
  ]);
}

function expectSameAsOneByOne(batches: UpsertBatch[]): GraphStore {
  const store = createStore(schema());
  const reference = createStore(schema());
  for (const batch of batches) {
    store.upsert(batch);
    oneByOne(reference, batch);
  }
  expect(ordered(store)).to.deep.equal(ordered(reference));
  expect(dumpStore(store)).to.deep.equal(dumpStore(reference));
  return store;
}

describe("store: plain edge columns (bare runs) plan like one upsert per edge", () => {
  it("random batches of plain edges of every flavour, ids of every kind, equal one upsert per edge", () => {
    for (const seed of [1, 2, 3]) {
      const next = random(seed);
      const batches: UpsertBatch[] = [];
      for (let b = 0; b < 4; b++) {
        const packed = b % 2 === 0;
        batches.push({ edgeColumns: [randomColumns(next, "Link", 600, packed), randomColumns(next, "Pair", 300, packed), randomColumns(next, "LinkedBy", 200, packed), randomColumns(next, "Tie", 200, packed)] });
      }
      const store = expectSameAsOneByOne(batches);
      // Vertices the edges created carry their defaults.
      store.read((s) => {
        for (const vid of s.vertices("N")) expect(s.attributes(vid)).to.deep.equal({ score: 7n });
      });
    }
  });

  it("short runs, edge items and attributed edges between plain columns of one type equal one upsert per edge", () => {
    const next = random(7);
    const items: EdgeUpsert[] = Array.from({ length: 30 }, () => ({ type: "Link", from: { type: "N", id: next(60) }, to: { type: "N", id: next(60) } }));
    const weighted: EdgeColumns = { type: "Weighted", fromType: "N", toType: "N", from: [1, 2, 1], to: [2, 3, 2], attributes: [[{ name: "w", value: 5 }], [{ name: "w", value: 6 }], [{ name: "w", value: 9, op: "+" }]] };
    const batches: UpsertBatch[] = [
      { edges: items, edgeColumns: [randomColumns(next, "Link", 5, false), randomColumns(next, "Link", 300, true), weighted, randomColumns(next, "Link", 3, true)] },
      { edgeColumns: [randomColumns(next, "Link", 10, false), randomColumns(next, "Pair", 12, false)] },
    ];
    expectSameAsOneByOne(batches);
  });

  it("a bad id in a plain run rejects the whole batch with its path, changing nothing", () => {
    const store = createStore(schema());
    store.upsert({ edgeColumns: [{ type: "Link", fromType: "N", toType: "N", from: [1, 2, 3], to: [2, 3, 4] }] });
    const before = dumpStore(store);
    const bad: EdgeColumns = { type: "Link", fromType: "N", toType: "N", from: [5, 6, 7, 8], to: [6, 7, "x8", 9] };
    for (const batch of [{ edgeColumns: [bad] }, { edgeColumns: [{ ...bad, type: "LinkedBy" }] }, { edgeColumns: [{ ...bad, to: [6, 7, 1.5, 9] }] }]) {
      let error: unknown;
      try {
        store.upsert(batch);
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(StoreError);
      expect((error as StoreError).code).to.equal("INVALID_ID");
      // The path names the item as given (LinkedBy is stored from its other end, its "to" still named so).
      expect((error as StoreError).message).to.match(/^edgeColumns\[0\]\[2\]\.to\.id: /);
      expect(dumpStore(store)).to.deep.equal(before);
    }
  });
});
