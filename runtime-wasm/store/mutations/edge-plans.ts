// The accepted edge items of an upsert batch, kept column-wise so that large batches allocate
// nothing per edge: per edge the resolved codes of its ends (BatchVertices), its writes and
// discriminator values; per run of consecutive edges with one edge table and end types, the
// tables. One instance per store is reused by every batch (`reset`).
import type { AttrValue } from "../../schema/types.js";
import type { EdgeTable } from "../tables/edge-table.js";
import type { VertexTable } from "../tables/vertex-table.js";
import type { PlannedWrite } from "./plan-writes.js";

/** Edges start..end of the plan: one edge table, ends stored in its direction (from in `fromTable`, to in `toTable`). */
export interface EdgeRun {
  table: EdgeTable;
  fromTable: VertexTable;
  toTable: VertexTable;
  start: number;
  end: number;
  /** Whether some edge of the run writes attributes. */
  writes: boolean;
  /**
   * Whether every edge of the run has neither writes nor discriminator values: then none are
   * stored per edge (`discriminators` and `writes` hold nothing for the run's edges).
   */
  bare: boolean;
}

export const NO_VALUES: AttrValue[] = [];

export class EdgePlans {
  length = 0;
  readonly runs: EdgeRun[] = [];
  /** Ends as BatchVertices codes while planning; local slots once applying has resolved them. */
  fromLocals = new Int32Array(256);
  toLocals = new Int32Array(256);
  /** Discriminator values (NO_VALUES for a type without one). */
  readonly discriminators: AttrValue[][] = [];
  readonly writes: PlannedWrite[][] = [];
  private run: EdgeRun | null = null;

  /** Empty the plan, keeping its arrays (their old entries are overwritten before being read). */
  reset(): void {
    this.length = 0;
    this.runs.length = 0;
    this.run = null;
  }

  /**
   * The edges pushed next belong to this table and end types, pushed by `pushBare` when `bare`
   * (a new run unless the last one matches in all of these).
   */
  begin(table: EdgeTable, fromTable: VertexTable, toTable: VertexTable, bare = false): void {
    const r = this.run;
    if (r && r.table === table && r.fromTable === fromTable && r.toTable === toTable && r.bare === bare) return;
    this.run = { table, fromTable, toTable, start: this.length, end: this.length, writes: false, bare };
    this.runs.push(this.run);
  }

  push(fromCode: number, toCode: number, discriminator: AttrValue[], writes: PlannedWrite[]): void {
    const i = this.pushBare(fromCode, toCode);
    this.discriminators[i] = discriminator;
    this.writes[i] = writes;
    if (writes.length > 0) this.run!.writes = true;
  }

  /** An edge of a bare run (see EdgeRun.bare); returns its index. */
  pushBare(fromCode: number, toCode: number): number {
    const i = this.length++;
    if (i === this.fromLocals.length) {
      this.fromLocals = grow(this.fromLocals);
      this.toLocals = grow(this.toLocals);
    }
    this.fromLocals[i] = fromCode;
    this.toLocals[i] = toCode;
    this.run!.end = this.length;
    return i;
  }
}

function grow(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const next = new Int32Array(a.length * 2);
  next.set(a);
  return next;
}
