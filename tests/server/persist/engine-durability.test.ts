// The engine made durable: commands applied after recovery are logged in their turn and
// come back after a restart (from the log, or from a snapshot's catalog); refused commands
// are not logged; REST answers wait for the request's writes unless ack=none.
import { expect } from "chai";
import { useTempDir } from "./temp-dir.js";
import Koa from "koa";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { emptySchema, type DatabaseSchema } from "../../../runtime-wasm/schema/types.js";
import { Engine } from "../../../server/engine/engine.js";
import { openDurableEngine } from "../../../server/persist/engine-state.js";
import { DurabilityError } from "../../../server/persist/persistence.js";
import { col, job, socialSchema as loadingSchema } from "../loading/fixtures.js";
import { durableWritesMiddleware, requestDurability } from "../../../server/persist/request-durability.js";
import { StreamShellOutput } from "../../../server/gsql/shell-output.js";

function schemaWith(graphs: string[], version = 0): DatabaseSchema {
  return {
    ...emptySchema(),
    vertexTypes: [
      {
        key: "Person",
        name: "Person",
        primaryId: { name: "id", type: "STRING" },
        primaryIdAsAttribute: false,
        attributes: [{ name: "age", type: { kind: "scalar", name: "INT" }, default: 9007199254740993n }],
        stats: "OUTDEGREE_BY_EDGETYPE",
      },
    ],
    graphs: graphs.map((name) => ({ name, vertexTypes: ["Person"], edgeTypes: [], version })),
  };
}

describe("persist: the engine made durable", () => {
  const tmp = useTempDir("engine");

  async function restart(snapshotOnClose: boolean, close: () => Promise<void>) {
    await close();
    const engine = new Engine();
    const opened = await openDurableEngine(tmp.dataDir, engine, { snapshotOnClose, snapshotEveryBytes: 0 });
    return { engine, ...opened };
  }

  for (const snapshotOnClose of [false, true]) {
    it(`schema (64-bit defaults included) and SET json_api come back ${snapshotOnClose ? "from a snapshot" : "from the log"}`, async () => {
      const engine = new Engine();
      const { persistence } = await openDurableEngine(tmp.dataDir, engine, { snapshotOnClose, snapshotEveryBytes: 0 });
      engine.apply({ kind: "define-schema", schema: schemaWith(["social"]) });
      engine.apply({ kind: "define-schema", schema: schemaWith(["social", "work"], 1) });
      engine.apply({ kind: "set-output-api", api: "v1" });
      expect(persistence.lastLsn).to.equal(3);

      const again = await restart(snapshotOnClose, () => persistence.close());
      expect(again.engine.schema).to.deep.equal(schemaWith(["social", "work"], 1));
      expect(again.engine.outputApi).to.equal("v1");
      expect(again.engine.graphNames()).to.deep.equal(["social", "work"]);
      expect(again.report.replayedRecords).to.equal(snapshotOnClose ? 0 : 3);
      expect(again.report.snapshot?.lsn).to.equal(snapshotOnClose ? 3 : undefined);
      await again.persistence.close();
    });
  }

  for (const snapshotOnClose of [false, true]) {
    it(`loading jobs come back ${snapshotOnClose ? "from a snapshot" : "from the log"}; dropped ones stay dropped`, async () => {
      const engine = new Engine();
      const { persistence } = await openDurableEngine(tmp.dataDir, engine, { snapshotOnClose, snapshotEveryBytes: 0 });
      engine.apply({ kind: "define-schema", schema: loadingSchema() });
      const keep = job([{ kind: "vertex", type: "City", values: [col(0), col(1)] }], { header: true }, { name: "keep" });
      engine.apply({ kind: "create-loading-job", plan: keep });
      engine.apply({ kind: "create-loading-job", plan: job([{ kind: "vertex", type: "City", values: [col(0), col(1)] }], {}, { name: "gone" }) });
      engine.apply({ kind: "drop-loading-job", graph: "social", name: "gone" });
      await persistence.close();

      const again = new Engine();
      const reopened = await openDurableEngine(tmp.dataDir, again, { snapshotOnClose: false });
      expect(again.loadingJobs("social")).to.deep.equal([keep]);
      expect(reopened.report.replayedRecords).to.equal(snapshotOnClose ? 0 : 4);
      await reopened.persistence.close();
    });
  }

  it("a refused command is voided in the log (it is logged ahead of its apply): replay skips both", async () => {
    const engine = new Engine();
    const { persistence } = await openDurableEngine(tmp.dataDir, engine, { snapshotOnClose: false });
    engine.apply({ kind: "set-output-api", api: "v1" });
    expect(() =>
      engine.apply({ kind: "delete-vertices-by-type", graph: "nowhere", vertexType: "Person", permanent: false }),
    ).to.throw();
    expect(persistence.lastLsn).to.equal(3); // the command at 2, its void at 3
    engine.apply({ kind: "set-output-api", api: "v2" });
    await persistence.close();
    const again = new Engine();
    const reopened = await openDurableEngine(tmp.dataDir, again, { snapshotOnClose: false });
    expect(reopened.report.replayedRecords).to.equal(2);
    expect(reopened.report.lastLsn).to.equal(4);
    expect(again.catalogImage().outputApi).to.equal("v2");
    await reopened.persistence.close();
  });

  it("after a log write fails the engine turns read-only: later changes are refused before they apply", async () => {
    const engine = new Engine();
    const { persistence } = await openDurableEngine(tmp.dataDir, engine, { snapshotOnClose: false });
    engine.apply({ kind: "define-schema", schema: schemaWith(["social"]) });
    await persistence.sync();
    // Pull the file out from under the log, as a failing disk would.
    await (persistence as unknown as { log: { handle: { close(): Promise<void> } } }).log.handle.close();
    engine.apply({ kind: "set-output-api", api: "v1" });
    try {
      await persistence.sync();
      expect.fail("the write must fail");
    } catch (err) {
      expect((err as Error).message).to.match(/^write-ahead log in .* failed: /);
    }
    expect(() => engine.apply({ kind: "set-output-api", api: "v2" })).to.throw(DurabilityError, /^Changes cannot be made durable, so none are accepted: write-ahead log in .* failed/);
    // v1 was applied (its answer would have reported the failure); v2 was refused before applying.
    expect(engine.outputApi).to.equal("v1");
    try {
      await persistence.close();
    } catch {
      // closing a failed log reports the failure again
    }
    const again = new Engine();
    const reopened = await openDurableEngine(tmp.dataDir, again, { snapshotOnClose: false });
    expect(again.graphNames()).to.deep.equal(["social"]);
    expect(again.outputApi).to.equal("v2");
    await reopened.persistence.close();
  });

  it("a change too large to log is refused before it applies (413), and nothing is logged", async () => {
    const engine = new Engine();
    const { persistence } = await openDurableEngine(tmp.dataDir, engine, { snapshotOnClose: false, maxRecordBytes: 200 });
    engine.apply({ kind: "set-output-api", api: "v1" });
    try {
      engine.apply({ kind: "define-schema", schema: schemaWith(["social"]) });
      expect.fail("must be refused");
    } catch (err) {
      expect(err).to.be.instanceOf(DurabilityError);
      expect((err as DurabilityError).status).to.equal(413);
      expect((err as Error).message).to.match(/^This change is \d+ bytes once encoded for the write-ahead log, more than its limit of 200 bytes/);
    }
    expect(engine.graphNames()).to.deep.equal([]);
    expect(persistence.lastLsn).to.equal(1);
    await persistence.close();
  });

  it("an engine cannot be attached to two data directories", async () => {
    const engine = new Engine();
    const { persistence } = await openDurableEngine(tmp.dataDir, engine, { snapshotOnClose: false });
    try {
      await openDurableEngine(path.join(tmp.root, "other"), engine);
      expect.fail("must refuse");
    } catch (err) {
      expect((err as Error).message).to.equal("the engine already has a command log attached");
    }
    await persistence.close();
  });

  describe("REST answers wait for durability", () => {
    async function serve(wait: (lsn: number) => Promise<void>) {
      const log = { lastLsn: 6, waitDurable: wait };
      const app = new Koa();
      app.use(durableWritesMiddleware(log));
      app.use((ctx) => {
        log.lastLsn = 7; // the request's change is logged
        ctx.body = { done: true };
      });
      const server = app.listen(0);
      await new Promise((resolve) => server.once("listening", resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return { base, close: () => new Promise((resolve) => server.close(resolve)) };
    }

    it("ack=all (default): the answer leaves only after the write is durable", async () => {
      let release!: () => void;
      const waited: number[] = [];
      const { base, close } = await serve((lsn) => {
        waited.push(lsn);
        return new Promise<void>((resolve) => (release = resolve));
      });
      let answered = false;
      const answer = fetch(base + "/w").then(async (r) => {
        answered = true;
        return r.json();
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(waited).to.deep.equal([7]);
      expect(answered).to.equal(false);
      release();
      expect(await answer).to.deep.equal({ done: true });
      await close();
    });

    it("GSQL output streams line by line, each line only once the changes before it are durable", async () => {
      let release!: () => void;
      // One gate for every wait: position 3 becomes durable when the test releases it.
      const durable = new Promise<void>((resolve) => (release = resolve));
      const asked: number[] = [];
      const app = new Koa();
      const log = {
        lastLsn: 2,
        waitDurable: (lsn: number) => {
          asked.push(lsn);
          return durable;
        },
      };
      app.use(durableWritesMiddleware(log));
      app.use((ctx) => {
        const out = new StreamShellOutput(requestDurability(ctx));
        ctx.body = out.stream;
        out.line("Using graph 'g'."); // no change before it: goes out at once
        // The statements run after the handler returned, as the GSQL server runs them.
        setImmediate(() => {
          log.lastLsn = 3; // a statement's change is logged
          out.line("Successfully created vertex types: [Person]."); // waits for position 3
          out.finish(0);
        });
      });
      const server = app.listen(0);
      await new Promise((resolve) => server.once("listening", resolve));
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      const reader = res.body!.getReader();
      let text = "";
      const readMore = async () => {
        const { value, done } = await reader.read();
        if (!done) text += new TextDecoder().decode(value);
        return done;
      };
      await readMore();
      expect(text).to.equal("Using graph 'g'.\n");
      // Nothing more arrives while the change is not durable.
      const more = readMore();
      const early = await Promise.race([more.then(() => "read"), new Promise((r) => setTimeout(() => r("waiting"), 100))]);
      expect(early).to.equal("waiting");
      release();
      while (!(await (text.includes("__GSQL__RETURN__CODE__") ? Promise.resolve(true) : readMore()))) {
        // read to the end
      }
      expect(text).to.equal("Using graph 'g'.\nSuccessfully created vertex types: [Person].\n__GSQL__RETURN__CODE__,0\n");
      expect(asked.length).to.be.greaterThan(0);
      expect(asked.every((lsn) => lsn === 3)).to.equal(true);
      await new Promise((resolve) => server.close(resolve));
    });

    it("ack=none: the answer does not wait", async () => {
      const waited: number[] = [];
      const { base, close } = await serve((lsn) => {
        waited.push(lsn);
        return new Promise<void>(() => undefined);
      });
      const r = await fetch(base + "/w?ack=none");
      expect(await r.json()).to.deep.equal({ done: true });
      expect(waited).to.deep.equal([]);
      await close();
    });
  });
});
