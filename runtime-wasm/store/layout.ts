// The memory-layout ABI of the graph store: where a reader (a compiled query module, a worker
// thread, the store's own snapshot reader) finds a pinned version's arrays in WebAssembly
// memory. Everything is little-endian; every address is a byte offset into the partition's
// memory (u32); every record field is a u32 unless said otherwise. Records and arrays reached
// from a version header never change while that version is pinned (writers copy instead).
// The prose version of this file is the "Graph store memory layout" section of
// runtime-wasm/README.md.
//
//   superblock (address 0)            version header (one per published version)
//   ┌──────────────────────┐          ┌─────────────────────────────────────┐
//   │ magic, layout version│          │ vertex type table ──► VertexTypeHeader per ordinal
//   │ current header addr ─┼────────► │ edge type table   ──► EdgeTypeHeader per ordinal
//   │ block shift          │          │ block type / block index tables      │
//   └──────────────────────┘          └─────────────────────────────────────┘
//
// Vertex ids. A vertex has a dense internal id `vid` (u32). The id space is cut into blocks of
// 2^VERTEX_BLOCK_SHIFT ids; every block belongs to one vertex type (or none). A type numbers its
// own vertices with dense local slots 0..slotCount-1; its blocks, in order, cover those slots:
//   type  = blockType[vid >> SHIFT]            (NO_TYPE when the block is unused)
//   local = (blockIndex[vid >> SHIFT] << SHIFT) | (vid & BLOCK_MASK)
//   vid   = (typeBlocks[local >> SHIFT] << SHIFT) | (local & BLOCK_MASK)
// A slot is a live vertex iff local < slotCount and bit (local & 7) of alive[local >> 3] is set.
// Vertex-range partitioning (a graph larger than one 4 GiB memory) assigns whole blocks to
// partitions; every partition has its own memory with this layout. One partition exists today.
//
// Attribute columns are indexed by local slot (vertex attributes) or by edge slot `eid` (edge
// attributes), one array per attribute, element layout given by its ColumnKind. Strings and
// collections live in an append-only heap: a column element is the address of a record
// [u32 byteLength][bytes], address 0 meaning the empty value. STRING/FIXED_BINARY records hold
// UTF-8; collection and tuple records hold the value encoding of blob.ts (documented there).
//
// Edges. For every edge type, and every vertex type that can be its source (out) or target
// (in), an AdjacencyHeader gives each local slot an edge list: heads[2*local] is the list's
// address and heads[2*local+1] its degree (one cache line holds both); the list holds degree
// entries of entryBytes each, entry = [u32 target vid][u32 eid when entryBytes=8].
// A local slot >= the adjacency's slotCount has an empty list. Lists keep insertion order.
// Undirected types store each edge in the lists of both ends (a self-loop once) and their in
// table is their out table. Directed types always keep both out and in lists; a reverse edge
// type (WITH REVERSE_EDGE) has its own EdgeTypeHeader whose out table is the forward type's in
// table and vice versa, sharing attribute columns.

/** ASCII "WGST" read as a little-endian u32. */
export const SUPERBLOCK_MAGIC = 0x54534757;
/** Bumped whenever any offset or encoding below changes. */
export const LAYOUT_VERSION = 1;

/** Superblock fields (fixed at address 0). */
export const SB = {
  MAGIC: 0,
  LAYOUT_VERSION: 4,
  /** Address of the latest published version header. Readers use the header they pinned, not this. */
  CURRENT_HEADER: 8,
  PARTITION_INDEX: 12,
  PARTITION_COUNT: 16,
  VERTEX_BLOCK_SHIFT: 20,
  BYTES: 64,
} as const;

export const VERTEX_BLOCK_SHIFT = 10;
export const VERTEX_BLOCK_SIZE = 1 << VERTEX_BLOCK_SHIFT;
export const VERTEX_BLOCK_MASK = VERTEX_BLOCK_SIZE - 1;
/** blockType entry of a block no type owns. */
export const NO_TYPE = 0xffffffff;

/** ASCII "WGVH". */
export const VERSION_MAGIC = 0x48564757;

/** Version header fields. */
export const VH = {
  MAGIC: 0,
  /** Low 32 bits of the version number. */
  VERSION: 4,
  VERTEX_TYPE_SLOTS: 8,
  /** u32[VERTEX_TYPE_SLOTS]: VertexTypeHeader address per type ordinal, 0 for a dropped ordinal. */
  VERTEX_TYPE_TABLE: 12,
  EDGE_TYPE_SLOTS: 16,
  /** u32[EDGE_TYPE_SLOTS]: EdgeTypeHeader address per edge type ordinal, 0 for a dropped ordinal. */
  EDGE_TYPE_TABLE: 20,
  /** Blocks in use; vids are below BLOCK_COUNT << VERTEX_BLOCK_SHIFT. */
  BLOCK_COUNT: 24,
  /** u32[BLOCK_COUNT]: owning vertex type ordinal or NO_TYPE. */
  BLOCK_TYPE: 28,
  /** u32[BLOCK_COUNT]: index of the block among its type's blocks. */
  BLOCK_INDEX: 32,
  /** Live vertices of all types. */
  VERTEX_COUNT: 36,
  BYTES: 48,
} as const;

/** Vertex type header fields. */
export const VT = {
  ORDINAL: 0,
  LIVE_COUNT: 4,
  /** Local slots in use (live or deleted). */
  SLOT_COUNT: 8,
  /** Bitmap over local slots, bit set = live. */
  ALIVE: 12,
  /** u32 block number per 2^VERTEX_BLOCK_SHIFT local slots. */
  BLOCKS: 16,
  /** IdKind of the primary id column. */
  ID_KIND: 20,
  /** Primary id per local slot: i64 (INT, DATETIME), u64 (UINT) or u32 string address (STRING, COMPOSITE). */
  ID_COLUMN: 24,
  /**
   * Open-addressing hash of primary ids (see hashIdHalves / hashIdBytes): ID_HASH_CAPACITY
   * entries of 3 u32 [local slot or EMPTY_ENTRY / DELETED_ENTRY, a, b] where (a, b) is the id's
   * (low, high) halves for INT/UINT/DATETIME ids, and (hash, string record address) for STRING
   * and COMPOSITE ids — so a probe reads one entry, not the id column.
   */
  ID_HASH: 28,
  /** Entries in ID_HASH (a power of two). */
  ID_HASH_CAPACITY: 32,
  ATTRIBUTE_SLOTS: 36,
  /** ColumnDesc[ATTRIBUTE_SLOTS]. */
  ATTRIBUTE_TABLE: 40,
  /** Ids retired by permanent deletes: id-column-shaped array of RETIRED_COUNT entries. */
  RETIRED: 44,
  RETIRED_COUNT: 48,
  BYTES: 64,
} as const;

/** Edge type header fields. */
export const ET = {
  ORDINAL: 0,
  /** EdgeFlags bits. */
  FLAGS: 4,
  /** Distinct stored edges (an undirected edge once). */
  EDGE_COUNT: 8,
  ATTRIBUTE_SLOTS: 12,
  /** ColumnDesc[ATTRIBUTE_SLOTS], columns indexed by eid. */
  ATTRIBUTE_TABLE: 16,
  /** eids are below this. */
  EID_BOUND: 20,
  /** u32[VERTEX_TYPE_SLOTS]: AdjacencyHeader address per source vertex type ordinal, 0 = none. */
  OUT_TABLE: 24,
  /** Same for targets (equal to OUT_TABLE for undirected types). */
  IN_TABLE: 28,
  /** Ordinal of the forward type when FLAGS has REVERSE, else the reverse type's ordinal or NO_TYPE. */
  PAIRED_TYPE: 32,
  BYTES: 48,
} as const;

export const EdgeFlags = {
  DIRECTED: 1,
  /** Entries carry an eid (the type has attributes or a discriminator): entryBytes 8, else 4. */
  HAS_EID: 2,
  /** This header is the reverse view of a directed type. */
  REVERSE: 4,
} as const;

/** Adjacency header fields (one edge type, one direction, one vertex type). */
export const ADJ = {
  /** 4 (target) or 8 (target, eid). */
  ENTRY_BYTES: 0,
  /** Local slots covered by HEADS; higher slots have no edges. */
  SLOT_COUNT: 4,
  /** u32 pairs [list address, degree] per local slot (address 0 when the list is empty). */
  HEADS: 8,
  /** Sum of the degrees. */
  ENTRY_COUNT: 16,
  /**
   * Entry-ordered copies of the type's 8-byte attributes (tables/entry-copies.ts), present
   * while every list sits in [ENTRY_BASE, ENTRY_END): ENTRY_COPIES is the address of a u32 per
   * attribute ordinal (ET.ATTRIBUTE_TABLE's order), each 0 or the distance in bytes from an
   * entry to its edge's value in that attribute's copy. All three 0 when there are none.
   */
  ENTRY_BASE: 20,
  ENTRY_END: 24,
  ENTRY_COPIES: 28,
  BYTES: 32,
} as const;

/** A column descriptor in an attribute table. */
export const COL = {
  KIND: 0,
  ADDRESS: 4,
  BYTES: 8,
} as const;

/** Element layouts of attribute columns. */
export enum ColumnKind {
  /** Dropped attribute: no column. */
  NONE = 0,
  I64 = 1,
  U64 = 2,
  F32 = 3,
  F64 = 4,
  /** One byte, 0 or 1. */
  BOOL = 5,
  /** i64 epoch seconds. */
  DATETIME = 6,
  /** u32 address of a UTF-8 record in the heap (0 = ""). */
  STRING = 7,
  /** u32 address of a blob record (0 = empty collection / default tuple). */
  BLOB = 8,
}

/** Bytes per element of each column kind. */
export const COLUMN_BYTES: readonly number[] = [0, 8, 8, 4, 8, 1, 8, 4, 4];

/** How a type's primary ids are stored (VT.ID_KIND). */
export enum IdKind {
  INT = 1,
  UINT = 2,
  DATETIME = 3,
  STRING = 4,
  /** Composite PRIMARY KEY: the canonical key text (see ids.ts) as a STRING record. */
  COMPOSITE = 5,
}

export const EMPTY_ENTRY = 0xffffffff;
export const DELETED_ENTRY = 0xfffffffe;

/** u32 words per id-hash entry. */
export const ID_HASH_ENTRY_WORDS = 3;

/**
 * Hash of a 64-bit numeric id given as its low and high 32-bit halves. Probing is linear:
 * index = hash & (capacity - 1), then +1 modulo capacity until EMPTY_ENTRY; DELETED_ENTRY is
 * skipped; a numeric entry matches when its (a, b) equal the id's halves, a string entry when
 * a equals the hash and the record at b holds the same bytes.
 */
export function hashIdHalves(low: number, high: number): number {
  let h = Math.imul(low ^ Math.imul(high, 0x85ebca6b), 0x9e3779b1);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h >>> 0;
}

/** Hash of a STRING / COMPOSITE id: FNV-1a over its UTF-8 bytes, finished like hashIdHalves(h, 0). */
export function hashIdBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return hashIdHalves(h >>> 0, 0);
}

/** Ordinals and column kinds at one version: how names map to the numbers used in memory. */
export interface StoreLayout {
  layoutVersion: number;
  vertexBlockShift: number;
  vertexTypes: VertexTypeLayout[];
  edgeTypes: EdgeTypeLayout[];
}

export interface VertexTypeLayout {
  key: string;
  ordinal: number;
  idKind: IdKind;
  /** Attribute columns; `ordinal` indexes the type's ColumnDesc table. */
  attributes: AttributeLayout[];
}

export interface EdgeTypeLayout {
  key: string;
  ordinal: number;
  directed: boolean;
  /** Ordinal of the forward type when this is a reverse type. */
  reverseOf?: number;
  entryBytes: 4 | 8;
  attributes: AttributeLayout[];
}

export interface AttributeLayout {
  name: string;
  ordinal: number;
  kind: ColumnKind;
}
