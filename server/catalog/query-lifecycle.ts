// The query lifecycle rules (interface.md "States and transitions" and errors 7-10) as pure
// functions from the catalog state and a request to either a refusal with the shell's message
// or the changes to make. Nothing here touches the engine or the compiler: callers compile
// what `planInstall` selects and submit the changes.
import type { CatalogChange, CatalogQuery, CatalogState, QueryState } from "./catalog-state.js";

export type Planned<T> = { ok: true; value: T } | { ok: false; message: string };

/** The back end's optimisation levels: the cheap passes by default, Binaryen's optimiser with -OPTIMIZE. */
export const DEFAULT_INSTALL_LEVEL = 1;
export const OPTIMIZE_INSTALL_LEVEL = 3;

const refuse = <T>(message: string): Planned<T> => ({ ok: false, message });
const accept = <T>(value: T): Planned<T> => ({ ok: true, value });

export function queriesOf(state: CatalogState, graph: string): CatalogQuery[] {
  return state.queries.filter((q) => q.graph === graph);
}

export function findQuery(state: CatalogState, graph: string, name: string): CatalogQuery | undefined {
  return state.queries.find((q) => q.graph === graph && q.name === name);
}

// ------------------------------------------------------------------ CREATE [OR REPLACE]

export interface CreateOutcome {
  changes: CatalogChange[];
  /** "created": new and valid; "draft": new, saved with errors; "replaced": OR REPLACE succeeded. */
  result: "created" | "draft" | "replaced";
  /** An installed query that was replaced: its endpoint goes until it is installed again. */
  uninstalled: boolean;
}

/**
 * CREATE QUERY rejects an existing name (error 7); CREATE OR REPLACE keeps the old query when
 * the new text has errors; a new query with type or semantic errors is saved as a draft.
 * A replaced query must be installed again, as with the established server.
 */
export function planCreate(state: CatalogState, query: CatalogQuery, orReplace: boolean, hasErrors: boolean): Planned<CreateOutcome> {
  const old = findQuery(state, query.graph, query.name);
  if (old && !orReplace) {
    return refuse(`The query ${query.name} already exists on the graph '${query.graph}'. Use CREATE OR REPLACE QUERY to replace it.`);
  }
  if (old && hasErrors) {
    return refuse(`The query ${query.name} was not replaced because the new text has errors; the old definition is kept.`);
  }
  const stored: CatalogQuery = { ...query, state: hasErrors ? "draft" : "defined" };
  delete stored.installLevel;
  return accept({
    changes: [{ kind: "put-query", query: stored }],
    result: old ? "replaced" : hasErrors ? "draft" : "created",
    uninstalled: old?.state === "installed",
  });
}

// ------------------------------------------------------------------ INSTALL

export interface InstallRequest {
  graph: string;
  /** Names as written; empty with `all` or with -OPTIMIZE. */
  names: string[];
  all: boolean;
  force: boolean;
  optimize: boolean;
}

export interface InstallSelection {
  /** Queries to compile, callees before callers. */
  queries: CatalogQuery[];
  /** Optimisation level to compile at (the back end's): 1 by default, 3 for -OPTIMIZE. */
  level: number;
}

/**
 * Which queries an INSTALL compiles. Refuses, as a whole: names with -OPTIMIZE (error 10),
 * an installed query without -force (error 8), unknown names, drafts, and a caller whose
 * callee is neither installed nor in the same INSTALL.
 */
export function planInstall(state: CatalogState, req: InstallRequest): Planned<InstallSelection> {
  const all = queriesOf(state, req.graph);
  if (req.optimize) {
    if (req.names.length > 0 || req.all) {
      return refuse("INSTALL QUERY -OPTIMIZE takes no query names: it optimizes every installed query of the graph.");
    }
    return accept({ queries: orderCalleesFirst(all.filter((q) => q.state === "installed")), level: OPTIMIZE_INSTALL_LEVEL });
  }
  let chosen: CatalogQuery[];
  if (req.all) {
    chosen = all.filter((q) => (req.force || q.state !== "installed") && q.state !== "draft");
  } else {
    chosen = [];
    for (const name of unique(req.names)) {
      const q = findQuery(state, req.graph, name);
      if (!q) return refuse(`The query ${name} does not exist on the graph '${req.graph}'.`);
      if (q.state === "installed" && !req.force) {
        return refuse(`The query ${name} is already installed. Use INSTALL QUERY -force ${name} to reinstall it.`);
      }
      if (q.state === "draft") {
        return refuse(`The query ${name} is a draft with errors and cannot be installed. Fix it with CREATE OR REPLACE QUERY first.`);
      }
      chosen.push(q);
    }
  }
  const inBatch = new Set(chosen.map((q) => q.name));
  for (const q of chosen) {
    for (const callee of q.callees) {
      const target = findQuery(state, req.graph, callee);
      if (!target) {
        return refuse(`The query ${q.name} calls the query ${callee}, which does not exist on the graph '${req.graph}'.`);
      }
      if (!inBatch.has(callee) && target.state !== "installed") {
        return refuse(`The query ${q.name} calls the query ${callee}, which is not installed. Install ${callee} first or together with ${q.name}.`);
      }
    }
  }
  return accept({ queries: orderCalleesFirst(chosen), level: DEFAULT_INSTALL_LEVEL });
}

/** The change that records a successful compilation of `names` at `level`. */
export function installedChange(graph: string, names: string[], level: number): CatalogChange {
  return { kind: "set-query-states", graph, states: names.map((name) => ({ name, state: "installed" as QueryState, installLevel: level })) };
}

// ------------------------------------------------------------------ DROP

export interface DropOutcome {
  dropped: string[];
  changes: CatalogChange[];
  /** Queries left behind that call a dropped one: they become `disabled`. */
  disabled: string[];
}

/**
 * DROP QUERY names | * | ALL on one graph. Refused when an installed query that is not
 * dropped too calls one of them (error 9); other callers become `disabled`.
 */
export function planDrop(state: CatalogState, graph: string, names: string[], all: boolean): Planned<DropOutcome> {
  const existing = queriesOf(state, graph);
  let dropping: string[];
  if (all) {
    dropping = existing.map((q) => q.name);
  } else {
    dropping = [];
    for (const name of unique(names)) {
      if (!findQuery(state, graph, name)) return refuse(`The query ${name} does not exist on the graph '${graph}'.`);
      dropping.push(name);
    }
  }
  const dropSet = new Set(dropping);
  const disabled: string[] = [];
  for (const q of existing) {
    if (dropSet.has(q.name)) continue;
    const called = q.callees.filter((c) => dropSet.has(c));
    if (called.length === 0) continue;
    if (q.state === "installed") {
      return refuse(`The query ${called[0]} cannot be dropped: the installed query ${q.name} calls it. Drop ${q.name} first or together with it.`);
    }
    if (q.state !== "disabled") disabled.push(q.name);
  }
  const changes: CatalogChange[] = [{ kind: "drop-queries", graph, names: dropping }];
  if (disabled.length > 0) {
    changes.push({ kind: "set-query-states", graph, states: disabled.map((name) => ({ name, state: "disabled" as QueryState })) });
  }
  return accept({ dropped: dropping, changes, disabled });
}

// ------------------------------------------------------------------ schema changes

/** How a query fares when bound again against a changed schema. */
export interface Revalidation {
  ok: boolean;
}

export interface SchemaChangeOutcome {
  changes: CatalogChange[];
  /** Queries that no longer bind: `deprecated` (and uninstalled). */
  deprecated: string[];
  /** Installed queries that still bind: they are compiled again against the new schema. */
  reinstall: CatalogQuery[];
}

/**
 * After a schema change of `graph`: every query is bound again; one that fails becomes
 * `deprecated` ("Query q becomes invalid after schema update"), one that was deprecated and
 * binds again becomes `defined`, installed ones that still bind are recompiled.
 */
export function planSchemaChangeEffects(
  state: CatalogState,
  graph: string,
  revalidate: (q: CatalogQuery) => Revalidation,
): SchemaChangeOutcome {
  const deprecated: string[] = [];
  const revived: string[] = [];
  const reinstall: CatalogQuery[] = [];
  for (const q of queriesOf(state, graph)) {
    if (q.state === "draft") continue;
    const ok = revalidate(q).ok;
    if (!ok && q.state !== "deprecated") deprecated.push(q.name);
    else if (ok && q.state === "deprecated") revived.push(q.name);
    else if (ok && q.state === "installed") reinstall.push(q);
  }
  const states = [
    ...deprecated.map((name) => ({ name, state: "deprecated" as QueryState })),
    ...revived.map((name) => ({ name, state: "defined" as QueryState })),
  ];
  const changes: CatalogChange[] = states.length > 0 ? [{ kind: "set-query-states", graph, states }] : [];
  return { changes, deprecated, reinstall: orderCalleesFirst(reinstall) };
}

/** Loading jobs of `graph` that write a type the change dropped or altered: they are dropped. */
export function loadingJobsToDrop(state: CatalogState, graph: string, touchedTypes: readonly string[]): string[] {
  const touched = new Set(touchedTypes);
  return state.loadingJobs.filter((j) => j.graph === graph && j.types.some((t) => touched.has(t))).map((j) => j.name);
}

// ------------------------------------------------------------------ helpers

function unique(names: string[]): string[] {
  return [...new Set(names)];
}

/** Callees before callers (a stable topological order; cycles keep their input order). */
export function orderCalleesFirst(queries: CatalogQuery[]): CatalogQuery[] {
  const byName = new Map(queries.map((q) => [q.name, q]));
  const out: CatalogQuery[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (q: CatalogQuery): void => {
    if (state.get(q.name)) return;
    state.set(q.name, "visiting");
    for (const c of q.callees) {
      const callee = byName.get(c);
      if (callee) visit(callee);
    }
    state.set(q.name, "done");
    out.push(q);
  };
  for (const q of queries) visit(q);
  return out;
}
