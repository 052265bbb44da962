// The vertices an upsert batch names: planning resolves each to its local slot when it exists
// before the batch, or to a planned creation when an earlier item creates it; applying creates
// planned vertices the first time an item reaches them, in item order. Only vertices new to
// the store are remembered here (existing ones are found by their id hash, which is cheaper
// than a JS Map for the many distinct ids of a large batch): those with a small
// non-negative integer key in a plain array per table (PlannedByKey), the others in a Map.
// One instance per store is reused by every batch (`reset`).
import type { ExternalId } from "../api.js";
import type { VertexTable } from "../tables/vertex-table.js";
import type { IdKey } from "../values/ids.js";
import { keyValues } from "./plan-writes.js";

/** The vertex does not exist (yet) and nothing so far creates it. */
export const ABSENT = -1;
/** Planned creation p is coded as PLANNED - p (so every code below ABSENT is a planned creation). */
const PLANNED = -2;

/** Whether a resolved code names a vertex that exists before the batch (its local slot). */
export function isLocal(code: number): boolean {
  return code >= 0;
}

/**
 * Integer keys below this are planned in a PlannedByKey array rather than a Map, if also below
 * eight times the table's live vertices or 2^20 (so sparse ids do not cost a large array).
 */
const DIRECT_KEYS = 1 << 22;

export class BatchVertices {
  private readonly byTable = new Map<VertexTable, Map<IdKey, number>>();
  private lastTable: VertexTable | null = null;
  private lastMap: Map<IdKey, number> | null = null;
  private readonly directByTable = new Map<VertexTable, PlannedByKey>();
  private lastDirectTable: VertexTable | null = null;
  private lastDirect: PlannedByKey | null = null;
  /** Planned creations, in the order planning met them. */
  private planned = 0;
  private readonly plannedTables: VertexTable[] = [];
  private readonly plannedKeys: IdKey[] = [];
  private readonly plannedRaws: ExternalId[] = [];
  /** Local slot of each planned creation once applied, else -1. */
  private plannedLocals = new Int32Array(64);
  /** Vertices `slotOf` has created. */
  createdCount = 0;
  /** Whether the last `slotOf` created the vertex. */
  justCreated = false;

  /** Forget the previous batch (the arrays are kept and overwritten). */
  reset(): void {
    this.byTable.clear();
    this.lastTable = this.lastMap = null;
    for (const direct of this.directByTable.values()) direct.clear();
    this.planned = 0;
    this.createdCount = 0;
    this.justCreated = false;
  }

  /** Local slot before the batch (≥ 0), a planned creation (< ABSENT), or ABSENT. */
  resolve(table: VertexTable, key: IdKey): number {
    const local = table.find(key);
    if (local >= 0) return local;
    if (this.planned === 0) return ABSENT;
    const p = isDirect(key, table) ? this.directOf(table).get(key) : this.mapOf(table).get(key);
    return p === undefined || p < 0 ? ABSENT : PLANNED - p;
  }

  /** Plan the creation of a vertex that resolved to ABSENT (or find the one planned already); returns its code. */
  plan(table: VertexTable, key: IdKey, raw: ExternalId): number {
    const direct = isDirect(key, table) ? this.directOf(table) : null;
    const map = direct === null ? this.mapOf(table) : null;
    const known = direct !== null ? direct.get(key as number) : map!.get(key);
    if (known !== undefined && known >= 0) return PLANNED - known;
    const p = this.planned++;
    if (p === this.plannedLocals.length) {
      const next = new Int32Array(p * 2);
      next.set(this.plannedLocals);
      this.plannedLocals = next;
    }
    this.plannedTables[p] = table;
    this.plannedKeys[p] = key;
    this.plannedRaws[p] = raw;
    this.plannedLocals[p] = -1;
    if (direct !== null) direct.set(key as number, p);
    else map!.set(key, p);
    return PLANNED - p;
  }

  /** Apply phase: the local slot of a resolved code, creating a planned vertex (with defaults) the first time. */
  slotOf(code: number): number {
    if (code >= 0) {
      this.justCreated = false;
      return code;
    }
    const p = PLANNED - code;
    const known = this.plannedLocals[p];
    this.justCreated = known < 0;
    if (known >= 0) return known;
    const table = this.plannedTables[p];
    const key = this.plannedKeys[p];
    const local = table.create(key, keyValues(table, this.plannedRaws[p], key));
    this.plannedLocals[p] = local;
    this.createdCount++;
    return local;
  }

  private directOf(table: VertexTable): PlannedByKey {
    if (table === this.lastDirectTable) return this.lastDirect!;
    let direct = this.directByTable.get(table);
    if (!direct) this.directByTable.set(table, (direct = new PlannedByKey()));
    this.lastDirectTable = table;
    this.lastDirect = direct;
    return direct;
  }

  private mapOf(table: VertexTable): Map<IdKey, number> {
    if (table === this.lastTable) return this.lastMap!;
    let map = this.byTable.get(table);
    if (!map) this.byTable.set(table, (map = new Map()));
    this.lastTable = table;
    this.lastMap = map;
    return map;
  }
}

/** Whether `key` is planned in the array. The answer holds through a batch's planning (which creates nothing, so liveCount stays). */
function isDirect(key: IdKey, table: VertexTable): key is number {
  return typeof key === "number" && key >= 0 && key < Math.min(DIRECT_KEYS, Math.max(1 << 20, table.liveCount * 8)) && Number.isInteger(key);
}

/**
 * Planned creations by integer key (below DIRECT_KEYS): an array indexed by the key whose
 * entries count only under the current stamp, so forgetting a batch costs nothing per key.
 */
class PlannedByKey {
  private planned = new Int32Array(0);
  private stamps = new Int32Array(0);
  private stamp = 1;

  /** The planned creation of `key` in this batch, or -1. */
  get(key: number): number {
    return key < this.stamps.length && this.stamps[key] === this.stamp ? this.planned[key] : -1;
  }

  set(key: number, p: number): void {
    if (key >= this.stamps.length) this.grow(key + 1);
    this.stamps[key] = this.stamp;
    this.planned[key] = p;
  }

  clear(): void {
    if (++this.stamp === 0x7fffffff) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
  }

  private grow(least: number): void {
    const size = Math.min(DIRECT_KEYS, Math.max(least, this.stamps.length * 2, 1024));
    const planned = new Int32Array(size);
    planned.set(this.planned);
    const stamps = new Int32Array(size);
    stamps.set(this.stamps);
    this.planned = planned;
    this.stamps = stamps;
  }
}
