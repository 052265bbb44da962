// The in-process database the REST routes call: the schema (every graph and its types),
// the graph store, the output API setting. Reads are plain methods; every change goes
// through apply(command) with a serialisable command (commands.ts), so a write-ahead log can
// record exactly what was applied and replay it on restart.
import { emptySchema, type DatabaseSchema } from "../../runtime-wasm/schema/types.js";
import { graphView, type GraphView } from "../../runtime-wasm/schema/lookup.js";
import type { EngineCommand, OutputApi } from "./commands.js";
import { graphNotFound, invalidRequest } from "./engine-error.js";
import { EDITION } from "../version.js";

export interface EngineOptions {
  outputApi?: OutputApi;
  /** Timeout of reads and deletes whose `timeout` parameter is 0, in milliseconds. */
  defaultTimeoutMs?: number;
  /** Clock in milliseconds, for timeouts (tests pass their own). */
  now?: () => number;
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
  /** Takes the command in the caller's turn; throws when it can no longer be made durable. */
  record(command: EngineCommand): void;
}

/** What a snapshot keeps of the engine beside the store's image. */
export interface EngineCatalogImage {
  schema: DatabaseSchema;
  outputApi: OutputApi;
}

export class Engine {
  private schemaState: DatabaseSchema = emptySchema();
  private outputApiState: OutputApi;
  private readonly graphs = new Map<string, GraphHandle>();
  readonly defaultTimeoutMs: number;
  readonly now: () => number;
  /** Set by the persistence layer once recovery is done; replay runs without it. */
  commandLog: CommandLog | undefined;

  constructor(options: EngineOptions = {}) {
    this.outputApiState = options.outputApi ?? "v2";
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.now = options.now ?? Date.now;
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

  /** The `version` field of responses about `graph` (absent under output API v1). */
  apiVersion(graph: GraphHandle | undefined): ApiVersion | undefined {
    if (this.outputApiState === "v1") return undefined;
    return { edition: EDITION, api: this.outputApiState, schema: graph?.view.graph.version ?? 0 };
  }

  /** The one way to change the database. Deterministic given the state before it. */
  apply(command: EngineCommand): unknown {
    const result = this.applyCommand(command);
    // Recorded in the same turn and only once applied: a refused command changed nothing.
    this.commandLog?.record(command);
    return result;
  }

  /** The state beside the store as plain data, for snapshots (the store has its own image). */
  catalogImage(): EngineCatalogImage {
    return { schema: this.schemaState, outputApi: this.outputApiState };
  }

  /** Replaces the whole state by a snapshot's (recovery, before any command is replayed). */
  restoreState(image: EngineCatalogImage): void {
    this.defineSchema(image.schema);
    this.outputApiState = image.outputApi;
  }

  private applyCommand(command: EngineCommand): unknown {
    switch (command.kind) {
      case "define-schema":
        return this.defineSchema(command.schema);
      case "set-output-api":
        this.outputApiState = command.api;
        return undefined;
      default:
        throw invalidRequest(`The graph store is not available for ${command.kind}.`);
    }
  }

  private defineSchema(schema: DatabaseSchema): void {
    const next = structuredClone(schema);
    this.schemaState = next;
    this.graphs.clear();
    for (const g of next.graphs) this.graphs.set(g.name, { name: g.name, view: graphView(next, g.name)! });
  }
}
