// Test helpers: a real server (REST + GSQL-server endpoints on ephemeral ports) and requests
// sent exactly as the shell client sends them (URL-encoded text, GSQL-Cookie header), with
// the streamed answer split into printed lines and control lines.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { startServer, type RunningServer } from "../../../server/serve.js";
import { jsonOrUndefined } from "../../helpers/http.js";

export interface GsqlAnswer {
  status: number;
  /** Lines a shell prints (control lines removed). */
  lines: string[];
  /** The text of `lines`, joined with newlines. */
  text: string;
  returnCode?: number;
  /** The last `__GSQL__COOKIES__` payload, if any. */
  cookie?: string;
  raw: string;
}

export interface GsqlTestServer {
  server: RunningServer;
  gsqlUrl: string;
  restUrl: string;
  logged: string[];
  /** POST /gsqlserver/gsql/file. */
  file(text: string, cookie?: Record<string, unknown> | string): Promise<GsqlAnswer>;
  /** POST /gsqlserver/gsql/command. */
  command(text: string, cookie?: Record<string, unknown> | string): Promise<GsqlAnswer>;
  post(path: string, body: string | Uint8Array, headers?: Record<string, string>): Promise<{ status: number; text: string }>;
  get(path: string): Promise<{ status: number; text: string; json: any }>;
  close(): Promise<void>;
}

export async function startGsqlServer(): Promise<GsqlTestServer> {
  const logged: string[] = [];
  const server = await startServer({ port: 0, gsqlPort: 0, log: (l) => logged.push(l) });
  const gsqlUrl = `http://127.0.0.1:${server.gsqlPort}`;
  const send = async (endpoint: string, text: string, cookie?: Record<string, unknown> | string) => {
    const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
    if (cookie !== undefined) headers["GSQL-Cookie"] = typeof cookie === "string" ? cookie : JSON.stringify(cookie);
    const res = await fetch(`${gsqlUrl}/gsqlserver/gsql/${endpoint}`, { method: "POST", body: encodeURIComponent(text), headers });
    return splitAnswer(res.status, await res.text());
  };
  return {
    server,
    gsqlUrl,
    restUrl: `http://127.0.0.1:${server.restPort}`,
    logged,
    file: (text, cookie) => send("file", text, cookie),
    command: (text, cookie) => send("command", text, cookie),
    post: async (path, body, headers = {}) => {
      const res = await fetch(gsqlUrl + path, { method: "POST", body, headers });
      return { status: res.status, text: await res.text() };
    },
    get: async (path) => {
      const res = await fetch(gsqlUrl + path);
      const text = await res.text();
      const json = jsonOrUndefined(text);
      return { status: res.status, text, json };
    },
    close: () => server.close(),
  };
}

export function splitAnswer(status: number, raw: string): GsqlAnswer {
  const lines: string[] = [];
  let returnCode: number | undefined;
  let cookie: string | undefined;
  const all = raw.split("\n");
  if (all[all.length - 1] === "") all.pop();
  for (const line of all) {
    if (line.startsWith("__GSQL__RETURN__CODE__,")) returnCode = Number(line.slice("__GSQL__RETURN__CODE__,".length));
    else if (line.startsWith("__GSQL__COOKIES__,")) cookie = line.slice("__GSQL__COOKIES__,".length);
    else if (!line.startsWith("__GSQL__")) lines.push(line);
  }
  return { status, lines, text: lines.join("\n"), returnCode, cookie, raw };
}

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const GSQL_BIN = join(root, "tools", "cli", "gsql.js");

/** Runs the `gsql` shell as a subprocess; `input` is piped to its stdin. */
export function runShell(args: string[], input = "", cwd?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [GSQL_BIN, ...args], { cwd, stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, HOME: cwd ?? process.env.HOME } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

/** The social schema most tests start from. */
export const SOCIAL_SCHEMA = `CREATE VERTEX Person (PRIMARY_ID name STRING, name STRING, age INT)
CREATE VERTEX City (PRIMARY_ID id STRING) WITH primary_id_as_attribute="true"
CREATE UNDIRECTED EDGE Friendship (FROM Person, TO Person, since DATETIME)
CREATE DIRECTED EDGE Lives (FROM Person, TO City) WITH REVERSE_EDGE="Lives_rev"
CREATE GRAPH Social (Person, City, Friendship, Lives)
`;
