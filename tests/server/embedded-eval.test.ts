// wasmgraph embedded in a program that Node runs as an `--eval` ES module
// (`node --input-type=module -e ...`): the worker threads the server starts (query workers,
// the snapshot writer) must not inherit `--input-type`, which makes a worker started from a
// file fail at once (and a failing query worker used to be replaced in an endless loop).
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { withoutInputType } from "../../runtime-wasm/start-worker.js";

const SERVE_URL = new URL("../../server/serve.js", import.meta.url).href;

describe("an embedding program run with --input-type=module -e", function () {
  this.timeout(60000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), "wasmgraph-eval-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("runs an installed query in a worker and writes its snapshot on close", () => {
    const program = `
      import { startServer } from ${JSON.stringify(SERVE_URL)};
      const server = await startServer({ port: 0, gsqlPort: 0, demo: true, dataDir: ${JSON.stringify(dir)}, log: () => {} });
      const res = await fetch("http://127.0.0.1:" + server.restPort + "/query/Social/friend_count");
      console.log(JSON.stringify({ status: res.status, body: await res.json() }));
      await server.close();
    `;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", program], { encoding: "utf8", timeout: 50000 });
    expect(run.stderr).to.equal("");
    expect(run.status).to.equal(0);
    const answer = JSON.parse(run.stdout.trim());
    expect(answer.status).to.equal(200);
    expect(answer.body.error).to.equal(false);
    expect(answer.body.results).to.be.an("array").that.is.not.empty;
    // The writer thread made the snapshot of the demo graph at close.
    expect(readdirSync(path.join(dir, "snapshots")).length).to.be.greaterThan(0);
  });

  it("keeps every flag but --input-type (either spelling) for workers", () => {
    expect(withoutInputType(["--input-type=module", "--max-old-space-size=512", "--input-type", "commonjs", "--enable-source-maps"]))
      .to.deep.equal(["--max-old-space-size=512", "--enable-source-maps"]);
    expect(withoutInputType([])).to.deep.equal([]);
  });

  it("still starts its workers when a flag Node refuses in a worker's own list (--expose-gc) is present", () => {
    const program = `
      import { startServer } from ${JSON.stringify(SERVE_URL)};
      const server = await startServer({ port: 0, gsqlPort: 0, demo: true, log: () => {} });
      const res = await fetch("http://127.0.0.1:" + server.restPort + "/query/Social/friend_count");
      console.log(res.status);
      await server.close();
    `;
    for (const flags of [["--expose-gc"], ["--expose-gc", "--input-type=module"]]) {
      const file = flags.includes("--input-type=module") ? ["-e", program] : ["--input-type=module", "-e", program];
      const run = spawnSync(process.execPath, [...flags, ...file], { encoding: "utf8", timeout: 50000 });
      expect(run.stderr, flags.join(" ")).to.equal("");
      expect(run.stdout.trim(), flags.join(" ")).to.equal("200");
    }
  });
});
