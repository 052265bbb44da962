// The seam between the executor and the query compiler: binding a query text against the
// catalog (compiler/bind), and the back end's compileQuery(bound, level) with the query
// runtime that serves /query/{graph}/{name}. serve.ts fills it from those modules; a server
// built without one of them answers the commands that need it with a clear error instead of
// pretending (see `unavailable`).
import type { BindCatalog, QuerySignature } from "../../../compiler/bind/catalog.js";
import type { AstQueryDefinition } from "../../../compiler/ast/index.js";
import type { Diagnostic } from "../../../compiler/diagnostics/index.js";

export interface BoundQueryInfo {
  /** Name and type errors and warnings (the query is a draft when there is an error). */
  diagnostics: readonly Diagnostic[];
  signature?: QuerySignature;
  /** Names of the queries of the same graph it calls. */
  callees: string[];
  /** The bound tree, handed to the back end unchanged. */
  bound?: unknown;
}

export interface InstallItem {
  graph: string;
  name: string;
  bound: unknown;
}

export interface QueryRunOptions {
  /** Output API of the results envelope. */
  api: "v1" | "v2";
  /** Milliseconds; 0 for the server's default. */
  timeoutMs: number;
}

export interface QueryServices {
  /** Binds a query definition on `graph`. Undefined when the binder is not part of this build. */
  bind?(definition: AstQueryDefinition, catalog: BindCatalog, graph: string): BoundQueryInfo;
  /**
   * The back end's compileQuery(bound, level) for each query (level 0 by default, 3 for
   * -OPTIMIZE), then GET /query/{graph}/{name} serves every one of them; all or none: on a
   * failure nothing new is served and the error names the query. `compiled(i)` reports
   * progress after each query.
   */
  install?(batch: InstallItem[], level: number, compiled: (done: number) => void): Promise<void>;
  /** Stops serving an installed query (dropped, replaced, deprecated). */
  uninstall?(graph: string, name: string): void;
  /**
   * Runs a bound query without installing it (INTERPRET QUERY); `parameters` in the
   * query-string form of GET /query. Returns the response envelope as JSON text.
   */
  interpret?(graph: string, bound: unknown, parameters: URLSearchParams, options: QueryRunOptions): Promise<string>;
}

/** The message for a command this server build cannot carry out. */
export function unavailable(what: string): string {
  return `${what} is not available in this server build: the query compiler is not part of it.`;
}
