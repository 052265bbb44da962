// Starts the server: the engine (recovered from the data directory when one is given), the
// GSQL catalog attached to it, the REST endpoints and, when a GSQL port is given, the
// GSQL-server endpoints over the same engine and catalog; the demo graph on a first start.
// Returns handles so tests and tools can stop it.
import type { Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type Koa from "koa";
import { errorEnvelope } from "./http/envelope.js";
import { createRestApp, type RestAppOptions } from "./rest-app.js";
import type { RestServices } from "./rest-services.js";
import { Engine } from "./engine/engine.js";
import { createStore } from "../runtime-wasm/store/index.js";
import path from "node:path";
import { openDurableEngine, type EngineStateOptions } from "./persist/engine-state.js";
import { ModuleStore } from "./persist/module-store.js";
import type { Persistence, PersistenceOptions } from "./persist/persistence.js";
import type { RecoveryReport } from "./persist/recovery.js";
import { Catalog } from "./catalog/catalog.js";
import { createGsqlApp } from "./gsql/gsql-app.js";
import { attachCatalog, createExecServices, type GsqlServiceOptions } from "./gsql/gsql-services.js";
import type { ExecServices } from "./gsql/exec/context.js";
import { reinstallInstalledQueries } from "./gsql/exec/query-install.js";
import { backendQueryServices, InstalledQueries, LazyQueryRuntime } from "./gsql/query-backend.js";
import { makeDemoGraphIfNew, type DemoResult } from "./gsql/demo/demo-graph.js";
import { AuthService, type AuthOptions } from "./auth/auth-service.js";
import { registerAuthStatements } from "./auth/gsql/register.js";
import { createGsqlServerAuth } from "./auth/gsql-server-auth.js";
import { tuneHeapForServing } from "./heap-tuning.js";
import { IdleCompaction } from "./engine/idle-compaction.js";
import { warmLoader, warmReaderThread } from "./loading/index.js";

export interface ServeOptions extends Omit<RestAppOptions, "auth" | "durableWrites" | "queries"> {
  port: number;
  /** Authentication: off unless `enabled` (wasmgraph serve --auth). */
  auth?: AuthOptions;
  host?: string;
  /** Port of the GSQL-server endpoints (0: any free port); absent: not started. */
  gsqlPort?: number;
  /** Create the demo graph when the database is empty (needs the GSQL port). */
  demo?: boolean;
  /** Data directory: recover from it, and log every change there before answering. Absent: memory only. */
  dataDir?: string;
  /** Snapshot policy, standby mode, and the hook that reinstalls queries after recovery. */
  persistence?: PersistenceOptions & EngineStateOptions;
  /** Replaces the back-end parts of the GSQL executor (tests). */
  gsql?: Pick<GsqlServiceOptions, "queries">;
  /** Milliseconds without a write before edge lists are compacted (default 2000; 0: never). */
  idleCompactionMs?: number;
  /**
   * Run the loader's warm-up load in the background once started (loading/warm-up.ts), so that
   * the first large load runs compiled code (wasmgraph serve does, unless --no-warm-up).
   */
  warmLoader?: boolean;
}

export interface RunningServer {
  restPort: number;
  /** Undefined when the GSQL-server endpoints were not started. */
  gsqlPort?: number;
  services: RestServices;
  /** Queries, loading jobs and schema-change jobs. */
  catalog: Catalog;
  /** The compiled modules of the installed queries (what GET /query/{graph}/{name} runs) and the runtime that runs them. */
  installedQueries: InstalledQueries;
  queryRuntime: LazyQueryRuntime;
  gsql: ExecServices;
  /** Authentication and access (`auth.enabled` tells whether requests need credentials). */
  auth: AuthService;
  /** What creating the demo graph printed, when it was created at this start. */
  demo?: DemoResult;
  /** What recovery found and did (with a data directory). */
  recovery?: RecoveryReport;
  persistence?: Persistence;
  close(): Promise<void>;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  tuneHeapForServing();
  const host = options.host ?? "127.0.0.1";
  const log = options.log ?? ((line: string) => process.stderr.write(line + "\n"));
  // The graph store lives in WebAssembly memory (runtime-wasm/store).
  const engine = options.engine ?? new Engine({ createStore });
  // The catalog is attached before recovery, so replayed catalog commands reach it.
  const catalog = new Catalog();
  attachCatalog(engine, catalog);
  const auth = new AuthService(engine, options.auth);
  auth.attachQueries((graph, name) => catalog.query(graph, name)?.text);
  const installedQueries = new InstalledQueries();
  const queryRuntime = new LazyQueryRuntime();
  // Compiled modules kept beside the data, so a restart installs queries without compiling.
  const moduleStore = options.dataDir ? new ModuleStore(path.join(options.dataDir, "modules")) : undefined;
  let restPort = 0;
  const gsql = createExecServices({
    engine,
    catalog,
    queries: backendQueryServices(engine, installedQueries, queryRuntime, moduleStore),
    ...options.gsql,
    restBaseUrl: () => `http://${displayHost(host)}:${restPort}`,
    restFetch: async (path, init) => {
      const res = await fetch(`http://127.0.0.1:${restPort}${path}`, init);
      return { status: res.status, text: await res.text() };
    },
    log,
  });
  registerAuthStatements(gsql, auth);
  const durable = options.dataDir
    ? await openDurableEngine(options.dataDir, engine, {
        log,
        ...options.persistence,
        reinstallQueries: async () => {
          const r = await reinstallInstalledQueries(gsql);
          for (const f of r.failed) log(`query ${f.graph}.${f.name} could not be installed again (${f.reason}); it is now uninstalled`);
          // Modules of queries no longer installed (or of an older compiler) go.
          await moduleStore?.prune().catch(() => undefined);
        },
      })
    : undefined;
  // After recovery: the users, roles and secrets of the data directory are known by now.
  if (auth.enabled) await auth.ensureSuperuser();
  const { app, services } = createRestApp({
    ...options,
    engine,
    auth,
    durableWrites: durable?.persistence.requestMiddleware(),
    queries: { installed: installedQueries, runtime: () => queryRuntime.get() },
  });
  installedQueries.publishTo(services.endpoints);
  let servers: Server[];
  try {
    servers = [await listen(app, options.port, host)];
  } catch (err) {
    // Not listening (port taken, …): give the data directory back.
    await durable?.persistence.close().catch(() => undefined);
    throw err;
  }
  restPort = (servers[0]!.address() as AddressInfo).port;
  // A large file load (RUN LOADING JOB) then finds its reader thread started.
  void warmReaderThread();
  let gsqlPort: number | undefined;
  let demo: DemoResult | undefined;
  if (options.gsqlPort !== undefined) {
    const gsqlApp = createGsqlApp({ exec: gsql, restHandler: app.callback(), log, auth: createGsqlServerAuth(auth), durableWrites: durable?.persistence.requestMiddleware() });
    const gsqlServer = await listen(gsqlApp, options.gsqlPort, host);
    gsqlPort = (gsqlServer.address() as AddressInfo).port;
    servers.push(gsqlServer);
    if (options.demo) demo = await makeDemoGraphIfNew(gsql, options.dataDir, async () => await durable?.persistence.sync());
  }
  // After the demo: its queries compile first. The warm-up's batches are short main-thread holds.
  if (options.warmLoader) {
    const started = performance.now();
    warmLoader().then(
      () => log(`loader warmed up in ${Math.round(performance.now() - started)} ms`),
      (err: unknown) => log(`loader warm-up failed: ${err instanceof Error ? err.message : String(err)}`),
    );
  }
  const idleCompaction = options.idleCompactionMs === 0 ? undefined : new IdleCompaction(() => engine.storeIfCreated, { idleMs: options.idleCompactionMs, log });
  idleCompaction?.start();
  return {
    restPort,
    gsqlPort,
    services,
    catalog,
    installedQueries,
    queryRuntime,
    gsql,
    auth,
    demo,
    recovery: durable?.report,
    persistence: durable?.persistence,
    close: async () => {
      idleCompaction?.stop();
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeAllConnections();
            }),
        ),
      );
      await queryRuntime.close();
      if (durable) {
        await durable.persistence.close();
        engine.commandLog = undefined;
      }
    },
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
