import { expect } from "chai";
import { createStore, StoreError, UPSERT_OP_BY_NAME, type GraphStore, type UpsertBatch, type StoreErrorCode } from "../../../runtime-wasm/store/index.js";
import { dumpStore } from "./dump.js";
import { attr, DOUBLE, edge, INT, schemaOf, socialSchema, STRING, vertex } from "./fixtures.js";

const P = (id: string) => ({ type: "Person", id });

function attrsOf(store: GraphStore, type: string, id: string | number | bigint) {
  return store.read((s) => {
    const vid = s.lookup(type, id);
    return vid === undefined ? undefined : s.attributes(vid);
  });
}

function edgesOf(store: GraphStore, type: string, id: string, edgeType?: string) {
  return store.read((s) => {
    const vid = s.lookup(type, id)!;
    return [...s.edges(vid, edgeType ? { type: edgeType } : {})].map((e) => ({ type: e.type, to: s.idText(e.to), attrs: s.edgeAttributes(e) }));
  });
}

function expectRejected(store: GraphStore, batch: UpsertBatch, code: StoreErrorCode): void {
  const before = dumpStore(store);
  const version = store.version;
  let error: unknown;
  try {
    store.upsert(batch);
  } catch (e) {
    error = e;
  }
  expect(error, "the batch should be rejected").to.be.instanceOf(StoreError);
  expect((error as StoreError).code).to.equal(code);
  expect(dumpStore(store)).to.deep.equal(before);
  expect(store.version).to.equal(version);
}

describe("store: upsert batches", () => {
  let store: GraphStore;
  beforeEach(() => {
    store = createStore(socialSchema());
  });

  it("creates a vertex with declared and built-in defaults", () => {
    const r = store.upsert({ vertices: [{ type: "Person", id: "ann" }, { type: "City", id: 1 }] });
    expect(r.acceptedVertices).to.equal(2);
    expect(attrsOf(store, "Person", "ann")).to.deep.equal({
      age: 0n,
      score: 0,
      height: 1.5,
      active: false,
      nick: "none",
      born: 0,
      tags: [],
      visits: [],
      prefs: [],
    });
    expect(attrsOf(store, "City", 1)).to.deep.equal({ name: "", population: 0n });
  });

  it("keeps attributes a later upsert does not mention", () => {
    store.upsert({ vertices: [{ type: "Person", id: "ann", attributes: [{ name: "age", value: 30 }, { name: "nick", value: "A" }] }] });
    store.upsert({ vertices: [{ type: "Person", id: "ann", attributes: [{ name: "score", value: 2.5 }] }] });
    expect(attrsOf(store, "Person", "ann")).to.include({ age: 30n, nick: "A", score: 2.5 });
  });

  it("applies every operator to an existing vertex", () => {
    store.upsert({
      vertices: [
        {
          type: "Person",
          id: "ann",
          attributes: [
            { name: "age", value: 12 },
            { name: "score", value: 1.25 },
            { name: "nick", value: "mm" },
            { name: "active", value: true },
            { name: "born", value: 100 },
            { name: "tags", value: ["x", "y"] },
            { name: "visits", value: [1, 2] },
            { name: "prefs", value: [["a", 1]] },
          ],
        },
      ],
    });
    const apply = (name: string, op: "=" | "~" | "+" | "&" | "|" | ">" | "<", value: unknown) => {
      store.upsert({ vertices: [{ type: "Person", id: "ann", attributes: [{ name, value, op }] }] });
      return attrsOf(store, "Person", "ann")![name];
    };
    expect(apply("age", "+", 5)).to.equal(17n);
    expect(apply("age", "&", 10)).to.equal(0n); // 17 & 10
    expect(apply("age", "|", 12)).to.equal(12n);
    expect(apply("age", ">", 3)).to.equal(12n);
    expect(apply("age", ">", 40)).to.equal(40n);
    expect(apply("age", "<", -2)).to.equal(-2n);
    expect(apply("age", "~", 99)).to.equal(-2n);
    expect(apply("age", "=", "7")).to.equal(7n);
    expect(apply("score", "+", 0.5)).to.equal(1.75);
    expect(apply("nick", "+", "no")).to.equal("mmno");
    expect(apply("nick", ">", "mz")).to.equal("mz");
    expect(apply("nick", "<", "ab")).to.equal("ab");
    expect(apply("active", "&", false)).to.equal(false);
    expect(apply("active", "|", true)).to.equal(true);
    expect(apply("born", "+", 50)).to.equal(150);
    expect(apply("born", "<", "1970-01-01 00:01:00")).to.equal(60);
    expect(apply("tags", "+", ["y", "z"])).to.deep.equal(["x", "y", "z"]);
    expect(apply("visits", "+", [2, 3])).to.deep.equal([1n, 2n, 2n, 3n]);
    expect(apply("prefs", "+", { keylist: ["a", "b"], valuelist: [5, 6] })).to.deep.equal([
      ["a", 5],
      ["b", 6],
    ]);
  });

  it("maps the interface's operator names to symbols", () => {
    expect(UPSERT_OP_BY_NAME).to.deep.equal({ overwrite: "=", ignore_if_exists: "~", add: "+", and: "&", or: "|", max: ">", min: "<" });
  });

  it("ignore_if_exists sets the value on a new vertex", () => {
    store.upsert({ vertices: [{ type: "Person", id: "new", attributes: [{ name: "age", value: 9, op: "~" }] }] });
    expect(attrsOf(store, "Person", "new")!.age).to.equal(9n);
  });

  it("rejects operators 3-7 on a missing vertex, changing nothing", () => {
    store.upsert({ vertices: [{ type: "Person", id: "ann" }] });
    for (const op of ["+", "&", "|", ">", "<"] as const) {
      const value = op === "&" || op === "|" ? 1 : 3;
      expectRejected(store, { vertices: [{ type: "Person", id: "zed", attributes: [{ name: "age", value: 1 }] }, { type: "Person", id: "bob", attributes: [{ name: "age", value, op }] }] }, "OP_ON_MISSING_ITEM");
    }
  });

  it("sees items earlier in the same batch as existing", () => {
    const r = store.upsert({
      vertices: [
        { type: "Person", id: "ann", attributes: [{ name: "age", value: 1 }] },
        { type: "Person", id: "ann", attributes: [{ name: "age", value: 2, op: "+" }] },
      ],
    });
    expect(r.acceptedVertices).to.equal(2);
    expect(attrsOf(store, "Person", "ann")!.age).to.equal(3n);
  });

  it("rejects a whole batch for an invalid type, value, id or operator", () => {
    store.upsert({ vertices: [{ type: "Person", id: "ann" }] });
    const ok = { type: "Person", id: "bob" };
    expectRejected(store, { vertices: [ok, { type: "Nope", id: "x" }] }, "UNKNOWN_VERTEX_TYPE");
    expectRejected(store, { vertices: [ok, { type: "Person", id: "x", attributes: [{ name: "age", value: "abc" }] }] }, "INVALID_VALUE");
    expectRejected(store, { vertices: [ok, { type: "City", id: 3, attributes: [{ name: "population", value: -1 }] }] }, "INVALID_VALUE");
    expectRejected(store, { vertices: [ok, { type: "Person", id: "x", attributes: [{ name: "age", value: 2n ** 63n }] }] }, "INVALID_VALUE");
    expectRejected(store, { vertices: [ok, { type: "Person", id: "x", attributes: [{ name: "tags", value: "notalist" }] }] }, "INVALID_VALUE");
    expectRejected(store, { vertices: [ok, { type: "Person", id: "ann", attributes: [{ name: "nick", value: "a", op: "&" }] }] }, "INVALID_OPERATOR");
    expectRejected(store, { vertices: [ok, { type: "City", id: "x1" }] }, "INVALID_ID");
    expectRejected(store, { vertices: [ok, { type: "Person", id: "" }] }, "INVALID_ID");
    expectRejected(store, { vertices: [ok], edges: [{ type: "Nope", from: P("ann"), to: P("bob") }] }, "UNKNOWN_EDGE_TYPE");
    expectRejected(store, { edges: [{ type: "LivesIn", from: { type: "City", id: 1 }, to: P("ann") }] }, "INVALID_ENDPOINT_TYPE");
    expectRejected(store, { edges: [{ type: "Follows", from: P("ann"), to: { type: "Planet", id: "x" } }] }, "UNKNOWN_VERTEX_TYPE");
  });

  it("ignores unknown attribute names", () => {
    const r = store.upsert({ vertices: [{ type: "Person", id: "ann", attributes: [{ name: "shoe", value: 44 }, { name: "age", value: 3 }] }] });
    expect(r.acceptedVertices).to.equal(1);
    expect(attrsOf(store, "Person", "ann")!.age).to.equal(3n);
  });

  it("normalizes numeric ids: 7, '007' and 7n are one vertex; INT and UINT span 64 bits", () => {
    store.upsert({ vertices: [{ type: "City", id: 7 }, { type: "City", id: "007" }, { type: "City", id: 7n }, { type: "City", id: "-9223372036854775808" }] });
    expect(store.read((s) => [...s.vertices("City")].map((v) => s.idOf(v)))).to.deep.equal([7n, -9223372036854775808n]);
    expectRejected(store, { vertices: [{ type: "City", id: "9223372036854775808" }] }, "INVALID_ID");
    const u = createStore(schemaOf([vertex("U", "UINT", [])], []));
    u.upsert({ vertices: [{ type: "U", id: "18446744073709551615" }, { type: "U", id: 2 ** 53 + 2 }, { type: "U", id: 0 }] });
    expect(u.read((s) => [...s.vertices("U")].map((v) => s.idText(v)))).to.deep.equal(["18446744073709551615", "9007199254740994", "0"]);
    expect(u.read((s) => s.lookup("U", 18446744073709551615n))).to.be.a("number");
    expectRejected(u, { vertices: [{ type: "U", id: -1 }] }, "INVALID_ID");
  });

  it("creates missing endpoints with defaults and counts them apart", () => {
    const r = store.upsert({ vertices: [{ type: "Person", id: "ann" }], edges: [{ type: "Follows", from: P("ann"), to: P("bob") }, { type: "LivesIn", from: P("bob"), to: { type: "City", id: 5 } }] });
    expect(r).to.deep.include({ acceptedVertices: 1, acceptedEdges: 2, createdEndpointVertices: 2, skippedVertices: [], skippedEdges: [] });
    expect(attrsOf(store, "Person", "bob")!.nick).to.equal("none");
    expect(attrsOf(store, "City", 5)).to.deep.equal({ name: "", population: 0n });
  });

  it("updates a repeated (type, from, to) instead of adding a parallel edge", () => {
    store.upsert({ edges: [{ type: "Knows", from: P("ann"), to: P("bob"), attributes: [{ name: "weight", value: 2 }] }] });
    store.upsert({ edges: [{ type: "Knows", from: P("ann"), to: P("bob"), attributes: [{ name: "weight", value: 3, op: "+" }] }] });
    expect(store.read((s) => s.storedEdgeCount("Knows"))).to.equal(1);
    expect(edgesOf(store, "Person", "ann", "Knows")).to.deep.equal([{ type: "Knows", to: "bob", attrs: { since: 0, weight: 5 } }]);
  });

  it("treats an undirected (A,B) and (B,A) as one edge seen from both ends", () => {
    const r = store.upsert({
      edges: [
        { type: "Knows", from: P("ann"), to: P("bob"), attributes: [{ name: "since", value: "2021-03-04" }] },
        { type: "Knows", from: P("bob"), to: P("ann"), attributes: [{ name: "weight", value: 4 }] },
      ],
    });
    expect(r.acceptedEdges).to.equal(2);
    expect(store.read((s) => [s.storedEdgeCount("Knows"), s.edgeCount("Knows")])).to.deep.equal([1, 2]);
    expect(edgesOf(store, "Person", "ann")).to.deep.equal([{ type: "Knows", to: "bob", attrs: { since: 1614816000, weight: 4 } }]);
    expect(edgesOf(store, "Person", "bob")).to.deep.equal([{ type: "Knows", to: "ann", attrs: { since: 1614816000, weight: 4 } }]);
  });

  it("stores an undirected self-loop once", () => {
    store.upsert({ edges: [{ type: "Knows", from: P("ann"), to: P("ann") }] });
    expect(store.read((s) => [s.storedEdgeCount("Knows"), s.edgeCount("Knows"), s.degree(s.lookup("Person", "ann")!, "Knows")])).to.deep.equal([1, 1, 1]);
  });

  it("keeps parallel edges that differ in their discriminator", () => {
    store.upsert({
      edges: [
        { type: "Calls", from: P("ann"), to: P("bob"), attributes: [{ name: "at", value: 1 }, { name: "minutes", value: 5 }] },
        { type: "Calls", from: P("ann"), to: P("bob"), attributes: [{ name: "at", value: 2 }, { name: "minutes", value: 7 }] },
        { type: "Calls", from: P("ann"), to: P("bob"), attributes: [{ name: "at", value: 1 }, { name: "minutes", value: 3, op: "+" }] },
      ],
    });
    expect(edgesOf(store, "Person", "ann", "Calls")).to.deep.equal([
      { type: "Calls", to: "bob", attrs: { at: 1n, minutes: 8n } },
      { type: "Calls", to: "bob", attrs: { at: 2n, minutes: 7n } },
    ]);
    expect(store.read((s) => s.storedEdgeCount("Calls"))).to.equal(2);
  });

  it("rejects an operator on a discriminator", () => {
    expectRejected(store, { edges: [{ type: "Calls", from: P("ann"), to: P("bob"), attributes: [{ name: "at", value: 1, op: "~" }, { name: "minutes", value: 1, op: "+" }] }] }, "OP_ON_MISSING_ITEM");
    store.upsert({ edges: [{ type: "Calls", from: P("ann"), to: P("bob"), attributes: [{ name: "at", value: 1 }] }] });
    expectRejected(store, { edges: [{ type: "Calls", from: P("ann"), to: P("bob"), attributes: [{ name: "at", value: 1, op: "+" }] }] }, "INVALID_OPERATOR");
  });

  it("writes a reverse edge type as the forward edge read backwards", () => {
    store.upsert({ edges: [{ type: "FollowedBy", from: P("bob"), to: P("ann") }, { type: "Follows", from: P("bob"), to: P("cid") }] });
    expect(edgesOf(store, "Person", "ann", "Follows")).to.deep.equal([{ type: "Follows", to: "bob", attrs: {} }]);
    expect(edgesOf(store, "Person", "bob", "FollowedBy")).to.deep.equal([{ type: "FollowedBy", to: "ann", attrs: {} }]);
    expect(edgesOf(store, "Person", "cid", "FollowedBy")).to.deep.equal([{ type: "FollowedBy", to: "bob", attrs: {} }]);
    expect(store.read((s) => [s.storedEdgeCount("Follows"), s.storedEdgeCount("FollowedBy")])).to.deep.equal([2, 2]);
  });

  it("rejects an edge operator on a missing edge unless an earlier item made it", () => {
    expectRejected(store, { edges: [{ type: "Knows", from: P("ann"), to: P("bob"), attributes: [{ name: "weight", value: 1, op: "+" }] }] }, "OP_ON_MISSING_ITEM");
    const r = store.upsert({
      edges: [
        { type: "Knows", from: P("ann"), to: P("bob") },
        { type: "Knows", from: P("bob"), to: P("ann"), attributes: [{ name: "weight", value: 1, op: "+" }] },
      ],
    });
    expect(r.acceptedEdges).to.equal(2);
    expect(edgesOf(store, "Person", "ann")[0].attrs).to.deep.equal({ since: 0, weight: 2 });
  });

  it("new_vertex_only skips and reports existing vertices", () => {
    store.upsert({ vertices: [{ type: "Person", id: "ann", attributes: [{ name: "age", value: 1 }] }] });
    const r = store.upsert({ vertices: [{ type: "Person", id: "ann", attributes: [{ name: "age", value: 2 }] }, { type: "Person", id: "bob" }] }, { newVertexOnly: true });
    expect(r).to.deep.include({ acceptedVertices: 1, skippedVertices: [{ index: 0, type: "Person", id: "ann", reason: "already_exists" }] });
    expect(attrsOf(store, "Person", "ann")!.age).to.equal(1n);
  });

  it("update_vertex_only skips missing vertices and edges that would create one", () => {
    store.upsert({ vertices: [{ type: "Person", id: "ann" }] });
    const r = store.upsert(
      {
        vertices: [{ type: "Person", id: "ann", attributes: [{ name: "age", value: 5 }] }, { type: "Person", id: "bob" }],
        edges: [{ type: "Follows", from: P("ann"), to: P("cid") }],
      },
      { updateVertexOnly: true },
    );
    expect(r).to.deep.include({
      acceptedVertices: 1,
      acceptedEdges: 0,
      skippedVertices: [{ index: 1, type: "Person", id: "bob", reason: "not_exists" }],
      skippedEdges: [{ index: 0, type: "Follows", missing: [{ type: "Person", id: "cid", retired: false }] }],
    });
    expect(store.read((s) => s.vertexCount("Person"))).to.equal(1);
  });

  it("vertex_must_exist skips edges with a missing end; source/target variants check one end", () => {
    store.upsert({ vertices: [{ type: "Person", id: "ann" }, { type: "Person", id: "bob" }] });
    const edges = [
      { type: "Follows", from: P("ann"), to: P("bob") },
      { type: "Follows", from: P("ann"), to: P("x") },
      { type: "Follows", from: P("y"), to: P("bob") },
    ];
    const both = store.upsert({ edges }, { vertexMustExist: true });
    expect(both).to.deep.include({
      acceptedEdges: 1,
      createdEndpointVertices: 0,
      skippedEdges: [
        { index: 1, type: "Follows", missing: [{ type: "Person", id: "x", retired: false }] },
        { index: 2, type: "Follows", missing: [{ type: "Person", id: "y", retired: false }] },
      ],
    });
    const source = store.upsert({ edges }, { sourceVertexMustExist: true });
    expect(source).to.deep.include({ acceptedEdges: 2, createdEndpointVertices: 1, skippedEdges: [{ index: 2, type: "Follows", missing: [{ type: "Person", id: "y", retired: false }] }] });
    const target = store.upsert({ edges: [{ type: "Follows", from: P("z"), to: P("q") }, { type: "Follows", from: P("z2"), to: P("bob") }] }, { targetVertexMustExist: true });
    expect(target).to.deep.include({ acceptedEdges: 1, createdEndpointVertices: 1, skippedEdges: [{ index: 0, type: "Follows", missing: [{ type: "Person", id: "q", retired: false }] }] });
  });

  it("skips retired ids as vertices and as edge ends", () => {
    store.upsert({ vertices: [{ type: "Person", id: "ann" }, { type: "Person", id: "bob" }] });
    store.deleteVertices("Person", ["bob"], { permanent: true });
    const r = store.upsert({ vertices: [{ type: "Person", id: "bob" }], edges: [{ type: "Follows", from: P("ann"), to: P("bob") }] });
    expect(r).to.deep.include({
      acceptedVertices: 0,
      acceptedEdges: 0,
      skippedVertices: [{ index: 0, type: "Person", id: "bob", reason: "retired" }],
      skippedEdges: [{ index: 0, type: "Follows", missing: [{ type: "Person", id: "bob", retired: true }] }],
    });
    expect(store.read((s) => s.lookup("Person", "bob"))).to.equal(undefined);
  });

  it("composite keys and id-as-attribute expose the id through attributes", () => {
    const schema = schemaOf(
      [
        vertex("Movie", "STRING", [attr("title", STRING), attr("year", INT), attr("rating", DOUBLE)], { compositeKey: ["title", "year"] }),
        vertex("User", "STRING", [attr("age", INT)], { primaryIdAsAttribute: true, primaryId: { name: "handle", type: "STRING" } }),
      ],
      [edge("Rated", true, [["User", "Movie"]], [attr("stars", INT)])],
    );
    const s2 = createStore(schema);
    s2.upsert({
      vertices: [{ type: "Movie", id: ["Up", 2009], attributes: [{ name: "rating", value: 8.2 }, { name: "title", value: "Down" }] }],
      edges: [{ type: "Rated", from: { type: "User", id: "kim" }, to: { type: "Movie", id: ["Up", "2009"] }, attributes: [{ name: "stars", value: 5 }] }],
    });
    s2.read((s) => {
      const movie = s.lookup("Movie", ["Up", 2009])!;
      expect(s.idOf(movie)).to.deep.equal(["Up", 2009n]);
      expect(s.idText(movie)).to.equal("Up,2009");
      expect(s.attributes(movie)).to.deep.equal({ title: "Up", year: 2009n, rating: 8.2 });
      const user = s.lookup("User", "kim")!;
      expect(s.attributes(user)).to.deep.equal({ handle: "kim", age: 0n });
      expect(s.attribute(user, "handle")).to.equal("kim");
      expect([...s.edges(user)].map((e) => s.idOf(e.to))).to.deep.equal([["Up", 2009n]]);
      expect(s.vertexCount("Movie")).to.equal(1);
    });
  });

  it("reports an edge-only batch's counts and publishes one version per batch", () => {
    const v0 = store.version;
    const r = store.upsert({ edges: [{ type: "Follows", from: P("a"), to: P("b") }, { type: "Follows", from: P("a"), to: P("b") }] });
    expect(r).to.deep.include({ acceptedVertices: 0, acceptedEdges: 2, createdEndpointVertices: 2, version: v0 + 1 });
    expect(store.version).to.equal(v0 + 1);
    expect(store.read((s) => s.storedEdgeCount("Follows"))).to.equal(1);
  });

  it("edge columns follow exactly the rules of edge items", () => {
    const items: UpsertBatch["edges"] = [];
    const groups: NonNullable<UpsertBatch["edgeColumns"]> = [];
    const people = ["ann", "bob", "cid", "dee"];
    for (const [type, fromType, toType] of [["Knows", "Person", "Person"], ["FollowedBy", "Person", "Person"], ["Calls", "Person", "Person"], ["LivesIn", "Person", "City"]]) {
      const group = { type, fromType, toType, from: [] as (string | number)[], to: [] as (string | number)[], attributes: [] as ({ name: string; value: unknown; op?: "+" | "=" }[] | undefined)[] };
      for (let i = 0; i < 7; i++) {
        const from = people[(i * 3) % 4];
        const to = toType === "City" ? i % 2 : people[(i * 5 + 1) % 4];
        const attributes = type === "Calls" ? [{ name: "at", value: i % 2 }, { name: "minutes", value: i }] : type === "Knows" ? [{ name: "weight", value: i }] : undefined;
        group.from.push(from);
        group.to.push(to);
        group.attributes.push(attributes);
        items.push({ type, from: { type: fromType, id: from }, to: { type: toType, id: to }, ...(attributes ? { attributes } : {}) });
      }
      groups.push(group);
    }
    const byItems = createStore(socialSchema());
    const byColumns = createStore(socialSchema());
    for (const s of [byItems, byColumns]) s.upsert({ vertices: [P("ann"), P("cid")] });
    const a = byItems.upsert({ edges: items }, { sourceVertexMustExist: true });
    const b = byColumns.upsert({ edgeColumns: groups }, { sourceVertexMustExist: true });
    expect(dumpStore(byColumns)).to.deep.equal(dumpStore(byItems));
    expect(b.acceptedEdges).to.equal(a.acceptedEdges);
    expect(b.createdEndpointVertices).to.equal(a.createdEndpointVertices);
    expect(b.skippedEdges.map((e) => [e.group! * 7 + e.index, e.missing])).to.deep.equal(a.skippedEdges.map((e) => [e.index, e.missing]));
    expect(b.skippedEdges.length).to.be.greaterThan(0);
  });

  it("edge columns take typed arrays of numeric ids and reject malformed groups whole", () => {
    const s2 = createStore(schemaOf([vertex("V", "INT", [])], [edge("E", true, [["V", "V"]])]));
    const r = s2.upsert({ edgeColumns: [{ type: "E", fromType: "V", toType: "V", from: Uint32Array.of(1, 2, 3, 1), to: Uint32Array.of(2, 3, 1, 2) }] });
    expect(r).to.deep.include({ acceptedEdges: 4, createdEndpointVertices: 3 });
    expect(s2.read((s) => s.storedEdgeCount("E"))).to.equal(3);
    expectRejected(s2, { edgeColumns: [{ type: "E", fromType: "V", toType: "V", from: [1, 2], to: [3] }] }, "INVALID_VALUE");
    expectRejected(s2, { edgeColumns: [{ type: "E", fromType: "V", toType: "V", from: [1, "x"], to: [3, 4] }] }, "INVALID_ID");
    expectRejected(s2, { edgeColumns: [{ type: "E", fromType: "W", toType: "V", from: [1], to: [3] }] }, "UNKNOWN_VERTEX_TYPE");
  });

  it("finds numeric ids whether they are small and dense, negative, huge, or deleted and re-created", () => {
    const s2 = createStore(schemaOf([vertex("V", "INT", [attr("n", INT)])], []));
    const ids = [0, 1, 2, 5, 1000, -3, 10 ** 12, 7, 2 ** 53 + 2];
    s2.upsert({ vertices: ids.map((id, n) => ({ type: "V", id, attributes: [{ name: "n", value: n }] })) });
    s2.deleteVertices("V", [5, -3]);
    s2.upsert({ vertices: [{ type: "V", id: 5, attributes: [{ name: "n", value: 50 }] }, { type: "V", id: 8, attributes: [{ name: "n", value: 80 }] }] });
    const n = (id: number | bigint) => s2.read((s) => {
      const vid = s.lookup("V", id);
      return vid === undefined ? undefined : s.attribute(vid, "n");
    });
    expect(ids.map(n)).to.deep.equal([0n, 1n, 2n, 50n, 4n, undefined, 6n, 7n, 8n]);
    expect(n(8)).to.equal(80n);
    const r = s2.upsert({ vertices: [{ type: "V", id: 1, attributes: [{ name: "n", value: 1, op: "+" }] }, { type: "V", id: 10 ** 12, attributes: [{ name: "n", value: 1, op: "+" }] }] });
    expect(r.acceptedVertices).to.equal(2);
    expect([n(1), n(10 ** 12)]).to.deep.equal([2n, 7n]);
  });
});
