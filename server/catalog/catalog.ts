// The catalog service: the current CatalogState, reads over it, and the one door through
// which it changes. Changes are submitted, not applied: `submit` hands them to the engine's
// command method (so they are logged and replayed like every other change) and the engine
// calls back `apply`, which is deterministic. Without an engine connected (offline tools,
// unit tests) `submit` applies directly.
import type { DatabaseSchema } from "../../runtime-wasm/schema/types.js";
import type { BindCatalog, QuerySignature } from "../../compiler/bind/catalog.js";
import {
  applyCatalogChange, emptyCatalogState, type CatalogChange, type CatalogLoadingJob, type CatalogQuery,
  type CatalogSchemaChangeJob, type CatalogState,
} from "./catalog-state.js";
import { findQuery, queriesOf } from "./query-lifecycle.js";
import type { LoadingJobPlan } from "../loading/plan.js";

export type CatalogSubmit = (changes: CatalogChange[]) => void;

export class Catalog {
  private current: CatalogState;
  private submitter: CatalogSubmit;

  constructor(state: CatalogState = emptyCatalogState()) {
    this.current = structuredClone(state);
    this.submitter = (changes) => this.apply(changes);
  }

  /** Routes every later `submit` through `submit` (the engine's command method). */
  connect(submit: CatalogSubmit): void {
    this.submitter = submit;
  }

  /** Makes `changes` durable and current. Throws what the engine throws; then nothing changed. */
  submit(changes: CatalogChange[]): void {
    if (changes.length > 0) this.submitter(changes);
  }

  /** Applies changes in order. Called by the engine (live and on replay); deterministic. */
  apply(changes: readonly CatalogChange[]): void {
    for (const change of changes) applyCatalogChange(this.current, change);
  }

  /** A copy of the whole state, for snapshots. */
  snapshot(): CatalogState {
    return structuredClone(this.current);
  }

  /** Replaces the whole state (recovery from a snapshot). */
  restore(state: unknown): void {
    this.current = structuredClone(state as CatalogState);
  }

  /** The state as it is now; callers must not modify it. */
  get state(): Readonly<CatalogState> {
    return this.current;
  }

  queries(graph: string): CatalogQuery[] {
    return queriesOf(this.current, graph);
  }

  query(graph: string, name: string): CatalogQuery | undefined {
    return findQuery(this.current, graph, name);
  }

  loadingJobs(graph: string): CatalogLoadingJob[] {
    return this.current.loadingJobs.filter((j) => j.graph === graph);
  }

  /** The loader's plans of a graph's loading jobs. */
  loadingJobPlans(graph: string): LoadingJobPlan[] {
    return this.loadingJobs(graph).map((j) => j.plan as LoadingJobPlan);
  }

  loadingJob(graph: string, name: string): CatalogLoadingJob | undefined {
    return this.current.loadingJobs.find((j) => j.graph === graph && j.name === name);
  }

  /** Schema-change jobs of `graph`, or the global ones when `graph` is undefined. */
  schemaChangeJobs(graph: string | undefined): CatalogSchemaChangeJob[] {
    return this.current.schemaChangeJobs.filter((j) => j.graph === graph);
  }

  schemaChangeJob(graph: string | undefined, name: string): CatalogSchemaChangeJob | undefined {
    return this.current.schemaChangeJobs.find((j) => j.graph === graph && j.name === name);
  }

  /** Names of every job (loading and schema-change) of `graph`, in creation order. */
  jobNames(graph: string | undefined): string[] {
    const loading = graph === undefined ? [] : this.loadingJobs(graph).map((j) => j.name);
    return [...loading, ...this.schemaChangeJobs(graph).map((j) => j.name)];
  }
}

/**
 * The binder's view of the database: the engine's schema and the signatures of the queries
 * the catalog holds. Drafts have no trustworthy signature and are not callable.
 */
export function bindCatalogOf(catalog: Catalog, schema: () => DatabaseSchema): BindCatalog {
  return {
    get schema() {
      return schema();
    },
    querySignature(graph: string, name: string): QuerySignature | undefined {
      const q = catalog.query(graph, name);
      return q && q.state !== "draft" ? q.signature : undefined;
    },
  };
}
