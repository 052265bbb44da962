// Applying an upsert batch: all or nothing. Phase one (upsert-plan.ts) validates and resolves
// every item without touching memory; phase two applies the plan — vertices, then edges in
// order (`edges` items, then `edgeColumns` group by group), run by run (link-edges.ts takes
// long runs in bulk) — and publishes one version.
import type { UpsertBatch, UpsertOptions, UpsertResult } from "../api.js";
import type { StoreState } from "../state.js";
import { readCell } from "../tables/columns.js";
import { combine, updateEdge } from "./apply-writes.js";
import { BatchVertices } from "./batch-vertices.js";
import { EdgePlans, NO_VALUES, type EdgeRun } from "./edge-plans.js";
import { linkRun } from "./link-edges.js";
import { NO_WRITES } from "./plan-writes.js";
import { findEdge, Planner, type VertexPlan } from "./upsert-plan.js";

/** Runs at least this long (of a type without a discriminator) are linked in bulk. */
const BULK_RUN = 16;

/** The plans reused by every batch of a store. */
const plansOf = new WeakMap<StoreState, { vertices: BatchVertices; edges: EdgePlans }>();

export function applyUpsert(state: StoreState, batch: UpsertBatch, options: UpsertOptions = {}): UpsertResult {
  const planner = planUpsert(state, batch, options);
  const { vertexPlans, edgePlans } = planner;
  const result: UpsertResult = {
    acceptedVertices: vertexPlans.length,
    acceptedEdges: edgePlans.length,
    createdEndpointVertices: 0,
    skippedVertices: planner.skippedVertices,
    skippedEdges: planner.skippedEdges,
    version: state.current.version,
  };
  if (vertexPlans.length === 0 && edgePlans.length === 0) return result;
  state.arena.reserve(planner.estimateBytes());
  const vertices = planner.vertices;
  for (const plan of vertexPlans) applyVertex(plan, vertices);
  const createdByVertexItems = vertices.createdCount;
  for (const run of edgePlans.runs) applyRun(run, edgePlans, vertices);
  result.createdEndpointVertices = vertices.createdCount - createdByVertexItems;
  state.autoCompact();
  result.version = state.publish().version;
  return result;
}

/** Phase one alone: throws the StoreError `applyUpsert` would throw, changing nothing. */
export function checkUpsert(state: StoreState, batch: UpsertBatch, options: UpsertOptions = {}): void {
  planUpsert(state, batch, options);
}

function planUpsert(state: StoreState, batch: UpsertBatch, options: UpsertOptions): Planner {
  let plans = plansOf.get(state);
  if (!plans) plansOf.set(state, (plans = { vertices: new BatchVertices(), edges: new EdgePlans() }));
  const planner = new Planner(state, options, plans.vertices, plans.edges);
  planner.planVertices(batch.vertices ?? []);
  planner.expectEdgeOperators(batch.edges, batch.edgeColumns);
  planner.planEdges(batch.edges ?? []);
  planner.planEdgeColumns(batch.edgeColumns ?? []);
  return planner;
}

function applyVertex(plan: VertexPlan, vertices: BatchVertices): void {
  const { table } = plan;
  const local = vertices.slotOf(plan.local);
  const existed = !vertices.justCreated;
  const writes = plan.writes;
  for (let k = 0; k < writes.length; k++) {
    const w = writes[k];
    if (existed && w.op === "~") continue;
    const stored = existed && w.op !== "=" ? readCell(table.ctx, w.column.kind, w.column.region!.addr, local, w.column.def.type) : undefined;
    table.writeAttribute(w.column, local, stored === undefined ? w.value : combine(w, stored));
  }
}

function applyRun(run: EdgeRun, plans: EdgePlans, vertices: BatchVertices): void {
  // Ends first, in item order: an edge creates the ends it names that do not exist yet.
  const { fromLocals, toLocals } = plans;
  for (let i = run.start; i < run.end; i++) {
    if (fromLocals[i] < 0) fromLocals[i] = vertices.slotOf(fromLocals[i]);
    if (toLocals[i] < 0) toLocals[i] = vertices.slotOf(toLocals[i]);
  }
  if (run.end - run.start >= BULK_RUN && run.table.discriminator.length === 0) {
    linkRun(run, fromLocals, toLocals, plans.writes);
    return;
  }
  for (let i = run.start; i < run.end; i++) applyEdge(run, plans, i);
}

/** One edge: update it when its identity is stored (earlier items of the batch included), else create it. */
function applyEdge(run: EdgeRun, plans: EdgePlans, i: number): void {
  const { table, fromTable, toTable } = run;
  const fromLocal = plans.fromLocals[i];
  const toLocal = plans.toLocals[i];
  const discriminator = run.bare ? NO_VALUES : plans.discriminators[i];
  const writes = run.bare ? NO_WRITES : plans.writes[i];
  const toVid = toTable.vidOf(toLocal);
  const found = findEdge(table, fromTable, fromLocal, toVid, discriminator);
  // Indexed loops: this runs once per edge, and array iterators would allocate.
  if (found !== -2) {
    updateEdge(table, found, writes);
    return;
  }
  const eid = table.newEid();
  for (let d = 0; d < discriminator.length; d++) table.writeAttribute(table.discriminator[d], eid, discriminator[d]);
  for (let k = 0; k < writes.length; k++) table.writeAttribute(writes[k].column, eid, writes[k].value);
  table.link(fromTable.ordinal, fromLocal, fromTable.vidOf(fromLocal), toTable.ordinal, toLocal, toVid, eid);
}
