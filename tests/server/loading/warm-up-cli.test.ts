// `wasmgraph serve` warms the loader up once started (loading/warm-up.ts), in the background:
// the server answers at once, and reports the warm-up on stderr when it is done; the warm-up
// file lands in the OS temporary directory. --no-warm-up skips it.
import { expect } from "chai";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServerProcess, type ServerProcess } from "../persist/server-process.js";

const FILE = "wasmgraph-loader-warm-up-v1.csv";

async function until(done: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return done();
}

describe("wasmgraph serve: the loader warm-up", function () {
  this.timeout(60000);
  let temp: string;
  let server: ServerProcess | undefined;
  beforeEach(() => (temp = mkdtempSync(join(tmpdir(), "wasmgraph-warm-cli-"))));
  afterEach(async () => {
    server?.child.kill("SIGKILL");
    if (server) await server.exited;
    server = undefined;
    rmSync(temp, { recursive: true, force: true });
  });

  it("runs once the server is up: requests are answered meanwhile, and it reports when it is done", async () => {
    server = await startServerProcess(["--in-memory"], undefined, { ...process.env, TMPDIR: temp });
    const echo = await fetch(`${server.base}/echo`);
    expect(await echo.json()).to.deep.equal({ error: false, message: "Hello GSQL" });
    expect(await until(() => /loader warmed up in \d+ ms/.test(server!.stderr()), 45000), server.stderr()).to.equal(true);
    expect(existsSync(join(temp, FILE))).to.equal(true);
    expect(server.stderr()).to.not.match(/warm-up failed/);
  });

  it("--no-warm-up: no warm-up load, no file", async () => {
    server = await startServerProcess(["--in-memory", "--no-warm-up"], undefined, { ...process.env, TMPDIR: temp });
    const echo = await fetch(`${server.base}/echo`);
    expect(echo.status).to.equal(200);
    // What a warm-up would have done by now (it starts right after the server listens).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(server.stderr()).to.not.match(/warm/);
    expect(existsSync(join(temp, FILE))).to.equal(false);
  });
});
