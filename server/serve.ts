// Starts the server processes' listeners. Returns handles so tests and tools can stop it.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRestApp, type RestAppOptions } from "./rest-app.js";
import type { RestServices } from "./rest-services.js";

export interface ServeOptions extends RestAppOptions {
  port: number;
  host?: string;
}

export interface RunningServer {
  restPort: number;
  services: RestServices;
  close(): Promise<void>;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const { app, services } = createRestApp(options);
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(options.port, options.host ?? "127.0.0.1", () => resolve(s));
    s.once("error", reject);
  });
  return {
    restPort: (server.address() as AddressInfo).port,
    services,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
