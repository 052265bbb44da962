// Runs `wasmgraph serve` as a child process for crash and restart tests: start it on an
// ephemeral port, learn the port from its first line, kill it (SIGKILL or SIGTERM), and
// collect what it wrote to stderr.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../tools/cli/wasmgraph.js");

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  /** The GSQL-server endpoints. */
  gsqlBase: string;
  stderr(): string;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>;
}

/**
 * Starts the server; rejects with its stderr if it exits before listening. `onSpawn` sees
 * the child at once, so a caller can stop it even if it never listens.
 */
export function startServerProcess(args: string[], onSpawn?: (child: ChildProcess) => void, env: NodeJS.ProcessEnv = process.env): Promise<ServerProcess> {
  // Free ports for both servers, and no demo graph: these tests bring their own data.
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", "--gsql-port", "0", "--no-demo", ...args], { stdio: ["ignore", "pipe", "pipe"], env });
  onSpawn?.(child);
  let stdout = "";
  let stderr = "";
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)));
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      stdout += d.toString();
      const rest = /REST endpoints on (http:\/\/[^\s]+)/.exec(stdout);
      const gsql = /GSQL-server endpoints on (http:\/\/[^\s]+)/.exec(stdout);
      if (rest && gsql) resolve({ child, base: rest[1]!, gsqlBase: gsql[1]!, stderr: () => stderr, exited });
    });
    void exited.then((code) => reject(new Error(`server exited (${code}) before listening: ${stderr}`)));
  });
}

/** Runs the server command to its end (for starts that must fail). */
export async function runServerToExit(args: string[]): Promise<{ code: number | string; stderr: string }> {
  try {
    const server = await startServerProcess(args);
    server.child.kill("SIGKILL");
    return { code: await server.exited, stderr: server.stderr() };
  } catch (err) {
    const message = (err as Error).message;
    const match = /^server exited \(([^)]*)\) before listening: ([\s\S]*)$/.exec(message);
    if (!match) throw err;
    return { code: Number.isNaN(Number(match[1])) ? match[1]! : Number(match[1]), stderr: match[2]! };
  }
}
