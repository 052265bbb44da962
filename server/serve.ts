// Starts the server processes' listeners: the REST endpoints and, when a GSQL port is given,
// the GSQL-server endpoints over the same engine and catalog. Returns handles so tests and
// tools can stop it.
import type { Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type Koa from "koa";
import { errorEnvelope } from "./http/envelope.js";
import { createRestApp, type RestAppOptions } from "./rest-app.js";
import type { RestServices } from "./rest-services.js";
import { createGsqlApp } from "./gsql/gsql-app.js";
import { attachCatalog, createExecServices, type GsqlServiceOptions } from "./gsql/gsql-services.js";
import { Catalog } from "./catalog/catalog.js";
import type { ExecServices } from "./gsql/exec/context.js";
import { createDemoGraph, isEmptyDatabase, type DemoResult } from "./gsql/demo/demo-graph.js";
import { Engine } from "./engine/engine.js";
import { createStore } from "../runtime-wasm/store/index.js";

export interface ServeOptions extends RestAppOptions {
  port: number;
  host?: string;
  /** Port of the GSQL-server endpoints (0: any free port); absent: not started. */
  gsqlPort?: number;
  /** Create the demo graph when the database is empty (needs the GSQL port). */
  demo?: boolean;
  /** Back-end parts of the GSQL executor (compile, serve, interpret), when this build has them. */
  gsql?: Pick<GsqlServiceOptions, "queries">;
}

export interface RunningServer {
  restPort: number;
  /** Undefined when the GSQL-server endpoints were not started. */
  gsqlPort?: number;
  services: RestServices;
  /** Queries, loading jobs and schema-change jobs (snapshots take `catalog.snapshot()`). */
  catalog: Catalog;
  gsql?: ExecServices;
  /** What creating the demo graph printed, when it was created at this start. */
  demo?: DemoResult;
  close(): Promise<void>;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  // The graph store lives in WebAssembly memory (runtime-wasm/store).
  const engine = options.engine ?? new Engine({ createStore });
  // The GSQL catalog is attached before anything runs, so every catalog command (live or
  // replayed from a log) reaches it.
  const catalog = new Catalog();
  attachCatalog(engine, catalog);
  const { app, services } = createRestApp({ ...options, engine });
  const restServer = await listen(app, options.port, host);
  const restPort = (restServer.address() as AddressInfo).port;
  const servers = [restServer];
  let gsql: ExecServices | undefined;
  let gsqlPort: number | undefined;
  let demo: DemoResult | undefined;
  if (options.gsqlPort !== undefined) {
    const local = `http://127.0.0.1:${restPort}`;
    gsql = createExecServices({
      engine: services.engine,
      catalog,
      ...options.gsql,
      restBaseUrl: () => `http://${displayHost(host)}:${restPort}`,
      restFetch: async (path, init) => {
        const res = await fetch(local + path, init);
        return { status: res.status, text: await res.text() };
      },
      log: options.log,
    });
    const gsqlApp = createGsqlApp({ exec: gsql, restHandler: app.callback(), log: options.log });
    const gsqlServer = await listen(gsqlApp, options.gsqlPort, host);
    gsqlPort = (gsqlServer.address() as AddressInfo).port;
    servers.push(gsqlServer);
    if (options.demo && isEmptyDatabase(gsql)) demo = await createDemoGraph(gsql);
  }
  return {
    restPort,
    gsqlPort,
    services,
    catalog,
    gsql,
    demo,
    close: () =>
      Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeAllConnections();
            }),
        ),
      ).then(() => undefined),
  };
}

function listen(app: Koa, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const s = app.listen(port, host, () => resolve(s));
    s.once("error", reject);
    s.on("clientError", answerMalformedRequest);
  });
}

/** The address users type: a wildcard listen address is reached as 127.0.0.1. */
function displayHost(host: string): string {
  return host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
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
