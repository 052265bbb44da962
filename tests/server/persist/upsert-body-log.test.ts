// The write-ahead log's record of a REST upsert ('U': the body's bytes behind a binary
// header): exact round trips (graph, flags, nesting limit, any text), damage refused,
// bodies posted over HTTP brought back by recovery, a torn final 'U' record dropped as
// unacknowledged, and logs of earlier versions (REST upserts logged as "upsert-text" JSON)
// still replayed beside new records.
import { expect } from "chai";
import { promises as fsp } from "node:fs";
import path from "node:path";
import { useTempDir } from "./temp-dir.js";
import { Engine } from "../../../server/engine/engine.js";
import { startServer, type RunningServer } from "../../../server/serve.js";
import { decodeCommand, encodeCommand, type CommandValue } from "../../../server/persist/command-codec.js";
import { encodeBatch } from "../../../server/persist/wal/record-format.js";
import type { UpsertBatchCommand, UpsertFlags, UpsertTextCommand } from "../../../server/engine/commands.js";
import { socialSchema } from "../graph-fixture.js";

const NO_FLAGS: UpsertFlags = { newVertexOnly: false, updateVertexOnly: false, vertexMustExist: false, sourceVertexMustExist: false, targetVertexMustExist: false };
/** A REST upsert as the route hands it to the engine (its items do not matter to the log). */
const upsert = (text: string, flags: Partial<UpsertFlags> = {}, maxDepth = 64, graph = "g"): UpsertBatchCommand => ({
  kind: "upsert-batch",
  graph,
  vertices: [],
  edgeColumns: [],
  flags: { ...NO_FLAGS, ...flags },
  source: { text, maxDepth },
});
const roundTrip = (c: UpsertBatchCommand) => decodeCommand(encodeCommand(c as unknown as CommandValue)) as unknown as UpsertTextCommand;

describe("persist: REST upsert records", () => {
  const tmp = useTempDir("upsert-body");

  it("logs the body's bytes behind a binary header and gives it back with graph, flags and depth", () => {
    const text = '{"vertices":{"P":{"\\u00e9t\\u00e9":{"age":{"value":9223372036854775807}},"été ✓ 𝄞":{}}}}';
    const c = upsert(text, { updateVertexOnly: true, targetVertexMustExist: true }, 17, "gräph");
    const payload = encodeCommand(c as unknown as CommandValue);
    expect(payload[0]).to.equal(0x55);
    expect(payload.length).to.equal(12 + Buffer.byteLength("gräph") + Buffer.byteLength(text));
    expect(payload.subarray(payload.length - Buffer.byteLength(text)).toString("utf8")).to.equal(text);
    expect(roundTrip(c)).to.deep.equal({ kind: "upsert-text", graph: "gräph", source: { text, maxDepth: 17 }, flags: { ...NO_FLAGS, updateVertexOnly: true, targetVertexMustExist: true } });
  });

  it("keeps every flag combination, and text UTF-8 cannot carry", () => {
    const names = Object.keys(NO_FLAGS) as (keyof UpsertFlags)[];
    for (let bits = 0; bits < 32; bits++) {
      const flags = Object.fromEntries(names.map((n, i) => [n, (bits & (1 << i)) !== 0]));
      expect(roundTrip(upsert("{}", flags)).flags).to.deep.equal(flags);
    }
    const lone = '{"vertices":{"P":{"a\\ud800":{}}}} \ud800';
    expect(roundTrip(upsert(lone)).source.text).to.equal(lone);
    expect(roundTrip(upsert("")).source.text).to.equal("");
  });

  it("refuses a damaged record rather than misread it", () => {
    const payload = encodeCommand(upsert("{}") as unknown as CommandValue);
    expect(() => decodeCommand(payload.subarray(0, 8))).to.throw("logged upsert is damaged");
    const badVersion = Buffer.from(payload);
    badVersion[1] = 9;
    expect(() => decodeCommand(badVersion)).to.throw("logged upsert has unknown version 9");
    const badFlags = Buffer.from(payload);
    badFlags[2 + 4 + 1] = 0xff;
    expect(() => decodeCommand(badFlags)).to.throw("unknown flags 255");
  });

  it("an upsert given without its body is logged as tagged JSON and replays as it was", () => {
    const c: UpsertBatchCommand = { ...upsert(""), vertices: [{ type: "P", id: "a", attributes: [{ name: "age", value: 2n ** 63n, op: "+" }] }] };
    delete c.source;
    const payload = encodeCommand(c as unknown as CommandValue);
    expect(String.fromCharCode(payload[0]!)).to.equal("T");
    expect(decodeCommand(payload)).to.deep.equal(c);
  });

  const quiet = { snapshotOnClose: false, snapshotEveryBytes: 0 };
  // Servers still running when a test fails are closed after it (an open one keeps mocha alive).
  const running = new Set<RunningServer>();
  afterEach(() => Promise.all([...running].map((server) => stop(server))));
  const stop = async (server: RunningServer) => {
    running.delete(server);
    await server.close();
  };
  const start = async (engine = new Engine(), durable = true) => {
    const server = await startServer({ port: 0, engine, dataDir: durable ? tmp.dataDir : undefined, persistence: quiet, log: () => undefined });
    running.add(server);
    return server;
  };
  const post = async (server: RunningServer, body: string, query = "") => {
    const res = await fetch(`http://127.0.0.1:${server.restPort}/graph/social${query}`, { method: "POST", body });
    return { status: res.status, json: (await res.json()) as { error: boolean; results?: unknown[] } };
  };
  const dump = (server: RunningServer) =>
    Promise.all(
      ["/graph/social/vertices/Person", "/graph/social/vertices/City", "/graph/social/edges/Person/a", "/graph/social/edges/Person/b", "/graph/social/edges/Person/c"].map(
        async (p) => (await fetch(`http://127.0.0.1:${server.restPort}${p}`)).text(),
      ),
    );

  const bodies = [
    '{"vertices":{"Person":{"a":{"age":{"value":9223372036854775800},"name":{"value":"Ann"},"nosuch":{"value":1}},"b":{"tags":{"value":["x","y","x"]},"prefs":{"value":{"keylist":["k"],"valuelist":[3]}}},"c":{}},"City":{"9223372036854775807":{"population":{"value":18446744073709551615}}}}}',
    '{"edges":{"Person":{"a":{"follows":{"Person":{"b":{"weight":{"value":0.5}},"b":{"weight":{"value":1.5}},"c":{}}},"knows":{"Person":{"c":{"strength":{"value":2},"since":{"value":"2020-01-02 03:04:05"}}}},"lives_in":{"City":{"5":{}}}},"b":{"reverse_follows":{"Person":{"c":{}}}}}}}',
    '{"vertices":{"Person":{"a":{"age":{"value":7,"op":"add"},"score":{"value":1.5,"op":"max"}},"b":{"active":{"value":true,"op":"|"}}}},"edges":{"Person":{"a":{"knows":{"Person":{"c":{"strength":{"value":5,"op":"+"}}}}}}}}',
  ];

  it("brings REST upserts back from their records; a torn final record is dropped", async () => {
    const engine = new Engine();
    const first = await start(engine);
    engine.apply({ kind: "define-schema", schema: socialSchema() });
    for (const body of bodies) expect((await post(first, body)).status).to.equal(200);
    const skipped = await post(first, '{"vertices":{"Person":{"a":{},"new":{}}}}', "?new_vertex_only=true");
    expect(skipped.json.results).to.deep.equal([{ accepted_vertices: 1, skipped_vertices: 1, vertices_already_exist: [{ v_type: "Person", v_id: "a" }], accepted_edges: 0 }]);
    const before = await dump(first);
    expect(before[0]).to.contain('"age":9223372036854775807');
    await stop(first);

    const second = await start();
    expect(second.recovery?.replayedRecords).to.equal(5);
    expect(await dump(second)).to.deep.equal(before);
    await stop(second);

    // A crash while the next upsert was written: only part of its record reached the disk.
    const [segment] = await fsp.readdir(path.join(tmp.dataDir, "wal"));
    const file = path.join(tmp.dataDir, "wal", segment!);
    const next = upsert('{"vertices":{"Person":{"late":{}}}}', {}, 64, "social");
    const record = encodeBatch(6, [encodeCommand(next as unknown as CommandValue)]);
    const cut = record.subarray(0, record.length - 3);
    await fsp.appendFile(file, cut);
    const third = await start();
    expect(third.recovery?.tornTail).to.deep.include({ droppedBytes: cut.length });
    expect(third.recovery?.replayedRecords).to.equal(5);
    expect(await dump(third)).to.deep.equal(before);
    // The log goes on after the cut: a new upsert is kept.
    expect((await post(third, '{"vertices":{"Person":{"after":{}}}}')).status).to.equal(200);
    await stop(third);
    const fourth = await start();
    expect(fourth.recovery?.replayedRecords).to.equal(6);
    expect((await dump(fourth))[0]).to.contain('"v_id":"after"').and.not.contain('"v_id":"late"');
    await stop(fourth);
  });

  it("replays upserts logged as JSON by earlier versions beside new records, in order", async () => {
    const engine = new Engine();
    const first = await start(engine);
    engine.apply({ kind: "define-schema", schema: socialSchema() });
    await stop(first);
    // Records 2 and 3 as an earlier version logged them (the "upsert-text" command as JSON),
    // then record 4 as this version does.
    const [segment] = await fsp.readdir(path.join(tmp.dataDir, "wal"));
    const file = path.join(tmp.dataDir, "wal", segment!);
    const text = (lsn: number, body: string) => encodeBatch(lsn, [encodeCommand({ kind: "upsert-text", graph: "social", source: { text: body, maxDepth: 64 }, flags: NO_FLAGS } as unknown as CommandValue)]);
    await fsp.appendFile(file, text(2, bodies[0]!));
    await fsp.appendFile(file, text(3, bodies[1]!));
    expect((await fsp.readFile(file, "latin1")).includes('"kind":"upsert-text"')).to.equal(true);
    const second = await start();
    expect(second.recovery?.replayedRecords).to.equal(3);
    expect((await post(second, bodies[2]!)).status).to.equal(200);
    const after = await dump(second);
    await stop(second);

    const third = await start();
    expect(third.recovery?.replayedRecords).to.equal(4);
    expect(await dump(third)).to.deep.equal(after);
    await stop(third);

    // The same three bodies on a server without a data directory give the same data.
    const reference = new Engine();
    reference.apply({ kind: "define-schema", schema: socialSchema() });
    const memory = await start(reference, false);
    for (const body of bodies) expect((await post(memory, body)).status).to.equal(200);
    expect(await dump(memory)).to.deep.equal(after);
  });
});
