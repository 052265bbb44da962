// Test helper: starts the real server on an ephemeral port and sends requests to it.
import { startServer, type RunningServer, type ServeOptions } from "../../server/serve.js";

export interface TestServer {
  server: RunningServer;
  url(path: string): string;
  get(path: string, init?: RequestInit): Promise<{ status: number; json: any; text: string }>;
  request(method: string, path: string, body?: string, headers?: Record<string, string>): Promise<{ status: number; json: any; text: string }>;
  close(): Promise<void>;
}

/** A response body parsed as JSON, or undefined when it is not JSON (an answer's `json`). */
export function jsonOrUndefined(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Options as for startServer (an engine with a schema, a clock, limits); the port is ephemeral. */
export async function startTestServer(options: Partial<ServeOptions> = {}): Promise<TestServer> {
  const logged: string[] = [];
  const server = await startServer({ log: (line) => logged.push(line), ...options, port: 0 });
  const base = `http://127.0.0.1:${server.restPort}`;
  const request = async (method: string, path: string, body?: string, headers?: Record<string, string>) => {
    const res = await fetch(base + path, { method, body, headers });
    const text = await res.text();
    const json = jsonOrUndefined(text);
    return { status: res.status, json, text };
  };
  return {
    server,
    url: (path) => base + path,
    get: (path) => request("GET", path),
    request,
    close: () => server.close(),
  };
}
