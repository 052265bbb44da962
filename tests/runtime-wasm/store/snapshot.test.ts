import { expect } from "chai";
import { createStore, StoreError, type GraphStore } from "../../../runtime-wasm/store/index.js";
import { dumpSnapshot, dumpStore } from "./dump.js";
import { socialSchema } from "./fixtures.js";

const P = (id: string) => ({ type: "Person", id });

function seeded(initialBytes?: number): GraphStore {
  const store = createStore(socialSchema(), { initialBytes });
  store.upsert({
    vertices: [{ type: "Person", id: "ann", attributes: [{ name: "age", value: 30 }, { name: "tags", value: ["t"] }] }, P("bob")],
    edges: [
      { type: "Knows", from: P("ann"), to: P("bob"), attributes: [{ name: "weight", value: 3 }] },
      { type: "Follows", from: P("bob"), to: P("ann") },
    ],
  });
  return store;
}

describe("store: pinned snapshots", () => {
  it("a pinned snapshot sees none of the writes that follow; a new one sees all", () => {
    const store = seeded();
    const before = dumpStore(store);
    const old = store.snapshot();
    store.upsert({
      vertices: [{ type: "Person", id: "ann", attributes: [{ name: "age", value: 1, op: "+" }, { name: "tags", value: ["u"], op: "+" }] }, P("cid")],
      edges: [
        { type: "Knows", from: P("ann"), to: P("bob"), attributes: [{ name: "weight", value: 9 }] },
        { type: "Follows", from: P("cid"), to: P("ann") },
        { type: "Follows", from: P("bob"), to: P("cid") },
      ],
    });
    store.deleteEdges([{ from: P("bob"), type: "Follows", to: P("ann") }]);
    store.deleteVertices("Person", ["bob"], { permanent: true });
    expect(dumpSnapshot(old)).to.deep.equal(before);
    expect(old.lookup("Person", "bob")).to.be.a("number");
    expect(old.vertexCount("Person")).to.equal(2);
    store.read((now) => {
      expect(now.version).to.be.greaterThan(old.version);
      expect(now.lookup("Person", "bob")).to.equal(undefined);
      expect(now.attributes(now.lookup("Person", "ann")!)).to.include({ age: 31n });
      expect(now.attribute(now.lookup("Person", "ann")!, "tags")).to.deep.equal(["t", "u"]);
    });
    old.release();
  });

  it("each of several pinned versions keeps its own state", () => {
    const store = createStore(socialSchema());
    const pinned: { dump: ReturnType<typeof dumpStore>; snap: ReturnType<GraphStore["snapshot"]> }[] = [];
    for (let i = 0; i < 6; i++) {
      store.upsert({
        vertices: [{ type: "Person", id: `p${i}`, attributes: [{ name: "age", value: i }] }],
        edges: i > 0 ? [{ type: "Follows", from: P(`p${i - 1}`), to: P(`p${i}`) }, { type: "Knows", from: P("p0"), to: P(`p${i}`), attributes: [{ name: "weight", value: i }] }] : [],
      });
      if (i % 2 === 0) store.deleteEdges([{ from: P("p0"), type: "Knows", where: (_e, a) => a("weight") === i - 1 }]);
      pinned.push({ dump: dumpStore(store), snap: store.snapshot() });
    }
    for (const p of pinned) expect(dumpSnapshot(p.snap)).to.deep.equal(p.dump);
    for (const p of pinned) p.snap.release();
  });

  it("survives memory growth, compaction, delete-all, schema changes and clear", () => {
    const store = seeded(1 << 16);
    const initial = store.memoryStats().memoryBytes;
    const before = dumpStore(store);
    const old = store.snapshot();
    const batch = [];
    for (let i = 0; i < 20000; i++) batch.push({ type: "Follows", from: P(`v${i % 500}`), to: P(`w${i}`) });
    store.upsert({ edges: batch });
    store.compact();
    store.deleteAllVertices("Person");
    const schema = socialSchema();
    schema.vertexTypes[0].attributes = schema.vertexTypes[0].attributes.filter((a) => a.name !== "age");
    store.applySchema(schema);
    store.clear();
    expect(store.memoryStats().memoryBytes).to.be.greaterThan(initial);
    expect(dumpSnapshot(old)).to.deep.equal(before);
    old.release();
    expect(dumpStore(store)).to.deep.equal({ vertices: { Person: {}, City: {} }, edges: {} });
  });

  it("an iterator keeps reading its version while writes happen between its steps", () => {
    const store = createStore(socialSchema());
    store.upsert({ vertices: Array.from({ length: 50 }, (_, i) => P(`p${i}`)) });
    const snap = store.snapshot();
    const seen: string[] = [];
    for (const vid of snap.vertices("Person")) {
      seen.push(snap.idText(vid));
      store.upsert({ vertices: [P(`q${seen.length}`)] });
      if (seen.length === 10) store.deleteVertices("Person", ["p40", "p41"]);
    }
    expect(seen).to.deep.equal(Array.from({ length: 50 }, (_, i) => `p${i}`));
    snap.release();
    expect(store.read((s) => s.vertexCount("Person"))).to.equal(98);
  });

  it("refuses reads after release and frees superseded memory once unpinned", () => {
    const store = seeded();
    const snap = store.snapshot();
    store.upsert({ vertices: [{ type: "Person", id: "ann", attributes: [{ name: "age", value: 5 }] }] });
    expect(store.memoryStats().retiredBytes).to.be.greaterThan(0);
    snap.release();
    snap.release();
    expect(store.memoryStats().retiredBytes).to.equal(0);
    expect(() => snap.vertexCount("Person")).to.throw(StoreError).with.property("code", "SNAPSHOT_RELEASED");
    expect(() => [...snap.vertices("Person")]).to.throw(StoreError);
  });

  it("read() releases its snapshot even when the reader throws", () => {
    const store = seeded();
    expect(() =>
      store.read(() => {
        throw new Error("boom");
      }),
    ).to.throw("boom");
    store.upsert({ vertices: [P("zed")] });
    expect(store.memoryStats().retiredBytes).to.equal(0);
  });

  it("counts edges per type, by source and target type, and degrees", () => {
    const store = seeded();
    store.upsert({ edges: [{ type: "LivesIn", from: P("ann"), to: { type: "City", id: 1 } }, { type: "Knows", from: P("bob"), to: P("bob") }] });
    store.read((s) => {
      const ann = s.lookup("Person", "ann")!;
      const bob = s.lookup("Person", "bob")!;
      expect([s.edgeCount("Knows"), s.storedEdgeCount("Knows")]).to.deep.equal([3, 2]);
      expect(s.edgeCount("LivesIn", { fromType: "Person", toType: "City" })).to.equal(1);
      expect(s.edgeCount("LivesIn", { toType: "Person" })).to.equal(0);
      expect(s.edgeCount("LivesIn", { fromType: "City" })).to.equal(0);
      expect([s.degree(ann, "Knows"), s.degree(bob, "Knows"), s.degree(ann, "FollowedBy"), s.degree(ann, "Follows")]).to.deep.equal([1, 2, 1, 0]);
      expect([...s.edges(ann, { toType: "City" })].map((e) => s.idOf(e.to))).to.deep.equal([1n]);
      expect([...s.edges(bob, { type: "Knows", to: ann })].map((e) => s.edgeAttribute(e, "weight"))).to.deep.equal([3]);
      expect(s.exists(ann)).to.equal(true);
      expect(s.exists(123456)).to.equal(false);
      expect(s.typeOf(ann)).to.equal("Person");
      const age = s.attributeReader("Person", "age")!;
      expect([...s.vertices("Person")].map(age)).to.deep.equal([30n, 0n]);
      expect(() => s.edgeCount("Nope")).to.throw(StoreError).with.property("code", "UNKNOWN_EDGE_TYPE");
    });
  });

  it("a selector callback may read the store but not change it", () => {
    const store = seeded();
    let seenVersion = -1;
    expect(() =>
      store.deleteEdges([
        {
          from: P("ann"),
          where: () => {
            seenVersion = store.read((s) => s.version);
            store.upsert({ vertices: [P("zed")] });
            return true;
          },
        },
      ]),
    ).to.throw(StoreError).with.property("code", "BUSY");
    expect(seenVersion).to.equal(store.version);
    expect(store.read((s) => s.lookup("Person", "zed"))).to.equal(undefined);
    expect(store.deleteEdges([{ from: P("ann") }]).deletedEdges).to.deep.equal({ Knows: 1, FollowedBy: 1 });
  });

  it("frees memory of many superseded versions once a long-held snapshot goes", () => {
    const store = seeded();
    const held = store.snapshot();
    for (let i = 0; i < 300; i++) store.upsert({ vertices: [{ type: "Person", id: "ann", attributes: [{ name: "age", value: i }] }] });
    expect(store.memoryStats().retiredBytes).to.be.greaterThan(0);
    expect(held.attribute(held.lookup("Person", "ann")!, "age")).to.equal(30n);
    held.release();
    expect(store.memoryStats().retiredBytes).to.equal(0);
  });
});
