// What every statement handler of the executor gets: the services it works on (engine,
// catalog, front end, back-end seams), where its output goes, and the session it runs in.
// Handlers return an Outcome; the script runner turns outcomes into return codes and decides
// whether a file goes on after an error.
import type { Engine } from "../../engine/engine.js";
import type { Catalog } from "../../catalog/catalog.js";
import type { CatalogChange } from "../../catalog/catalog-state.js";
import type { DatabaseSchema } from "../../../runtime-wasm/schema/types.js";
import type { AstQueryDefinition, AstScript, AstTopStatement } from "../../../compiler/ast/index.js";
import type { Diagnostic } from "../../../compiler/diagnostics/index.js";
import type { DialogRegistry } from "../dialogs.js";
import type { LoadingRuns } from "./loading-runs.js";
import type { ShellOutput } from "../shell-output.js";
import type { Session } from "../session.js";
import type { QueryServices } from "./query-services.js";
import type { SerialLock } from "./serial-lock.js";
import type { Principal } from "../../auth/access.js";

/** How one statement ended. */
export type Outcome = "ok" | "error" | "no-graph";

/** Return codes of the `__GSQL__RETURN__CODE__` line (gsql-ddl-loading-shell §10.2). */
export const RETURN_CODES = { ok: 0, syntax: 211, error: 212, "no-graph": 213 } as const;

export interface ParsedScript {
  script: AstScript;
  /** Syntax diagnostics, in source order. */
  diagnostics: readonly Diagnostic[];
}

/** The front end's parse step (compiler/front-end.ts). */
export type ParseGsql = (text: string, file: string) => ParsedScript;

export interface ExecServices {
  engine: Engine;
  catalog: Catalog;
  dialogs: DialogRegistry;
  /** Loading job runs by job id (SHOW LOADING STATUS, ABORT and RESUME LOADING JOB). */
  loadingRuns: LoadingRuns;
  parse: ParseGsql;
  queries: QueryServices;
  /** The REST endpoints' address as users reach it, for the curl lines INSTALL QUERY prints. */
  restBaseUrl(): string;
  /** A request to the REST endpoints, in process (RUN QUERY goes through GET /query like any client). */
  restFetch(path: string, init?: { method?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; text: string }>;
  /** Serialises statements that change the catalog or schema. */
  catalogLock: SerialLock;
  /** The server log (internal errors; never shown to clients). */
  log(line: string): void;
  /** Handlers other parts of the server add (users, roles, secrets), by statement kind. */
  extraHandlers: Map<string, StatementHandler>;
  /** Access control (server/auth); absent when nothing plugs it in, which means no checks. */
  access?: ExecAccess;
}

/** A statement's access check: refused with a message, or allowed with work to do once it ran. */
export type StatementCheck = { ok: true; after?(outcome: Outcome): void } | { ok: false; message: string };

/** What server/auth plugs into the executor. */
export interface ExecAccess {
  readonly enabled: boolean;
  /** Checks a statement before it runs as `ctx.principal`. */
  check(statement: AstTopStatement, ctx: StatementContext): StatementCheck;
  /** Checks running a query text without installing it (POST /gsqlserver/interpreted_query). */
  checkInterpret(principal: Principal | undefined, definition: AstQueryDefinition, graph: string): StatementCheck;
  /** False when the query's READ ACL hides its text from the principal (SHOW QUERY). */
  mayReadQueryText(ctx: StatementContext, graph: string, query: string): boolean;
  /** The Authorization header for the executor's own REST calls made for the principal. */
  restAuthorization(ctx: StatementContext): string | undefined;
}

export interface StatementContext {
  services: ExecServices;
  out: ShellOutput;
  /** The session; handlers that change it call `sessionChanged`. */
  session: Session;
  sessionChanged(): void;
  /** The whole text being run, for statement texts and error positions. */
  source: string;
  /** "file" (a script) or "interactive" (one shell command). */
  mode: "file" | "interactive";
  /** SET exit_on_error (files only). */
  exitOnError: boolean;
  /** Who runs the statements (absent: the server itself, e.g. the demo graph at start-up). */
  principal?: Principal;
}

export type StatementHandler = (statement: AstTopStatement, ctx: StatementContext) => Promise<Outcome> | Outcome;

/** Submits catalog changes (and with DDL the new schema) as one engine command. */
export function submit(ctx: StatementContext, changes: CatalogChange[], extra: { schema?: DatabaseSchema; clearData?: boolean } = {}): void {
  ctx.services.engine.apply({ kind: "catalog", changes, ...extra });
}

/** The source text of a statement. */
export function statementText(ctx: StatementContext, statement: { range: { start: { offset: number }; end: { offset: number } } }): string {
  return ctx.source.slice(statement.range.start.offset, statement.range.end.offset);
}

export const NO_GRAPH_MESSAGE =
  "Currently not using any graphs! Please use 'USE GRAPH' command to switch to a graph. Create a graph if no graph exists.";

/**
 * The graph a graph-scoped command works on: the statement's FOR GRAPH, else the session's.
 * Prints the shell's message and returns undefined when there is none or it does not exist.
 */
export function workingGraph(ctx: StatementContext, forGraph?: string): { graph?: string; outcome?: Outcome } {
  const name = forGraph ?? ctx.session.graph;
  if (name === undefined) {
    ctx.out.line(NO_GRAPH_MESSAGE);
    return { outcome: "no-graph" };
  }
  if (!ctx.services.engine.schema.graphs.some((g) => g.name === name)) {
    ctx.out.line(`Graph '${name}' does not exist.`);
    return { outcome: "error" };
  }
  return { graph: name };
}

/** `[a, b]` as the shell's success lines list names. */
export function nameList(names: readonly string[]): string {
  return `[${names.join(", ")}]`;
}
