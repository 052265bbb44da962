// Starts the server processes' listeners. Returns handles so tests and tools can stop it.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRestApp } from "./rest-app.js";

export interface ServeOptions {
  port: number;
  host?: string;
  log?: (line: string) => void;
}

export interface RunningServer {
  restPort: number;
  close(): Promise<void>;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const rest = createRestApp({ log: options.log });
  const server: Server = await new Promise((resolve, reject) => {
    const s = rest.listen(options.port, options.host ?? "127.0.0.1", () => resolve(s));
    s.once("error", reject);
  });
  return {
    restPort: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
