// Reading a file in the reader thread must load exactly what the in-thread read loads: the
// same batches in the same order, the same statistics and line counts, the same errors; a
// time limit, a user's stop and a failing store end it cleanly. Generated files (quotes,
// bad ids and attributes, short lines, a header, several separators and eols) are loaded
// both ways and compared batch by batch.
import { expect } from "chai";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLoad, type LoadOptions, type LoadResult } from "../../../server/loading/run.js";
import { LoadError } from "../../../server/loading/errors.js";
import type { PlanCondition } from "../../../server/loading/plan.js";
import type { LoadBatch } from "../../../server/loading/sink.js";
import { mulberry32 } from "../../../tools/bench/rmat.js";
import { RecordingSink, col, job, named, skip } from "./fixtures.js";
import type { DatabaseSchema } from "../../../runtime-wasm/schema/types.js";
import type { Snapshot } from "../../../runtime-wasm/store/index.js";
import { Engine } from "../../../server/engine/engine.js";
import { engineSink } from "../../../server/loading/engine-sink.js";
import { openDurableEngine } from "../../../server/persist/engine-state.js";
import { encodeCommand, type CommandValue } from "../../../server/persist/command-codec.js";
import { noteEncodedLoadBatch } from "../../../server/persist/load-batch-codec.js";
import { edgeRunsOf } from "../../../server/loading/sink.js";
import { idleReaderThreadId, warmReaderThread } from "../../../server/loading/worker/read-in-thread.js";

const personValues = [col(0), skip, col(2), skip, skip, skip, skip];
const knows = { kind: "edge" as const, type: "Knows", from: { id: col(0) }, to: { id: col(1) }, values: [col(2)] };

/** A line of "person,person,since": mostly valid, some short, some with a bad year or an empty id, some quoted. */
function randomLine(random: () => number, sep: string, quoted: boolean): string {
  const r = random();
  const id = () => `p${Math.floor(random() * 5000)}`;
  if (r < 0.03) return id();
  if (r < 0.06) return [id(), id(), "year"].join(sep);
  if (r < 0.08) return ["", id(), "1999"].join(sep);
  if (quoted && r < 0.15) return [`"${id()}${sep}x"`, id(), String(1900 + Math.floor(random() * 100))].join(sep);
  return [id(), id(), String(1900 + Math.floor(random() * 100))].join(sep);
}

/** What a load handed to the sink and returned, without the timings (id columns as plain arrays). */
function outcome(result: LoadResult, batches: LoadBatch[]) {
  const plain = batches.map((b) => ({ ...b, edgeRuns: b.edgeRuns.map((r) => ({ ...r, from: Array.from(r.from), to: Array.from(r.to) })) }));
  return { sources: result.sources.map(({ durationMs: _d, ...rest }) => rest), batches: plain };
}

describe("runLoad: the reader thread loads what the in-thread read loads", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "wasmgraph-reader-thread-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const loadBoth = async (plan: ReturnType<typeof job>, path: string, options: LoadOptions = {}) => {
    const inline = new RecordingSink();
    const threaded = new RecordingSink();
    const a = await runLoad(plan, new Map([["f", { kind: "path" as const, path }]]), inline, { ...options, reader: "inline" });
    const b = await runLoad(plan, new Map([["f", { kind: "path" as const, path }]]), threaded, { ...options, reader: "thread" });
    return { inline: outcome(a, inline.batches), threaded: outcome(b, threaded.batches) };
  };

  for (const [sep, eol, quote] of [[",", "\n", undefined], ["|#", "\r\n", "double"], ["\t", "$$", undefined]] as const) {
    it(`generated files, separator ${JSON.stringify(sep)}, eol ${JSON.stringify(eol)}, quote ${quote ?? "none"}: same batches, statistics and lines`, async () => {
      const random = mulberry32(sep.length * 31 + eol.length);
      const lines = Array.from({ length: 30_000 }, () => randomLine(random, sep, quote !== undefined));
      const path = join(dir, `gen-${sep.length}-${eol.length}.csv`);
      writeFileSync(path, [["from", "to", "since"].join(sep), ...lines].join(eol) + eol);
      const using = { separator: sep, eol, header: true, ...(quote ? { quote } : {}) };
      const plan = job([{ kind: "vertex", type: "Person", values: [named("from"), skip, named("since"), skip, skip, skip, skip] }, { ...knows, from: { id: named("from") }, to: { id: named("to") }, values: [named("since")] }], using);
      const { inline, threaded } = await loadBoth(plan, path, { chunkBytes: 4096 + Math.floor(random() * 4096), batchObjects: 8192 });
      expect(threaded).to.deep.equal(inline);
      // The generated file really exercised the counters and wrote in several batches.
      const s = inline.sources[0]!.statistics;
      expect(inline.sources[0]!.lines).to.equal(30_000);
      expect(s.notEnoughToken).to.be.greaterThan(0);
      expect(s.vertex[0]!.invalidAttribute + s.vertex[0]!.noIdFound).to.be.greaterThan(0);
      expect(inline.batches.length).to.be.greaterThan(2);
    });
  }

  it("JSON lines, WHERE with token functions, temp tables with flatten and DELETE statements read the same", async () => {
    const random = mulberry32(11);
    const pick = () => Math.floor(random() * 4000);
    const jsonPath = join(dir, "gen.jsonl");
    writeFileSync(
      jsonPath,
      Array.from({ length: 20_000 }, (_, i) => (i % 97 === 5 ? "{broken" : JSON.stringify({ id: `p${pick()}`, info: { age: random() < 0.05 ? "old" : pick() % 90 }, ok: random() < 0.5 }))).join("\n"),
    );
    const jsonPlan = job([{ kind: "vertex", type: "Person", values: [named("id"), skip, { kind: "json_path", path: ["info", "age"] }, skip, named("ok"), skip, skip] }], { jsonFile: true });
    const json = await loadBoth(jsonPlan, jsonPath, { chunkBytes: 5000, batchObjects: 3000 });
    expect(json.threaded).to.deep.equal(json.inline);
    expect(json.inline.sources[0]!.statistics.invalidJson).to.be.greaterThan(100);

    const csvPath = join(dir, "rich.csv");
    writeFileSync(csvPath, Array.from({ length: 20_000 }, () => `${pick()}|"${pick()},${pick()}"|p${pick()}|p${pick()}|${1900 + (pick() % 200)}`).join("\n"));
    const where: PlanCondition = { kind: "compare", op: ">=", left: { kind: "function", name: "to_int", args: [{ kind: "token", value: col(4) }] }, right: { kind: "number", value: 1950 } };
    const richPlan: ReturnType<typeof job> = {
      ...job([]),
      statements: [
        {
          kind: "load",
          source: { kind: "file", variable: "f" },
          destinations: [
            { kind: "temp_table", table: "t", columns: ["pid", "city"], values: [col(2), { kind: "flatten", value: col(1), separator: ",", fieldCount: 1 }] },
            { kind: "edge", type: "Knows", from: { id: col(2) }, to: { id: col(3) }, values: [col(4)], where },
          ],
          using: { separator: "|", quote: "double" },
        },
        { kind: "load", source: { kind: "temp_table", table: "t" }, destinations: [{ kind: "edge", type: "LivesIn", from: { id: named("pid") }, to: { id: named("city") }, values: [] }], using: {} },
      ],
    };
    const rich = await loadBoth(richPlan, csvPath, { chunkBytes: 6000, batchObjects: 4000 });
    expect(rich.threaded).to.deep.equal(rich.inline);
    expect(rich.inline.sources[0]!.statistics.failedConditionLine).to.be.greaterThan(1000);

    const deletePlan: ReturnType<typeof job> = {
      ...job([]),
      statements: [
        { kind: "delete_vertex", type: "City", id: col(0), source: { kind: "file", variable: "f" }, using: { separator: "|" } },
        { kind: "delete_edge", type: "Knows", from: { id: col(2) }, to: { id: col(3) }, source: { kind: "file", variable: "f" }, using: { separator: "|" } },
      ],
    };
    const deletes = await loadBoth(deletePlan, csvPath, { chunkBytes: 6000, batchObjects: 4000 });
    expect(deletes.threaded).to.deep.equal(deletes.inline);
    expect(deletes.inline.batches.length).to.be.greaterThan(2);
  });

  it("line ranges, -max_percent_error and a directory of files read the same", async () => {
    const sub = join(dir, "many");
    mkdirSync(sub);
    const random = mulberry32(5);
    for (let f = 0; f < 3; f++) writeFileSync(join(sub, `part-${f}.csv`), Array.from({ length: 12_000 }, () => randomLine(random, ",", false)).join("\n"));
    const plan = job([{ kind: "vertex", type: "Person", values: personValues }, knows]);
    const ranged = await loadBoth(plan, join(sub, "part-0.csv"), { lineRange: { first: 100, last: 9_000 }, chunkBytes: 5000, batchObjects: 2000 });
    expect(ranged.threaded).to.deep.equal(ranged.inline);
    expect(ranged.inline.sources[0]!.lastLine).to.equal(9_001);
    const all = await loadBoth(plan, sub, { chunkBytes: 7000, batchObjects: 5000 });
    expect(all.threaded).to.deep.equal(all.inline);
    expect(all.inline.sources.map((s) => s.lines)).to.deep.equal([12_000, 12_000, 12_000]);
    const strict = await loadBoth(plan, sub, { maxPercentError: 2, chunkBytes: 3000, batchObjects: 1000 });
    expect(strict.threaded).to.deep.equal(strict.inline);
    expect(strict.inline.sources.map((s) => s.stoppedBy)).to.deep.equal(["max_percent_error", "max_percent_error", "max_percent_error"]);
  });

  it("a header naming a missing column is the same load error, and nothing is written", async () => {
    const path = join(dir, "header.csv");
    writeFileSync(path, "a,b\n1,2\n");
    const plan = job([{ kind: "vertex", type: "Person", values: [named("nope"), skip, skip, skip, skip, skip, skip] }], { header: true });
    const sink = new RecordingSink();
    let error: unknown;
    await runLoad(plan, new Map([["f", { kind: "path" as const, path }]]), sink, { reader: "thread" }).catch((e) => (error = e));
    expect(error).to.be.instanceOf(LoadError);
    expect((error as LoadError).message).to.contain('Column "nope" is not in the header');
    expect(sink.batches).to.have.length(0);
  });

  describe("ending early", () => {
    let path: string;
    const lineCount = 60_000;
    before(() => {
      path = join(dir, "long.csv");
      writeFileSync(path, Array.from({ length: lineCount }, (_, i) => `p${i},p${i + 1},${1900 + (i % 100)}`).join("\n"));
    });
    const plan = () => job([knows]);
    const edgeIds = (sink: RecordingSink) => sink.edges.map((e) => e.from.id);
    /** A sink that records each batch, then aborts `controller` (as a user or a timer would while the load runs). */
    const abortingSink = (controller: AbortController) => {
      const sink = new RecordingSink();
      const apply = sink.apply.bind(sink);
      sink.apply = (batch) => {
        apply(batch);
        controller.abort();
      };
      return sink;
    };

    it("a user's stop: what was read is written, in order, and the result says where it stopped", async () => {
      const stop = new AbortController();
      const sink = abortingSink(stop);
      const r = await runLoad(plan(), new Map([["f", { kind: "path" as const, path }]]), sink, { reader: "thread", stop: stop.signal, chunkBytes: 64 << 10, batchObjects: 8192 });
      const s = r.sources[0]!;
      expect(s.stoppedBy).to.equal("aborted");
      expect(s.lastLine).to.be.lessThan(lineCount);
      // Every line read up to lastLine is written, and nothing after it.
      expect(edgeIds(sink)).to.deep.equal(Array.from({ length: s.lastLine }, (_, i) => `p${i}`));
      expect(s.statistics.edge[0]!.validObject).to.equal(s.lastLine);
    });

    it("a time limit: a timeout error; the batches written before it are a prefix of the file", async () => {
      const signal = new AbortController();
      const sink = abortingSink(signal);
      let error: unknown;
      await runLoad(plan(), new Map([["f", { kind: "path" as const, path }]]), sink, { reader: "thread", signal: signal.signal, chunkBytes: 64 << 10, batchObjects: 8192 }).catch((e) => (error = e));
      expect((error as LoadError).kind).to.equal("timeout");
      const ids = edgeIds(sink);
      expect(ids.length).to.be.greaterThan(0).and.lessThan(lineCount);
      expect(ids).to.deep.equal(Array.from({ length: ids.length }, (_, i) => `p${i}`));
    });

    it("a store that fails: the load rejects with its error and the reader thread ends", async () => {
      const sink = new RecordingSink();
      sink.apply = () => {
        throw new Error("disk full");
      };
      let error: unknown;
      await runLoad(plan(), new Map([["f", { kind: "path" as const, path }]]), sink, { reader: "thread", chunkBytes: 64 << 10, batchObjects: 8192 }).catch((e) => (error = e));
      expect((error as Error).message).to.equal("disk full");
    });
  });

  describe("the thread a process keeps", () => {
    let path: string;
    const lineCount = 30_000;
    before(() => {
      path = join(dir, "kept.csv");
      writeFileSync(path, Array.from({ length: lineCount }, (_, i) => `p${i},p${(i * 7) % lineCount},${1900 + (i % 100)}`).join("\n"));
    });
    const load = async (sink: RecordingSink) => runLoad(job([knows]), new Map([["f", { kind: "path" as const, path }]]), sink, { reader: "thread", chunkBytes: 32 << 10, batchObjects: 4096 });
    const expectedIds = Array.from({ length: lineCount }, (_, i) => `p${i}`);

    it("a load takes the started thread and keeps it for the next; loads through it read the same", async () => {
      await warmReaderThread();
      const started = idleReaderThreadId();
      expect(started).to.be.a("number");
      const first = new RecordingSink();
      const a = await load(first);
      expect(idleReaderThreadId()).to.equal(started);
      const second = new RecordingSink();
      const b = await load(second);
      expect(idleReaderThreadId()).to.equal(started);
      expect(first.edges.map((e) => e.from.id)).to.deep.equal(expectedIds);
      expect(outcome(b, second.batches)).to.deep.equal(outcome(a, first.batches));
    });

    it("a thread whose load failed is not kept: the next load starts another and reads the whole file", async () => {
      await warmReaderThread();
      const failed = idleReaderThreadId();
      const failing = new RecordingSink();
      failing.apply = () => {
        throw new Error("disk full");
      };
      let error: unknown;
      await load(failing).catch((e) => (error = e));
      expect((error as Error).message).to.equal("disk full");
      expect(idleReaderThreadId()).to.equal(undefined);
      const sink = new RecordingSink();
      const r = await load(sink);
      expect(r.sources[0]!.statistics.edge[0]!.validObject).to.equal(lineCount);
      expect(sink.edges.map((e) => e.from.id)).to.deep.equal(expectedIds);
      expect(idleReaderThreadId()).to.be.a("number").and.not.equal(failed);
    });
  });

  describe("into a durable engine", () => {
    it("a batch's log record encoded by the reader thread is logged as it is, for its graph only", () => {
      const batchOf = (n: number): LoadBatch => ({ vertices: [], vertexDeletes: [], edgeDeletes: [], edgeRuns: edgeRunsOf([{ type: "E", from: { type: "N", id: n }, to: { type: "N", id: n + 1 }, attributes: [], vertexMustExist: false }]) });
      const encode = (graph: string, batch: LoadBatch) => encodeCommand({ kind: "load-batch", graph, batch } as unknown as CommandValue);
      const batch = batchOf(1);
      const fresh = Buffer.from(encode("g", batch));
      // A noted payload is what gets logged (here, on purpose, another batch's record).
      const other = Buffer.from(encode("g", batchOf(7)));
      noteEncodedLoadBatch("g", batch, other);
      expect(Buffer.from(encode("g", batch)).equals(other)).to.equal(true);
      expect(Buffer.from(encode("h", batch)).equals(Buffer.from(encode("h", batchOf(1))))).to.equal(true);
      expect(fresh.equals(other)).to.equal(false);
    });

    // N: INT ids (sent as number columns), S: STRING ids; E: N -> N with an INT attribute, F: N -> S.
    const schema: DatabaseSchema = {
      tuples: [],
      globalVersion: 0,
      vertexTypes: [
        { key: "N", name: "N", primaryId: { name: "id", type: "INT" }, primaryIdAsAttribute: false, attributes: [], stats: "OUTDEGREE_BY_EDGETYPE" },
        { key: "S", name: "S", primaryId: { name: "id", type: "STRING" }, primaryIdAsAttribute: false, attributes: [], stats: "OUTDEGREE_BY_EDGETYPE" },
      ],
      edgeTypes: [
        { key: "E", name: "E", directed: true, pairs: [{ from: "N", to: "N" }], discriminator: [], attributes: [{ name: "w", type: { kind: "scalar", name: "INT" } }] },
        { key: "F", name: "F", directed: true, pairs: [{ from: "N", to: "S" }], discriminator: [], attributes: [] },
      ],
      graphs: [{ name: "social", vertexTypes: ["N", "S"], edgeTypes: ["E", "F"], version: 0 }],
    };
    const plan = job([
      { kind: "edge", type: "E", from: { id: col(0) }, to: { id: col(1) }, values: [col(2)] },
      { kind: "edge", type: "F", from: { id: col(0) }, to: { id: col(3) }, values: [] },
    ]);
    const dump = (engine: Engine) =>
      engine.read((s: Snapshot) => ({
        vertices: ["N", "S"].map((t) => s.vertexCount(t)),
        edges: ["N"].flatMap((t) => [...s.vertices(t)].flatMap((vid) => [...s.edges(vid)].map((e) => `${s.idText(e.from)}>${s.idText(e.to)}:${JSON.stringify(s.edgeAttributes(e), (_k, v) => (typeof v === "bigint" ? String(v) : v))}`))).sort(),
      }));

    const durableLines = (seed: number) => {
      const random = mulberry32(seed);
      return Array.from({ length: 12_000 }, () => {
        const r = random();
        const a = Math.floor(random() * 3000);
        const b = r < 0.02 ? "x" : String(Math.floor(random() * 3000));
        return `${a},${b},${Math.floor(random() * 100)},s${Math.floor(random() * 500)}`;
      });
    };

    it("the log written through the reader thread brings back what an in-thread load writes", async () => {
      const path = join(dir, "durable.csv");
      writeFileSync(path, durableLines(77).join("\n"));
      await expectDurableAsInline(path);
    });

    // The rest of the first file is written together with the second file's first objects: its
    // log record, encoded by the thread for the rest alone, must not stand for that batch.
    it("the same for a directory of two files (a file's rest written with the next file's objects)", async () => {
      const lines = durableLines(78);
      const sub = mkdtempSync(join(dir, "two-"));
      writeFileSync(join(sub, "a.csv"), lines.slice(0, 5_001).join("\n"));
      writeFileSync(join(sub, "b.csv"), lines.slice(5_001).join("\n"));
      await expectDurableAsInline(sub);
    });

    async function expectDurableAsInline(path: string): Promise<void> {
      const data = mkdtempSync(join(dir, "data-"));
      const open = async () => {
        const engine = new Engine();
        const { persistence, report } = await openDurableEngine(data, engine, { snapshotOnClose: false, snapshotEveryBytes: 0 });
        return { engine, persistence, report };
      };
      const a = await open();
      a.engine.apply({ kind: "define-schema", schema });
      const threaded = await runLoad(plan, new Map([["f", { kind: "path" as const, path }]]), engineSink(a.engine, "social"), { reader: "thread", batchObjects: 4096, chunkBytes: 16 << 10 });
      await a.persistence.sync();
      const written = dump(a.engine);
      await a.persistence.close();

      const reference = new Engine();
      reference.apply({ kind: "define-schema", schema });
      const inline = await runLoad(plan, new Map([["f", { kind: "path" as const, path }]]), engineSink(reference, "social"), { reader: "inline", batchObjects: 4096, chunkBytes: 16 << 10 });
      expect(threaded.sources[0]!.statistics).to.deep.equal(inline.sources[0]!.statistics);
      expect(written).to.deep.equal(dump(reference));
      expect(written.edges.length).to.be.greaterThan(8_000);

      const b = await open();
      expect(b.report.replayedRecords).to.be.greaterThan(5);
      expect(dump(b.engine)).to.deep.equal(written);
      await b.persistence.close();
    }
  });
});
