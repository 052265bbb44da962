// What the loader hands to the graph store: batches of whole, already-validated objects,
// shaped like the store's upsert items (types named by their store key, operators as the
// store's symbols) so a batch reaches the store without being copied. Edges are kept as
// columns (runs of one edge type, end types and flag, with id lists): a load writes millions
// of them, and columns are what the store and the write-ahead log take. The store applies one
// batch atomically (all of it or none), creates missing edge endpoints unless an edge asks
// that they exist, writes reverse edges with forward ones, and folds each attribute value
// into the stored one with its operator.
import type { AttrValue, DatabaseSchema } from "../../runtime-wasm/schema/types.js";
import type { WriteOp } from "./compile/attributes.js";

export type { WriteOp };

export interface AttributeWrite {
  name: string;
  value: AttrValue;
  op: WriteOp;
}

/**
 * A vertex id: STRING ids are strings; INT/UINT a number when it is a safe integer, else
 * bigint; DATETIME epoch seconds; a composite PRIMARY KEY the array of its key values.
 */
export type VertexId = string | bigint | number | AttrValue[];

export interface VertexWrite {
  /** Vertex type key. */
  type: string;
  id: VertexId;
  attributes: AttributeWrite[];
  /** NEW_VERTEX_ONLY: leave an existing vertex untouched. */
  newVertexOnly: boolean;
}

export interface EndpointRef {
  /** Vertex type key. */
  type: string;
  id: VertexId;
}

export interface EdgeWrite {
  /** Edge type key. */
  type: string;
  from: EndpointRef;
  to: EndpointRef;
  attributes: AttributeWrite[];
  /** VERTEX_MUST_EXIST: skip the edge unless both endpoints exist (else they are created). */
  vertexMustExist: boolean;
}

export interface VertexDelete {
  /** Vertex type key. */
  type: string;
  id: VertexId;
}

/** Deletes the edges of `type` (a key, or "*" = any type) leaving `from`, to `to` if given, matching the discriminator values if given. */
export interface EdgeDelete {
  type: string;
  from: EndpointRef;
  to?: EndpointRef;
  discriminator?: AttrValue[];
}

/**
 * The ids of a run's ends. A reader thread sends all-number columns as Float64Array (moved
 * between threads without a copy); runs the loader builds or extends are plain arrays.
 */
export type IdColumn = VertexId[] | Float64Array;

/** Consecutive edge items of one edge type, end types and flag, as columns (item i: from[i] → to[i]). */
export interface EdgeRun {
  /** Edge type key. */
  type: string;
  /** Vertex type keys of the ends. */
  fromType: string;
  toType: string;
  /** VERTEX_MUST_EXIST: skip an edge unless both endpoints exist (else they are created). */
  vertexMustExist: boolean;
  from: IdColumn;
  to: IdColumn;
  /** Attribute writes per item; absent while no item of the run writes any. */
  attributes?: AttributeWrite[][];
}

export interface LoadBatch {
  vertices: VertexWrite[];
  /** The edge items, in order. */
  edgeRuns: EdgeRun[];
  vertexDeletes: VertexDelete[];
  edgeDeletes: EdgeDelete[];
}

/**
 * A source's first batches are smaller (this many objects, doubling up to the load's batch
 * size): when a reader thread parses the file, the store has nothing to do until the first
 * batch arrives, and a small one arrives soon. Small batches cost little while the graph is
 * small (a batch's merges pass over the lists stored so far).
 */
const FIRST_BATCH_OBJECTS = 32768;

/** Objects at which a source's batch number `written` (from 0) is written, for a load of `batchObjects`-object batches. */
export function batchLimit(batchObjects: number, written: number): number {
  return written >= 24 ? batchObjects : Math.min(batchObjects, FIRST_BATCH_OBJECTS * 2 ** written);
}

export function emptyBatch(): LoadBatch {
  return { vertices: [], edgeRuns: [], vertexDeletes: [], edgeDeletes: [] };
}

const NO_WRITES: AttributeWrite[] = [];

/** Appends one edge item, to the last run when it shares its types and flag. */
export function pushEdge(batch: LoadBatch, type: string, fromType: string, toType: string, vertexMustExist: boolean, from: VertexId, to: VertexId, writes: AttributeWrite[]): void {
  const runs = batch.edgeRuns;
  const last = runs.length > 0 ? runs[runs.length - 1]! : undefined;
  let run: EdgeRun & { from: VertexId[]; to: VertexId[] };
  if (last !== undefined && sameRun(last, type, fromType, toType, vertexMustExist) && Array.isArray(last.from) && Array.isArray(last.to)) {
    run = last as typeof run;
  } else {
    run = { type, fromType, toType, vertexMustExist, from: [], to: [] };
    runs.push(run);
  }
  if (writes.length > 0 && run.attributes === undefined) run.attributes = new Array<AttributeWrite[]>(run.from.length).fill(NO_WRITES);
  run.from.push(from);
  run.to.push(to);
  run.attributes?.push(writes.length > 0 ? writes : NO_WRITES);
}

/** Appends the items of `more` after those of `batch` (the batch one read of both would have made). */
export function appendBatch(batch: LoadBatch, more: LoadBatch): void {
  for (const v of more.vertices) batch.vertices.push(v);
  for (const r of more.edgeRuns) {
    const last = batch.edgeRuns.length > 0 ? batch.edgeRuns[batch.edgeRuns.length - 1]! : undefined;
    if (last === undefined || !sameRun(last, r.type, r.fromType, r.toType, r.vertexMustExist)) {
      // Kept as arrays: the loader may extend the run with pushEdge.
      batch.edgeRuns.push({ ...r, from: idArray(r.from), to: idArray(r.to) });
      continue;
    }
    // The run goes on (pushEdge would have extended it).
    const from = (last.from = idArray(last.from));
    const to = (last.to = idArray(last.to));
    if (r.attributes !== undefined && last.attributes === undefined) last.attributes = new Array<AttributeWrite[]>(last.from.length).fill(NO_WRITES);
    for (let i = 0; i < r.from.length; i++) {
      from.push(r.from[i]!);
      to.push(r.to[i]!);
      last.attributes?.push(r.attributes?.[i] ?? NO_WRITES);
    }
  }
  for (const d of more.vertexDeletes) batch.vertexDeletes.push(d);
  for (const d of more.edgeDeletes) batch.edgeDeletes.push(d);
}

const idArray = (column: IdColumn): VertexId[] => (Array.isArray(column) ? column : Array.from(column));

function sameRun(run: EdgeRun, type: string, fromType: string, toType: string, vertexMustExist: boolean): boolean {
  return run.type === type && run.fromType === fromType && run.toType === toType && run.vertexMustExist === vertexMustExist;
}

export function edgeCount(b: LoadBatch): number {
  let n = 0;
  for (const run of b.edgeRuns) n += run.from.length;
  return n;
}

export function batchSize(b: LoadBatch): number {
  return b.vertices.length + edgeCount(b) + b.vertexDeletes.length + b.edgeDeletes.length;
}

/** The edge items of a batch as objects, in order (for tests and diagnostics; loads keep columns). */
export function edgeWritesOf(b: Pick<LoadBatch, "edgeRuns">): EdgeWrite[] {
  const out: EdgeWrite[] = [];
  for (const run of b.edgeRuns) {
    for (let i = 0; i < run.from.length; i++) {
      out.push({
        type: run.type,
        from: { type: run.fromType, id: run.from[i]! },
        to: { type: run.toType, id: run.to[i]! },
        attributes: run.attributes?.[i] ?? [],
        vertexMustExist: run.vertexMustExist,
      });
    }
  }
  return out;
}

/** Edge items as runs (the batch form of logs written before edges were columns, and of tests). */
export function edgeRunsOf(edges: readonly EdgeWrite[]): EdgeRun[] {
  const batch = emptyBatch();
  for (const e of edges) pushEdge(batch, e.type, e.from.type, e.to.type, e.vertexMustExist, e.from.id, e.to.id, e.attributes);
  return batch.edgeRuns;
}

/** The store side of a load. */
export interface LoadSink {
  /** The schema the job is checked against. */
  schema(): DatabaseSchema;
  /** Whether applied batches are written to a log (a reader thread then encodes them for it). */
  readonly logged?: boolean;
  /** Applies one batch atomically; throws (changing nothing) if it cannot. */
  apply(batch: LoadBatch): void | Promise<void>;
}
