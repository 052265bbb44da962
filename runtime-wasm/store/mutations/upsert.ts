// Applying an upsert batch: all or nothing. Phase one validates every item and decides, in
// item order, what exists, what is skipped and whether an operator needs a missing item —
// without touching memory. Phase two applies the plan (vertices first, then edges, each in
// order) and publishes one version.
import type { AttrValue } from "../../schema/types.js";
import type { EdgeUpsert, IdValue, SkippedEdge, SkippedVertex, UpsertBatch, UpsertOptions, UpsertResult, VertexKey, VertexSkipReason, VertexUpsert } from "../api.js";
import { StoreError } from "../errors.js";
import { IdKind } from "../layout.js";
import type { EdgeRef, StoreState } from "../state.js";
import { readCell, type Column } from "../tables/columns.js";
import { EdgeTable } from "../tables/edge-table.js";
import type { VertexTable } from "../tables/vertex-table.js";
import { defaultOf, valueKey } from "../values/coerce.js";
import { compositeValues, idValueOfKey, type IdKey } from "../values/ids.js";
import { applyOperator, needsExistingItem } from "../values/operators.js";
import { ABSENT, BatchVertices } from "./batch-vertices.js";
import { keyValues, planId, planWrites, type ItemPath, type PlannedWrite } from "./plan-writes.js";

interface VertexPlan {
  table: VertexTable;
  key: IdKey;
  raw: VertexUpsert["id"];
  writes: PlannedWrite[];
  /** Local slot when the vertex existed before the batch, else CREATED or ABSENT (BatchVertices). */
  local: number;
}

/** One edge item, validated and resolved (flat: one object per edge keeps large batches cheap). */
class EdgePlan {
  constructor(
    readonly table: EdgeTable,
    readonly fromTable: VertexTable,
    readonly fromKey: IdKey,
    readonly fromRaw: VertexKey["id"],
    /** Local slot when the vertex existed before the batch, else CREATED or ABSENT (BatchVertices). */
    readonly fromLocal: number,
    readonly toTable: VertexTable,
    readonly toKey: IdKey,
    readonly toRaw: VertexKey["id"],
    readonly toLocal: number,
    readonly discriminator: AttrValue[],
    readonly writes: PlannedWrite[],
  ) {}
}

const NO_VALUES: AttrValue[] = [];

export function applyUpsert(state: StoreState, batch: UpsertBatch, options: UpsertOptions = {}): UpsertResult {
  const planner = new Planner(state, options);
  const vertices = planner.planVertices(batch.vertices ?? []);
  const edges = planner.planEdges(batch.edges ?? []);
  const result: UpsertResult = {
    acceptedVertices: 0,
    acceptedEdges: 0,
    createdEndpointVertices: 0,
    skippedVertices: planner.skippedVertices,
    skippedEdges: planner.skippedEdges,
    version: state.current.version,
  };
  if (vertices.length === 0 && edges.length === 0) return result;
  state.arena.reserve(estimateBytes(state, vertices, edges));
  const batchVertices = planner.vertices;
  for (const plan of vertices) applyVertex(plan, batchVertices);
  const createdByVertexItems = batchVertices.createdCount;
  for (const plan of edges) applyEdge(plan, batchVertices);
  result.createdEndpointVertices = batchVertices.createdCount - createdByVertexItems;
  result.acceptedVertices = vertices.length;
  result.acceptedEdges = edges.length;
  state.autoCompact();
  result.version = state.publish().version;
  return result;
}

class Planner implements ItemPath {
  private list = "";
  private index = 0;

  readonly skippedVertices: SkippedVertex[] = [];
  readonly skippedEdges: SkippedEdge[] = [];
  /** Every vertex the batch names, resolved once. */
  readonly vertices = new BatchVertices();
  /** Edge identities created or updated earlier in this batch (kept only when an edge item needs them). */
  private edgeKeys: Set<string> | null = null;

  constructor(
    private readonly state: StoreState,
    private readonly options: UpsertOptions,
  ) {}

  path(suffix = ""): string {
    return `${this.list}[${this.index}]${suffix}`;
  }

  planVertices(items: VertexUpsert[]): VertexPlan[] {
    if (!Array.isArray(items)) throw new StoreError("INVALID_VALUE", "vertices must be a list");
    const plans: VertexPlan[] = [];
    for (let index = 0; index < items.length; index++) {
      const item = items[index];
      this.list = "vertices";
      this.index = index;
      const table = this.vertexTable(item?.type, "");
      const key = planId(table, item.id, this, ".id");
      const writes = planWrites(table.byName, table.keyColumns, item.attributes, table.ctx.tuples, table.def.name, this);
      const local = this.vertices.resolve(table, key);
      const skip = this.vertexSkip(table, key, local);
      if (skip) {
        this.skippedVertices.push({ index, type: table.key, id: idOf(table, item.id, key), reason: skip });
        continue;
      }
      if (local === ABSENT) {
        const needy = writes.find((w) => needsExistingItem(w.op));
        if (needy) throw missingItem(`${this.path()}: operator "${needy.op}" on attribute ${needy.column.name} of vertex ${String(key)}, which does not exist`, table.def.name);
        this.vertices.markCreated(table, key);
      }
      plans.push({ table, key, raw: item.id, writes, local });
    }
    return plans;
  }

  planEdges(items: EdgeUpsert[]): EdgePlan[] {
    if (!Array.isArray(items)) throw new StoreError("INVALID_VALUE", "edges must be a list");
    if (items.some((e) => e?.attributes?.some?.((w) => w?.op !== undefined && needsExistingItem(w.op)))) this.edgeKeys = new Set();
    const plans: EdgePlan[] = [];
    for (let index = 0; index < items.length; index++) {
      const item = items[index];
      this.list = "edges";
      this.index = index;
      const ref = this.edgeRef(item?.type);
      const table = ref.table;
      const reversed = ref.reversed;
      const fromRef = reversed ? item.to : item.from;
      const toRef = reversed ? item.from : item.to;
      const fromSuffix = reversed ? ".to" : ".from";
      const toSuffix = reversed ? ".from" : ".to";
      const fromTable = this.vertexTable(fromRef?.type, fromSuffix);
      const fromKey = planId(fromTable, fromRef.id, this, `${fromSuffix}.id`);
      const toTable = this.vertexTable(toRef?.type, toSuffix);
      const toKey = planId(toTable, toRef.id, this, `${toSuffix}.id`);
      const pair = fromTable.ordinal * 65536 + toTable.ordinal;
      if (!table.allowed.has(pair) && (table.directed || !table.allowed.has(toTable.ordinal * 65536 + fromTable.ordinal))) {
        const path = this.path();
        throw new StoreError("INVALID_ENDPOINT_TYPE", `${path}: edge type ${table.def.name} does not connect ${fromTable.def.name} to ${toTable.def.name}`, { path, type: table.def.name });
      }
      const writes = planWrites(table.byName, table.discriminator, item.attributes, table.ctx.tuples, table.def.name, this);
      const discriminator = table.discriminator.length === 0 ? NO_VALUES : this.discriminatorValues(table, item);
      const fromLocal = this.vertices.resolve(fromTable, fromKey);
      const toLocal = this.vertices.resolve(toTable, toKey);
      if (fromLocal < 0 || toLocal < 0) {
        const missing: SkippedEdge["missing"] = [];
        this.noteMissing(fromTable, fromKey, fromRef.id, fromLocal, "source", missing);
        this.noteMissing(toTable, toKey, toRef.id, toLocal, "target", missing);
        if (missing.length > 0) {
          this.skippedEdges.push({ index, type: ref.key, missing });
          continue;
        }
      }
      const plan = new EdgePlan(table, fromTable, fromKey, fromRef.id, fromLocal, toTable, toKey, toRef.id, toLocal, discriminator, writes);
      const identity = this.edgeKeys ? edgeIdentity(plan) : "";
      if (writes.length > 0) {
        const needy = writes.find((w) => needsExistingItem(w.op));
        if (needy && !this.edgeExists(plan, identity)) {
          throw missingItem(`${this.path()}: operator "${needy.op}" on attribute ${needy.column.name} of an edge that does not exist`, table.def.name);
        }
      }
      if (fromLocal === ABSENT) this.vertices.markCreated(fromTable, fromKey);
      if (toLocal === ABSENT) this.vertices.markCreated(toTable, toKey);
      this.edgeKeys?.add(identity);
      plans.push(plan);
    }
    return plans;
  }

  private vertexTable(type: unknown, suffix: string): VertexTable {
    const table = typeof type === "string" ? this.state.vertexByKey.get(type) : undefined;
    if (!table) {
      const path = this.path(suffix);
      throw new StoreError("UNKNOWN_VERTEX_TYPE", `${path}: invalid vertex type ${String(type)}`, { path, type: String(type) });
    }
    return table;
  }

  private edgeRef(type: unknown): EdgeRef {
    const ref = typeof type === "string" ? this.state.edgeByKey.get(type) : undefined;
    if (!ref) {
      const path = this.path();
      throw new StoreError("UNKNOWN_EDGE_TYPE", `${path}: invalid edge type ${String(type)}`, { path, type: String(type) });
    }
    return ref;
  }

  private discriminatorValues(table: EdgeTable, item: EdgeUpsert): AttrValue[] {
    const path = this.path();
    const given = planWrites(table.byName, [], item.attributes, table.ctx.tuples, table.def.name, this);
    return table.discriminator.map((column) => {
      const write = given.filter((w) => w.column === column).pop();
      if (write && write.op !== "=" && write.op !== "~") {
        throw new StoreError("INVALID_OPERATOR", `${path}: discriminator ${column.name} takes no operator "${write.op}"`, { path, type: table.def.name, attribute: column.name });
      }
      return write ? write.value : defaultOf(column.def, table.ctx.tuples);
    });
  }

  private vertexSkip(table: VertexTable, key: IdKey, local: number): VertexSkipReason | undefined {
    if (table.retiredKeys.size > 0 && table.retiredKeys.has(key)) return "retired";
    const exists = local !== ABSENT;
    if (exists && this.options.newVertexOnly) return "already_exists";
    if (!exists && this.options.updateVertexOnly) return "not_exists";
    return undefined;
  }

  /** Add the endpoint to `missing` when it does not exist and may not be created (or is retired). */
  private noteMissing(table: VertexTable, key: IdKey, raw: VertexKey["id"], local: number, role: "source" | "target", missing: SkippedEdge["missing"]): void {
    if (local !== ABSENT) return;
    const retired = table.retiredKeys.size > 0 && table.retiredKeys.has(key);
    const o = this.options;
    const mustExist = o.vertexMustExist || o.updateVertexOnly || (role === "source" ? o.sourceVertexMustExist : o.targetVertexMustExist);
    if (retired || mustExist) missing.push({ type: table.key, id: idOf(table, raw, key), retired });
  }

  private edgeExists(plan: EdgePlan, identity: string): boolean {
    if (this.edgeKeys?.has(identity)) return true;
    if (plan.fromLocal < 0 || plan.toLocal < 0) return false;
    return findEdge(plan.table, plan.fromTable, plan.fromLocal, plan.toTable.vidOf(plan.toLocal), plan.discriminator) !== -2;
  }
}

/** The eid of the stored edge with this identity (-1 for a type without eids), or -2. */
export function findEdge(table: EdgeTable, fromTable: VertexTable, fromLocal: number, toVid: number, discriminator: AttrValue[]): number {
  const adj = table.out.get(fromTable.ordinal);
  if (!adj) return -2;
  if (discriminator.length === 0) return adj.find(fromLocal, toVid, null);
  return adj.find(fromLocal, toVid, (eid) => sameDiscriminator(table, eid, discriminator));
}

function sameDiscriminator(table: EdgeTable, eid: number, values: AttrValue[]): boolean {
  for (let i = 0; i < values.length; i++) {
    if (valueKey(table.readAttribute(table.discriminator[i], eid)) !== valueKey(values[i])) return false;
  }
  return true;
}

function edgeIdentity(plan: EdgePlan): string {
  let a = `${plan.fromTable.ordinal}:${valueKey(plan.fromKey as AttrValue)}`;
  let b = `${plan.toTable.ordinal}:${valueKey(plan.toKey as AttrValue)}`;
  if (!plan.table.directed && b < a) [a, b] = [b, a];
  return `${a}|${b}|${plan.discriminator.map(valueKey).join("|")}`;
}

function applyVertex(plan: VertexPlan, vertices: BatchVertices): void {
  const { table, key } = plan;
  const local = plan.local >= 0 ? plan.local : vertices.slotFor(table, key, () => keyValues(table, plan.raw, key));
  const existed = plan.local >= 0 || !vertices.justCreated;
  for (const w of plan.writes) {
    if (existed && w.op === "~") continue;
    table.writeAttribute(w.column, local, existed ? combine(w, readVertexCell(table, w.column, local)) : w.value);
  }
}

function applyEdge(plan: EdgePlan, vertices: BatchVertices): void {
  const { table, fromTable, toTable } = plan;
  const fromLocal = plan.fromLocal >= 0 ? plan.fromLocal : vertices.slotFor(fromTable, plan.fromKey, () => keyValues(fromTable, plan.fromRaw, plan.fromKey));
  const toLocal = plan.toLocal >= 0 ? plan.toLocal : vertices.slotFor(toTable, plan.toKey, () => keyValues(toTable, plan.toRaw, plan.toKey));
  const fromVid = fromTable.vidOf(fromLocal);
  const toVid = toTable.vidOf(toLocal);
  const found = findEdge(table, fromTable, fromLocal, toVid, plan.discriminator);
  if (found !== -2) {
    for (const w of plan.writes) {
      if (w.op === "~") continue;
      table.writeAttribute(w.column, found, combine(w, table.readAttribute(w.column, found)));
    }
    table.dirty = true;
    return;
  }
  const eid = table.newEid();
  plan.discriminator.forEach((value, i) => table.writeAttribute(table.discriminator[i], eid, value));
  for (const w of plan.writes) table.writeAttribute(w.column, eid, w.value);
  table.link(fromTable.ordinal, fromLocal, fromVid, toTable.ordinal, toLocal, toVid, eid);
}

function combine(w: PlannedWrite, stored: AttrValue): AttrValue {
  return w.op === "=" ? w.value : applyOperator(w.op, w.column.def.type, stored, w.value);
}

function readVertexCell(table: VertexTable, column: Column, local: number): AttrValue {
  return readCell(table.ctx, column.kind, column.region!.addr, local, column.def.type);
}

function missingItem(message: string, type: string): StoreError {
  return new StoreError("OP_ON_MISSING_ITEM", message, { type });
}

function idOf(table: VertexTable, raw: VertexKey["id"], key: IdKey): IdValue {
  return table.idKind === IdKind.COMPOSITE ? compositeValues(table.def, raw, table.ctx.tuples) : idValueOfKey(table.idKind, key);
}

/**
 * Generous estimate of the memory the plan allocates: new entries and list moves, values, and
 * (while readers pin versions) copies of the arrays it touches.
 */
function estimateBytes(state: StoreState, vertices: VertexPlan[], edges: EdgePlan[]): number {
  let bytes = (1 << 16) + vertices.length * 64 + edges.length * 176;
  const touched = new Set<VertexTable | EdgeTable>();
  let last: VertexTable | EdgePlan | undefined;
  for (const v of vertices) {
    if (v.table !== last) touched.add(v.table);
    last = v.table;
    if (v.writes.length > 0) bytes += writesBytes(v.writes);
  }
  for (const e of edges) {
    if (!(last instanceof EdgePlan) || last.table !== e.table || last.fromTable !== e.fromTable || last.toTable !== e.toTable) touched.add(e.table).add(e.fromTable).add(e.toTable);
    last = e;
    if (e.writes.length > 0) bytes += writesBytes(e.writes);
  }
  const pinned = state.space.pinnedVersions > 0;
  for (const t of touched) {
    if (t instanceof EdgeTable) for (const adj of t.adjacencies()) bytes += (pinned ? 3 : 1) * adj.slots * 8 + adj.chunkBytes / 8;
    else bytes += (pinned ? 2 : 1) * (t.capacity * (t.idBytes + 1 + 8 * t.columns.length) + t.hashCapacity * 4);
  }
  return bytes;
}

function writesBytes(writes: PlannedWrite[]): number {
  let bytes = 0;
  for (const w of writes) bytes += typeof w.value === "string" ? 8 + w.value.length * 3 : typeof w.value === "object" ? 64 + JSON.stringify(w.value, (_k, x) => (typeof x === "bigint" ? String(x) : x)).length * 3 : 16;
  return bytes;
}
