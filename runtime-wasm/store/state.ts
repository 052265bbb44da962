// The writer's state of a store: memory, space, heap, block tables, and the vertex and edge
// tables by ordinal and key. Mutations (upsert.ts, delete.ts, schema-change.ts) change it and
// end with `publish()`, which writes the headers readers use and makes a new version current.
import type { DatabaseSchema } from "../schema/types.js";
import { SB, SUPERBLOCK_MAGIC, LAYOUT_VERSION, VERTEX_BLOCK_SHIFT } from "./layout.js";
import type { StoreOptions } from "./api.js";
import { Arena } from "./memory/arena.js";
import { Heap } from "./memory/heap.js";
import { Space, type Region } from "./memory/space.js";
import { createSharedMemory, MAX_PAGES, WASM_PAGE_BYTES } from "./memory/wasm-memory.js";
import { writeVersion } from "./publish.js";
import { ReadCatalog } from "./read-catalog.js";
import { StoreContext } from "./tables/context.js";
import type { EdgeTable } from "./tables/edge-table.js";
import { buildEntryCopies } from "./tables/entry-copies.js";
import { VertexBlocks } from "./tables/vertex-blocks.js";
import type { VertexTable } from "./tables/vertex-table.js";
import { tupleTable } from "./values/coerce.js";

/** Tidy an adjacency (Adjacency.tidy) when this share of its chunk space belongs to no list. */
const TIDY_RATIO = 0.25;
/**
 * ... and only once slack grew by this share of the space since the last tidy: space a tidy
 * cannot give back (chunks a pinned version reads, chunks with little unowned space) would
 * otherwise start a tidy of every list after every batch of a bulk load (measured: 319 tidies
 * walking 4.9 GB for a 4M-edge load, half its CPU time).
 */
const TIDY_GROWTH = 0.125;

/** An edge type key as the writer resolves it: a table, read forwards or (reverse type) backwards. */
export interface EdgeRef {
  table: EdgeTable;
  reversed: boolean;
  key: string;
  ordinal: number;
}

/** One published version as readers get it. */
export interface VersionInfo {
  version: number;
  headerAddress: number;
  catalog: ReadCatalog;
}

export class StoreState {
  readonly ctx: StoreContext;
  readonly space: Space;
  schema: DatabaseSchema;
  vertexTables: (VertexTable | null)[] = [];
  readonly vertexByKey = new Map<string, VertexTable>();
  /** Edge tables by forward ordinal (a reverse type's ordinal holds null). */
  edgeTables: (EdgeTable | null)[] = [];
  readonly edgeByKey = new Map<string, EdgeRef>();
  catalog: ReadCatalog;
  current!: VersionInfo;
  /** The current version header's region (released when the next one is written). */
  versionHeader: Region | null = null;
  readonly autoCompactRatio: number;
  /** StoreOptions.entryCopies. */
  readonly entryCopies: boolean;

  constructor(schema: DatabaseSchema, options: StoreOptions = {}) {
    const initialPages = Math.max(1, Math.ceil((options.initialBytes ?? 16 << 20) / WASM_PAGE_BYTES));
    const maximumPages = Math.min(MAX_PAGES, Math.ceil((options.maximumBytes ?? 4 * 1024 ** 3) / WASM_PAGE_BYTES));
    const memory = createSharedMemory(Math.min(initialPages, maximumPages), maximumPages);
    const arena = new Arena(memory, maximumPages);
    this.space = new Space(arena);
    const heap = new Heap(this.space);
    this.ctx = new StoreContext(this.space, heap, new VertexBlocks(this.space), tupleTable(schema.tuples));
    this.schema = schema;
    this.catalog = new ReadCatalog(schema);
    this.autoCompactRatio = options.autoCompactRatio ?? 0.5;
    this.entryCopies = options.entryCopies ?? true;
    const u32 = arena.u32;
    u32[SB.MAGIC >>> 2] = SUPERBLOCK_MAGIC;
    u32[SB.LAYOUT_VERSION >>> 2] = LAYOUT_VERSION;
    u32[SB.PARTITION_INDEX >>> 2] = 0;
    u32[SB.PARTITION_COUNT >>> 2] = 1;
    u32[SB.VERTEX_BLOCK_SHIFT >>> 2] = VERTEX_BLOCK_SHIFT;
  }

  get arena(): Arena {
    return this.space.arena;
  }

  /** The vertex table and local slot of a vid (the vid must exist in the writer's state). */
  vertexOf(vid: number): { table: VertexTable; local: number } {
    const ordinal = this.ctx.blocks.typeOf(vid);
    return { table: this.vertexTables[ordinal]!, local: this.ctx.blocks.localOf(vid) };
  }

  /** Rebuild the read catalog after the schema or the column set changed. */
  refreshCatalog(): void {
    const catalog = new ReadCatalog(this.schema);
    for (const t of this.vertexTables) if (t) catalog.addVertexType(t.key, t.ordinal, t.def, t.idKind, t.columns);
    for (const t of this.edgeTables) {
      if (!t) continue;
      catalog.addEdgeType(t.key, t.ordinal, t.def, t.directed, false, t.entryBytes, t.columns);
      if (t.reverse) catalog.addEdgeType(t.reverse.key, t.reverse.ordinal, t.def, true, true, t.entryBytes, t.columns, t.ordinal);
    }
    this.catalog = catalog;
  }

  /**
   * Compact adjacencies whose garbage passed the threshold; tidy those whose unowned space
   * (holes and chunk ends) passed a quarter of their space, so that a long run of appends
   * (a bulk load) never holds much more memory than its lists and their spare capacity.
   */
  autoCompact(): void {
    for (const t of this.edgeTables) {
      if (!t) continue;
      for (const adj of t.adjacencies()) {
        if (adj.chunkBytes <= 1 << 20) continue;
        if (adj.garbage > adj.chunkBytes * this.autoCompactRatio) adj.compact();
        else if (adj.slack > adj.chunkBytes * TIDY_RATIO && adj.slack - adj.slackAfterTidy > adj.chunkBytes * TIDY_GROWTH) adj.tidy();
      }
    }
  }

  /** Build the entry-ordered attribute copies of a table whose lists were just packed (tables/entry-copies.ts). */
  buildEntryCopies(table: EdgeTable): void {
    if (this.entryCopies) buildEntryCopies(this.space, table);
  }

  /** Write the headers of the working version and make it current. */
  publish(): VersionInfo {
    const headerAddress = writeVersion(this);
    Atomics.store(this.arena.u32, SB.CURRENT_HEADER >>> 2, headerAddress);
    this.space.publish();
    this.current = { version: this.space.published, headerAddress, catalog: this.catalog };
    return this.current;
  }
}
