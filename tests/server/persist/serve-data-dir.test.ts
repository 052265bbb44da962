// `wasmgraph serve --data DIR` as a process: it creates and locks the directory, a second
// server on the same directory is refused, SIGKILL leaves a stale lock the next start
// takes over, SIGTERM stops cleanly, and a damaged directory stops the start with a message.
import { expect } from "chai";
import { useTempDir } from "./temp-dir.js";
import net from "node:net";
import { startServer } from "../../../server/serve.js";
import { Engine } from "../../../server/engine/engine.js";
import { socialSchema } from "../graph-fixture.js";
import { promises as fsp } from "node:fs";
import path from "node:path";
import { runServerToExit, startServerProcess } from "./server-process.js";

describe("persist: wasmgraph serve --data", function () {
  this.timeout(20_000);
  const tmp = useTempDir("serve");

  it("creates the directory, reports recovery, and refuses a second server on it", async () => {
    const server = await startServerProcess(["--data", tmp.dataDir]);
    expect(server.stderr()).to.contain(`data directory ${tmp.dataDir}: recovered an empty database + 0 log records`);
    expect((await fsp.readdir(tmp.dataDir)).sort()).to.deep.equal(["FORMAT", "LOCK", "wal"]);
    expect((await (await fetch(server.base + "/echo")).json()) as object).to.deep.equal({ error: false, message: "Hello GSQL" });

    const second = await runServerToExit(["--data", tmp.dataDir]);
    expect(second.code).to.equal(1);
    expect(second.stderr).to.contain(`data directory ${tmp.dataDir} is in use by process ${server.child.pid}`);

    server.child.kill("SIGKILL");
    expect(await server.exited).to.equal("SIGKILL");
    const third = await startServerProcess(["--data", tmp.dataDir]);
    expect(await fsp.readFile(path.join(tmp.dataDir, "LOCK"), "utf8")).to.equal(`${third.child.pid}\n`);
    third.child.kill("SIGTERM");
    expect(await third.exited).to.equal(0);
    expect(await fsp.readdir(tmp.dataDir)).to.not.include("LOCK");
  });

  it("--wait-for-lock waits while the directory is held and takes over when its holder dies", async () => {
    const first = await startServerProcess(["--data", tmp.dataDir]);
    let listening = false;
    const standby = startServerProcess(["--data", tmp.dataDir, "--wait-for-lock"]).then((s) => {
      listening = true;
      return s;
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(listening, "the standby must not listen while the first server holds the directory").to.equal(false);
    first.child.kill("SIGKILL");
    await first.exited;
    const second = await standby;
    expect(await fsp.readFile(path.join(tmp.dataDir, "LOCK"), "utf8")).to.equal(`${second.child.pid}\n`);
    expect(second.stderr()).to.match(/recovered an empty database \+ 0 log records/);
    second.child.kill("SIGKILL");
    await second.exited;
  });

  it("refuses to start on a damaged log with the file and offset", async () => {
    const server = await startServerProcess(["--data", tmp.dataDir]);
    server.child.kill("SIGKILL");
    await server.exited;
    const [segment] = await fsp.readdir(path.join(tmp.dataDir, "wal"));
    const file = path.join(tmp.dataDir, "wal", segment!);
    await fsp.writeFile(file, "this is not a log segment at all");
    const run = await runServerToExit(["--data", tmp.dataDir]);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.contain(`write-ahead log damaged in ${file} at byte offset 0: not a wasmgraph log segment`);
  });

  it("a server that cannot listen gives the data directory back (in process)", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", () => resolve()));
    const taken = (blocker.address() as net.AddressInfo).port;
    try {
      await startServer({ port: taken, dataDir: tmp.dataDir, log: () => undefined });
      expect.fail("listening on a taken port must fail");
    } catch (err) {
      expect((err as NodeJS.ErrnoException).code).to.equal("EADDRINUSE");
    } finally {
      blocker.close();
    }
    const server = await startServer({ port: 0, dataDir: tmp.dataDir, log: () => undefined });
    expect(server.recovery?.replayedRecords).to.equal(0);
    await server.close();
  });

  it("upserts over HTTP are logged as their body bytes in a binary record and replay exactly (64-bit values, repeated keys)", async () => {
    const engine = new Engine();
    const quiet = { snapshotOnClose: false, snapshotEveryBytes: 0 };
    const first = await startServer({ port: 0, engine, dataDir: tmp.dataDir, persistence: quiet, log: () => undefined });
    engine.apply({ kind: "define-schema", schema: socialSchema() });
    const base = `http://127.0.0.1:${first.restPort}`;
    const body =
      '{"vertices":{"Person":{"a":{"age":{"value":9223372036854775800}},"a":{"age":{"value":7,"op":"+"}},"b":{}},' +
      '"City":{"9223372036854775807":{"population":{"value":18446744073709551615}}}},' +
      '"edges":{"Person":{"a":{"follows":{"Person":{"b":{"weight":{"value":0.5}},"b":{"weight":{"value":1.5}}}}}}}}';
    const posted = await fetch(`${base}/graph/social`, { method: "POST", body });
    expect(posted.status, await posted.clone().text()).to.equal(200);
    const read = async (b: string) => Promise.all(["/graph/social/vertices/Person", "/graph/social/vertices/City", "/graph/social/edges/Person/a"].map(async (p) => (await fetch(b + p)).text()));
    const before = await read(base);
    expect(before[0]).to.contain('"age":9223372036854775807');
    await first.close();

    const [segment] = await fsp.readdir(path.join(tmp.dataDir, "wal"));
    const logged = await fsp.readFile(path.join(tmp.dataDir, "wal", segment!), "latin1");
    // A binary record (U, version 1, the graph name, then the body), no JSON text of the command.
    expect(logged).to.contain("U\u0001\u0006\u0000\u0000\u0000social");
    expect(logged).to.not.contain("upsert");

    const second = await startServer({ port: 0, engine: new Engine(), dataDir: tmp.dataDir, persistence: quiet, log: () => undefined });
    expect(second.recovery?.replayedRecords).to.equal(2);
    expect(await read(`http://127.0.0.1:${second.restPort}`)).to.deep.equal(before);
    await second.close();
  });

  it("refuses an engine that already holds changes the log never saw", async () => {
    const engine = new Engine();
    engine.apply({ kind: "define-schema", schema: socialSchema() });
    try {
      await startServer({ port: 0, engine, dataDir: tmp.dataDir, log: () => undefined });
      expect.fail("must refuse");
    } catch (err) {
      expect((err as Error).message).to.equal("the engine already holds a schema or data: attach the data directory before making changes");
    }
  });

  it("--in-memory uses no directory", async () => {
    const server = await startServerProcess(["--in-memory", "--data", tmp.dataDir]);
    expect(server.stderr()).to.not.contain("data directory");
    server.child.kill("SIGKILL");
    await server.exited;
    expect(await fsp.readdir(tmp.root)).to.deep.equal([]);
  });
});
