// Items of one upsert batch apply in order: a later item for a vertex or edge sees what the
// earlier items of the same batch did (created it, changed it), exactly as if each item were
// its own batch — while the batch stays atomic. Checked for vertex items, edge items, edge
// columns, undirected edges given both ways, discriminated edges, and large batches.
import { expect } from "chai";
import { createStore, StoreError, type AttrWrite, type EdgeUpsert, type GraphStore, type UpsertBatch, type VertexUpsert } from "../../../runtime-wasm/store/index.js";
import { dumpStore } from "./dump.js";
import { socialSchema } from "./fixtures.js";

const P = (id: string) => ({ type: "Person", id });
const age = (value: unknown, op?: AttrWrite["op"]): AttrWrite => (op ? { name: "age", value, op } : { name: "age", value });
const person = (id: string, ...attributes: AttrWrite[]): VertexUpsert => ({ type: "Person", id, attributes });

function attrsOf(store: GraphStore, type: string, id: string | number) {
  return store.read((s) => {
    const vid = s.lookup(type, id);
    return vid === undefined ? undefined : s.attributes(vid);
  });
}

function knowsWeights(store: GraphStore, from: string): Record<string, number> {
  return store.read((s) => Object.fromEntries([...s.edges(s.lookup("Person", from)!, { type: "Knows" })].map((e) => [s.idText(e.to), s.edgeAttribute(e, "weight") as number])));
}

/** Applies the items one batch each: what the single batch must equal. */
function oneByOne(batch: UpsertBatch): GraphStore {
  const store = createStore(socialSchema());
  for (const v of batch.vertices ?? []) store.upsert({ vertices: [v] });
  for (const e of batch.edges ?? []) store.upsert({ edges: [e] });
  return store;
}

describe("store: items of one batch apply in order", () => {
  let store: GraphStore;
  beforeEach(() => {
    store = createStore(socialSchema());
  });

  it("a vertex created by an earlier item is updated by later ones with their operators", () => {
    store.upsert({ vertices: [person("z", age(1)), person("z", age(2, "+")), person("y", age(5)), person("y", age(10, "+")), person("x", age(4, "~")), person("x", age(3, "<")), person("x", age(8, ">"))] });
    expect(attrsOf(store, "Person", "z")!.age).to.equal(3n);
    expect(attrsOf(store, "Person", "y")!.age).to.equal(15n);
    expect(attrsOf(store, "Person", "x")!.age).to.equal(8n);
  });

  it("ignore_if_exists after a create in the same batch keeps the first value; a later '=' overwrites it", () => {
    store.upsert({ vertices: [person("w", age(5), { name: "nick", value: "first" }), person("w", age(10, "~"), { name: "nick", value: "second", op: "~" }), person("v", age(1)), person("v", age(2))] });
    expect(attrsOf(store, "Person", "w")).to.include({ age: 5n, nick: "first" });
    expect(attrsOf(store, "Person", "v")!.age).to.equal(2n);
  });

  it("every operator on a vertex created earlier in the batch (3-7 are allowed: it exists by then)", () => {
    const r = store.upsert({
      vertices: [
        person("n", age(12), { name: "active", value: false }, { name: "nick", value: "m" }, { name: "tags", value: ["a"] }),
        person("n", age(10, "&"), { name: "active", value: true, op: "|" }, { name: "nick", value: "x", op: "+" }, { name: "tags", value: ["b"], op: "+" }),
        person("n", age(1, "|"), { name: "nick", value: "a", op: ">" }),
      ],
    });
    expect(r.acceptedVertices).to.equal(3);
    expect(attrsOf(store, "Person", "n")).to.include({ age: 9n, active: true, nick: "mx" });
    expect(attrsOf(store, "Person", "n")!.tags).to.deep.equal(["a", "b"]);
  });

  it("an existing vertex is changed by each item in turn", () => {
    store.upsert({ vertices: [person("e", age(100))] });
    store.upsert({ vertices: [person("e", age(7)), person("e", age(10, "+")), person("e", age(1, "~")), person("e", age(3, "<"))] });
    expect(attrsOf(store, "Person", "e")!.age).to.equal(3n);
  });

  it("an endpoint created by an earlier vertex item is not created again, and keeps its values", () => {
    const r = store.upsert({ vertices: [person("a", age(40))], edges: [{ type: "Follows", from: P("a"), to: P("b") }] });
    expect(r).to.deep.include({ acceptedVertices: 1, acceptedEdges: 1, createdEndpointVertices: 1 });
    expect(attrsOf(store, "Person", "a")!.age).to.equal(40n);
  });

  it("an edge created by an earlier item is updated by later ones, whichever way an undirected edge is given", () => {
    const r = store.upsert({
      edges: [
        { type: "Knows", from: P("a"), to: P("b"), attributes: [{ name: "weight", value: 5 }] },
        { type: "Knows", from: P("b"), to: P("a"), attributes: [{ name: "weight", value: 10, op: "+" }] },
        { type: "Knows", from: P("a"), to: P("b"), attributes: [{ name: "weight", value: 99, op: "~" }] },
        { type: "Knows", from: P("a"), to: P("c"), attributes: [{ name: "weight", value: 2, op: "~" }] },
        { type: "Knows", from: P("c"), to: P("a"), attributes: [{ name: "weight", value: 1, op: "<" }] },
      ],
    });
    expect(r.acceptedEdges).to.equal(5);
    expect(store.read((s) => s.storedEdgeCount("Knows"))).to.equal(2);
    expect(knowsWeights(store, "a")).to.deep.equal({ b: 15, c: 1 });
    expect(knowsWeights(store, "b")).to.deep.equal({ a: 15 });
  });

  it("discriminated edges: the same discriminator value updates, another one adds a parallel edge", () => {
    const call = (at: number, minutes: number, op?: AttrWrite["op"]): EdgeUpsert => ({ type: "Calls", from: P("a"), to: P("b"), attributes: [{ name: "at", value: at }, op ? { name: "minutes", value: minutes, op } : { name: "minutes", value: minutes }] });
    store.upsert({ edges: [call(1, 5), call(1, 3, "+"), call(2, 7), call(2, 1, ">"), call(1, 4, "<")] });
    const calls = store.read((s) => [...s.edges(s.lookup("Person", "a")!, { type: "Calls" })].map((e) => s.edgeAttributes(e)));
    expect(calls).to.deep.equal([
      { at: 1n, minutes: 4n },
      { at: 2n, minutes: 7n },
    ]);
  });

  it("edge columns see the items before them: edges items, earlier groups and earlier entries of the group", () => {
    store.upsert({
      edges: [{ type: "Knows", from: P("a"), to: P("b"), attributes: [{ name: "weight", value: 1 }] }],
      edgeColumns: [
        { type: "Knows", fromType: "Person", toType: "Person", from: ["b", "a", "c"], to: ["a", "c", "a"], attributes: [[{ name: "weight", value: 2, op: "+" }], [{ name: "weight", value: 4 }], [{ name: "weight", value: 3, op: "+" }]] },
        { type: "Knows", fromType: "Person", toType: "Person", from: ["a"], to: ["b"], attributes: [[{ name: "weight", value: 10, op: ">" }]] },
      ],
    });
    expect(knowsWeights(store, "a")).to.deep.equal({ b: 10, c: 7 });
  });

  it("an operator 3-7 on an item nothing before it created still rejects the whole batch", () => {
    const before = dumpStore(store);
    let error: unknown;
    try {
      store.upsert({ vertices: [person("q", age(1, "+")), person("q", age(1))] });
    } catch (e) {
      error = e;
    }
    expect((error as StoreError).code).to.equal("OP_ON_MISSING_ITEM");
    expect(dumpStore(store)).to.deep.equal(before);
  });

  it("a large batch with many repeated keys equals applying its items one batch each", () => {
    const vertices: VertexUpsert[] = [];
    const edges: EdgeUpsert[] = [];
    const ops = ["=", "+", "~", ">", "<"] as const;
    let seed = 7;
    const next = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const seen = new Set<string>();
    for (let i = 0; i < 3000; i++) {
      const id = `v${next(300)}`;
      const op = seen.has(id) ? ops[next(ops.length)] : ops[next(2) * 2];
      seen.add(id);
      vertices.push(person(id, age(next(50) - 10, op)));
    }
    // Long runs of one edge type (linked in bulk) and short alternating ones (item by item).
    const knows = new Set<string>();
    const knowsItem = () => {
      const [a, b] = [`v${next(400)}`, `v${next(400)}`];
      const key = a < b ? `${a}|${b}` : `${b}|${a}`;
      const op = knows.has(key) ? ops[next(ops.length)] : ops[next(2) * 2];
      knows.add(key);
      return { type: "Knows", from: P(a), to: P(b), attributes: [{ name: "weight", value: next(9), op }] };
    };
    const followsItem = () => ({ type: "Follows", from: P(`v${next(100)}`), to: P(`v${next(500)}`) });
    for (let i = 0; i < 5000; i++) edges.push(knowsItem());
    for (let i = 0; i < 5000; i++) edges.push(followsItem());
    for (let i = 0; i < 1000; i++) edges.push(knowsItem(), followsItem());
    const r = store.upsert({ vertices, edges });
    expect(r.acceptedVertices).to.equal(3000);
    expect(r.acceptedEdges).to.equal(12000);
    expect(dumpStore(store)).to.deep.equal(dumpStore(oneByOne({ vertices, edges })));
  });

  it("items alternating between edge types (one-edge groups, as a load writing two edges per line gives) equal applying them one by one, in slot and list order too", () => {
    let seed = 5;
    const next = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const edgeColumns: NonNullable<UpsertBatch["edgeColumns"]> = [];
    const edges: EdgeUpsert[] = [];
    for (let i = 0; i < 3000; i++) {
      // Few people: many items repeat an edge, so their operators' order shows in the weights.
      const [a, b, c] = [`p${next(60)}`, `p${next(60)}`, next(300)];
      edgeColumns.push({ type: "Knows", fromType: "Person", toType: "Person", from: [a], to: [b], attributes: [[{ name: "weight", value: i, op: i % 3 === 0 ? "~" : "=" }]] });
      edgeColumns.push({ type: "LivesIn", fromType: "Person", toType: "City", from: [b], to: [c] });
      edges.push({ type: "Knows", from: P(a), to: P(b), attributes: [{ name: "weight", value: i, op: i % 3 === 0 ? "~" : "=" }] }, { type: "LivesIn", from: P(b), to: { type: "City", id: c } });
    }
    const r = store.upsert({ edgeColumns });
    expect(r.acceptedEdges).to.equal(6000);
    const reference = oneByOne({ edges });
    // Slots in creation order; a directed type's lists in item order (undirected lists hold
    // the edges of both ends, whose interleaving is not part of the store's contract).
    const ordered = (s: GraphStore) =>
      s.read((snap) => ["Person", "City"].map((t) => [...snap.vertices(t)].map((vid) => `${snap.idText(vid)}: ${[...snap.edges(vid, { type: "LivesIn" })].map((e) => snap.idText(e.to)).join(" ")}`)));
    expect(ordered(store)).to.deep.equal(ordered(reference));
    expect(dumpStore(store)).to.deep.equal(dumpStore(reference));
  });

  it("a bulk-linked run over thousands of vertices (slots past one radix digit) keeps item order, self-loops and repeats", () => {
    let seed = 11;
    const next = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const edges: EdgeUpsert[] = [];
    for (let i = 0; i < 6000; i++) {
      const a = `w${next(5000)}`;
      const b = i % 97 === 0 ? a : `w${next(5000)}`;
      edges.push({ type: "Knows", from: P(a), to: P(b), attributes: [{ name: "weight", value: i, op: "=" }] });
    }
    for (let i = 0; i < 6000; i++) edges.push({ type: "Follows", from: P(`w${next(4500)}`), to: P(`w${4999 - next(5000)}`) });
    edges.push(...edges.slice(0, 300));
    const r = store.upsert({ edges });
    expect(r.acceptedEdges).to.equal(12300);
    expect(dumpStore(store)).to.deep.equal(dumpStore(oneByOne({ edges })));
  });
});
