// Builds what the GSQL executor works on from the server's parts: the engine, the catalog
// (attached to the engine so catalog changes travel as engine commands), the front end,
// the binder, and the seam the back end fills in when present.
import { analyzeSource } from "../../compiler/front-end.js";
import type { Engine } from "../engine/engine.js";
import { Catalog } from "../catalog/catalog.js";
import type { ExecServices, StatementHandler } from "./exec/context.js";
import { bindDefinitionWithBinder } from "./exec/bind-services.js";
import type { QueryServices } from "./exec/query-services.js";
import { DialogRegistry } from "./dialogs.js";
import { LoadingRuns } from "./exec/loading-runs.js";
import { SerialLock } from "./exec/serial-lock.js";

export interface GsqlServiceOptions {
  engine: Engine;
  /** Defaults to a new, empty catalog; attached to `engine` here unless it already is. */
  catalog?: Catalog;
  /** Back-end parts (compile, serve, interpret); binding is always the front end's binder. */
  queries?: Omit<QueryServices, "bind">;
  restBaseUrl(): string;
  restFetch: ExecServices["restFetch"];
  log?: (line: string) => void;
}

export function createExecServices(options: GsqlServiceOptions): ExecServices {
  const { engine } = options;
  const catalog = options.catalog ?? new Catalog();
  if (!options.catalog) attachCatalog(engine, catalog);
  return {
    engine,
    catalog,
    dialogs: new DialogRegistry(),
    loadingRuns: new LoadingRuns(),
    parse: (text, file) => {
      // Binding happens per statement against the live catalog, not for the whole text.
      const result = analyzeSource(text, file, { astOnly: true });
      return { script: result.ast, diagnostics: result.log.diagnostics };
    },
    queries: { ...options.queries, bind: bindDefinitionWithBinder },
    restBaseUrl: options.restBaseUrl,
    restFetch: options.restFetch,
    catalogLock: new SerialLock(),
    log: options.log ?? ((line) => process.stderr.write(line + "\n")),
    extraHandlers: new Map<string, StatementHandler>(),
  };
}

/** Catalog changes go through the engine's command method (logged, replayed) and land in `catalog`. */
export function attachCatalog(engine: Engine, catalog: Catalog): void {
  engine.attachCatalog(catalog);
  catalog.connect((changes) => engine.apply({ kind: "catalog", changes }));
}
