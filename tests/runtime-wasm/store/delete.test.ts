import { expect } from "chai";
import { createStore, StoreError, type GraphStore } from "../../../runtime-wasm/store/index.js";
import { dumpStore } from "./dump.js";
import { socialSchema } from "./fixtures.js";

const P = (id: string) => ({ type: "Person", id });

/** ann, bob, cid, dee and city 1, with edges of every kind around ann. */
function seeded(): GraphStore {
  const store = createStore(socialSchema());
  store.upsert({
    vertices: [P("ann"), P("bob"), P("cid"), P("dee"), { type: "City", id: 1 }],
    edges: [
      { type: "Follows", from: P("ann"), to: P("bob") },
      { type: "Follows", from: P("cid"), to: P("ann") },
      { type: "Follows", from: P("bob"), to: P("cid") },
      { type: "Knows", from: P("bob"), to: P("ann"), attributes: [{ name: "weight", value: 2 }] },
      { type: "Knows", from: P("ann"), to: P("ann") },
      { type: "Knows", from: P("cid"), to: P("dee") },
      { type: "Calls", from: P("ann"), to: P("bob"), attributes: [{ name: "at", value: 1 }] },
      { type: "Calls", from: P("ann"), to: P("bob"), attributes: [{ name: "at", value: 2 }] },
      { type: "Calls", from: P("dee"), to: P("ann"), attributes: [{ name: "at", value: 3 }] },
      { type: "LivesIn", from: P("ann"), to: { type: "City", id: 1 } },
    ],
  });
  return store;
}

function edgeList(store: GraphStore): string[] {
  return Object.values(dumpStore(store).edges).flat().sort();
}

describe("store: deletes", () => {
  it("deleting a vertex deletes its edges in every type and direction", () => {
    const store = seeded();
    const r = store.deleteVertices("Person", ["ann"]);
    expect(r.deletedVertices).to.equal(1);
    expect(r.deletedEdges).to.deep.equal({ Follows: 2, Knows: 2, Calls: 3, LivesIn: 1 });
    expect(edgeList(store)).to.deep.equal([
      "Person:bob -> Person:cid {}",
      "Person:cid -> Person:bob {}",
      "Person:cid -> Person:dee {since=0,weight=1}",
      "Person:dee -> Person:cid {since=0,weight=1}",
    ]);
    store.read((s) => {
      expect(s.lookup("Person", "ann")).to.equal(undefined);
      expect(s.vertexCount("Person")).to.equal(3);
      expect([s.storedEdgeCount("Follows"), s.storedEdgeCount("Knows"), s.storedEdgeCount("Calls"), s.storedEdgeCount("LivesIn")]).to.deep.equal([1, 1, 0, 0]);
      expect(s.degree(s.lookup("Person", "bob")!, "Knows")).to.equal(0);
      expect(s.degree(s.lookup("Person", "bob")!, "FollowedBy")).to.equal(0);
    });
  });

  it("counts an edge between two deleted vertices once", () => {
    const store = seeded();
    const r = store.deleteVertices("Person", ["ann", "bob", "nobody", ""]);
    expect(r.deletedVertices).to.equal(2);
    expect(r.deletedEdges).to.deep.equal({ Follows: 3, Knows: 2, Calls: 3, LivesIn: 1 });
    expect(edgeList(store)).to.deep.equal(["Person:cid -> Person:dee {since=0,weight=1}", "Person:dee -> Person:cid {since=0,weight=1}"]);
  });

  it("ignores ids that do not exist and publishes nothing then", () => {
    const store = seeded();
    const v = store.version;
    expect(store.deleteVertices("Person", ["zed", "", 5])).to.deep.equal({ deletedVertices: 0, deletedEdges: {}, version: v });
    expect(() => store.deleteVertices("Planet", ["x"])).to.throw(StoreError).with.property("code", "UNKNOWN_VERTEX_TYPE");
  });

  it("a re-created vertex starts from defaults and without the old edges", () => {
    const store = seeded();
    store.upsert({ vertices: [{ type: "Person", id: "ann", attributes: [{ name: "age", value: 50 }] }] });
    store.deleteVertices("Person", ["ann"]);
    store.upsert({ vertices: [P("ann"), P("eve")] });
    store.read((s) => {
      const ann = s.lookup("Person", "ann")!;
      expect(s.attribute(ann, "age")).to.equal(0n);
      expect([...s.edges(ann)]).to.deep.equal([]);
      expect([...s.edges(s.lookup("Person", "eve")!)]).to.deep.equal([]);
    });
  });

  it("permanent deletes retire ids; plain deletes do not", () => {
    const store = seeded();
    store.deleteVertices("Person", ["ann"], { permanent: true });
    store.deleteVertices("Person", ["bob"]);
    const r = store.upsert({ vertices: [P("ann"), P("bob")] });
    expect(r.acceptedVertices).to.equal(1);
    expect(r.skippedVertices).to.deep.equal([{ index: 0, type: "Person", id: "ann", reason: "retired" }]);
    expect(store.read((s) => [s.lookup("Person", "ann"), typeof s.lookup("Person", "bob")])).to.deep.equal([undefined, "number"]);
  });

  it("deletes every vertex of a type with their edges, permanently if asked", () => {
    const store = seeded();
    const r = store.deleteAllVertices("Person", { permanent: true });
    expect(r.deletedVertices).to.equal(4);
    expect(r.deletedEdges).to.deep.equal({ Follows: 3, Knows: 3, Calls: 3, LivesIn: 1 });
    expect(edgeList(store)).to.deep.equal([]);
    expect(store.read((s) => [s.vertexCount("Person"), s.vertexCount("City")])).to.deep.equal([0, 1]);
    const again = store.upsert({ vertices: [P("ann"), P("zoe")], edges: [{ type: "LivesIn", from: P("zoe"), to: { type: "City", id: 1 } }] });
    expect(again.skippedVertices.map((v) => v.id)).to.deep.equal(["ann"]);
    expect(edgeList(store)).to.deep.equal(["Person:zoe -> City:1 {}"]);
    const cleared = createStore(socialSchema());
    cleared.upsert({ vertices: [P("a")] });
    cleared.deleteAllVertices("Person");
    expect(cleared.upsert({ vertices: [P("a")] }).acceptedVertices).to.equal(1);
  });

  it("deletes the edges a selector names", () => {
    const store = seeded();
    expect(store.deleteEdges([{ from: P("ann"), type: "Calls", discriminator: { at: 2 } }]).deletedEdges).to.deep.equal({ Calls: 1 });
    expect(store.deleteEdges([{ from: P("ann"), type: "Knows", to: P("ann") }]).deletedEdges).to.deep.equal({ Knows: 1 });
    expect(store.deleteEdges([{ from: P("ann"), toType: "City" }]).deletedEdges).to.deep.equal({ LivesIn: 1 });
    expect(store.deleteEdges([{ from: P("ann"), type: "Knows", where: (_e, attribute) => attribute("weight") === 2 }]).deletedEdges).to.deep.equal({ Knows: 1 });
    expect(edgeList(store)).to.deep.equal([
      "Person:ann -> Person:bob {at=1n,minutes=0n}",
      "Person:ann -> Person:bob {}",
      "Person:ann -> Person:cid {}",
      "Person:bob -> Person:ann {}",
      "Person:bob -> Person:cid {}",
      "Person:cid -> Person:ann {}",
      "Person:cid -> Person:bob {}",
      "Person:cid -> Person:dee {since=0,weight=1}",
      "Person:dee -> Person:ann {at=3n,minutes=0n}",
      "Person:dee -> Person:cid {since=0,weight=1}",
    ]);
  });

  it("deletes an undirected edge from either end, and a reverse-type edge as its forward edge", () => {
    const store = seeded();
    expect(store.deleteEdges([{ from: P("dee"), type: "Knows" }, { from: P("cid"), type: "Knows", to: P("dee") }]).deletedEdges).to.deep.equal({ Knows: 1 });
    expect(store.deleteEdges([{ from: P("ann"), type: "FollowedBy" }]).deletedEdges).to.deep.equal({ FollowedBy: 1 });
    store.read((s) => {
      expect(s.degree(s.lookup("Person", "cid")!, "Knows")).to.equal(0);
      expect(s.degree(s.lookup("Person", "cid")!, "Follows")).to.equal(0);
      expect(s.degree(s.lookup("Person", "bob")!, "Follows")).to.equal(1);
      expect(s.storedEdgeCount("Follows")).to.equal(2);
    });
  });

  it("deleting all edges leaving a vertex spans every edge type; a missing source selects nothing", () => {
    const store = seeded();
    expect(store.deleteEdges([{ from: P("ann") }]).deletedEdges).to.deep.equal({ Follows: 1, Knows: 2, FollowedBy: 1, LivesIn: 1, Calls: 2 });
    expect(store.deleteEdges([{ from: P("nobody") }]).deletedEdges).to.deep.equal({});
    expect(() => store.deleteEdges([{ from: P("bob"), type: "Nope" }])).to.throw(StoreError).with.property("code", "UNKNOWN_EDGE_TYPE");
    expect(() => store.deleteEdges([{ from: P("bob"), type: "Calls", discriminator: { minutes: 1 } }])).to.throw(StoreError).with.property("code", "INVALID_VALUE");
  });
});
