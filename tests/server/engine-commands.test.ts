// The engine's command discipline: every change the REST routes make arrives at
// Engine.apply as a plain command; those commands survive their text form (64-bit values
// included) and, replayed in order on a fresh engine, rebuild exactly the same data.
import { expect } from "chai";
import { startTestServer, type TestServer } from "../helpers/http.js";
import { decodeCommand, encodeCommand } from "../../server/engine/command-codec.js";
import type { EngineCommand } from "../../server/engine/commands.js";
import { Engine } from "../../server/engine/engine.js";
import { socialSchema } from "./graph-fixture.js";

describe("engine commands: logged, encoded, replayed", () => {
  let t: TestServer;
  const log: string[] = [];

  before(async () => {
    const engine = new Engine();
    engine.commandLog = { prepare: (c) => () => void log.push(encodeCommand(c)) };
    engine.apply({ kind: "define-schema", schema: socialSchema() });
    t = await startTestServer({ engine });
  });
  after(() => t.close());

  const dump = async (server: TestServer) =>
    [
      (await server.get("/graph/social/vertices/Person?sort=age")).text,
      (await server.get("/graph/social/vertices/City")).text,
      (await server.get("/graph/social/edges/Person/a")).text,
      (await server.get("/graph/social/edges/Person/b")).text,
    ].join("\n");

  it("records each successful change once, and replaying the log rebuilds the same state", async () => {
    expect((await t.request("POST", "/graph/social", '{"vertices":{"Person":{"a":{"age":{"value":5}}}}}')).status).to.equal(200);
    const body = '{"vertices":{"Person":{"a":{"age":{"value":9223372036854775800,"op":"+"}},"b":{"age":{"value":1}},"c":{}},"City":{"9223372036854775807":{"population":{"value":18446744073709551615}}}},"edges":{"Person":{"a":{"knows":{"Person":{"b":{"strength":{"value":0.1}}}},"follows":{"Person":{"b":{},"c":{}}}}}}}';
    expect((await t.request("POST", "/graph/social", body)).status).to.equal(200);
    expect((await t.request("POST", "/graph/social", '{"vertices":{"Person":{"zz":{"age":{"value":1,"op":"+"}}}}}')).status).to.equal(400);
    expect((await t.request("DELETE", "/graph/social/vertices/Person/c?permanent=true")).status).to.equal(200);
    expect((await t.request("DELETE", "/graph/social/edges/Person/a/knows?filter=strength<1")).status).to.equal(200);
    expect((await t.request("DELETE", "/graph/social/vertices/Person?filter=age<0&sort=age&limit=3")).status).to.equal(200);
    expect((await t.request("POST", "/graph/social", '{"vertices":{"Person":{"c":{}}}}')).status).to.equal(200);
    const kinds = log.map((line) => (JSON.parse(line) as EngineCommand).kind);
    expect(kinds).to.deep.equal(["define-schema", "upsert-batch", "upsert-batch", "delete-vertices", "delete-edges", "delete-vertices", "upsert-batch"]);
    expect(log[2]).to.contain('{"$bigint":"9223372036854775800"}');

    const replayed = new Engine();
    for (const line of log) replayed.apply(decodeCommand(line));
    const second = await startTestServer({ engine: replayed });
    try {
      expect(await dump(second)).to.equal(await dump(t));
      expect((await second.get("/graph/social/vertices/Person/a")).text).to.contain('"age":9223372036854775805');
      expect((await second.get("/graph/social/vertices/Person/c")).status).to.equal(400);
    } finally {
      await second.close();
    }
  });
});
