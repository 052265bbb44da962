// The in-process database the REST routes call: the schema (every graph and its types),
// the graph store, the output API setting. Reads are plain methods; every change goes
// through apply(command) with a serialisable command (commands.ts), so a write-ahead log can
// record exactly what was applied and replay it on restart.
import { emptySchema, type DatabaseSchema } from "../../runtime-wasm/schema/types.js";
import { graphView, type GraphView } from "../../runtime-wasm/schema/lookup.js";
import { createStore, isStoreError, type CreateStore, type GraphStore, type Snapshot, type StoreOptions } from "../../runtime-wasm/store/index.js";
import type { JsonOut } from "../../runtime-wasm/values/index.js";
import type { EngineCommand, OutputApi } from "./commands.js";
import type { CatalogChange } from "../catalog/catalog-state.js";
import { Deadline } from "./deadline.js";
import { applyDeleteEdges, applyDeleteVertices, applyDeleteVerticesByType } from "./delete-apply.js";
import { EngineError, graphNotFound, invalidRequest } from "./engine-error.js";
import { applyUpsert, type UpsertOutcome } from "./upsert-apply.js";
import { upsertItemsFromText } from "./upsert-body.js";
import { EDITION } from "../version.js";
import type { LoadingJobPlan } from "../loading/plan.js";
import { applyLoadBatch, type BatchOutcome } from "../loading/apply-batch.js";
import { loadingJobFits, loadingJobProblem } from "../loading/revalidate.js";
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
  "upsert-text": UpsertOutcome;
  "delete-vertices": JsonOut;
  "delete-vertices-by-type": JsonOut;
  "delete-edges": JsonOut;
  "create-loading-job": void;
  "drop-loading-job": boolean;
  "load-batch": BatchOutcome;
}

/** What the engine needs of the GSQL catalog (server/catalog). */
export interface AttachedCatalog {
  apply(changes: readonly CatalogChange[]): void;
  loadingJobPlans(graph: string): LoadingJobPlan[];
  /** Its whole state as plain data, for snapshots; `restore` takes it back. */
  snapshot(): unknown;
  restore(state: unknown): void;
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
   * log failed, or the command is too large to log). Returns the step that records it,
   * called in the same turn once the command has applied.
   */
  prepare(command: EngineCommand): () => void;
}

/** What a snapshot keeps of the engine beside the store's image. */
export interface EngineCatalogImage {
  schema: DatabaseSchema;
  outputApi: OutputApi;
  loadingJobs: LoadingJobPlan[];
  /** The attached GSQL catalog's state (server/catalog), when one is attached. */
  gsqlCatalog?: unknown;
  /** Users, roles, grants, secret and token digests, ACLs: never a clear secret. */
  auth?: AuthState;
}

export class Engine {
  private schemaState: DatabaseSchema = emptySchema();
  private outputApiState: OutputApi;
  private readonly graphs = new Map<string, GraphHandle>();
  private storeState: GraphStore | undefined;
  private catalog: AttachedCatalog | undefined;
  /** Loading jobs by graph, then by job name (a minimal catalog until the GSQL catalog owns them). */
  private readonly loadingJobsState = new Map<string, Map<string, LoadingJobPlan>>();
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
    return this.loadingJobsState.get(graph)?.get(name) ?? this.catalog?.loadingJobPlans(graph).find((p) => p.name === name);
  }

  /** Every loading job of a graph, in creation order. */
  loadingJobs(graph: string): LoadingJobPlan[] {
    return [...(this.loadingJobsState.get(graph)?.values() ?? []), ...(this.catalog?.loadingJobPlans(graph) ?? [])];
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

  /** Connects the GSQL catalog (server/catalog): "catalog" commands hand it their changes; its loading jobs are the engine's. */
  attachCatalog(catalog: AttachedCatalog): void {
    this.catalog = catalog;
  }

  /** The one way to change the database. Deterministic given the state before it. */
  apply<K extends EngineCommand["kind"]>(command: Extract<EngineCommand, { kind: K }>, options?: ApplyOptions): CommandResults[K];
  apply(command: EngineCommand, options: ApplyOptions = {}): CommandResults[EngineCommand["kind"]] {
    const record = this.commandLog?.prepare(command);
    const result = this.applyCommand(command, options);
    // Recorded in the same turn and only once applied: a refused command changed nothing.
    record?.();
    return result;
  }

  /** The state beside the store as plain data, for snapshots (the store has its own image). */
  catalogImage(): EngineCatalogImage {
    const loadingJobs = [...this.loadingJobsState.values()].flatMap((jobs) => [...jobs.values()]);
    const image: EngineCatalogImage = { schema: this.schemaState, outputApi: this.outputApiState, loadingJobs, auth: this.auth.snapshot() };
    if (this.catalog) image.gsqlCatalog = this.catalog.snapshot();
    return image;
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
    this.loadingJobsState.clear();
    this.setSchema(structuredClone(image.schema));
    this.outputApiState = image.outputApi;
    if (this.catalog && image.gsqlCatalog !== undefined) this.catalog.restore(image.gsqlCatalog);
    for (const plan of image.loadingJobs ?? []) {
      const jobs = this.loadingJobsState.get(plan.graph) ?? new Map<string, LoadingJobPlan>();
      jobs.set(plan.name, structuredClone(plan));
      this.loadingJobsState.set(plan.graph, jobs);
    }
    this.auth.restore(image.auth ?? emptyAuthState());
  }

  private applyCommand(command: EngineCommand, options: ApplyOptions): CommandResults[EngineCommand["kind"]] {
    const deadline = options.deadline ?? Deadline.none();
    return translateStoreErrors(() => this.dispatch(command, deadline));
  }

  private dispatch(command: EngineCommand, deadline: Deadline): CommandResults[EngineCommand["kind"]] {
    switch (command.kind) {
      case "define-schema":
        return this.defineSchema(command.schema);
      case "set-output-api":
        this.outputApiState = command.api;
        return undefined;
      case "catalog":
        if (command.changes.length > 0 && !this.catalog) throw invalidRequest("No GSQL catalog is attached to the engine.");
        if (command.schema) this.defineSchema(command.schema);
        if (command.clearData && this.storeState) this.storeState.clear();
        this.catalog?.apply(command.changes);
        return undefined;
      case "auth":
        this.auth.apply(command.changes);
        return undefined;
      case "upsert":
        return applyUpsert(this.store, this.resolveGraph(command.graph), command);
      case "upsert-text": {
        const items = upsertItemsFromText(command.source.text, { maxDepth: command.source.maxDepth });
        return applyUpsert(this.store, this.resolveGraph(command.graph), { kind: "upsert", graph: command.graph, ...items, flags: command.flags });
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
        const jobs = this.loadingJobsState.get(command.plan.graph) ?? new Map<string, LoadingJobPlan>();
        jobs.set(command.plan.name, structuredClone(command.plan));
        this.loadingJobsState.set(command.plan.graph, jobs);
        return undefined;
      }
      case "drop-loading-job":
        return this.loadingJobsState.get(command.graph)?.delete(command.name) ?? false;
      case "load-batch":
        return applyLoadBatch(this.store, this.resolveGraph(command.graph).view, command.batch);
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
    // Loading jobs that no longer fit the schema are dropped.
    for (const [graph, jobs] of this.loadingJobsState) {
      for (const [name, plan] of jobs) if (!loadingJobFits(plan, next)) jobs.delete(name);
      if (jobs.size === 0) this.loadingJobsState.delete(graph);
    }
  }
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
