// Tidying during a bulk load: while a pinned version keeps chunks from being tidied, the
// space a tidy cannot give back must not start a tidy of every list after every batch (it
// did: two tidies a batch), and memory stays bounded. Counted, not timed.
import { expect } from "chai";
import { createStore } from "../../../runtime-wasm/store/index.js";
import { Adjacency } from "../../../runtime-wasm/store/tables/adjacency.js";
import type { DatabaseSchema } from "../../../runtime-wasm/schema/types.js";
import { rmat } from "../../../tools/bench/rmat.js";

const SCHEMA: DatabaseSchema = {
  tuples: [],
  globalVersion: 0,
  vertexTypes: [{ key: "V", name: "V", primaryId: { name: "id", type: "INT" }, primaryIdAsAttribute: false, attributes: [], stats: "OUTDEGREE_BY_EDGETYPE" }],
  edgeTypes: [{ key: "E", name: "E", directed: true, pairs: [{ from: "V", to: "V" }], discriminator: [], attributes: [] }],
  graphs: [{ name: "g", vertexTypes: ["V"], edgeTypes: ["E"], version: 0 }],
};

describe("store: tidying during a bulk load", () => {
  const original = Adjacency.prototype.tidy;
  let tidies = 0;
  beforeEach(() => {
    tidies = 0;
    Adjacency.prototype.tidy = function (this: Adjacency) {
      tidies++;
      return original.call(this);
    };
  });
  afterEach(() => {
    Adjacency.prototype.tidy = original;
  });

  it("a version pinned during the load does not make every batch tidy every list", () => {
    const store = createStore(SCHEMA);
    const batches = 40;
    const perBatch = 10_000;
    const g = rmat({ scale: 16, edges: batches * perBatch, seed: 3 });
    const distinct = new Set<number>();
    let pinned: ReturnType<typeof store.snapshot> | undefined;
    for (let b = 0; b < batches; b++) {
      const from: number[] = [];
      const to: number[] = [];
      for (let i = b * perBatch; i < (b + 1) * perBatch; i++) {
        from.push(g.src[i]!);
        to.push(g.dst[i]!);
        distinct.add(g.src[i]! * 65536 + g.dst[i]!);
      }
      store.upsert({ edgeColumns: [{ type: "E", fromType: "V", toType: "V", from, to }] });
      if (b === 10) pinned = store.snapshot();
    }
    const memory = store.memoryStats();
    pinned!.release();
    // Out- and in-lists are two adjacencies: tidying both after every batch is 2 a batch.
    expect(tidies).to.be.below(batches);
    expect(memory.edgeCount).to.equal(distinct.size);
    // 8-byte entries both ways; spare capacity and what the pinned version holds on top.
    expect(memory.adjacencyBytes / memory.edgeCount).to.be.below(24);
    expect(store.read((s) => s.storedEdgeCount("E"))).to.equal(distinct.size);
  });
});
