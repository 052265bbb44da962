// The commands that change the database. Every state change goes through Engine.apply with
// one of these: plain data, deterministic to apply given the state before it, so a
// write-ahead log can record them before acknowledging and replay them on restart
// (command-codec.ts gives their exact text form, 64-bit integers included).
import type { DatabaseSchema } from "../../runtime-wasm/schema/types.js";
import type { JsonValue } from "../http/json-body.js";
import type { FilterCondition, SortKey } from "./read-spec.js";
import type { CatalogChange } from "../catalog/catalog-state.js";
import type { LoadingJobPlan } from "../loading/plan.js";
import type { LoadBatch } from "../loading/sink.js";
import type { AuthChange } from "../auth/auth-state.js";
import type { DmlStep } from "../../runtime-wasm/query/apply-dml.js";
import type { EdgeColumns, VertexUpsert } from "../../runtime-wasm/store/index.js";

export type OutputApi = "v1" | "v2";

/** Replaces the whole schema (programmatic schema definition; the DDL front end plugs in here). */
export interface DefineSchemaCommand {
  kind: "define-schema";
  schema: DatabaseSchema;
}

/** SET json_api: the output API of query and built-in results, permanent once set. */
export interface SetOutputApiCommand {
  kind: "set-output-api";
  api: OutputApi;
}

/** One attribute of an upsert item: the value as sent and the operator name or symbol. */
export interface UpsertAttribute {
  name: string;
  value: JsonValue;
  op: string;
}

export interface UpsertVertex {
  type: string;
  id: string;
  attributes: UpsertAttribute[];
}

export interface UpsertEdge {
  sourceType: string;
  sourceId: string;
  edgeType: string;
  targetType: string;
  targetId: string;
  attributes: UpsertAttribute[];
}

export interface UpsertFlags {
  newVertexOnly: boolean;
  updateVertexOnly: boolean;
  vertexMustExist: boolean;
  sourceVertexMustExist: boolean;
  targetVertexMustExist: boolean;
}

/** An upsert by names, as the interface's body says it: items in body order (duplicate JSON keys give several items). */
export interface UpsertCommand {
  kind: "upsert";
  graph: string;
  vertices: UpsertVertex[];
  edges: UpsertEdge[];
  flags: UpsertFlags;
}

/**
 * POST /graph/{g}: the body read into the store's form — types by key, values of the
 * attribute's type, operators as symbols, unknown attributes dropped, edges as columns (one
 * group per run of items with the same source, edge and target type), items in body order —
 * checked against the schema of the turn it is applied in.
 */
export interface UpsertBatchCommand {
  kind: "upsert-batch";
  graph: string;
  vertices: VertexUpsert[];
  edgeColumns: EdgeColumns[];
  flags: UpsertFlags;
  /**
   * The body it was read from: the write-ahead log records these bytes (a copy, where
   * encoding the items cost 15 times more) and replay reads them again ("upsert-text").
   */
  source?: UpsertSource;
}

export interface UpsertSource {
  text: string;
  /** The nesting limit it was read with, so a replay reads it the same way. */
  maxDepth: number;
}

/**
 * A REST upsert as the write-ahead log gives it back: the request body, read again when
 * applied (server/persist/upsert-body-codec.ts; earlier versions logged it as JSON).
 */
export interface UpsertTextCommand {
  kind: "upsert-text";
  graph: string;
  source: UpsertSource;
  flags: UpsertFlags;
}

export interface DeleteVerticesCommand {
  kind: "delete-vertices";
  graph: string;
  vertexType: string;
  /** One vertex by primary id, or every vertex of the type that passes the filter. */
  id?: string;
  filter: FilterCondition[];
  sort: SortKey[];
  limit?: number;
  permanent: boolean;
}

export interface DeleteVerticesByTypeCommand {
  kind: "delete-vertices-by-type";
  graph: string;
  vertexType: string;
  permanent: boolean;
}

/** The edges an edge path names: from one source vertex, optionally narrowed step by step. */
export interface EdgeSelection {
  sourceType: string;
  sourceId: string;
  /** undefined: every edge type (the `_` wildcard or an omitted segment). */
  edgeType?: string;
  targetType?: string;
  targetId?: string;
}

export interface DeleteEdgesCommand {
  kind: "delete-edges";
  graph: string;
  selection: EdgeSelection;
  filter: FilterCondition[];
  sort: SortKey[];
  limit?: number;
}

/**
 * A change made by GSQL text (server/gsql): catalog changes (queries, jobs), and with DDL the
 * new schema they go with, so a schema change and its effects on queries and jobs are one
 * logged record. `clearData` (CLEAR GRAPH STORE) deletes all data and keeps the schema.
 */
export interface CatalogCommand {
  kind: "catalog";
  changes: CatalogChange[];
  schema?: DatabaseSchema;
  clearData?: boolean;
}

/**
 * Registers (or replaces) a loading job of `plan.graph` under `plan.name` in the catalog, as
 * CREATE LOADING JOB does (for callers without GSQL text: tools, tests). Refused when the
 * plan does not fit the schema.
 */
export interface CreateLoadingJobCommand {
  kind: "create-loading-job";
  plan: LoadingJobPlan;
}

export interface DropLoadingJobCommand {
  kind: "drop-loading-job";
  graph: string;
  name: string;
}

/** One batch of whole objects from a loading job (server/loading), applied atomically. */
export interface LoadBatchCommand {
  kind: "load-batch";
  graph: string;
  batch: LoadBatch;
}

/** Users, roles, secrets, tokens, ACLs (server/auth): hashes and digests only, never a clear secret. */
export interface AuthCommand {
  kind: "auth";
  changes: AuthChange[];
}

/**
 * The writes of one query run (attribute writes, INSERT INTO, DELETE), applied together after
 * its reads ended: store steps naming vertices by their external ids, so replaying them
 * needs nothing of the run.
 */
export interface QueryWritesCommand {
  kind: "query-writes";
  graph: string;
  query: string;
  steps: DmlStep[];
}

export type EngineCommand =
  | DefineSchemaCommand
  | AuthCommand
  | CatalogCommand
  | CreateLoadingJobCommand
  | DropLoadingJobCommand
  | LoadBatchCommand
  | SetOutputApiCommand
  | UpsertCommand
  | UpsertBatchCommand
  | UpsertTextCommand
  | DeleteVerticesCommand
  | DeleteVerticesByTypeCommand
  | DeleteEdgesCommand
  | QueryWritesCommand;
