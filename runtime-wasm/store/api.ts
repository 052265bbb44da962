// The public API of the graph store: what the REST layer, the loader, the query runtime and
// durability call. Types here are plain data and interfaces; the implementation lives beside
// them (graph-store.ts). Types are always named by their store-wide `key` (see
// runtime-wasm/schema/types.ts); name resolution inside a graph is the caller's job
// (runtime-wasm/schema/lookup.ts).
//
// Concurrency model: one writer (the main thread) and any number of readers. A reader pins a
// published version with `snapshot()` and sees exactly that version until `release()`, however
// many batches are applied meanwhile. Every mutation (an upsert batch, a delete call, a schema
// change, compaction) is atomic: it is validated completely before anything changes, then
// published as one new version.
import type { AttrValue, DatabaseSchema } from "../schema/types.js";
import type { ImageCatalog } from "./image/write-image.js";
import type { StoreLayout } from "./layout.js";
import type { WasmMemory } from "./memory/wasm-memory.js";

/**
 * A primary id as callers give it. INT/UINT: bigint, a safe-integer number or a decimal string;
 * DATETIME: epoch seconds (number or bigint) or "YYYY-MM-DD[ hh:mm:ss]" (UTC); STRING: a
 * non-empty string. A composite PRIMARY KEY: the array of its key attributes' values in key
 * order. Anything else is an INVALID_ID error.
 */
export type ExternalId = string | number | bigint | AttrValue[];

/** A vertex named by its type key and primary id. */
export interface VertexKey {
  type: string;
  id: ExternalId;
}

/** A primary id as the store gives it back: bigint (INT/UINT), number (DATETIME), string, or the key values (composite). */
export type IdValue = bigint | number | string | AttrValue[];

/**
 * Upsert operators by symbol: overwrite `=`, ignore_if_exists `~`, add `+`, and `&`, or `|`,
 * max `>`, min `<`. `+`, `&`, `|`, `>`, `<` need the item to exist already (else the whole
 * batch is rejected with OP_ON_MISSING_ITEM).
 */
export type UpsertOp = "=" | "~" | "+" | "&" | "|" | ">" | "<";

/** The interface's operator names, for callers that accept names or symbols. */
export const UPSERT_OP_BY_NAME: Readonly<Record<string, UpsertOp>> = {
  overwrite: "=",
  ignore_if_exists: "~",
  add: "+",
  and: "&",
  or: "|",
  max: ">",
  min: "<",
};

/**
 * One attribute write. `value` is an AttrValue or a plain JSON value that is coerced to the
 * attribute's type (numeric strings for numbers, MAP as {keylist, valuelist} or [k, v] pairs,
 * tuples as objects); a value that does not fit rejects the whole batch (INVALID_VALUE).
 * Operator applicability: `+` on numbers (INT/UINT wrap at 64 bits), STRING (concatenate),
 * DATETIME (adds seconds), BOOL (or), LIST (append), SET (union), MAP (put entries);
 * `&`/`|` on BOOL (logical) and INT/UINT (bitwise); `>`/`<` on numbers, DATETIME, STRING, BOOL.
 * Other combinations are INVALID_OPERATOR.
 */
export interface AttrWrite {
  name: string;
  value: unknown;
  op?: UpsertOp;
}

export interface VertexUpsert {
  /** Vertex type key. */
  type: string;
  id: ExternalId;
  /** Unknown attribute names are ignored; missing ones keep their value (new vertices: defaults). */
  attributes?: AttrWrite[];
}

/**
 * An edge upsert. Identity is (type, from, to), plus the DISCRIMINATOR attribute values when the
 * type has one (those must then be given with `=` or `~`). For an undirected type (A,B) and (B,A)
 * are the same edge. Naming a reverse edge type writes the forward edge with ends swapped.
 */
export interface EdgeUpsert {
  /** Edge type key. */
  type: string;
  from: VertexKey;
  to: VertexKey;
  attributes?: AttrWrite[];
}

/**
 * Edges of one (type, source type, target type) as parallel lists: the fast path for loaders
 * and request parsers, which meet edges grouped this way anyway. Item i is the edge
 * from[i] → to[i] with attributes[i]; the rules are exactly those of EdgeUpsert items.
 */
export interface EdgeColumns {
  /** Edge type key (a reverse type writes forward edges with ends swapped). */
  type: string;
  fromType: string;
  toType: string;
  /** Source ids; a typed array of numbers works for numeric ids. */
  from: ArrayLike<ExternalId>;
  to: ArrayLike<ExternalId>;
  /** Per-edge attribute writes (an undefined entry writes nothing); same length as `from`. */
  attributes?: (AttrWrite[] | undefined)[];
}

export interface UpsertBatch {
  vertices?: VertexUpsert[];
  edges?: EdgeUpsert[];
  /** Applied after `edges`, group by group, in order. */
  edgeColumns?: EdgeColumns[];
}

/** The interface's upsert flags. */
export interface UpsertOptions {
  /** Vertex items whose vertex exists are skipped (reported as `already_exists`). */
  newVertexOnly?: boolean;
  /** Vertex items whose vertex does not exist are skipped; no endpoint vertex is created either. */
  updateVertexOnly?: boolean;
  /** Edges whose source or target does not exist are skipped instead of creating the endpoint. */
  vertexMustExist?: boolean;
  sourceVertexMustExist?: boolean;
  targetVertexMustExist?: boolean;
}

export type VertexSkipReason = "already_exists" | "not_exists" | "retired";

export interface SkippedVertex {
  /** Index of the item in `batch.vertices`. */
  index: number;
  type: string;
  id: IdValue;
  reason: VertexSkipReason;
}

export interface SkippedEdge {
  /** Index of the item in `batch.edges`, or in its group's lists when `group` is set. */
  index: number;
  /** Index of the group in `batch.edgeColumns` (absent for `batch.edges` items). */
  group?: number;
  type: string;
  /** The endpoints that do not exist (or are retired by a permanent delete). */
  missing: { type: string; id: IdValue; retired: boolean }[];
}

export interface UpsertResult {
  /** Vertex items applied (created or updated); endpoint vertices created by edges are not counted. */
  acceptedVertices: number;
  /** Edge items applied (created or updated). */
  acceptedEdges: number;
  /** Vertices created because an edge named a missing endpoint. */
  createdEndpointVertices: number;
  skippedVertices: SkippedVertex[];
  skippedEdges: SkippedEdge[];
  /** The version published by this batch (unchanged if nothing was applied). */
  version: number;
}

export interface DeleteVertexOptions {
  /** Retire the deleted ids: upserts of them are skipped (reason `retired`) until the type is dropped or the store cleared. */
  permanent?: boolean;
}

export interface DeleteVerticesResult {
  deletedVertices: number;
  /** Edges removed with them, counted once per edge, by edge type key. */
  deletedEdges: Record<string, number>;
  version: number;
}

/**
 * Edges to delete: the edges leaving `from` (as `Snapshot.edges` lists them), optionally
 * narrowed by edge type, target type, target, discriminator values and a predicate.
 */
export interface EdgeSelector {
  from: VertexKey;
  /** Edge type key; absent = every edge type. */
  type?: string;
  /** Target vertex type key. */
  toType?: string;
  /** Target vertex (its type must be `toType` when both are given). */
  to?: VertexKey;
  /** Discriminator values that must match (by attribute name). */
  discriminator?: Record<string, unknown>;
  /** Further filter, evaluated against the state before the call; `attribute` reads the edge's attributes. */
  where?: (edge: EdgeRecord, attribute: (name: string) => AttrValue | undefined) => boolean;
}

export interface DeleteEdgesResult {
  /** Deleted edges by edge type key (types with none are absent). */
  deletedEdges: Record<string, number>;
  version: number;
}

/** Reasons an operation is refused. Nothing changes when one is thrown. */
export type StoreErrorCode =
  | "UNKNOWN_VERTEX_TYPE"
  | "UNKNOWN_EDGE_TYPE"
  | "INVALID_ENDPOINT_TYPE"
  | "INVALID_ID"
  | "INVALID_VALUE"
  | "INVALID_OPERATOR"
  | "OP_ON_MISSING_ITEM"
  | "INVALID_SCHEMA"
  | "SNAPSHOT_RELEASED"
  | "OUT_OF_MEMORY"
  | "CORRUPT_IMAGE"
  /** A mutation was started from inside another one (e.g. from an EdgeSelector's `where`). */
  | "BUSY";

export interface StoreErrorDetail {
  /** Where in the batch: "vertices[3]", "edges[10].attributes.weight", … */
  path?: string;
  type?: string;
  attribute?: string;
}

/** A vertex record as read from a snapshot. */
export interface VertexRecord {
  /** Internal id: meaningful only within the snapshot that produced it. */
  vid: number;
  type: string;
  id: IdValue;
}

/** An edge as read from a snapshot, from the point of view of the vertex it was read from. */
export interface EdgeRecord {
  /** Edge type key as asked for (a reverse type reads the forward type's edges backwards). */
  type: string;
  directed: boolean;
  from: number;
  to: number;
  /** Edge attribute slot, -1 when the type has no attributes and no discriminator. */
  eid: number;
}

/** Options of the per-type edge count. */
export interface EdgeCountOptions {
  fromType?: string;
  toType?: string;
}

/**
 * A pinned, immutable view of one published version. Internal ids (vid) are dense unsigned
 * 32-bit numbers, valid within this snapshot. Reads after `release()` throw SNAPSHOT_RELEASED.
 */
export interface Snapshot {
  readonly version: number;
  /** Schema at this version (do not mutate). */
  readonly schema: DatabaseSchema;
  /** Ordinals and column kinds at this version, for code that reads memory directly. */
  readonly layout: StoreLayout;
  /** Address of this version's header in partition 0's memory (see layout.ts). */
  readonly headerAddress: number;
  /** Memory of partition 0 (all of the data while the store has one partition). */
  readonly memory: WasmMemory;
  release(): void;

  /** Live vertices of the type. */
  vertexCount(type: string): number;
  /** Internal id of a vertex, or undefined when it does not exist (or the id is malformed). */
  lookup(type: string, id: ExternalId): number | undefined;
  /** Live vertices of a type in internal order (stable between snapshots for unchanged vertices). */
  vertices(type: string): IterableIterator<number>;
  /** Whether the internal id names a live vertex in this snapshot. */
  exists(vid: number): boolean;
  typeOf(vid: number): string;
  idOf(vid: number): IdValue;
  /** The id as text: INT/UINT decimal, DATETIME "YYYY-MM-DD hh:mm:ss", composite values joined by ",". */
  idText(vid: number): string;
  /** One attribute (including the primary id when the type exposes it as an attribute); undefined for an unknown name. */
  attribute(vid: number, name: string): AttrValue | undefined;
  /** Every attribute in schema order. */
  attributes(vid: number): Record<string, AttrValue>;
  /** A fast reader of one attribute over many vertices of the type. */
  attributeReader(type: string, name: string): ((vid: number) => AttrValue) | undefined;

  /** Edges leaving the vertex (both ends for undirected types; in-edges of the forward type for a reverse type). */
  edges(vid: number, filter?: { type?: string; toType?: string; to?: number }): IterableIterator<EdgeRecord>;
  /** Number of edges of the type leaving the vertex (as `edges` counts them). */
  degree(vid: number, edgeType: string): number;
  edgeAttribute(edge: EdgeRecord, name: string): AttrValue | undefined;
  edgeAttributes(edge: EdgeRecord): Record<string, AttrValue>;
  /**
   * Edges of the type counted from their sources as `edges` lists them, so an undirected edge
   * counts once from each end (a self-loop once). Narrowed by source and target vertex type.
   */
  edgeCount(edgeType: string, options?: EdgeCountOptions): number;
  /** Distinct stored edges of the type (an undirected edge once). */
  storedEdgeCount(edgeType: string): number;
}

export interface CompactionStats {
  adjacencies: number;
  bytesBefore: number;
  bytesAfter: number;
  millis: number;
}

export interface MemoryStats {
  /** Size of the WebAssembly memory (all partitions). */
  memoryBytes: number;
  /** Bytes in live allocations of the current version. */
  liveBytes: number;
  /** Bytes held by superseded data still pinned by readers or awaiting reuse. */
  retiredBytes: number;
  /** Bytes of edge lists (entries, including spare capacity) and per-vertex list heads. */
  adjacencyBytes: number;
  vertexCount: number;
  edgeCount: number;
}

export interface StoreOptions {
  /** Initial memory size in bytes (rounded up to 64 KiB pages). Default 16 MiB. */
  initialBytes?: number;
  /** Maximum memory size (the shared memory must declare one). Default and cap 4 GiB. */
  maximumBytes?: number;
  /** Compact an edge list area automatically when garbage exceeds this share of it. Default 0.5. */
  autoCompactRatio?: number;
  /**
   * Keep entry-ordered copies of edge types' 8-byte attributes (INT, UINT, DOUBLE, DATETIME)
   * from each compaction or image load until the type next changes, so that queries walking
   * edge lists read those attributes in list order (weighted traversals on large graphs run
   * much faster). Costs 8 bytes per list entry per attribute. Default true.
   */
  entryCopies?: boolean;
}

/** The graph store: every type of the database, in WebAssembly memory. */
export interface GraphStore {
  readonly memory: WasmMemory;
  /** The last published version number (every mutation that changes something adds one). */
  readonly version: number;
  /** The schema the store currently holds. */
  readonly schema: DatabaseSchema;

  /** Pin the current version for reading. */
  snapshot(): Snapshot;
  /** Run `read` against a pinned snapshot, releasing it afterwards. */
  read<T>(read: (snapshot: Snapshot) => T): T;

  /** Apply an upsert batch atomically (validated fully first; StoreError = nothing changed). */
  upsert(batch: UpsertBatch, options?: UpsertOptions): UpsertResult;
  /**
   * Validate an upsert batch against the current version exactly as `upsert` would, changing
   * nothing: throws the StoreError `upsert` would throw (out-of-memory aside). Lets a caller
   * with several dependent calls refuse them all before making the first.
   */
  checkUpsert(batch: UpsertBatch, options?: UpsertOptions): void;
  /** Delete vertices by primary id (missing ids are ignored), with all their edges. */
  deleteVertices(type: string, ids: Iterable<ExternalId>, options?: DeleteVertexOptions): DeleteVerticesResult;
  /** Delete every vertex of a type, with their edges. */
  deleteAllVertices(type: string, options?: DeleteVertexOptions): DeleteVerticesResult;
  /**
   * Delete the edges the selectors name (a missing source vertex selects nothing). An edge named
   * twice (by two selectors, from both ends, or as a forward and a reverse type) counts once,
   * under its first match; a selector without `type` tries edge types in ordinal order.
   */
  deleteEdges(selectors: EdgeSelector[]): DeleteEdgesResult;

  /**
   * Move to a new schema. Types are matched by key: new keys are added, missing keys dropped
   * with their data, attributes matched by name (new ones take their DEFAULT, else the built-in
   * default; a changed attribute type counts as drop + add). Primary ids, discriminators and
   * directedness of an existing type cannot change (INVALID_SCHEMA).
   */
  applySchema(next: DatabaseSchema): void;
  /** Delete all data (and retired ids); keep the schema. */
  clear(): void;

  /** Fold edge-list deltas into fresh CSR arrays (all edge types, or the given keys). */
  compact(edgeTypes?: string[]): CompactionStats;
  /**
   * Edge types (one key per stored table) that `compact` would change: lists not packed into
   * one CSR array, or entry-ordered attribute copies missing. Empty when compaction has
   * nothing to do; what an idle-time maintainer asks before compacting.
   */
  compactionDue(): string[];
  memoryStats(): MemoryStats;
  /** Ordinals and column kinds for code that reads memory directly. */
  layout(): StoreLayout;

  /**
   * Write the current version as a self-contained binary image (manifest + regions, with
   * checksums) to `sink`, chunk by chunk. Readers and writers may keep going meanwhile: the
   * image is of the version pinned when the call started.
   */
  serialize(sink: (chunk: Uint8Array) => void | Promise<void>): Promise<SerializeStats>;

  /**
   * Pin the current version for writing its image elsewhere (another thread that shares the
   * memory: `writeImage(memoryViews(pin.memory), pin.header, pin.version, pin.catalog, sink)`
   * in image/write-image.ts), so serializing costs this thread nothing. Everything but
   * `release` is plain data that can be posted to a worker. Call `release` (once) when the
   * image is written or abandoned: until then the version's memory is kept as it is.
   */
  pinImage(): PinnedImage;
}

export type { ImageCatalog };

export interface PinnedImage {
  /** The store's shared memory, at least as long as every region of the pinned version. */
  memory: SharedArrayBuffer;
  /** Address of the version's header. */
  header: number;
  version: number;
  catalog: ImageCatalog;
  release(): void;
}

export interface SerializeStats {
  version: number;
  bytes: number;
  millis: number;
}

/** `createStore(schema, options)` in graph-store.ts: an empty store holding `schema`'s types. */
export type CreateStore = (schema: DatabaseSchema, options?: StoreOptions) => GraphStore;
/** `loadStore(image, options)` in graph-store.ts: a store rebuilt from a `serialize` image (CORRUPT_IMAGE if damaged). */
export type LoadStore = (image: Uint8Array | AsyncIterable<Uint8Array>, options?: StoreOptions) => Promise<GraphStore>;
