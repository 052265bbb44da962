// The store's entry-ordered attribute copies (tables/entry-copies.ts): which attributes get
// them (8-byte kinds only), on which adjacencies (every vertex type's out and in lists), when
// they are dropped (any change to the edge type: attribute values, edges, deleted vertices,
// the schema, clearing) and built again (compaction, image load), what they cost in memory,
// and that StoreOptions.entryCopies turns them off.
import { expect } from "chai";
import { createStore, loadStore, type GraphStore, type StoreOptions } from "../../../runtime-wasm/store/index.js";
import type { DatabaseSchema } from "../../../runtime-wasm/schema/types.js";
import { checkCopies, currentHeader } from "./entry-copies-check.js";
import { attr, BOOL, DATETIME, DOUBLE, edge, FLOAT, INT, schemaOf, STRING, UINT, vertex } from "./fixtures.js";

function schema(extra = false): DatabaseSchema {
  const attributes = [attr("w", DOUBLE), attr("n", INT), attr("f", FLOAT), attr("b", BOOL), attr("s", STRING), attr("u", UINT), attr("d", DATETIME)];
  return schemaOf(
    [vertex("P", "INT", []), vertex("C", "INT", [])],
    [
      edge("Visits", true, [["P", "C"], ["P", "P"]], extra ? [...attributes, attr("x", INT)] : attributes),
      edge("Knows", false, [["P", "P"]], [attr("since", DATETIME), attr("tag", STRING)]),
      edge("Plain", true, [["P", "P"]]),
    ],
  );
}

const P = (id: number) => ({ type: "P", id });
const C = (id: number) => ({ type: "C", id });

function filled(options?: StoreOptions): GraphStore {
  const store = createStore(schema(), options);
  store.upsert({ vertices: [...Array.from({ length: 40 }, (_, i) => P(i)), ...Array.from({ length: 10 }, (_, i) => C(i))] });
  const edges = [];
  for (let i = 0; i < 400; i++) {
    const a = P((i * 7) % 40);
    const attributes = [
      { name: "w", value: i / 8 },
      { name: "n", value: i - 200 },
      { name: "f", value: i / 2 },
      { name: "b", value: i % 2 === 0 },
      { name: "s", value: `s${i}` },
      { name: "u", value: i * 3 },
      { name: "d", value: 1_700_000_000 + i },
    ];
    edges.push({ type: "Visits", from: a, to: i % 3 === 0 ? C(i % 10) : P((i * 13 + 1) % 40), attributes });
    if (i % 2 === 0) edges.push({ type: "Knows", from: a, to: P((i * 11 + 3) % 40), attributes: [{ name: "since", value: i }, { name: "tag", value: "t" }] });
    edges.push({ type: "Plain", from: a, to: P((i * 5 + 2) % 40) });
  }
  store.upsert({ edges });
  return store;
}

/** Entries per edge type as the store counts them (both directions of a directed type; an undirected edge twice). */
function entries(store: GraphStore, key: string): number {
  const table = (store as unknown as { state: { edgeByKey: Map<string, { table: { adjacencies(): { entryCount: number }[] } }> } }).state.edgeByKey.get(key)!.table;
  return table.adjacencies().reduce((sum, a) => sum + a.entryCount, 0);
}

async function image(store: GraphStore): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  await store.serialize((chunk) => void parts.push(chunk.slice()));
  return Buffer.concat(parts);
}

describe("store: entry-ordered attribute copies", () => {
  it("are built by compaction for the 8-byte attributes of every out and in adjacency, and match the columns", () => {
    const store = filled();
    expect(checkCopies(store, currentHeader(store)).values).to.equal(0);
    store.compact();
    const found = checkCopies(store, currentHeader(store));
    // Visits: w, n, u, d (not FLOAT, BOOL, STRING) on the P out lists and the P and C in lists;
    // Knows (undirected): since, on the one P table; Plain: no attributes, no eids
    expect(found.copies).to.deep.equal({ Visits: 4 * 3, Knows: 1, Plain: 0 });
    expect(found.values).to.equal(4 * entries(store, "Visits") + entries(store, "Knows"));
  });

  it("cost 8 bytes per entry per attribute plus a small table per adjacency, and can be turned off", () => {
    const [on, off] = [filled(), filled({ entryCopies: false })];
    on.compact();
    off.compact();
    expect(checkCopies(off, currentHeader(off)).values).to.equal(0);
    const tables = (3 * 7 * 4 + 1 * 2 * 4); // per adjacency: one u32 per attribute ordinal
    expect(on.memoryStats().liveBytes - off.memoryStats().liveBytes).to.equal(8 * (4 * entries(on, "Visits") + entries(on, "Knows")) + tables);
  });

  it("are dropped by the first change to their edge type, kept through changes to other types", () => {
    const store = filled();
    store.compact();
    store.upsert({ edges: [{ type: "Plain", from: P(1), to: P(2) }] });
    expect(checkCopies(store, currentHeader(store)).copies).to.deep.equal({ Visits: 12, Knows: 1, Plain: 0 });
    const changes: [string, (s: GraphStore) => void, Record<string, number>][] = [
      ["an attribute value", (s) => s.upsert({ edges: [{ type: "Visits", from: P(0), to: C(0), attributes: [{ name: "s", value: "changed" }] }] }), { Visits: 0, Knows: 1, Plain: 0 }],
      ["a new edge", (s) => s.upsert({ edges: [{ type: "Knows", from: P(5), to: P(6) }] }), { Visits: 12, Knows: 0, Plain: 0 }],
      ["a deleted edge", (s) => s.deleteEdges([{ from: P(0), type: "Visits" }]), { Visits: 0, Knows: 1, Plain: 0 }],
      ["a deleted vertex", (s) => s.deleteVertices("C", [3]), { Visits: 0, Knows: 1, Plain: 0 }],
      // (a schema change counts as a change to every type)
      ["a new attribute", (s) => s.applySchema(schema(true)), { Visits: 0, Knows: 0, Plain: 0 }],
      ["clearing the store", (s) => s.clear(), { Visits: 0, Knows: 0, Plain: 0 }],
    ];
    for (const [what, change, left] of changes) {
      const s = filled();
      s.compact();
      change(s);
      const found = checkCopies(s, currentHeader(s));
      expect(found.copies, what).to.deep.equal(left);
      s.compact();
      const again = checkCopies(s, currentHeader(s));
      expect(again.values, `${what}, compacted again`).to.equal(entries(s, "Visits") === 0 && entries(s, "Knows") === 0 ? 0 : (what === "a new attribute" ? 5 : 4) * entries(s, "Visits") + entries(s, "Knows"));
    }
  });

  it("stay readable and unchanged in a version pinned before they are dropped", () => {
    const store = filled();
    store.compact();
    const pinned = store.snapshot();
    const before = checkCopies(store, pinned.headerAddress);
    for (let round = 0; round < 5; round++) {
      store.upsert({ edges: Array.from({ length: 200 }, (_, i) => ({ type: "Visits", from: P(i % 40), to: C((i + round) % 10), attributes: [{ name: "w", value: -i }, { name: "n", value: round }] })) });
      store.compact();
    }
    expect(checkCopies(store, pinned.headerAddress)).to.deep.equal(before);
    pinned.release();
  });

  it("are built when a store is loaded from an image (unless turned off)", async () => {
    const store = filled();
    store.upsert({ edges: [{ type: "Visits", from: P(2), to: C(2), attributes: [{ name: "w", value: 9.5 }] }] });
    const bytes = await image(store);
    const loaded = await loadStore(bytes);
    const found = checkCopies(loaded, currentHeader(loaded));
    expect(found.copies).to.deep.equal({ Visits: 12, Knows: 1, Plain: 0 });
    expect(found.values).to.equal(4 * entries(loaded, "Visits") + entries(loaded, "Knows"));
    const without = await loadStore(bytes, { entryCopies: false });
    expect(checkCopies(without, currentHeader(without)).values).to.equal(0);
  });
});
