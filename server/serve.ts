// Starts the server processes' listeners. Returns handles so tests and tools can stop it.
import type { Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { errorEnvelope } from "./http/envelope.js";
import { createRestApp, type RestAppOptions } from "./rest-app.js";
import type { RestServices } from "./rest-services.js";
import { Engine } from "./engine/engine.js";
import { openDurableEngine, type EngineStateOptions } from "./persist/engine-state.js";
import type { Persistence, PersistenceOptions } from "./persist/persistence.js";
import type { RecoveryReport } from "./persist/recovery.js";

export interface ServeOptions extends RestAppOptions {
  port: number;
  host?: string;
  /** Data directory: recover from it, and log every change there before answering. Absent: memory only. */
  dataDir?: string;
  /** Snapshot policy, standby mode, and the hook that reinstalls queries after recovery. */
  persistence?: PersistenceOptions & EngineStateOptions;
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
  let server: Server;
  try {
    server = await new Promise((resolve, reject) => {
      const s = app.listen(options.port, options.host ?? "127.0.0.1", () => resolve(s));
      s.once("error", reject);
    });
  } catch (err) {
    // Not listening (port taken, …): give the data directory back.
    await durable?.persistence.close().catch(() => undefined);
    throw err;
  }
  server.on("clientError", answerMalformedRequest);
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

/**
 * Requests Node's HTTP parser refuses before any route sees them (a URL or headers over
 * the 16 KiB limit, malformed request lines) still get the interface's envelope.
 */
function answerMalformedRequest(err: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === "HPE_HEADER_OVERFLOW";
  const message = tooLarge ? "The request line or headers are longer than the server accepts (16 KiB)." : "Malformed HTTP request.";
  const body = JSON.stringify(errorEnvelope(message, "REST-30000"));
  const status = tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request";
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
