// The vertices an upsert batch names: its local slot if it existed before the batch, else
// whether an earlier item creates it. Planning asks; applying creates. Only vertices new to
// the store are remembered here (existing ones are found by their id hash, which is cheaper
// than a JS Map for the many distinct ids of a large batch).
import type { ExternalId } from "../api.js";
import type { VertexTable } from "../tables/vertex-table.js";
import type { IdKey } from "../values/ids.js";
import { keyValues } from "./plan-writes.js";

/** An earlier item of the batch creates the vertex. */
export const CREATED = -1;
/** The vertex does not exist (yet) and nothing so far creates it. */
export const ABSENT = -2;

export class BatchVertices {
  private readonly byTable = new Map<VertexTable, Map<IdKey, number>>();
  private lastTable: VertexTable | null = null;
  private lastMap: Map<IdKey, number> | null = null;
  /** Vertices `slotFor` had to create. */
  createdCount = 0;
  /** Whether the last `slotFor` created the vertex. */
  justCreated = false;

  /** Local slot before the batch (≥ 0), CREATED or ABSENT. */
  resolve(table: VertexTable, key: IdKey): number {
    const local = table.find(key);
    if (local >= 0) return local;
    return this.mapOf(table).get(key) ?? ABSENT;
  }

  markCreated(table: VertexTable, key: IdKey): void {
    const map = this.mapOf(table);
    if ((map.get(key) ?? ABSENT) === ABSENT) map.set(key, CREATED);
  }

  /** Apply phase: the vertex's local slot, creating it (with defaults) the first time. */
  slotFor(table: VertexTable, key: IdKey, raw: ExternalId): number {
    const map = this.mapOf(table);
    const known = map.get(key);
    this.justCreated = known === undefined || known < 0;
    if (!this.justCreated) return known!;
    const local = table.create(key, keyValues(table, raw, key));
    map.set(key, local);
    this.createdCount++;
    return local;
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
