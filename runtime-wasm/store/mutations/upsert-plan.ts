// Phase one of an upsert: validate every item and decide, in item order, what exists, what is
// skipped and whether an operator needs a missing item — without touching memory. The plan of
// the edges is kept column-wise (EdgePlans) so that large batches allocate nothing per edge.
import type { AttrValue } from "../../schema/types.js";
import type { AttrWrite, EdgeColumns, EdgeUpsert, ExternalId, IdValue, SkippedEdge, SkippedVertex, UpsertOptions, VertexKey, VertexSkipReason, VertexUpsert } from "../api.js";
import { shown, StoreError } from "../errors.js";
import { IdKind } from "../layout.js";
import type { EdgeRef, StoreState } from "../state.js";
import { mergePays } from "../tables/adjacency.js";
import { EdgeTable } from "../tables/edge-table.js";
import type { VertexTable } from "../tables/vertex-table.js";
import { defaultOf, valueKey } from "../values/coerce.js";
import { compositeValues, idValueOfKey, type IdKey } from "../values/ids.js";
import { needsExistingItem } from "../values/operators.js";
import { ABSENT, isLocal, type BatchVertices } from "./batch-vertices.js";
import { NO_VALUES, type EdgePlans } from "./edge-plans.js";
import { NO_WRITES, planId, planWrites, type ItemPath, type PlannedWrite } from "./plan-writes.js";

export interface VertexPlan {
  table: VertexTable;
  key: IdKey;
  raw: VertexUpsert["id"];
  writes: PlannedWrite[];
  /** Local slot when the vertex existed before the batch, else its planned creation (BatchVertices). */
  local: number;
}

export class Planner implements ItemPath {
  private list = "";
  private index = 0;
  /** Bytes the plan's new data needs (see estimateBytes). */
  private bytes = 1 << 16;
  /** Tables the plan writes to. */
  private readonly touched = new Set<VertexTable | EdgeTable>();
  private lastTouched: VertexTable | EdgeTable | null = null;

  readonly skippedVertices: SkippedVertex[] = [];
  readonly skippedEdges: SkippedEdge[] = [];
  readonly vertexPlans: VertexPlan[] = [];
  /** Edge identities created or updated earlier in this batch (kept only when an edge item needs them). */
  private edgeKeys: Set<string> | null = null;
  /** The source end of the last edge planned, resolved (sources repeat: a body lists a vertex's edges together). */
  private lastFromTable: VertexTable | null = null;
  private lastFromKey: IdKey = "";
  private lastFromCode = ABSENT;
  /** Whether any option or retired id can make an edge skip (else the checks are skipped). */
  private edgeSkips = false;

  constructor(
    private readonly state: StoreState,
    private readonly options: UpsertOptions,
    /** Every vertex the batch names, resolved once (reset here). */
    readonly vertices: BatchVertices,
    readonly edgePlans: EdgePlans,
  ) {
    vertices.reset();
    edgePlans.reset();
    const o = options;
    this.edgeSkips = !!(o.vertexMustExist || o.updateVertexOnly || o.sourceVertexMustExist || o.targetVertexMustExist) || state.vertexTables.some((t) => t !== null && t.retiredKeys.size > 0);
  }

  path(suffix = ""): string {
    return `${this.list}[${this.index}]${suffix}`;
  }

  /**
   * Generous estimate of the memory applying the plan allocates: new entries and list moves,
   * values, (while readers pin versions) copies of the arrays it touches, and the fresh copy
   * of each adjacency that may take its new entries by a merge (link-edges.ts).
   */
  estimateBytes(): number {
    const pinned = this.state.space.pinnedVersions > 0;
    let bytes = this.bytes;
    for (const t of this.touched) {
      if (t instanceof EdgeTable) {
        const edges = this.edgePlans.runs.reduce((n, run) => (run.table === t ? n + run.end - run.start : n), 0);
        for (const adj of t.adjacencies()) {
          bytes += (pinned ? 3 : 1) * adj.slots * 8 + adj.chunkBytes / 8;
          if (mergePays(adj.slots, adj.entryCount * adj.entryWords, edges)) bytes += (adj.entryCount + 2 * edges) * adj.entryBytes;
        }
      } else bytes += (pinned ? 2 : 1) * (t.capacity * (t.idBytes + 1 + 8 * t.columns.length) + t.hashCapacity * 12);
    }
    return bytes;
  }

  planVertices(items: VertexUpsert[]): void {
    if (!Array.isArray(items)) throw new StoreError("INVALID_VALUE", "vertices must be a list");
    this.list = "vertices";
    for (let index = 0; index < items.length; index++) {
      const item = items[index];
      this.index = index;
      const table = this.vertexTable(item?.type, "");
      const key = planId(table, item.id, this, ".id");
      const writes = planWrites(table.byName, table.keyColumns, item.attributes, table.ctx.tuples, table.def.name, this);
      let local = this.vertices.resolve(table, key);
      const skip = this.vertexSkip(table, key, local);
      if (skip) {
        this.skippedVertices.push({ index, type: table.key, id: idOf(table, item.id, key), reason: skip });
        continue;
      }
      if (local === ABSENT) {
        const needy = writes.find((w) => needsExistingItem(w.op));
        if (needy) throw missingItem(`${this.path()}: operator "${needy.op}" on attribute ${needy.column.name} of vertex ${shown(key)}, which does not exist`, table.def.name);
        local = this.vertices.plan(table, key, item.id);
      }
      this.vertexPlans.push({ table, key, raw: item.id, writes, local });
      this.touch(table);
      this.bytes += 64 + (writes.length > 0 ? writesBytes(writes) : 0);
    }
  }

  /**
   * Remember the identity of every accepted edge when some edge item (of `edges` or of any
   * group of `edgeColumns`) uses an operator that needs its edge to exist: the edge may be
   * created by any earlier item of the batch.
   */
  expectEdgeOperators(edges: unknown, groups: unknown): void {
    const needy = (Array.isArray(edges) && edges.some((e: EdgeUpsert) => needsExisting(e?.attributes))) || (Array.isArray(groups) && groups.some((g: EdgeColumns) => Array.isArray(g?.attributes) && g.attributes.some(needsExisting)));
    if (needy) this.edgeKeys ??= new Set();
  }

  planEdges(items: EdgeUpsert[]): void {
    if (!Array.isArray(items)) throw new StoreError("INVALID_VALUE", "edges must be a list");
    this.list = "edges";
    let lastRef: EdgeRef | null = null;
    let lastFromType: unknown;
    let lastToType: unknown;
    let fromTable: VertexTable | null = null;
    let toTable: VertexTable | null = null;
    for (let index = 0; index < items.length; index++) {
      const item = items[index];
      this.index = index;
      const ref: EdgeRef = lastRef !== null && item?.type === lastRef.key ? lastRef : this.edgeRef(item?.type);
      const reversed = ref.reversed;
      const fromRef = reversed ? item.to : item.from;
      const toRef = reversed ? item.from : item.to;
      const fromType = fromRef?.type;
      const toType = toRef?.type;
      // Items of a body repeat one edge type and end types: check the pair once per run.
      if (ref !== lastRef || fromType !== lastFromType || toType !== lastToType) {
        fromTable = this.vertexTable(fromType, reversed ? ".to" : ".from");
        toTable = this.vertexTable(toType, reversed ? ".from" : ".to");
        this.checkPair(ref.table, fromTable, toTable);
        this.beginRun(ref.table, fromTable, toTable);
        lastRef = ref;
        lastFromType = fromType;
        lastToType = toType;
      }
      this.planEdge(ref, fromTable!, fromRef.id, toTable!, toRef.id, item.attributes, reversed, undefined);
    }
  }

  private beginRun(table: EdgeTable, fromTable: VertexTable, toTable: VertexTable, bare = false): void {
    this.edgePlans.begin(table, fromTable, toTable, bare);
    this.touch(table);
    this.touch(fromTable);
    this.touch(toTable);
  }

  planEdgeColumns(groups: EdgeColumns[]): void {
    if (!Array.isArray(groups)) throw new StoreError("INVALID_VALUE", "edgeColumns must be a list");
    groups.forEach((group, g) => {
      this.list = `edgeColumns[${g}]`;
      this.index = 0;
      const ref = this.edgeRef(group?.type);
      const reversed = ref.reversed;
      const fromTable = this.vertexTable(reversed ? group.toType : group.fromType, reversed ? ".toType" : ".fromType");
      const toTable = this.vertexTable(reversed ? group.fromType : group.toType, reversed ? ".fromType" : ".toType");
      this.checkPair(ref.table, fromTable, toTable);
      const [fromIds, toIds] = reversed ? [group.to, group.from] : [group.from, group.to];
      if (!isList(fromIds) || !isList(toIds) || fromIds.length !== toIds.length || (group.attributes !== undefined && (!Array.isArray(group.attributes) || group.attributes.length !== fromIds.length))) {
        throw new StoreError("INVALID_VALUE", `${this.list}: from, to (and attributes) must be lists of one length`, { path: this.list });
      }
      // Nothing to write, no discriminator, nothing that can skip or needs identities: the edges
      // only resolve their ends (what a bulk load of plain edges does, millions of times).
      const bare = group.attributes === undefined && ref.table.discriminator.length === 0 && !this.edgeSkips && this.edgeKeys === null;
      this.beginRun(ref.table, fromTable, toTable, bare);
      if (bare) {
        this.planBareEdges(fromTable, fromIds, toTable, toIds, reversed);
        return;
      }
      for (let i = 0; i < fromIds.length; i++) {
        this.index = i;
        this.planEdge(ref, fromTable, fromIds[i], toTable, toIds[i], group.attributes?.[i], reversed, g);
      }
    });
  }

  /** planEdge for a bare run's items (EdgeRun.bare): each one is accepted once its ids are valid. */
  private planBareEdges(fromTable: VertexTable, fromIds: ArrayLike<ExternalId>, toTable: VertexTable, toIds: ArrayLike<ExternalId>, reversed: boolean): void {
    const vertices = this.vertices;
    const plans = this.edgePlans;
    const fromSuffix = reversed ? ".to.id" : ".from.id";
    const toSuffix = reversed ? ".from.id" : ".to.id";
    let lastFromKey = this.lastFromTable === fromTable ? this.lastFromKey : undefined;
    let lastFromCode = this.lastFromCode;
    for (let i = 0; i < fromIds.length; i++) {
      this.index = i;
      const fromRaw = fromIds[i];
      const toRaw = toIds[i];
      const fromKey = planId(fromTable, fromRaw, this, fromSuffix);
      const toKey = planId(toTable, toRaw, this, toSuffix);
      // As in planEdge: a resolved code changes only from ABSENT to planned, so the last
      // source's code (never ABSENT) stays right.
      let fromCode = fromKey === lastFromKey ? lastFromCode : vertices.resolve(fromTable, fromKey);
      let toCode = vertices.resolve(toTable, toKey);
      if (fromCode === ABSENT) fromCode = vertices.plan(fromTable, fromKey, fromRaw);
      if (toCode === ABSENT) toCode = vertices.plan(toTable, toKey, toRaw);
      lastFromKey = fromKey;
      lastFromCode = fromCode;
      plans.pushBare(fromCode, toCode);
    }
    if (lastFromKey !== undefined) {
      this.lastFromTable = fromTable;
      this.lastFromKey = lastFromKey;
      this.lastFromCode = lastFromCode;
    }
    this.bytes += 176 * fromIds.length;
  }

  /** Validate and resolve one edge item (ends already in the stored direction), then accept or skip it. */
  private planEdge(ref: EdgeRef, fromTable: VertexTable, fromRaw: ExternalId, toTable: VertexTable, toRaw: ExternalId, attributes: AttrWrite[] | undefined, reversed: boolean, group: number | undefined): void {
    const table = ref.table;
    const fromKey = planId(fromTable, fromRaw, this, reversed ? ".to.id" : ".from.id");
    const toKey = planId(toTable, toRaw, this, reversed ? ".from.id" : ".to.id");
    const writes = attributes === undefined ? NO_WRITES : planWrites(table.byName, table.discriminator, attributes, table.ctx.tuples, table.def.name, this);
    const discriminator = table.discriminator.length === 0 ? NO_VALUES : this.discriminatorValues(table, attributes);
    const vertices = this.vertices;
    // A resolved code never changes during planning except from ABSENT to planned: only those
    // are cached.
    let fromCode = fromTable === this.lastFromTable && fromKey === this.lastFromKey ? this.lastFromCode : vertices.resolve(fromTable, fromKey);
    let toCode = vertices.resolve(toTable, toKey);
    if (this.edgeSkips && ((fromCode === ABSENT && this.mayNotCreate(fromTable, fromKey, "source")) || (toCode === ABSENT && this.mayNotCreate(toTable, toKey, "target")))) {
      const missing: SkippedEdge["missing"] = [];
      this.noteMissing(fromTable, fromKey, fromRaw, fromCode, "source", missing);
      this.noteMissing(toTable, toKey, toRaw, toCode, "target", missing);
      this.skippedEdges.push(group === undefined ? { index: this.index, type: ref.key, missing } : { group, index: this.index, type: ref.key, missing });
      return;
    }
    const identity = this.edgeKeys ? edgeIdentity(table, fromTable, fromKey, toTable, toKey, discriminator) : "";
    if (writes.length > 0) {
      const needy = writes.find((w) => needsExistingItem(w.op));
      if (needy && !this.edgeExists(table, fromTable, fromCode, toTable, toCode, discriminator, identity)) {
        throw missingItem(`${this.path()}: operator "${needy.op}" on attribute ${needy.column.name} of an edge that does not exist`, table.def.name);
      }
    }
    if (fromCode === ABSENT) fromCode = vertices.plan(fromTable, fromKey, fromRaw);
    if (toCode === ABSENT) toCode = vertices.plan(toTable, toKey, toRaw);
    this.lastFromTable = fromTable;
    this.lastFromKey = fromKey;
    this.lastFromCode = fromCode;
    this.edgeKeys?.add(identity);
    this.edgePlans.push(fromCode, toCode, discriminator, writes);
    this.bytes += writes.length > 0 ? 176 + writesBytes(writes) : 176;
  }

  private checkPair(table: EdgeTable, fromTable: VertexTable, toTable: VertexTable): void {
    if (table.allowed.has(fromTable.ordinal * 65536 + toTable.ordinal)) return;
    if (!table.directed && table.allowed.has(toTable.ordinal * 65536 + fromTable.ordinal)) return;
    const path = this.path();
    throw new StoreError("INVALID_ENDPOINT_TYPE", `${path}: edge type ${table.def.name} does not connect ${fromTable.def.name} to ${toTable.def.name}`, { path, type: table.def.name });
  }

  private touch(table: VertexTable | EdgeTable): void {
    if (table === this.lastTouched) return;
    this.touched.add(table);
    this.lastTouched = table;
  }

  private vertexTable(type: unknown, suffix: string): VertexTable {
    const table = typeof type === "string" ? this.state.vertexByKey.get(type) : undefined;
    if (!table) {
      const path = this.path(suffix);
      throw new StoreError("UNKNOWN_VERTEX_TYPE", `${path}: invalid vertex type ${shown(type)}`, { path, type: shown(type) });
    }
    return table;
  }

  private edgeRef(type: unknown): EdgeRef {
    const ref = typeof type === "string" ? this.state.edgeByKey.get(type) : undefined;
    if (!ref) {
      const path = this.path();
      throw new StoreError("UNKNOWN_EDGE_TYPE", `${path}: invalid edge type ${shown(type)}`, { path, type: shown(type) });
    }
    return ref;
  }

  private discriminatorValues(table: EdgeTable, attributes: AttrWrite[] | undefined): AttrValue[] {
    const given = planWrites(table.byName, [], attributes, table.ctx.tuples, table.def.name, this);
    return table.discriminator.map((column) => {
      const write = given.filter((w) => w.column === column).pop();
      if (write && write.op !== "=" && write.op !== "~") {
        const path = this.path();
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

  /** Whether a missing endpoint may not be created: it is retired, or the flags say ends must exist. */
  private mayNotCreate(table: VertexTable, key: IdKey, role: "source" | "target"): boolean {
    const o = this.options;
    if (o.vertexMustExist || o.updateVertexOnly || (role === "source" ? o.sourceVertexMustExist : o.targetVertexMustExist)) return true;
    return table.retiredKeys.size > 0 && table.retiredKeys.has(key);
  }

  /** Add the endpoint to `missing` when it does not exist and may not be created. */
  private noteMissing(table: VertexTable, key: IdKey, raw: VertexKey["id"], local: number, role: "source" | "target", missing: SkippedEdge["missing"]): void {
    if (local !== ABSENT || !this.mayNotCreate(table, key, role)) return;
    missing.push({ type: table.key, id: idOf(table, raw, key), retired: table.retiredKeys.has(key) });
  }

  private edgeExists(table: EdgeTable, fromTable: VertexTable, fromLocal: number, toTable: VertexTable, toLocal: number, discriminator: AttrValue[], identity: string): boolean {
    if (this.edgeKeys?.has(identity)) return true;
    if (!isLocal(fromLocal) || !isLocal(toLocal)) return false;
    return findEdge(table, fromTable, fromLocal, toTable.vidOf(toLocal), discriminator) !== -2;
  }
}

/** The eid of the stored edge with this identity (-1 for a type without eids), or -2. */
export function findEdge(table: EdgeTable, fromTable: VertexTable, fromLocal: number, toVid: number, discriminator: AttrValue[]): number {
  const adj = table.out.get(fromTable.ordinal);
  if (!adj) return -2;
  return adj.find(fromLocal, toVid, discriminator.length === 0 ? null : discriminatorTest(table, discriminator));
}

/** A separate function, so that findEdge (run per edge) allocates no closure context. */
function discriminatorTest(table: EdgeTable, values: AttrValue[]): (eid: number) => boolean {
  return (eid) => sameDiscriminator(table, eid, values);
}

function sameDiscriminator(table: EdgeTable, eid: number, values: AttrValue[]): boolean {
  for (let i = 0; i < values.length; i++) {
    if (valueKey(table.readAttribute(table.discriminator[i], eid)) !== valueKey(values[i])) return false;
  }
  return true;
}

function edgeIdentity(table: EdgeTable, fromTable: VertexTable, fromKey: IdKey, toTable: VertexTable, toKey: IdKey, discriminator: AttrValue[]): string {
  let a = `${fromTable.ordinal}:${valueKey(fromKey as AttrValue)}`;
  let b = `${toTable.ordinal}:${valueKey(toKey as AttrValue)}`;
  if (!table.directed && b < a) [a, b] = [b, a];
  return `${a}|${b}|${discriminator.map(valueKey).join("|")}`;
}

function needsExisting(writes: AttrWrite[] | undefined): boolean {
  return Array.isArray(writes) && writes.some((w) => w?.op !== undefined && needsExistingItem(w.op));
}

function isList(x: unknown): x is ArrayLike<ExternalId> {
  return Array.isArray(x) || ArrayBuffer.isView(x);
}

function missingItem(message: string, type: string): StoreError {
  return new StoreError("OP_ON_MISSING_ITEM", message, { type });
}

function idOf(table: VertexTable, raw: VertexKey["id"], key: IdKey): IdValue {
  return table.idKind === IdKind.COMPOSITE ? compositeValues(table.def, raw, table.ctx.tuples) : idValueOfKey(table.idKind, key);
}

function writesBytes(writes: PlannedWrite[]): number {
  let bytes = 0;
  for (const w of writes) bytes += typeof w.value === "string" ? 8 + w.value.length * 3 : typeof w.value === "object" ? 64 + JSON.stringify(w.value, (_k, x) => (typeof x === "bigint" ? String(x) : x)).length * 3 : 16;
  return bytes;
}
