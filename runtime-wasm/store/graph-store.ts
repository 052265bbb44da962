// The GraphStore: the API of api.ts over the writer's state. Each mutation is one synchronous
// call that either throws a StoreError having changed nothing or publishes one new version;
// snapshots pin the version current when they are taken.
import type { DatabaseSchema } from "../schema/types.js";
import type {
  CompactionStats,
  DeleteEdgesResult,
  DeleteVertexOptions,
  DeleteVerticesResult,
  EdgeSelector,
  ExternalId,
  GraphStore,
  MemoryStats,
  PinnedImage,
  SerializeStats,
  Snapshot,
  StoreOptions,
  UpsertBatch,
  UpsertOptions,
  UpsertResult,
} from "./api.js";
import { shown, StoreError } from "./errors.js";
import { readImage } from "./image/read-image.js";
import { imageCatalog, writeImage } from "./image/write-image.js";
import type { StoreLayout } from "./layout.js";
import type { WasmMemory } from "./memory/wasm-memory.js";
import { deleteAllVertices, deleteEdges, deleteVertices } from "./mutations/delete.js";
import { applySchema, clearData } from "./mutations/schema-change.js";
import { applyUpsert, checkUpsert } from "./mutations/upsert.js";
import { PinnedSnapshot } from "./snapshot.js";
import { StoreState } from "./state.js";
import type { EdgeTable } from "./tables/edge-table.js";
import { entryCopiesMissing } from "./tables/entry-copies.js";

class WasmGraphStore implements GraphStore {
  private busy = false;

  constructor(readonly state: StoreState) {}

  /** Run one mutation; callbacks it calls (selectors' `where`) may read but not mutate. */
  private mutate<T>(change: () => T): T {
    if (this.busy) throw new StoreError("BUSY", "the store is in the middle of another change");
    this.busy = true;
    try {
      return change();
    } finally {
      this.busy = false;
    }
  }

  get memory(): WasmMemory {
    return this.state.arena.memory;
  }

  get version(): number {
    return this.state.current.version;
  }

  get schema(): DatabaseSchema {
    return this.state.schema;
  }

  snapshot(): Snapshot {
    const info = this.state.current;
    this.state.space.pin(info.version);
    const host = { arena: this.state.arena, heap: this.state.ctx.heap, unpin: (v: number) => this.state.space.unpin(v) };
    return new PinnedSnapshot(host, info);
  }

  read<T>(read: (snapshot: Snapshot) => T): T {
    const snapshot = this.snapshot();
    try {
      return read(snapshot);
    } finally {
      snapshot.release();
    }
  }

  upsert(batch: UpsertBatch, options?: UpsertOptions): UpsertResult {
    if (batch === null || typeof batch !== "object") throw new StoreError("INVALID_VALUE", "an upsert batch must be an object");
    if (options !== undefined && (options === null || typeof options !== "object")) throw new StoreError("INVALID_VALUE", "upsert options must be an object");
    return this.mutate(() => applyUpsert(this.state, batch, options));
  }

  checkUpsert(batch: UpsertBatch, options?: UpsertOptions): void {
    if (batch === null || typeof batch !== "object") throw new StoreError("INVALID_VALUE", "an upsert batch must be an object");
    if (options !== undefined && (options === null || typeof options !== "object")) throw new StoreError("INVALID_VALUE", "upsert options must be an object");
    this.mutate(() => checkUpsert(this.state, batch, options));
  }

  deleteVertices(type: string, ids: Iterable<ExternalId>, options?: DeleteVertexOptions): DeleteVerticesResult {
    if (ids === null || typeof (ids as Iterable<ExternalId>)?.[Symbol.iterator] !== "function") throw new StoreError("INVALID_VALUE", "vertex ids must be a list");
    return this.mutate(() => deleteVertices(this.state, type, ids, objectOr(options)));
  }

  deleteAllVertices(type: string, options?: DeleteVertexOptions): DeleteVerticesResult {
    return this.mutate(() => deleteAllVertices(this.state, type, objectOr(options)));
  }

  deleteEdges(selectors: EdgeSelector[]): DeleteEdgesResult {
    const malformed = (x: EdgeSelector) => x === null || typeof x !== "object" || x.from === null || typeof x.from !== "object" || (x.where !== undefined && typeof x.where !== "function");
    if (!Array.isArray(selectors) || selectors.some(malformed)) {
      throw new StoreError("INVALID_VALUE", "edge selectors must be objects naming a source vertex");
    }
    return this.mutate(() => deleteEdges(this.state, selectors));
  }

  applySchema(next: DatabaseSchema): void {
    this.mutate(() => {
      applySchema(this.state, next);
      this.state.publish();
    });
  }

  clear(): void {
    this.mutate(() => {
      clearData(this.state);
      this.state.publish();
    });
  }

  compact(edgeTypes?: string[]): CompactionStats {
    return this.mutate(() => this.compactNow(edgeTypes));
  }

  compactionDue(): string[] {
    const due: string[] = [];
    const seen = new Set<EdgeTable>();
    for (const [key, ref] of this.state.edgeByKey) {
      if (seen.has(ref.table)) continue;
      seen.add(ref.table);
      const unpacked = ref.table.adjacencies().some((adj) => adj.entryCount > 0 && adj.packedBase < 0);
      if (unpacked || (this.state.entryCopies && entryCopiesMissing(ref.table))) due.push(key);
    }
    return due;
  }

  private compactNow(edgeTypes?: string[]): CompactionStats {
    const started = performance.now();
    const keys = edgeTypes ?? [...this.state.edgeByKey.keys()];
    const tables = new Set(
      keys.map((key) => {
        const ref = this.state.edgeByKey.get(key);
        if (!ref) throw new StoreError("UNKNOWN_EDGE_TYPE", `invalid edge type ${shown(key)}`, { type: shown(key) });
        return ref.table;
      }),
    );
    let adjacencies = 0;
    let bytesBefore = 0;
    let bytesAfter = 0;
    for (const table of tables) {
      for (const adj of table.adjacencies()) {
        adjacencies++;
        bytesBefore += adj.chunkBytes;
        adj.compact();
        bytesAfter += adj.chunkBytes;
      }
      this.state.buildEntryCopies(table);
    }
    this.state.publish();
    return { adjacencies, bytesBefore, bytesAfter, millis: performance.now() - started };
  }

  memoryStats(): MemoryStats {
    const space = this.state.space;
    let adjacencyBytes = 0;
    let edgeCount = 0;
    for (const t of this.state.edgeTables) {
      if (!t) continue;
      edgeCount += t.edgeCount;
      for (const adj of t.adjacencies()) adjacencyBytes += adj.chunkBytes + (adj.heads?.bytes ?? 0);
    }
    let vertexCount = 0;
    for (const t of this.state.vertexTables) vertexCount += t?.liveCount ?? 0;
    return { memoryBytes: space.arena.byteLength, liveBytes: space.liveBytes, retiredBytes: space.retiredBytes, adjacencyBytes, vertexCount, edgeCount };
  }

  layout(): StoreLayout {
    return this.state.catalog.layout;
  }

  async serialize(sink: (chunk: Uint8Array) => void | Promise<void>): Promise<SerializeStats> {
    const started = performance.now();
    const info = this.state.current;
    const space = this.state.space;
    space.pin(info.version);
    try {
      const bytes = await writeImage(this.state.arena, info.headerAddress, info.version, info.catalog, sink);
      return { version: info.version, bytes, millis: performance.now() - started };
    } finally {
      space.unpin(info.version);
    }
  }

  pinImage(): PinnedImage {
    const info = this.state.current;
    const space = this.state.space;
    space.pin(info.version);
    let released = false;
    return {
      memory: this.state.arena.memory.buffer,
      header: info.headerAddress,
      version: info.version,
      catalog: imageCatalog(info.catalog),
      release: () => {
        if (released) return;
        released = true;
        space.unpin(info.version);
      },
    };
  }
}

/** Options given as anything but an object count as none. */
function objectOr<T extends object>(options: T | undefined): T | undefined {
  return options !== null && typeof options === "object" ? options : undefined;
}

/** An empty store holding `schema`'s types. */
export function createStore(schema: DatabaseSchema, options?: StoreOptions): GraphStore {
  const state = new StoreState(schema, options);
  applySchema(state, schema);
  state.publish();
  return new WasmGraphStore(state);
}

/** A store rebuilt from a `serialize` image; CORRUPT_IMAGE when the image is damaged. */
export async function loadStore(image: Uint8Array | AsyncIterable<Uint8Array>, options?: StoreOptions): Promise<GraphStore> {
  const bytes = image instanceof Uint8Array ? image : await collect(image);
  return new WasmGraphStore(readImage(bytes, options));
}

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of chunks) {
    parts.push(chunk);
    length += chunk.length;
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
