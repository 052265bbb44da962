// The write-ahead log's binary record of a loading job's batch: exact round trips of every
// value kind (generated batches included), recovery of loaded data from the log, a torn
// binary record at the tail dropped as unacknowledged, and logs written in the older JSON
// forms ('J', 'T') still replayed beside new binary records.
import { expect } from "chai";
import { promises as fsp } from "node:fs";
import path from "node:path";
import { useTempDir } from "./temp-dir.js";
import { mulberry32 } from "../../../tools/bench/rmat.js";
import type { DatabaseSchema } from "../../../runtime-wasm/schema/types.js";
import type { Snapshot } from "../../../runtime-wasm/store/index.js";
import { Engine } from "../../../server/engine/engine.js";
import { openDurableEngine } from "../../../server/persist/engine-state.js";
import { decodeCommand, encodeCommand, type CommandValue } from "../../../server/persist/command-codec.js";
import { encodeBatch } from "../../../server/persist/wal/record-format.js";
import { edgeRunsOf, edgeWritesOf, type AttributeWrite, type EdgeWrite, type LoadBatch, type VertexWrite } from "../../../server/loading/sink.js";
import type { LoadBatchCommand } from "../../../server/engine/commands.js";

const SCHEMA: DatabaseSchema = {
  tuples: [],
  vertexTypes: [
    {
      key: "P",
      name: "P",
      primaryId: { name: "id", type: "STRING" },
      primaryIdAsAttribute: false,
      attributes: [
        { name: "age", type: { kind: "scalar", name: "INT" } },
        { name: "score", type: { kind: "scalar", name: "DOUBLE" } },
      ],
      stats: "OUTDEGREE_BY_EDGETYPE",
    },
    { key: "N", name: "N", primaryId: { name: "id", type: "INT" }, primaryIdAsAttribute: false, attributes: [], stats: "OUTDEGREE_BY_EDGETYPE" },
  ],
  edgeTypes: [
    { key: "knows", name: "knows", directed: true, pairs: [{ from: "P", to: "P" }], discriminator: [], attributes: [{ name: "w", type: { kind: "scalar", name: "DOUBLE" } }] },
    { key: "link", name: "link", directed: false, pairs: [{ from: "N", to: "N" }], discriminator: [], attributes: [] },
  ],
  graphs: [{ name: "g", vertexTypes: ["P", "N"], edgeTypes: ["knows", "link"], version: 0 }],
  globalVersion: 0,
};

const attr = (name: string, value: AttributeWrite["value"], op: AttributeWrite["op"] = "="): AttributeWrite => ({ name, value, op });
const vertex = (type: string, id: VertexWrite["id"], attributes: AttributeWrite[] = [], newVertexOnly = false): VertexWrite => ({ type, id, attributes, newVertexOnly });
const edge = (type: string, from: [string, EdgeWrite["from"]["id"]], to: [string, EdgeWrite["to"]["id"]], attributes: AttributeWrite[] = [], vertexMustExist = false): EdgeWrite => ({
  type,
  from: { type: from[0], id: from[1] },
  to: { type: to[0], id: to[1] },
  attributes,
  vertexMustExist,
});
/** A load-batch command; edge items given as objects become the batch's runs, as the loader builds them. */
const command = ({ edges, ...batch }: Partial<Omit<LoadBatch, "edgeRuns">> & { edges?: EdgeWrite[] }): LoadBatchCommand => ({
  kind: "load-batch",
  graph: "g",
  batch: { vertices: [], vertexDeletes: [], edgeDeletes: [], ...batch, edgeRuns: edgeRunsOf(edges ?? []) },
});
const roundTrip = (c: LoadBatchCommand) => decodeCommand(encodeCommand(c as unknown as CommandValue)) as unknown as LoadBatchCommand;

/** The command as logged before edges were columns: edge items as objects. */
const legacy = (c: LoadBatchCommand) => {
  const { edgeRuns, ...rest } = c.batch;
  return { ...c, batch: { ...rest, edges: edgeWritesOf({ edgeRuns }) } };
};
/** The form logs held before the binary record: 'J' + JSON (what encodeCommand wrote for plain batches). */
const oldPlainPayload = (c: LoadBatchCommand) => Buffer.concat([Buffer.from("J"), Buffer.from(JSON.stringify(legacy(c)))]);

describe("persist: binary load-batch records", () => {
  const tmp = useTempDir("load-batch");

  it("round-trips every value kind exactly, in item order", () => {
    const c = command({
      vertices: [
        vertex("P", "a", [attr("age", 1), attr("score", -0)]),
        vertex("P", "b", [attr("age", 9007199254740993n), attr("score", NaN)]),
        vertex("P", "c", [attr("age", 2, "+"), attr("score", Infinity)]),
        vertex("P", "lone\ud800surrogate", [attr("age", -2147483648), attr("score", 1.5)], true),
        vertex("N", 2 ** 40),
        vertex("N", 7),
        vertex("P", "mixed", [attr("age", "text"), attr("score", [1, "x", true, false, 2n, [["k", 1]], { f: 1.25, g: "\u0000" }])]),
      ],
      edges: [
        edge("knows", ["P", "a"], ["P", "b"], [attr("w", 0.5)]),
        edge("knows", ["P", "b"], ["P", "\udc00"], [attr("w", -0)]),
        edge("knows", ["P", "b"], ["P", "c"], [attr("w", 3, ">")], true),
        edge("link", ["N", 1], ["N", 2]),
        edge("link", ["N", -1], ["N", 2 ** 31]),
        edge("link", ["N", 18446744073709551615n], ["N", 3]),
      ],
      vertexDeletes: [{ type: "P", id: "zz" }],
      edgeDeletes: [{ type: "*", from: { type: "P", id: "a" } }, { type: "knows", from: { type: "P", id: "a" }, to: { type: "P", id: "\u0000b" }, discriminator: [1n, -0] }],
    });
    const payload = encodeCommand(c as unknown as CommandValue);
    expect(payload[0]).to.equal(0x42);
    const back = roundTrip(c);
    expect(back).to.deep.equal(c);
    // deep.equal tells -0 from 0 and bigint from number; check the tricky ones by hand as well.
    expect(Object.is(back.batch.vertices[0]!.attributes[1]!.value, -0)).to.equal(true);
    expect(back.batch.vertices[1]!.attributes[0]!.value).to.equal(9007199254740993n);
    expect(back.batch.vertices[3]!.id).to.equal("lone\ud800surrogate");
    expect(edgeWritesOf(back.batch)[1]!.to.id).to.equal("\udc00");
  });

  it("round-trips generated batches", () => {
    const random = mulberry32(7);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const values: Array<() => AttributeWrite["value"]> = [
      () => Math.floor(random() * 2000) - 1000,
      () => random() * 1e300 * (random() < 0.5 ? -1 : 1),
      () => pick([-0, NaN, Infinity, -Infinity, 2 ** 31, -(2 ** 31) - 1, 0.1]),
      () => BigInt(Math.floor(random() * 1e9)) * 10_000_000_000n,
      () => String.fromCharCode(...Array.from({ length: Math.floor(random() * 6) }, () => Math.floor(random() * 0x10000))),
      () => random() < 0.5,
      () => [pick(["a", "b"]), Math.floor(random() * 10)],
    ];
    for (let round = 0; round < 120; round++) {
      const uniform = random() < 0.5;
      const value = pick(values);
      const v = () => (uniform ? value() : pick(values)());
      const id = (): VertexWrite["id"] => (uniform ? Math.floor(random() * 1e6) : pick([() => `p${Math.floor(random() * 100)}`, () => Math.floor(random() * 1e12), () => BigInt(Math.floor(random() * 1e6))])());
      const n = Math.floor(random() * 40);
      const vertices = Array.from({ length: n }, () => vertex(pick(["P", "N"]), id(), random() < 0.5 ? [attr("age", v(), pick(["=", "+"]))] : [], random() < 0.2));
      const edges = Array.from({ length: n * 2 }, () => edge(pick(["knows", "link"]), ["P", id()], [pick(["P", "N"]), id()], random() < 0.5 ? [attr("w", v())] : [], random() < 0.2));
      const c = command({ vertices, edges });
      expect(roundTrip(c), `round ${round}`).to.deep.equal(c);
    }
  });

  it("logs an edge batch of integer ids in a few bytes per edge", () => {
    const edges = Array.from({ length: 10_000 }, (_, i) => edge("link", ["N", i], ["N", (i * 7919) % 10_000]));
    const c = command({ edges });
    const binary = encodeCommand(c as unknown as CommandValue);
    expect(binary.length).to.be.below(8 * 10_000 + 200);
    expect(binary.length * 10).to.be.below(oldPlainPayload(c).length);
  });

  it("reads batches logged in the older JSON forms", () => {
    const c = command({ vertices: [vertex("P", "a", [attr("age", 3)])], edges: [edge("link", ["N", 1], ["N", 2])] });
    expect(decodeCommand(oldPlainPayload(c))).to.deep.equal(legacy(c));
    const withBigint = command({ vertices: [vertex("P", "a", [attr("age", 2n ** 63n)])] });
    const tagged = Buffer.concat([Buffer.from("T"), Buffer.from(JSON.stringify(legacy(withBigint), (_k, x: unknown) => (typeof x === "bigint" ? `\u0000n:${x}` : x)))]);
    expect(decodeCommand(tagged)).to.deep.equal(legacy(withBigint));
  });

  function dump(engine: Engine): unknown {
    return engine.read((s: Snapshot) => ({
      vertices: ["P", "N"].flatMap((t) => [...s.vertices(t)].map((vid) => [t, s.idText(vid), s.attributes(vid)])).sort(),
      edges: ["P", "N"].flatMap((t) => [...s.vertices(t)].flatMap((vid) => [...s.edges(vid)].map((e) => [s.idText(e.from), s.idText(e.to), s.edgeAttributes(e)]))).sort(),
      stored: [s.storedEdgeCount("knows"), s.storedEdgeCount("link")],
    }));
  }

  async function open(): Promise<{ engine: Engine; close: () => Promise<void>; replayed: number; torn?: { droppedBytes: number } }> {
    const engine = new Engine();
    const { persistence, report } = await openDurableEngine(tmp.dataDir, engine, { snapshotOnClose: false, snapshotEveryBytes: 0 });
    return { engine, close: () => persistence.close(), replayed: report.replayedRecords, torn: report.tornTail };
  }

  const first = command({
    vertices: [vertex("P", "a", [attr("age", 5), attr("score", 0.5)]), vertex("P", "b", [attr("age", 6), attr("score", -0.5)])],
    edges: [edge("knows", ["P", "a"], ["P", "b"], [attr("w", 1.5)]), edge("knows", ["P", "b"], ["P", "c"], [attr("w", 2)]), ...Array.from({ length: 500 }, (_, i) => edge("link", ["N", i], ["N", (i * 31) % 500]))],
  });
  const second = command({ vertices: [vertex("P", "a", [attr("age", 10, "+")])], edges: [edge("knows", ["P", "a"], ["P", "b"], [attr("w", 4, ">")])], vertexDeletes: [{ type: "N", id: 3 }] });

  it("brings loaded data back from binary records; a torn final record is dropped", async () => {
    const a = await open();
    a.engine.apply({ kind: "define-schema", schema: SCHEMA });
    a.engine.apply(first);
    a.engine.apply(second);
    const before = dump(a.engine);
    await a.close();

    const b = await open();
    expect(b.replayed).to.equal(3);
    expect(dump(b.engine)).to.deep.equal(before);
    await b.close();

    // A crash while the next batch was written: only part of its record reached the disk.
    const [segment] = await fsp.readdir(path.join(tmp.dataDir, "wal"));
    const file = path.join(tmp.dataDir, "wal", segment!);
    const record = encodeBatch(4, [encodeCommand(command({ edges: [edge("link", ["N", 900], ["N", 901])] }) as unknown as CommandValue)]);
    const cut = record.subarray(0, record.length - 5);
    await fsp.appendFile(file, cut);
    const c = await open();
    expect(c.torn).to.deep.include({ droppedBytes: cut.length });
    expect(c.replayed).to.equal(3);
    expect(dump(c.engine)).to.deep.equal(before);
    await c.close();
  });

  it("replays a log holding old JSON batch records and new binary ones in order", async () => {
    const a = await open();
    a.engine.apply({ kind: "define-schema", schema: SCHEMA });
    await a.close();
    // Records 2 (old form) and 3 (binary), as a server upgraded between them would have written.
    const [segment] = await fsp.readdir(path.join(tmp.dataDir, "wal"));
    const file = path.join(tmp.dataDir, "wal", segment!);
    await fsp.appendFile(file, encodeBatch(2, [oldPlainPayload(first)]));
    await fsp.appendFile(file, encodeBatch(3, [encodeCommand(second as unknown as CommandValue)]));
    const b = await open();
    expect(b.replayed).to.equal(3);

    const reference = new Engine();
    reference.apply({ kind: "define-schema", schema: SCHEMA });
    reference.apply(first);
    reference.apply(second);
    expect(dump(b.engine)).to.deep.equal(dump(reference));
    // link is undirected: distinct unordered pairs, less those of vertex 3 (deleted by the second batch).
    const pairs = new Set(Array.from({ length: 500 }, (_, i) => [i, (i * 31) % 500].sort((x, y) => x - y).join()).filter((p) => !p.split(",").includes("3")));
    expect((dump(b.engine) as { stored: number[] }).stored).to.deep.equal([2, pairs.size]);
    await b.close();
  });
});
