// What the loader hands to the graph store: batches of whole, already-validated objects,
// shaped like the store's upsert items (types named by their store key, operators as the
// store's symbols) so a batch reaches the store without being copied. The store applies one
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

export interface LoadBatch {
  vertices: VertexWrite[];
  edges: EdgeWrite[];
  vertexDeletes: VertexDelete[];
  edgeDeletes: EdgeDelete[];
}

export function emptyBatch(): LoadBatch {
  return { vertices: [], edges: [], vertexDeletes: [], edgeDeletes: [] };
}

export function batchSize(b: LoadBatch): number {
  return b.vertices.length + b.edges.length + b.vertexDeletes.length + b.edgeDeletes.length;
}

/** The store side of a load. */
export interface LoadSink {
  /** The schema the job is checked against. */
  schema(): DatabaseSchema;
  /** Applies one batch atomically; throws (changing nothing) if it cannot. */
  apply(batch: LoadBatch): void | Promise<void>;
}
