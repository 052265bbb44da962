// Model-based test: long random sequences of batches, deletes (permanent or not), schema
// changes, compactions, image round trips and reads, run against the store and against the
// Map-based reference model, compared after every step. Batches name keys repeatedly (the
// model applies items in order, each seeing the earlier ones), some are long runs of one edge
// type, and some send their edges as edge columns. Readers pin snapshots at random points and
// must keep seeing exactly what the model held then.
import { expect } from "chai";
import type { AttrType, DatabaseSchema } from "../../../runtime-wasm/schema/types.js";
import { createStore, loadStore, StoreError, type AttrWrite, type EdgeColumns, type EdgeSelector, type EdgeUpsert, type ExternalId, type GraphStore, type Snapshot, type UpsertBatch, type UpsertOp, type UpsertOptions, type VertexUpsert } from "../../../runtime-wasm/store/index.js";
import { dumpSnapshot, dumpStore, type StoreDump } from "./dump.js";
import { attr, BOOL, DOUBLE, edge, INT, schemaOf, STRING, vertex } from "./fixtures.js";
import { modelUpsert, ReferenceModel } from "./reference-model.js";
import { mulberry32 as prng } from "../../../tools/bench/rmat.js";

interface Variant {
  x: boolean;
  uw: boolean;
  c: boolean;
}

const SET_OF_STRING: AttrType = { kind: "set", element: STRING };

function schemaFor(v: Variant): DatabaseSchema {
  const a = vertex("A", "STRING", [attr("n", INT), attr("s", STRING), attr("f", DOUBLE), attr("b", BOOL), attr("tags", SET_OF_STRING), ...(v.x ? [attr("x", INT, 5n)] : [])]);
  const vertices = [a, vertex("B", "INT", [attr("n", INT, 7n)]), ...(v.c ? [vertex("C", "STRING", [attr("n", INT)])] : [])];
  const edges = [
    edge("D", true, [["A", "A"], ["A", "B"]], [attr("w", INT)], { reverseEdge: "DR" }),
    edge("DR", true, [["A", "A"], ["B", "A"]], [attr("w", INT)], { reverseOf: "D" }),
    edge("U", false, [["A", "A"], ["A", "B"]], v.uw ? [attr("uw", DOUBLE, 1.5)] : []),
    edge("M", true, [["A", "A"]], [attr("k", INT), attr("v", INT)], { discriminator: ["k"] }),
    ...(v.c ? [edge("CE", true, [["C", "A"]])] : []),
  ];
  return schemaOf(vertices, edges);
}

const OPS: Record<string, UpsertOp[]> = {
  INT: ["=", "~", "+", "&", "|", ">", "<"],
  BOOL: ["=", "~", "+", "&", "|", ">", "<"],
  STRING: ["=", "~", "+", ">", "<"],
  DOUBLE: ["=", "~", "+", ">", "<"],
  SET: ["=", "~", "+"],
};

class Scenario {
  readonly rnd: () => number;
  variant: Variant = { x: false, uw: false, c: false };
  model = new ReferenceModel(schemaFor(this.variant));
  store: GraphStore = createStore(schemaFor(this.variant), { initialBytes: 1 << 16 });
  pinned: { snap: Snapshot; dump: StoreDump }[] = [];
  steps = { upsert: 0, rejected: 0, deletes: 0, schema: 0, images: 0 };
  /** The last operation, for failure messages. */
  last = "";

  constructor(seed: number) {
    this.rnd = prng(seed);
    this.syncEdgeOrder();
  }

  pick<T>(items: T[]): T {
    return items[Math.floor(this.rnd() * items.length)];
  }

  chance(p: number): boolean {
    return this.rnd() < p;
  }

  id(type: string): string | number {
    const n = Math.floor(this.rnd() * (type === "A" ? 14 : 6));
    return type === "B" ? n : `${type.toLowerCase()}${n}`;
  }

  value(type: string): unknown {
    switch (type) {
      case "INT":
        return Math.floor(this.rnd() * 11) - 5;
      case "DOUBLE":
        return Math.floor(this.rnd() * 9) / 2;
      case "BOOL":
        return this.chance(0.5);
      case "STRING":
        return this.pick(["", "a", "b", "zz", "é"]);
      default:
        return ["x", "y", "z", "x"].filter(() => this.chance(0.5));
    }
  }

  writes(defs: { name: string; type: AttrType }[], skip: string[] = []): AttrWrite[] {
    const out: AttrWrite[] = [];
    for (const d of defs) {
      if (skip.includes(d.name) || !this.chance(0.4)) continue;
      const t = d.type.kind === "set" ? "SET" : (d.type as { name: string }).name;
      const op = this.chance(0.5) ? undefined : this.pick(OPS[t]);
      out.push(op ? { name: d.name, value: this.value(t), op } : { name: d.name, value: this.value(t) });
    }
    if (this.chance(0.05)) out.push({ name: "unknown", value: 1 });
    return out;
  }

  upsertStep(): void {
    const schema = this.model.schema;
    const vertices: VertexUpsert[] = [];
    for (let i = Math.floor(this.rnd() * 5); i > 0; i--) {
      const t = this.pick(schema.vertexTypes);
      vertices.push({ type: t.key, id: this.id(t.key), attributes: this.writes(t.attributes) });
    }
    const edges: EdgeUpsert[] = [];
    for (let i = Math.floor(this.rnd() * 9); i > 0; i--) {
      const e = this.pick(schema.edgeTypes);
      const pair = this.pick(e.pairs);
      const item: EdgeUpsert = { type: e.key, from: { type: pair.from, id: this.id(pair.from) }, to: { type: pair.to, id: this.id(pair.to) }, attributes: this.writes(e.attributes, e.discriminator) };
      if (e.discriminator.length > 0 && this.chance(0.8)) item.attributes!.push({ name: "k", value: Math.floor(this.rnd() * 3) });
      edges.push(item);
    }
    // Repeated keys: later items for a vertex or edge an earlier item of the batch names.
    this.repeatSome(vertices, (v) => ({ ...v, attributes: this.writes(schema.vertexTypes.find((t) => t.key === v.type)!.attributes) }));
    this.repeatSome(edges, (e) => {
      const def = schema.edgeTypes.find((t) => t.key === e.type)!;
      const disc = e.attributes!.filter((w) => def.discriminator.includes(w.name));
      const swapped = !def.directed && this.chance(0.5);
      return { ...e, from: swapped ? e.to : e.from, to: swapped ? e.from : e.to, attributes: [...this.writes(def.attributes, def.discriminator), ...disc] };
    });
    if (this.chance(0.15)) this.bigBatch(vertices, edges);
    const options: UpsertOptions = this.chance(0.8) ? {} : this.pick([{ newVertexOnly: true }, { updateVertexOnly: true }, { vertexMustExist: true }, { sourceVertexMustExist: true }, { targetVertexMustExist: true }]);
    // Some batches send their edges as edge columns (one group per run of one type and end types).
    const batch: UpsertBatch = this.chance(0.3) ? { vertices, edgeColumns: asColumns(edges) } : { vertices, edges };
    this.last = `upsert ${JSON.stringify({ ...batch, options })}`;
    if (this.chance(0.04) && vertices.length > 0) {
      vertices.unshift({ type: "A", id: "bad", attributes: [{ name: "n", value: "not a number" }] });
      this.expectRejected(() => this.store.upsert(batch, options), "INVALID_VALUE");
      return;
    }
    const expected = modelUpsert(this.model, { vertices, edges }, options);
    if (expected.result === "OP_ON_MISSING_ITEM") {
      this.expectRejected(() => this.store.upsert(batch, options), "OP_ON_MISSING_ITEM");
      return;
    }
    const actual = this.store.upsert(batch, options);
    if (batch.edgeColumns) for (const s of expected.result.skippedEdges) Object.assign(s, columnIndex(batch.edgeColumns, s.index));
    expect({ ...actual, version: 0 }).to.deep.equal(expected.result);
    this.model = expected.model;
    this.steps.upsert++;
  }

  /** Appends copies (made by `again`) of random earlier items, so batches name keys twice or more. */
  repeatSome<T>(items: T[], again: (item: T) => T): void {
    const n = items.length;
    for (let i = 0; i < n; i++) if (this.chance(0.35)) items.push(again(this.pick(items.slice(0, n))));
  }

  /** Dozens of edges among few vertices: long runs with many repeats, the bulk path's case. */
  bigBatch(vertices: VertexUpsert[], edges: EdgeUpsert[]): void {
    const schema = this.model.schema;
    for (let i = Math.floor(this.rnd() * 40); i > 0; i--) {
      const t = this.pick(schema.vertexTypes);
      vertices.push({ type: t.key, id: this.id(t.key), attributes: this.writes(t.attributes) });
    }
    const e = this.pick(schema.edgeTypes);
    const pair = this.pick(e.pairs);
    for (let i = 20 + Math.floor(this.rnd() * 100); i > 0; i--) {
      const item: EdgeUpsert = { type: e.key, from: { type: pair.from, id: this.id(pair.from) }, to: { type: pair.to, id: this.id(pair.to) }, attributes: this.chance(0.5) ? [] : this.writes(e.attributes, e.discriminator) };
      if (e.discriminator.length > 0) item.attributes!.push({ name: "k", value: Math.floor(this.rnd() * 3) });
      edges.push(item);
    }
  }

  expectRejected(run: () => unknown, code: string): void {
    const version = this.store.version;
    let error: unknown;
    try {
      run();
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(StoreError);
    expect((error as StoreError).code).to.equal(code);
    expect(this.store.version).to.equal(version);
    this.steps.rejected++;
  }

  deleteStep(): void {
    const t = this.pick(this.model.schema.vertexTypes).key;
    const permanent = this.chance(0.3);
    this.last = `delete ${t} permanent=${permanent}`;
    if (this.chance(0.1)) {
      expect(this.store.deleteAllVertices(t, { permanent }).deletedEdges).to.deep.equal(this.model.deleteAll(t, permanent));
    } else {
      const ids = [this.id(t), this.id(t), this.id(t)].slice(0, 1 + Math.floor(this.rnd() * 3));
      expect(this.store.deleteVertices(t, ids, { permanent }).deletedEdges).to.deep.equal(this.model.deleteVertices(t, ids, permanent));
    }
    this.steps.deletes++;
  }

  deleteEdgesStep(): void {
    const selectors: EdgeSelector[] = [];
    for (let i = 1 + Math.floor(this.rnd() * 2); i > 0; i--) {
      const e = this.pick(this.model.schema.edgeTypes);
      const pair = this.pick(e.pairs);
      const sel: EdgeSelector = { from: { type: pair.from, id: this.id(pair.from) } };
      if (this.chance(0.7)) sel.type = e.key;
      if (sel.type && this.chance(0.4)) sel.to = { type: pair.to, id: this.id(pair.to) };
      else if (this.chance(0.3)) sel.toType = pair.to;
      selectors.push(sel);
    }
    this.last = `deleteEdges ${JSON.stringify(selectors)}`;
    expect(this.store.deleteEdges(selectors).deletedEdges).to.deep.equal(this.model.deleteEdges(selectors));
    this.steps.deletes++;
  }

  schemaStep(): void {
    const key = this.pick(["x", "uw", "c"] as const);
    this.variant = { ...this.variant, [key]: !this.variant[key] };
    const schema = schemaFor(this.variant);
    this.store.applySchema(schema);
    this.model.setSchema(schema);
    this.syncEdgeOrder();
    this.steps.schema++;
  }

  async imageStep(): Promise<void> {
    const chunks: Uint8Array[] = [];
    await this.store.serialize((c) => {
      chunks.push(c);
    });
    for (const p of this.pinned) p.snap.release();
    this.pinned = [];
    this.store = await loadStore(Buffer.concat(chunks), { initialBytes: 1 << 16 });
    this.steps.images++;
  }

  syncEdgeOrder(): void {
    this.model.edgeOrder = [...this.store.layout().edgeTypes].sort((a, b) => a.ordinal - b.ordinal).map((e) => e.key);
  }

  check(): void {
    const dump = this.model.dump();
    expect(dumpStore(this.store)).to.deep.equal(dump);
    this.store.read((s) => {
      for (const t of this.model.schema.vertexTypes) expect(s.vertexCount(t.key)).to.equal(Object.keys(dump.vertices[t.key]).length);
      for (const e of this.model.schema.edgeTypes) if (!e.reverseOf) expect(s.storedEdgeCount(e.key)).to.equal([...this.model.edges.values()].filter((x) => x.type === e.key).length);
    });
  }

  checkPinned(): void {
    for (const p of this.pinned) expect(dumpSnapshot(p.snap)).to.deep.equal(p.dump);
  }
}

/** Edge items as edge columns: one group per run of consecutive items with one type and end types. */
function asColumns(edges: EdgeUpsert[]): EdgeColumns[] {
  const groups: EdgeColumns[] = [];
  let last: EdgeColumns | undefined;
  for (const e of edges) {
    if (!last || last.type !== e.type || last.fromType !== e.from.type || last.toType !== e.to.type) {
      last = { type: e.type, fromType: e.from.type, toType: e.to.type, from: [], to: [], attributes: [] };
      groups.push(last);
    }
    (last.from as ExternalId[]).push(e.from.id);
    (last.to as ExternalId[]).push(e.to.id);
    last.attributes!.push(e.attributes);
  }
  return groups;
}

/** Where the edge item at `index` sits among the groups of asColumns. */
function columnIndex(groups: EdgeColumns[], index: number): { group: number; index: number } {
  let g = 0;
  while (index >= groups[g].from.length) index -= groups[g++].from.length;
  return { group: g, index };
}

async function run(seed: number, steps: number): Promise<Scenario> {
  const sc = new Scenario(seed);
  for (let step = 0; step < steps; step++) {
    const r = sc.rnd();
    try {
      if (r < 0.45) sc.upsertStep();
      else if (r < 0.57) sc.deleteStep();
      else if (r < 0.68) sc.deleteEdgesStep();
      else if (r < 0.73) sc.schemaStep();
      else if (r < 0.78) sc.store.compact();
      else if (r < 0.86) {
        if (sc.pinned.length < 6) sc.pinned.push({ snap: sc.store.snapshot(), dump: sc.model.dump() });
      } else if (r < 0.93) {
        const i = Math.floor(sc.rnd() * sc.pinned.length);
        if (sc.pinned[i]) {
          expect(dumpSnapshot(sc.pinned[i].snap)).to.deep.equal(sc.pinned[i].dump);
          sc.pinned[i].snap.release();
          sc.pinned.splice(i, 1);
        }
      } else if (r < 0.96) await sc.imageStep();
      else if (r < 0.965) {
        sc.store.clear();
        sc.model.clear();
      }
      sc.check();
      if (step % 10 === 0) sc.checkPinned();
    } catch (e) {
      (e as Error).message = `seed ${seed}, step ${step}, after ${sc.last}: ${(e as Error).message}`;
      throw e;
    }
  }
  sc.checkPinned();
  for (const p of sc.pinned) p.snap.release();
  expect(sc.store.memoryStats().retiredBytes).to.equal(0);
  return sc;
}

describe("store: model-based random sequences", () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`agrees with the reference model at every step (seed ${seed})`, async () => {
      const sc = await run(seed, 700);
      expect(sc.steps.upsert).to.be.greaterThan(100);
      expect(sc.steps.rejected).to.be.greaterThan(5);
      expect(sc.steps.schema).to.be.greaterThan(10);
      expect(sc.steps.images).to.be.greaterThan(3);
    });
  }
});
