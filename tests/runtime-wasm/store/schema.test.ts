import { expect } from "chai";
import type { DatabaseSchema } from "../../../runtime-wasm/schema/types.js";
import { createStore, StoreError, type GraphStore } from "../../../runtime-wasm/store/index.js";
import { Arena } from "../../../runtime-wasm/store/memory/arena.js";
import { dumpSnapshot, dumpStore } from "./dump.js";
import { attr, DOUBLE, edge, INT, schemaOf, socialSchema, STRING, vertex } from "./fixtures.js";

const P = (id: string) => ({ type: "Person", id });

function seeded(): GraphStore {
  const store = createStore(socialSchema());
  store.upsert({
    vertices: [{ type: "Person", id: "ann", attributes: [{ name: "age", value: 30 }] }, P("bob")],
    edges: [
      { type: "Follows", from: P("ann"), to: P("bob") },
      { type: "Knows", from: P("ann"), to: P("bob"), attributes: [{ name: "weight", value: 4 }] },
      { type: "LivesIn", from: P("bob"), to: { type: "City", id: 1 } },
    ],
  });
  return store;
}

function changed(edit: (s: DatabaseSchema) => void): DatabaseSchema {
  const s = socialSchema();
  edit(s);
  return s;
}

function expectInvalid(store: GraphStore, next: DatabaseSchema): void {
  const before = dumpStore(store);
  expect(() => store.applySchema(next)).to.throw(StoreError).with.property("code", "INVALID_SCHEMA");
  expect(dumpStore(store)).to.deep.equal(before);
}

describe("store: schema changes", () => {
  it("adds vertex and edge types next to existing data", () => {
    const store = seeded();
    const before = dumpStore(store);
    store.applySchema(
      changed((s) => {
        s.vertexTypes.push(vertex("Shop", "STRING", [attr("open", INT, 9n)]));
        s.edgeTypes.push(edge("Buys", true, [["Person", "Shop"]], [attr("price", DOUBLE)]));
      }),
    );
    store.upsert({ edges: [{ type: "Buys", from: P("ann"), to: { type: "Shop", id: "s1" }, attributes: [{ name: "price", value: 2.5 }] }] });
    const after = dumpStore(store);
    expect(after.vertices.Shop).to.deep.equal({ s1: { open: "9n" } });
    expect(after.edges.Buys).to.deep.equal(["Person:ann -> Shop:s1 {price=2.5}"]);
    expect({ ...after.vertices, Shop: undefined }).to.deep.equal({ ...before.vertices, Shop: undefined });
  });

  it("new attributes take their DEFAULT on existing items; dropped ones lose their values", () => {
    const store = seeded();
    const old = store.snapshot();
    store.applySchema(
      changed((s) => {
        const person = s.vertexTypes[0];
        person.attributes = person.attributes.filter((a) => a.name !== "age");
        person.attributes.push(attr("country", STRING, "n/a"), attr("rank", INT));
        s.edgeTypes[0].attributes.push(attr("note", STRING, "hi"));
      }),
    );
    store.read((s) => {
      const ann = s.lookup("Person", "ann")!;
      expect(s.attribute(ann, "age")).to.equal(undefined);
      expect(s.attributes(ann)).to.include({ country: "n/a", rank: 0n, nick: "none" });
      const [knows] = [...s.edges(ann, { type: "Knows" })];
      expect(s.edgeAttributes(knows)).to.deep.equal({ since: 0, weight: 4, note: "hi" });
    });
    expect(old.attribute(old.lookup("Person", "ann")!, "age")).to.equal(30n);
    expect(old.attribute(old.lookup("Person", "ann")!, "country")).to.equal(undefined);
    old.release();
    store.applySchema(socialSchema());
    expect(store.read((s) => s.attribute(s.lookup("Person", "ann")!, "age"))).to.equal(0n);
  });

  it("a changed attribute type is a drop and an add", () => {
    const store = seeded();
    store.applySchema(changed((s) => (s.vertexTypes[0].attributes.find((a) => a.name === "age")!.type = STRING)));
    expect(store.read((s) => s.attribute(s.lookup("Person", "ann")!, "age"))).to.equal("");
  });

  it("an edge type without attributes that gains one gives every edge an eid with the default", () => {
    const store = seeded();
    store.upsert({ edges: [{ type: "Follows", from: P("bob"), to: P("ann") }, { type: "Follows", from: P("ann"), to: P("ann") }] });
    expect(store.layout().edgeTypes.find((e) => e.key === "Follows")!.entryBytes).to.equal(4);
    store.applySchema(changed((s) => s.edgeTypes.filter((e) => e.key === "Follows" || e.key === "FollowedBy").forEach((e) => e.attributes.push(attr("w", DOUBLE, 2)))));
    expect(store.layout().edgeTypes.find((e) => e.key === "Follows")!.entryBytes).to.equal(8);
    store.upsert({ edges: [{ type: "Follows", from: P("ann"), to: P("bob"), attributes: [{ name: "w", value: 1, op: "+" }] }] });
    expect(dumpStore(store).edges.Follows).to.deep.equal(["Person:ann -> Person:ann {w=2}", "Person:ann -> Person:bob {w=3}", "Person:bob -> Person:ann {w=2}"]);
    expect(dumpStore(store).edges.FollowedBy).to.deep.equal(["Person:ann -> Person:ann {w=2}", "Person:ann -> Person:bob {w=2}", "Person:bob -> Person:ann {w=3}"]);
    const undirected = createStore(schemaOf([vertex("V", "INT", [])], [edge("E", false, [["V", "V"]])]));
    undirected.upsert({ edges: [{ type: "E", from: { type: "V", id: 1 }, to: { type: "V", id: 2 } }, { type: "E", from: { type: "V", id: 2 }, to: { type: "V", id: 2 } }] });
    undirected.applySchema(schemaOf([vertex("V", "INT", [])], [edge("E", false, [["V", "V"]], [attr("k", INT, 7n)])]));
    undirected.upsert({ edges: [{ type: "E", from: { type: "V", id: 2 }, to: { type: "V", id: 1 }, attributes: [{ name: "k", value: 1, op: "+" }] }] });
    expect(dumpStore(undirected).edges.E).to.deep.equal(["V:1 -> V:2 {k=8n}", "V:2 -> V:1 {k=8n}", "V:2 -> V:2 {k=7n}"]);
    expect(undirected.read((s) => s.storedEdgeCount("E"))).to.equal(2);
  });

  it("dropping an edge type drops its edges; a new type of that name starts empty", () => {
    const store = seeded();
    const ordinals = store.layout().vertexTypes.map((t) => [t.key, t.ordinal]);
    store.applySchema(changed((s) => (s.edgeTypes = s.edgeTypes.filter((e) => e.key !== "Knows"))));
    expect(dumpStore(store).edges.Knows).to.equal(undefined);
    store.applySchema(socialSchema());
    expect(dumpStore(store).edges.Knows).to.equal(undefined);
    expect(store.layout().vertexTypes.map((t) => [t.key, t.ordinal])).to.deep.equal(ordinals);
    const knows = store.layout().edgeTypes.find((e) => e.key === "Knows")!;
    expect(knows.ordinal).to.be.greaterThan(4);
  });

  it("dropping an undirected edge type frees each of its memory ranges once (its in-table is its out-table)", () => {
    // Every range freed is remembered until memory is handed out again; a range freed twice
    // in between would corrupt the free lists (a later allocation then fails or overlaps).
    const freed: { addr: number; end: number }[] = [];
    const overlaps = (addr: number, end: number) => freed.some((f) => addr < f.end && f.addr < end);
    const doubleFrees: number[] = [];
    const original = { free: Arena.prototype.free, alloc: Arena.prototype.alloc, allocFlexible: Arena.prototype.allocFlexible };
    const forget = (addr: number, end: number) => {
      for (let i = freed.length - 1; i >= 0; i--) if (addr < freed[i]!.end && freed[i]!.addr < end) freed.splice(i, 1);
    };
    Arena.prototype.free = function (this: Arena, addr: number, bytes: number) {
      const end = addr + Math.max(8, Math.ceil(bytes / 8) * 8);
      if (overlaps(addr, end)) doubleFrees.push(addr);
      freed.push({ addr, end });
      return original.free.call(this, addr, bytes);
    };
    Arena.prototype.alloc = function (this: Arena, bytes: number) {
      const addr = original.alloc.call(this, bytes);
      forget(addr, addr + bytes);
      return addr;
    };
    Arena.prototype.allocFlexible = function (this: Arena, min: number, preferred: number, max: number) {
      const r = original.allocFlexible.call(this, min, preferred, max);
      forget(r.addr, r.addr + r.bytes);
      return r;
    };
    try {
      const store = seeded();
      store.applySchema(changed((s) => (s.edgeTypes = s.edgeTypes.filter((e) => e.key !== "Knows"))));
      store.upsert({ edges: [{ type: "Follows", from: P("bob"), to: P("cy") }] });
    } finally {
      Object.assign(Arena.prototype, original);
    }
    expect(doubleFrees).to.deep.equal([]);
  });

  it("dropping a vertex type drops its vertices and every edge touching them", () => {
    const schema = (withShop: boolean) =>
      schemaOf(
        [vertex("Person", "STRING", []), vertex("City", "INT", []), ...(withShop ? [vertex("g/Shop", "STRING", [], { name: "Shop", graph: "g" })] : [])],
        [edge("Visits", true, withShop ? [["Person", "City"], ["Person", "Shop"]] : [["Person", "City"]], [], withShop ? {} : {})],
      );
    const localVisits = schema(true);
    localVisits.edgeTypes[0] = { ...localVisits.edgeTypes[0], key: "g/Visits", graph: "g" };
    const store = createStore(localVisits);
    store.upsert({
      edges: [
        { type: "g/Visits", from: P("ann"), to: { type: "City", id: 1 } },
        { type: "g/Visits", from: P("ann"), to: { type: "g/Shop", id: "s" } },
        { type: "g/Visits", from: P("bob"), to: { type: "g/Shop", id: "s" } },
      ],
    });
    const next = schema(false);
    next.edgeTypes[0] = { ...next.edgeTypes[0], key: "g/Visits", graph: "g" };
    store.applySchema(next);
    expect(dumpStore(store)).to.deep.equal({
      vertices: { Person: { ann: {}, bob: {} }, City: { "1": {} } },
      edges: { "g/Visits": ["Person:ann -> City:1 {}"] },
    });
    expect(store.read((s) => s.storedEdgeCount("g/Visits"))).to.equal(1);
  });

  it("refuses changes to ids, directedness and discriminators, and dangling endpoint types", () => {
    const store = seeded();
    expectInvalid(store, changed((s) => (s.vertexTypes[0].primaryId.type = "INT")));
    expectInvalid(store, changed((s) => (s.edgeTypes[0].directed = true)));
    expectInvalid(store, changed((s) => (s.edgeTypes.find((e) => e.key === "Calls")!.discriminator = ["minutes"])));
    expectInvalid(store, changed((s) => s.vertexTypes.push(vertex("Person", "STRING", []))));
    expectInvalid(store, changed((s) => s.edgeTypes.push(edge("Odd", true, [["Person", "Ghost"]]))));
  });

  it("clear() deletes all data and retired ids and keeps the schema", () => {
    const store = seeded();
    store.deleteVertices("Person", ["ann"], { permanent: true });
    store.clear();
    expect(dumpStore(store)).to.deep.equal({ vertices: { Person: {}, City: {} }, edges: {} });
    store.upsert({ vertices: [P("ann")], edges: [{ type: "Knows", from: P("ann"), to: P("cid") }] });
    expect(dumpStore(store).edges.Knows).to.deep.equal(["Person:ann -> Person:cid {since=0,weight=1}", "Person:cid -> Person:ann {since=0,weight=1}"]);
  });

  it("stores tuple attributes and gives a new item the tuple of field defaults", () => {
    const schema = schemaOf([vertex("V", "INT", [attr("t", { kind: "tuple", name: "Pair" }), attr("ts", { kind: "list", element: { kind: "tuple", name: "Pair" } })])], []);
    schema.tuples.push({ name: "Pair", fields: [{ name: "a", type: INT }, { name: "b", type: STRING }] });
    const store = createStore(schema);
    store.upsert({
      vertices: [
        { type: "V", id: 1, attributes: [{ name: "t", value: { a: 5, b: "x" } }, { name: "ts", value: [[1, "p"], { a: 2 }] }] },
        { type: "V", id: 2 },
      ],
    });
    store.read((s) => {
      expect(s.attributes(s.lookup("V", 1)!)).to.deep.equal({ t: { a: 5n, b: "x" }, ts: [{ a: 1n, b: "p" }, { a: 2n, b: "" }] });
      expect(s.attributes(s.lookup("V", 2)!)).to.deep.equal({ t: { a: 0n, b: "" }, ts: [] });
      expect(dumpSnapshot(s).vertices.V["1"].t).to.equal('{"a":"5n","b":"x"}');
    });
  });
});
