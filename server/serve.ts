// Starts the server processes' listeners. Returns handles so tests and tools can stop it.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRestApp, type RestAppOptions } from "./rest-app.js";
import type { RestServices } from "./rest-services.js";
import { Engine } from "./engine/engine.js";
import { openDurableEngine } from "./persist/engine-state.js";
import type { Persistence, PersistenceOptions } from "./persist/persistence.js";
import type { RecoveryReport } from "./persist/recovery.js";

export interface ServeOptions extends RestAppOptions {
  port: number;
  host?: string;
  /** Data directory: recover from it, and log every change there before answering. Absent: memory only. */
  dataDir?: string;
  persistence?: PersistenceOptions;
}

export interface RunningServer {
  restPort: number;
  services: RestServices;
  /** What recovery found and did (with a data directory). */
  recovery?: RecoveryReport;
  persistence?: Persistence;
  close(): Promise<void>;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const engine = options.engine ?? new Engine();
  const durable = options.dataDir
    ? await openDurableEngine(options.dataDir, engine, { log: options.log, ...options.persistence })
    : undefined;
  const { app, services } = createRestApp({ ...options, engine, durableWrites: durable?.persistence.requestMiddleware() });
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(options.port, options.host ?? "127.0.0.1", () => resolve(s));
    s.once("error", reject);
  });
  return {
    restPort: (server.address() as AddressInfo).port,
    services,
    recovery: durable?.report,
    persistence: durable?.persistence,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      if (durable) {
        await durable.persistence.close();
        engine.commandLog = undefined;
      }
    },
  };
}
