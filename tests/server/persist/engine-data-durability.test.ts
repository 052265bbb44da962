// Graph data made durable, deterministically and in process: upserts (64-bit integers,
// collections, operators), deletes (permanent ones included) and edge deletes come back
// identical after a restart from the log alone, from a snapshot plus the log, and from a
// snapshot taken while writes went on; permanently deleted ids stay retired.
import { expect } from "chai";
import { useTempDir } from "./temp-dir.js";
import type { DatabaseSchema } from "../../../runtime-wasm/schema/types.js";
import type { Snapshot } from "../../../runtime-wasm/store/index.js";
import type { UpsertAttribute, UpsertCommand } from "../../../server/engine/commands.js";
import { Engine } from "../../../server/engine/engine.js";
import { openDurableEngine } from "../../../server/persist/engine-state.js";

const SCHEMA: DatabaseSchema = {
  tuples: [],
  vertexTypes: [
    {
      key: "Person",
      name: "Person",
      primaryId: { name: "id", type: "STRING" },
      primaryIdAsAttribute: false,
      attributes: [
        { name: "age", type: { kind: "scalar", name: "INT" } },
        { name: "score", type: { kind: "scalar", name: "DOUBLE" } },
        { name: "tags", type: { kind: "set", element: { kind: "scalar", name: "STRING" } } },
      ],
      stats: "OUTDEGREE_BY_EDGETYPE",
    },
  ],
  edgeTypes: [
    { key: "knows", name: "knows", directed: false, pairs: [{ from: "Person", to: "Person" }], discriminator: [], attributes: [{ name: "since", type: { kind: "scalar", name: "INT" } }] },
  ],
  graphs: [{ name: "g", vertexTypes: ["Person"], edgeTypes: ["knows"], version: 0 }],
  globalVersion: 0,
};

const NO_FLAGS = { newVertexOnly: false, updateVertexOnly: false, vertexMustExist: false, sourceVertexMustExist: false, targetVertexMustExist: false };
const attr = (name: string, value: UpsertAttribute["value"], op = "="): UpsertAttribute => ({ name, value, op });

function upsert(vertices: Array<[string, UpsertAttribute[]]>, edges: Array<[string, string, number]> = []): UpsertCommand {
  return {
    kind: "upsert",
    graph: "g",
    vertices: vertices.map(([id, attributes]) => ({ type: "Person", id, attributes })),
    edges: edges.map(([from, to, since]) => ({ sourceType: "Person", sourceId: from, edgeType: "knows", targetType: "Person", targetId: to, attributes: [attr("since", since)] })),
    flags: NO_FLAGS,
  };
}

/** Everything the store holds, in a comparable form. */
function dump(engine: Engine): unknown {
  return engine.read((s: Snapshot) => {
    const vertices = [...s.vertices("Person")].map((vid) => [s.idText(vid), s.attributes(vid)]).sort();
    const edges = [...s.vertices("Person")].flatMap((vid) => [...s.edges(vid)].map((e) => [s.idText(e.from), s.idText(e.to), s.edgeAttributes(e)])).sort();
    return { vertices, edges, storedEdges: s.storedEdgeCount("knows") };
  });
}

describe("persist: graph data across restarts (in process, real store)", () => {
  const tmp = useTempDir("data");

  /** A history touching every kind of data command; `between` runs halfway. */
  async function history(engine: Engine, between: () => Promise<unknown>): Promise<unknown> {
    engine.apply({ kind: "define-schema", schema: SCHEMA });
    engine.apply(upsert([["a", [attr("age", 9007199254740993n), attr("score", 1.5), attr("tags", ["x", "y"])]], ["b", [attr("age", 2)]], ["c", []]], [["a", "b", 10], ["b", "c", 20]]));
    engine.apply(upsert([["a", [attr("age", 1, "+"), attr("tags", ["z"], "+")]], ["d", [attr("score", -0.25)]]], [["c", "d", 30]]));
    engine.apply({ kind: "delete-vertices", graph: "g", vertexType: "Person", id: "c", filter: [], sort: [], permanent: true });
    const running = await between();
    // Not idempotent: applied twice (a snapshot holding it and its replay) would show.
    engine.apply(upsert([["e", [attr("age", -7)]], ["a", [attr("age", 100, "+"), attr("score", 0.25, "+")]]], [["e", "a", 40]]));
    engine.apply({ kind: "delete-edges", graph: "g", selection: { sourceType: "Person", sourceId: "a", edgeType: "knows", targetType: "Person", targetId: "b" }, filter: [], sort: [] });
    engine.apply({ kind: "delete-vertices", graph: "g", vertexType: "Person", id: "d", filter: [], sort: [], permanent: false });
    engine.apply({ kind: "set-output-api", api: "v1" });
    return running;
  }

  async function reopen(): Promise<{ engine: Engine; close: () => Promise<void>; replayed: number; snapshotLsn?: number }> {
    const engine = new Engine();
    const { persistence, report } = await openDurableEngine(tmp.dataDir, engine, { snapshotOnClose: false, snapshotEveryBytes: 0 });
    return { engine, close: () => persistence.close(), replayed: report.replayedRecords, snapshotLsn: report.snapshot?.lsn };
  }

  const cases: Array<{ name: string; between: (p: { snapshot(): Promise<unknown> }) => Promise<unknown>; snapshotLsn?: number; replayed: number }> = [
    { name: "from the log alone", between: async () => undefined, replayed: 8 },
    { name: "from a snapshot plus the log after it", between: async (p) => void (await p.snapshot()), snapshotLsn: 4, replayed: 4 },
    {
      name: "from a snapshot written while the writes went on",
      // Handed back unawaited: the rest of the history runs while the snapshot is written.
      between: async (p) => ({ running: p.snapshot() }),
      snapshotLsn: 4,
      replayed: 4,
    },
  ];

  for (const c of cases) {
    it(`comes back identical ${c.name}`, async () => {
      const engine = new Engine();
      const { persistence } = await openDurableEngine(tmp.dataDir, engine, { snapshotOnClose: false, snapshotEveryBytes: 0 });
      const between = (await history(engine, () => c.between(persistence))) as { running?: Promise<unknown> } | undefined;
      await between?.running;
      const before = dump(engine);
      expect((before as { vertices: unknown[] }).vertices.map((v) => (v as unknown[])[0])).to.deep.equal(["a", "b", "e"]);
      await persistence.sync();
      await persistence.close();

      const again = await reopen();
      expect(again.snapshotLsn).to.equal(c.snapshotLsn === undefined ? undefined : c.snapshotLsn);
      expect(again.replayed).to.equal(c.replayed);
      expect(dump(again.engine)).to.deep.equal(before);
      expect(again.engine.outputApi).to.equal("v1");
      // c was deleted with permanent=true: its id stays retired after the restart.
      const retried = again.engine.apply(upsert([["c", [attr("age", 5)]]]));
      expect(retried.result).to.deep.include({ accepted_vertices: 0, skipped_vertices: 1, vertices_permanently_deleted: [{ v_type: "Person", v_id: "c" }] });
      // d was deleted without it: it may come back.
      expect(again.engine.apply(upsert([["d", []]])).result).to.deep.include({ accepted_vertices: 1 });
      await again.close();
    });
  }

  it("a loaded -0 comes back with its sign from the log (plain JSON would write 0)", async () => {
    const engine = new Engine();
    const { persistence } = await openDurableEngine(tmp.dataDir, engine, { snapshotOnClose: false, snapshotEveryBytes: 0 });
    engine.apply({ kind: "define-schema", schema: SCHEMA });
    const write = (id: string, score: number) => ({ type: "Person", id, attributes: [{ name: "score", value: score, op: "=" as const }], newVertexOnly: false });
    engine.apply({ kind: "load-batch", graph: "g", batch: { vertices: [write("pos0", 0), write("neg0", -0)], edgeRuns: [], vertexDeletes: [], edgeDeletes: [] } });
    const scores = (e: Engine) => e.read((s: Snapshot) => [...s.vertices("Person")].map((vid) => [s.idText(vid), s.attributes(vid).score]).sort());
    const before = scores(engine);
    expect(before).to.deep.equal([["neg0", -0], ["pos0", 0]]);
    await persistence.close();
    const again = await reopen();
    expect(again.replayed).to.equal(2);
    const after = scores(again.engine) as Array<[string, number]>;
    expect(after).to.deep.equal(before);
    expect(Object.is(after[0]![1], -0)).to.equal(true);
    expect(Object.is(after[1]![1], 0)).to.equal(true);
    await again.close();
  });
});
