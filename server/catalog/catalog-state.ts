// The persistent catalog above the engine's schema, as plain JSON-serialisable data: the
// queries of each graph (text, bound signature, lifecycle state, callees), loading jobs,
// schema-change jobs. `applyCatalogChange` is the only way the state changes; it is
// deterministic, so the engine can log a change before acknowledging it and replay it on
// restart. Lifecycle decisions (which changes to make) live in catalog.ts, not here.
import type { QuerySignature } from "../../compiler/bind/catalog.js";

/**
 * Lifecycle states of a query (interface.md "States and transitions", plus the states the
 * shell's `ls` shows): `defined` (created, valid, not installed), `installed`, `draft`
 * (saved with a type or semantic error), `deprecated` (uses an item a schema change
 * dropped), `disabled` (calls a query that was dropped).
 */
export type QueryState = "defined" | "installed" | "draft" | "deprecated" | "disabled";

/**
 * How a parameter is passed in a query string (interface.md "Parameter encoding"): `p=v`
 * (scalar, typed vertex), `p=id&p.type=T` (untyped vertex), repeated `p=v` (SET/BAG),
 * indexed `p[0]=id&p[0].type=T` (SET/BAG of untyped vertices).
 */
export type ParamForm = "scalar" | "untypedVertex" | "collection" | "untypedVertexCollection";

export interface CatalogQueryParam {
  name: string;
  /** The type as `ls` prints it, lower-case: `vertex<Person>`, `set<int>`. */
  type: string;
  form: ParamForm;
  /** The default's source text, when the parameter has one. */
  default?: string;
}

export interface CatalogQuery {
  name: string;
  graph: string;
  /** The exact CREATE QUERY text, as SHOW QUERY prints it. */
  text: string;
  /** The parameter list as `ls` prints it: `vertex<Person> p, int k = 3`. */
  paramText: string;
  params: CatalogQueryParam[];
  /** The bound signature; absent for a draft whose header did not bind. */
  signature?: QuerySignature;
  state: QueryState;
  /** Names of the queries of the same graph this query calls. */
  callees: string[];
  /** API("v2") of the header, when given. */
  api?: string;
  /** For an installed query: the optimisation level of its module (0 default, 3 after -OPTIMIZE). */
  installLevel?: number;
}

/** A loading job: its text and the loader's plan (plain data, opaque to the catalog). */
export interface CatalogLoadingJob {
  name: string;
  graph: string;
  text: string;
  plan: unknown;
  /** Vertex and edge type names the job writes: a schema change that drops or alters one drops the job. */
  types: string[];
}

/** A schema-change job: its text and the DDL statements it runs (plain data). */
export interface CatalogSchemaChangeJob {
  name: string;
  /** undefined for a GLOBAL job. */
  graph?: string;
  text: string;
  statements: unknown;
}

export interface CatalogState {
  /** Every graph's queries, in creation order (arrays, not objects keyed by name: names are user text). */
  queries: CatalogQuery[];
  loadingJobs: CatalogLoadingJob[];
  /** Global jobs have no `graph`. */
  schemaChangeJobs: CatalogSchemaChangeJob[];
}

/** The changes the engine logs and applies. Each names whole records, so replay is exact. */
export type CatalogChange =
  | { kind: "put-query"; query: CatalogQuery }
  | { kind: "set-query-states"; graph: string; states: { name: string; state: QueryState; installLevel?: number }[] }
  | { kind: "drop-queries"; graph: string; names: string[] }
  | { kind: "put-loading-job"; job: CatalogLoadingJob }
  | { kind: "put-schema-change-job"; job: CatalogSchemaChangeJob }
  /** Loading and schema-change jobs of a graph ("" for global schema-change jobs). */
  | { kind: "drop-jobs"; graph: string; names: string[] }
  /** Everything that belongs to a graph (DROP GRAPH ... CASCADE). */
  | { kind: "drop-graph-objects"; graph: string }
  /** DROP ALL. */
  | { kind: "clear" };

export function emptyCatalogState(): CatalogState {
  return { queries: [], loadingJobs: [], schemaChangeJobs: [] };
}

/** Applies one change in place. Changes naming missing items are no-ops, so replay is idempotent. */
export function applyCatalogChange(state: CatalogState, change: CatalogChange): void {
  switch (change.kind) {
    case "put-query":
      put(state.queries, structuredClone(change.query), (q) => q.graph === change.query.graph && q.name === change.query.name);
      return;
    case "set-query-states":
      for (const s of change.states) {
        const q = state.queries.find((x) => x.graph === change.graph && x.name === s.name);
        if (!q) continue;
        q.state = s.state;
        if (s.state === "installed") q.installLevel = s.installLevel ?? q.installLevel ?? 1;
        else delete q.installLevel;
      }
      return;
    case "drop-queries":
      state.queries = state.queries.filter((q) => q.graph !== change.graph || !change.names.includes(q.name));
      return;
    case "put-loading-job":
      put(state.loadingJobs, structuredClone(change.job), (j) => j.graph === change.job.graph && j.name === change.job.name);
      return;
    case "put-schema-change-job":
      put(state.schemaChangeJobs, structuredClone(change.job), (j) => j.graph === change.job.graph && j.name === change.job.name);
      return;
    case "drop-jobs": {
      const graph = change.graph === "" ? undefined : change.graph;
      state.loadingJobs = state.loadingJobs.filter((j) => j.graph !== change.graph || !change.names.includes(j.name));
      state.schemaChangeJobs = state.schemaChangeJobs.filter((j) => j.graph !== graph || !change.names.includes(j.name));
      return;
    }
    case "drop-graph-objects":
      state.queries = state.queries.filter((q) => q.graph !== change.graph);
      state.loadingJobs = state.loadingJobs.filter((j) => j.graph !== change.graph);
      state.schemaChangeJobs = state.schemaChangeJobs.filter((j) => j.graph !== change.graph);
      return;
    case "clear":
      state.queries = [];
      state.loadingJobs = [];
      state.schemaChangeJobs = [];
      return;
  }
}

/** Replaces the item `match` finds, keeping its position, or appends. */
function put<T>(items: T[], item: T, match: (x: T) => boolean): void {
  const at = items.findIndex(match);
  if (at >= 0) items[at] = item;
  else items.push(item);
}
