// The switch: `wasmgraph serve --auth` (or WASMGRAPH_AUTH=true) turns authentication on; by
// default it is off. Run as a subprocess, as users start it; and the probe tools use to tell.
import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { restAuthEnabled } from "../../../server/auth/auth-probe.js";
import { startServer } from "../../../server/serve.js";
import { startAuthServer } from "./auth-fixture.js";

const WASMGRAPH = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "tools", "cli", "wasmgraph.js");

/** Starts `wasmgraph serve` on free ports; resolves once it listens, with its REST address and its output so far (live). */
function serve(args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; rest: string; output(): string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WASMGRAPH, "serve", "--port", "0", "--gsql-port", "0", "--no-demo", "--in-memory", ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no start within 30 s: ${stdout}`));
    }, 30_000);
    child.stdout!.on("data", (d: Buffer) => {
      stdout += d.toString("utf8");
      const rest = /REST endpoints on (http:\/\/\S+)/.exec(stdout)?.[1];
      // The GSQL-server line is printed once both listeners are up; the lines after it follow in the same turn.
      if (rest && stdout.includes("GSQL-server endpoints on")) {
        clearTimeout(timer);
        resolve({ child, rest, output: () => stdout });
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}: ${stdout}`));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners("exit");
    child.on("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

describe("auth: the switch", function () {
  this.timeout(60_000);

  it("wasmgraph serve --auth requires credentials and says so", async () => {
    const { child, rest, output } = await serve(["--auth"]);
    try {
      const res = await fetch(rest + "/echo");
      expect(res.status).to.equal(401);
      expect(output()).to.include("authentication is on");
      expect(output()).to.include("user tigergraph still has its default password");
      expect(await restAuthEnabled(rest)).to.equal(true);
    } finally {
      await stop(child);
    }
  });

  it("WASMGRAPH_AUTH=true does the same; without either, nothing is asked", async () => {
    const on = await serve([], { WASMGRAPH_AUTH: "true" });
    try {
      expect((await fetch(on.rest + "/echo")).status).to.equal(401);
    } finally {
      await stop(on.child);
    }
    const off = await serve([], { WASMGRAPH_AUTH: "" });
    try {
      expect((await fetch(off.rest + "/echo")).status).to.equal(200);
      expect(off.output()).to.not.include("authentication is on");
      expect(await restAuthEnabled(off.rest)).to.equal(false);
    } finally {
      await stop(off.child);
    }
  });

  it("refuses a WASMGRAPH_AUTH value it cannot read", async () => {
    const child = spawn(process.execPath, [WASMGRAPH, "serve", "--port", "0", "--gsql-port", "0", "--no-demo", "--in-memory"], {
      env: { ...process.env, WASMGRAPH_AUTH: "maybe" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).to.equal(2);
    expect(stderr).to.equal("wasmgraph: WASMGRAPH_AUTH must be true or false, got 'maybe'\n");
  });

  it("in process: RunningServer.auth.enabled", async () => {
    const off = await startServer({ port: 0, log: () => undefined });
    const on = await startAuthServer();
    try {
      expect(off.auth.enabled).to.equal(false);
      expect(on.server.auth.enabled).to.equal(true);
    } finally {
      await off.close();
      await on.close();
    }
  });
});
