// The in-process database the REST routes call: the schema (every graph and its types),
// the graph store, the catalog (queries and jobs: the only registry of loading jobs), users
// and roles, the output API setting. Reads are plain methods; every change goes
// through apply(command) with a serialisable command (commands.ts), so a write-ahead log can
// record exactly what was applied and replay it on restart.
import { emptySchema, type DatabaseSchema } from "../../runtime-wasm/schema/types.js";
import { graphView, type GraphView } from "../../runtime-wasm/schema/lookup.js";
import { createStore, isStoreError, type CreateStore, type GraphStore, type Snapshot, type StoreOptions } from "../../runtime-wasm/store/index.js";
import type { JsonOut } from "../../runtime-wasm/values/index.js";
import type { EngineCommand, OutputApi } from "./commands.js";
import { emptyCatalogState, type CatalogState } from "../catalog/catalog-state.js";
import { Deadline } from "./deadline.js";
import { applyDeleteEdges, applyDeleteVertices, applyDeleteVerticesByType } from "./delete-apply.js";
import { EngineError, graphNotFound, invalidRequest } from "./engine-error.js";
import { applyUpsert, applyUpsertBatch, type UpsertOutcome } from "./upsert-apply.js";
import { upsertBatchFromText } from "./upsert-reader.js";
import { EDITION } from "../version.js";
import type { LoadingJobPlan } from "../loading/plan.js";
import { applyLoadBatch, type BatchOutcome } from "../loading/apply-batch.js";
import { loadingJobFits, loadingJobProblem } from "../loading/revalidate.js";
import { applyDmlSteps, type DmlSummary } from "../../runtime-wasm/query/apply-dml.js";
import { loadingJobRecord } from "../loading/job-record.js";
import { Catalog } from "../catalog/catalog.js";
import { AuthStore, emptyAuthState, type AuthState } from "../auth/auth-state.js";

export interface EngineOptions {
  outputApi?: OutputApi;
  /** Timeout of reads and deletes whose `timeout` parameter is 0, in milliseconds. */
  defaultTimeoutMs?: number;
  /** Clock in milliseconds, for timeouts (tests pass their own). */
  now?: () => number;
  /** The graph store factory (default: runtime-wasm/store's createStore) and its options. */
  createStore?: CreateStore;
  storeOptions?: StoreOptions;
}

/** What apply returns per command kind. */
export interface CommandResults {
  "define-schema": void;
  "set-output-api": void;
  catalog: void;
  auth: void;
  upsert: UpsertOutcome;
  "upsert-batch": UpsertOutcome;
  "upsert-text": UpsertOutcome;
  "delete-vertices": JsonOut;
  "delete-vertices-by-type": JsonOut;
  "delete-edges": JsonOut;
  "create-loading-job": void;
  "drop-loading-job": boolean;
  "load-batch": BatchOutcome;
  "query-writes": DmlSummary;
}

export interface ApplyOptions {
  /** Time limit of the selection part of deletes; absent when replaying a log. */
  deadline?: Deadline;
}

export interface ApiVersion {
  edition: string;
  api: OutputApi;
  schema: number;
}

/** A graph as a request sees it: its name and its view of the schema. */
export interface GraphHandle {
  name: string;
  view: GraphView;
}

export const DEFAULT_TIMEOUT_MS = 16_000;

/** Where applied commands go to be made durable (server/persist); none: in memory only. */
export interface CommandLog {
  /**
   * Called before the command changes anything: throws when it cannot be made durable (the
   * log failed, or the command is too large to log). Returns the step called in the same
   * turn once the command has applied, and `refused`, called instead when applying it threw
   * (the log may have taken the command ahead of the apply and must then void it).
   */
  prepare(command: EngineCommand): (() => void) & { refused?: () => void };
}

/** What a snapshot keeps of the engine beside the store's image. */
export interface EngineCatalogImage {
  schema: DatabaseSchema;
  outputApi: OutputApi;
  /**
   * Loading jobs of images written while the engine kept its own registry beside the
   * catalog; restoring moves them into the catalog. New images keep every job in `gsqlCatalog`.
   */
  loadingJobs?: LoadingJobPlan[];
  /** The catalog's state (server/catalog): queries, loading jobs, schema-change jobs. */
  gsqlCatalog?: unknown;
  /** Users, roles, grants, secret and token digests, ACLs: never a clear secret. */
  auth?: AuthState;
}

export class Engine {
  private schemaState: DatabaseSchema = emptySchema();
  private outputApiState: OutputApi;
  private readonly graphs = new Map<string, GraphHandle>();
  private storeState: GraphStore | undefined;
  /**
   * Queries and jobs: the one registry of loading jobs. An engine starts with a catalog of
   * its own; the GSQL server attaches the one it shares (before any change).
   */
  private catalog = new Catalog();
  readonly defaultTimeoutMs: number;
  readonly now: () => number;
  /** Users, roles, secrets, tokens (server/auth); changed only by "auth" commands. */
  readonly auth = new AuthStore();
  /** Set by the persistence layer once recovery is done; replay runs without it. */
  commandLog: CommandLog | undefined;

  constructor(private readonly options: EngineOptions = {}) {
    this.outputApiState = options.outputApi ?? "v2";
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.now = options.now ?? Date.now;
  }

  /** The store holding every type's data (created with the first schema). */
  get store(): GraphStore {
    if (!this.storeState) this.storeState = this.makeStore(this.schemaState);
    return this.storeState;
  }

  get schema(): DatabaseSchema {
    return this.schemaState;
  }

  get outputApi(): OutputApi {
    return this.outputApiState;
  }

  graphNames(): string[] {
    return this.schemaState.graphs.map((g) => g.name);
  }

  /**
   * The graph a request addresses. With the graph segment omitted, a single-graph
   * deployment means its one graph; with several graphs the name is required.
   */
  resolveGraph(name: string | undefined): GraphHandle {
    if (name !== undefined) {
      const g = this.graphs.get(name);
      if (!g) throw graphNotFound(`Graph '${name}' does not exist.`);
      return g;
    }
    const names = this.graphNames();
    if (names.length === 1) return this.graphs.get(names[0]!)!;
    if (names.length === 0) throw graphNotFound("No graph exists yet: create a graph before using the graph endpoints.");
    throw invalidRequest(
      `This database has ${names.length} graphs (${names.join(", ")}): the graph name is required in the path, e.g. /graph/{graph_name}/...`,
    );
  }

  /** A loading job of a graph by name. */
  loadingJob(graph: string, name: string): LoadingJobPlan | undefined {
    return this.catalog.loadingJobPlans(graph).find((p) => p.name === name);
  }

  /** Every loading job of a graph, in creation order. */
  loadingJobs(graph: string): LoadingJobPlan[] {
    return this.catalog.loadingJobPlans(graph);
  }

  /** The `version` field of responses about `graph` (absent under output API v1). */
  apiVersion(graph: GraphHandle | undefined): ApiVersion | undefined {
    if (this.outputApiState === "v1") return undefined;
    return { edition: EDITION, api: this.outputApiState, schema: graph?.view.graph.version ?? 0 };
  }

  /** A deadline for a request's `timeout` seconds (0: the engine's default). */
  deadline(timeoutSeconds: number | undefined): Deadline {
    return new Deadline(this.now, timeoutSeconds ? timeoutSeconds * 1000 : this.defaultTimeoutMs);
  }

  /** Runs a read against one pinned version of the store. */
  read<T>(read: (snapshot: Snapshot) => T): T {
    return translateStoreErrors(() => this.store.read(read));
  }

  /**
   * Connects the GSQL server's catalog (server/catalog) in place of the engine's own:
   * "catalog" commands hand it their changes, and its loading jobs are the engine's. An empty
   * catalog takes over what the one before it held, so attaching loses nothing.
   */
  attachCatalog(catalog: Catalog): void {
    if (catalog === this.catalog) return;
    if (isEmptyCatalog(catalog.state)) catalog.restore(this.catalog.snapshot());
    this.catalog = catalog;
  }

  /** The one way to change the database. Deterministic given the state before it. */
  apply<K extends EngineCommand["kind"]>(command: Extract<EngineCommand, { kind: K }>, options?: ApplyOptions): CommandResults[K];
  apply(command: EngineCommand, options: ApplyOptions = {}): CommandResults[EngineCommand["kind"]] {
    const record = this.commandLog?.prepare(command);
    let result;
    try {
      result = this.applyCommand(command, options);
    } catch (err) {
      // A refused command changed nothing: the log voids it, in the same turn.
      record?.refused?.();
      throw err;
    }
    record?.();
    return result;
  }

  /** The state beside the store as plain data, for snapshots (the store has its own image). */
  catalogImage(): EngineCatalogImage {
    return { schema: this.schemaState, outputApi: this.outputApiState, gsqlCatalog: this.catalog.snapshot(), auth: this.auth.snapshot() };
  }

  /** Whether the catalog (queries, loading and schema-change jobs) holds anything yet. */
  get catalogIsEmpty(): boolean {
    return isEmptyCatalog(this.catalog.state);
  }

  /** The store if one exists yet (snapshots do not create one). */
  get storeIfCreated(): GraphStore | undefined {
    return this.storeState;
  }

  /**
   * Replaces the whole state by a snapshot's (recovery, before any command is replayed):
   * the catalog, and the store rebuilt from its image (undefined: none existed yet).
   */
  restoreState(image: EngineCatalogImage, store: GraphStore | undefined): void {
    this.storeState = store;
    this.setSchema(structuredClone(image.schema));
    this.outputApiState = image.outputApi;
    this.catalog.restore(image.gsqlCatalog ?? emptyCatalogState());
    // An older image's own registry joins the catalog.
    const older = (image.loadingJobs ?? []).map((plan) => ({ kind: "put-loading-job" as const, job: loadingJobRecord(structuredClone(plan)) }));
    if (older.length > 0) this.catalog.apply(older);
    this.auth.restore(image.auth ?? emptyAuthState());
  }

  private applyCommand(command: EngineCommand, options: ApplyOptions): CommandResults[EngineCommand["kind"]] {
    const deadline = options.deadline ?? Deadline.none();
    return translateStoreErrors(() => this.dispatch(command, deadline));
  }

  private dispatch(command: EngineCommand, deadline: Deadline): CommandResults[EngineCommand["kind"]] {
    switch (command.kind) {
      case "define-schema":
        this.defineSchema(command.schema);
        this.dropUnfitLoadingJobs();
        return undefined;
      case "set-output-api":
        this.outputApiState = command.api;
        return undefined;
      case "catalog":
        // The GSQL executor's changes already drop the jobs its schema change breaks.
        if (command.schema) this.defineSchema(command.schema);
        if (command.clearData && this.storeState) this.storeState.clear();
        this.catalog.apply(command.changes);
        return undefined;
      case "auth":
        this.auth.apply(command.changes);
        return undefined;
      case "upsert":
        return applyUpsert(this.store, this.resolveGraph(command.graph), command);
      case "upsert-batch":
        return applyUpsertBatch(this.store, command, this.resolveGraph(command.graph));
      case "upsert-text": {
        // A logged REST upsert: its body read again, as the route read it.
        const graph = this.resolveGraph(command.graph);
        const batch = upsertBatchFromText(command.source.text, graph, this.schemaState.tuples, { maxDepth: command.source.maxDepth });
        return applyUpsertBatch(this.store, { kind: "upsert-batch", graph: command.graph, ...batch, flags: command.flags }, graph);
      }
      case "delete-vertices":
        return applyDeleteVertices(this.store, this.resolveGraph(command.graph), command, deadline);
      case "delete-vertices-by-type":
        return applyDeleteVerticesByType(this.store, this.resolveGraph(command.graph), command);
      case "delete-edges":
        return applyDeleteEdges(this.store, this.resolveGraph(command.graph), command, deadline);
      case "create-loading-job": {
        const problem = loadingJobProblem(command.plan, this.schemaState);
        if (problem !== undefined) throw invalidRequest(`The loading job ${command.plan.name} cannot be created: ${problem}`);
        this.catalog.apply([{ kind: "put-loading-job", job: loadingJobRecord(structuredClone(command.plan)) }]);
        return undefined;
      }
      case "drop-loading-job": {
        if (this.loadingJob(command.graph, command.name) === undefined) return false;
        this.catalog.apply([{ kind: "drop-jobs", graph: command.graph, names: [command.name] }]);
        return true;
      }
      case "load-batch":
        return applyLoadBatch(this.store, this.resolveGraph(command.graph).view, command.batch);
      case "query-writes":
        this.resolveGraph(command.graph);
        return applyDmlSteps(this.store, command.steps);
    }
  }

  private makeStore(schema: DatabaseSchema): GraphStore {
    return (this.options.createStore ?? createStore)(schema, this.options.storeOptions);
  }

  private defineSchema(schema: DatabaseSchema): void {
    const next = structuredClone(schema);
    // The store is created on first use, with the schema of that moment.
    if (this.storeState) this.storeState.applySchema(next);
    this.setSchema(next);
  }

  private setSchema(next: DatabaseSchema): void {
    this.schemaState = next;
    this.graphs.clear();
    for (const g of next.graphs) this.graphs.set(g.name, { name: g.name, view: graphView(next, g.name)! });
  }

  /** After a define-schema command: the loading jobs that no longer fit the schema are dropped. */
  private dropUnfitLoadingJobs(): void {
    for (const graph of new Set(this.catalog.state.loadingJobs.map((j) => j.graph))) {
      const names = this.catalog.loadingJobPlans(graph).filter((plan) => !loadingJobFits(plan, this.schemaState)).map((plan) => plan.name);
      if (names.length > 0) this.catalog.apply([{ kind: "drop-jobs", graph, names }]);
    }
  }
}

function isEmptyCatalog(state: Readonly<CatalogState>): boolean {
  return state.queries.length === 0 && state.loadingJobs.length === 0 && state.schemaChangeJobs.length === 0;
}

/** Store refusals become engine errors (nothing changed when the store refuses). */
function translateStoreErrors<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (!isStoreError(e)) throw e;
    if (e.code === "OUT_OF_MEMORY") throw new EngineError("out-of-memory", "REST-30000", e.message);
    const where = e.detail.path && !e.message.includes(e.detail.path) ? ` (at ${e.detail.path})` : "";
    throw new EngineError("bad-request", "REST-30000", e.message + where);
  }
}
