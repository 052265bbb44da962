// Applying an upsert batch: all or nothing. Phase one (upsert-plan.ts) validates and resolves
// every item without touching memory; phase two applies the plan — vertices, then edges in
// order (`edges` items, then `edgeColumns` group by group) — and publishes one version.
import type { AttrValue } from "../../schema/types.js";
import type { UpsertBatch, UpsertOptions, UpsertResult } from "../api.js";
import type { StoreState } from "../state.js";
import { readCell } from "../tables/columns.js";
import { applyOperator } from "../values/operators.js";
import type { BatchVertices } from "./batch-vertices.js";
import type { PlannedWrite } from "./plan-writes.js";
import { EdgePlans, findEdge, Planner, type VertexPlan } from "./upsert-plan.js";

/** The edge plan reused by every batch of a store. */
const plansOf = new WeakMap<StoreState, EdgePlans>();

export function applyUpsert(state: StoreState, batch: UpsertBatch, options: UpsertOptions = {}): UpsertResult {
  let plans = plansOf.get(state);
  if (!plans) plansOf.set(state, (plans = new EdgePlans()));
  const planner = new Planner(state, options, plans);
  planner.planVertices(batch.vertices ?? []);
  planner.expectEdgeOperators(batch.edges, batch.edgeColumns);
  planner.planEdges(batch.edges ?? []);
  planner.planEdgeColumns(batch.edgeColumns ?? []);
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
  for (let i = 0; i < edgePlans.length; i++) applyEdge(edgePlans, i, vertices);
  result.createdEndpointVertices = vertices.createdCount - createdByVertexItems;
  state.autoCompact();
  result.version = state.publish().version;
  return result;
}

function applyVertex(plan: VertexPlan, vertices: BatchVertices): void {
  const { table, key } = plan;
  const local = plan.local >= 0 ? plan.local : vertices.slotFor(table, key, plan.raw);
  const existed = plan.local >= 0 || !vertices.justCreated;
  const writes = plan.writes;
  for (let k = 0; k < writes.length; k++) {
    const w = writes[k];
    if (existed && w.op === "~") continue;
    const stored = existed && w.op !== "=" ? readCell(table.ctx, w.column.kind, w.column.region!.addr, local, w.column.def.type) : undefined;
    table.writeAttribute(w.column, local, stored === undefined ? w.value : combine(w, stored));
  }
}

function applyEdge(plans: EdgePlans, i: number, vertices: BatchVertices): void {
  const table = plans.tables[i];
  const fromTable = plans.fromTables[i];
  const toTable = plans.toTables[i];
  const fromLocal = plans.fromLocals[i] >= 0 ? plans.fromLocals[i] : vertices.slotFor(fromTable, plans.fromKeys[i], plans.fromRaws[i]);
  const toLocal = plans.toLocals[i] >= 0 ? plans.toLocals[i] : vertices.slotFor(toTable, plans.toKeys[i], plans.toRaws[i]);
  const fromVid = fromTable.vidOf(fromLocal);
  const toVid = toTable.vidOf(toLocal);
  const discriminator = plans.discriminators[i];
  const writes = plans.writes[i];
  const found = findEdge(table, fromTable, fromLocal, toVid, discriminator);
  // Indexed loops: this runs once per edge, and array iterators would allocate.
  if (found !== -2) {
    for (let k = 0; k < writes.length; k++) {
      const w = writes[k];
      if (w.op === "~") continue;
      table.writeAttribute(w.column, found, combine(w, table.readAttribute(w.column, found)));
    }
    table.dirty = true;
    return;
  }
  const eid = table.newEid();
  for (let d = 0; d < discriminator.length; d++) table.writeAttribute(table.discriminator[d], eid, discriminator[d]);
  for (let k = 0; k < writes.length; k++) table.writeAttribute(writes[k].column, eid, writes[k].value);
  table.link(fromTable.ordinal, fromLocal, fromVid, toTable.ordinal, toLocal, toVid, eid);
}

function combine(w: PlannedWrite, stored: AttrValue): AttrValue {
  return w.op === "=" ? w.value : applyOperator(w.op, w.column.def.type, stored, w.value);
}
