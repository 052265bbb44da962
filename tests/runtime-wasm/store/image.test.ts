import { expect } from "chai";
import { createStore, loadStore, StoreError, type GraphStore, type StoreOptions, type UpsertBatch } from "../../../runtime-wasm/store/index.js";
import { memoryViews, writeImage } from "../../../runtime-wasm/store/image/write-image.js";
import { dumpStore } from "./dump.js";
import { attr, DATETIME, schemaOf, socialSchema, vertex, edge, STRING, INT } from "./fixtures.js";

const P = (id: string) => ({ type: "Person", id });

async function imageOf(store: GraphStore, between?: () => Promise<void>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  await store.serialize(async (chunk) => {
    chunks.push(chunk);
    if (between) await between();
  });
  return Buffer.concat(chunks);
}

/** A store with every kind of value, holes left by deletes, retired ids and a dropped attribute. */
function busyStore(options?: StoreOptions): GraphStore {
  const store = createStore(socialSchema(), options);
  const vertices = [];
  for (let i = 0; i < 300; i++) {
    vertices.push({
      type: "Person",
      id: `p${i}`,
      attributes: [
        { name: "age", value: i - 100 },
        { name: "nick", value: i % 3 === 0 ? "" : `nick-${i}-ü` },
        { name: "tags", value: i % 4 === 0 ? [] : [`t${i % 7}`, "x"] },
        { name: "prefs", value: [[`k${i}`, i / 2]] },
        { name: "born", value: i * 86400 },
      ],
    });
  }
  const edges: UpsertBatch["edges"] = [];
  for (let i = 0; i < 1500; i++) {
    const a = P(`p${(i * 7) % 300}`);
    const b = P(`p${(i * 13 + 5) % 300}`);
    edges.push({ type: i % 3 === 0 ? "Follows" : "Knows", from: a, to: b, attributes: [{ name: "weight", value: i }] });
    if (i % 10 === 0) edges.push({ type: "Calls", from: a, to: b, attributes: [{ name: "at", value: i % 3 }, { name: "minutes", value: i }] });
  }
  edges.push({ type: "LivesIn", from: P("p1"), to: { type: "City", id: -5 } });
  store.upsert({ vertices, edges });
  store.deleteVertices("Person", ["p3", "p4"], { permanent: true });
  store.deleteVertices("Person", ["p5"]);
  store.deleteEdges([{ from: P("p7"), type: "Knows" }]);
  const schema = socialSchema();
  schema.vertexTypes[0].attributes = schema.vertexTypes[0].attributes.filter((a) => a.name !== "score");
  store.applySchema(schema);
  return store;
}

describe("store: images (serialize / load)", () => {
  it("a loaded image equals the original, ordinals and retired ids included", async () => {
    const store = busyStore();
    const loaded = await loadStore(await imageOf(store));
    expect(dumpStore(loaded)).to.deep.equal(dumpStore(store));
    expect(loaded.layout()).to.deep.equal(store.layout());
    expect(loaded.schema).to.deep.equal(store.schema);
    const next: UpsertBatch = {
      vertices: [P("p3"), P("p5"), { type: "Person", id: "p9", attributes: [{ name: "age", value: 1, op: "+" }] }],
      edges: [
        { type: "Knows", from: P("p7"), to: P("p8"), attributes: [{ name: "weight", value: 1 }] },
        { type: "Calls", from: P("p0"), to: P("p5"), attributes: [{ name: "at", value: 0 }, { name: "minutes", value: 1, op: "~" }] },
        { type: "Follows", from: P("p4"), to: P("p6") },
      ],
    };
    const a = store.upsert(next);
    const b = loaded.upsert(next);
    expect({ ...b, version: 0 }).to.deep.equal({ ...a, version: 0 });
    expect(dumpStore(loaded)).to.deep.equal(dumpStore(store));
    loaded.deleteVertices("Person", ["p0", "p1"]);
    store.deleteVertices("Person", ["p0", "p1"]);
    expect(dumpStore(loaded)).to.deep.equal(dumpStore(store));
  });

  it("writes the version pinned when serialize started, while writes go on", async () => {
    const store = busyStore();
    const expected = dumpStore(store);
    let n = 0;
    const image = await imageOf(store, async () => {
      await new Promise((r) => setImmediate(r));
      store.upsert({ vertices: [P(`late${n++}`)], edges: [{ type: "Knows", from: P("p10"), to: P(`late${n}`) }] });
      store.deleteVertices("Person", [`p${20 + n}`]);
      store.compact();
    });
    expect(n).to.be.greaterThan(0);
    expect(dumpStore(await loadStore(image))).to.deep.equal(expected);
  });

  it("pinImage: another thread's writeImage, from plain data and the shared memory, writes the pinned version byte for byte", async () => {
    const store = busyStore({ initialBytes: 1 << 20 });
    const expected = dumpStore(store);
    const reference = await imageOf(store);
    const pin = store.pinImage();
    // What a worker receives: a structured clone (the memory is shared, not copied).
    const posted = structuredClone({ memory: pin.memory, header: pin.header, version: pin.version, catalog: pin.catalog });
    const bytesBefore = store.memoryStats().memoryBytes;
    for (let round = 0; round < 4; round++) {
      const vertices = Array.from({ length: 5000 }, (_, i) => ({ type: "Person", id: `late${round}-${i}`, attributes: [{ name: "nick", value: `n${i}` }] }));
      store.upsert({ vertices, edges: [{ type: "Knows", from: P("p10"), to: P(`late${round}-1`) }] });
      store.deleteVertices("Person", [`p${40 + round}`]);
      store.compact();
    }
    const schema = store.schema;
    schema.vertexTypes[0]!.attributes = schema.vertexTypes[0]!.attributes.filter((a) => a.name !== "nick");
    store.applySchema(schema);
    expect(store.memoryStats().memoryBytes).to.be.greaterThan(bytesBefore); // the memory grew meanwhile
    const chunks: Uint8Array[] = [];
    await writeImage(memoryViews(posted.memory), posted.header, posted.version, posted.catalog, (chunk) => void chunks.push(chunk));
    pin.release();
    pin.release(); // a second release changes nothing
    const image = Buffer.concat(chunks);
    expect(Buffer.compare(image, reference)).to.equal(0);
    expect(dumpStore(await loadStore(image))).to.deep.equal(expected);
  });

  it("loads a store with numeric, datetime and composite ids and no edges", async () => {
    const schema = schemaOf(
      [vertex("T", "DATETIME", [attr("n", INT)]), vertex("M", "STRING", [attr("a", STRING), attr("b", INT)], { compositeKey: ["a", "b"] })],
      [edge("E", true, [["T", "M"]])],
    );
    const store = createStore(schema);
    store.upsert({ vertices: [{ type: "T", id: "2024-02-29 12:00:00", attributes: [{ name: "n", value: 1 }] }, { type: "M", id: ["x", 1] }], edges: [] });
    const loaded = await loadStore(await imageOf(store));
    expect(dumpStore(loaded)).to.deep.equal({
      vertices: { T: { "2024-02-29 12:00:00": { n: "1n" } }, M: { "x,1": { a: '"x"', b: "1n" } } },
      edges: {},
    });
    expect(loaded.read((s) => s.lookup("M", ["x", "1"]))).to.be.a("number");
    void DATETIME;
  });

  it("refuses damaged images with CORRUPT_IMAGE", async () => {
    const image = await imageOf(busyStore());
    const damaged = (edit: (b: Uint8Array) => Uint8Array) => edit(Uint8Array.from(image));
    const cases: Uint8Array[] = [
      damaged((b) => ((b[100] ^= 0xff), b)),
      damaged((b) => ((b[b.length - 40] ^= 0x01), b)),
      damaged((b) => b.subarray(0, b.length - 1)),
      damaged((b) => b.subarray(0, b.length >> 1)),
      damaged((b) => b.subarray(8)),
      new Uint8Array(0),
      Uint8Array.from({ length: 4096 }, (_, i) => (i * 2654435761) >>> 24),
    ];
    for (const bytes of cases) {
      let error: unknown;
      try {
        await loadStore(bytes);
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(StoreError);
      expect((error as StoreError).code).to.equal("CORRUPT_IMAGE");
    }
  });

  it("round-trips a larger graph and comes back compacted", async () => {
    const store = createStore(schemaOf([vertex("V", "INT", [])], [edge("E", true, [["V", "V"]])]));
    const edges = [];
    for (let i = 0; i < 30000; i++) edges.push({ type: "E", from: { type: "V", id: (i * 31) % 2000 }, to: { type: "V", id: (i * 17) % 3001 } });
    store.upsert({ edges });
    const loaded = await loadStore(await imageOf(store));
    expect(dumpStore(loaded)).to.deep.equal(dumpStore(store));
    expect(loaded.memoryStats().adjacencyBytes).to.be.at.most(store.memoryStats().adjacencyBytes);
    expect(loaded.read((s) => [s.vertexCount("V"), s.storedEdgeCount("E")])).to.deep.equal(store.read((s) => [s.vertexCount("V"), s.storedEdgeCount("E")]));
  });
});
