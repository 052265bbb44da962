// The reader: a pinned version read straight from memory through its version header, exactly
// as layout.ts describes it (this file is the reference reader for query modules). It never
// looks at the writer's tables, so what it returns is what the version holds.
import type { AttrValue } from "../schema/types.js";
import type { EdgeCountOptions, EdgeRecord, ExternalId, IdValue, Snapshot } from "./api.js";
import { shown, StoreError } from "./errors.js";
import { ADJ, COL, ET, IdKind, NO_TYPE, VERTEX_BLOCK_MASK, VERTEX_BLOCK_SHIFT, VH, VT, type StoreLayout } from "./layout.js";
import type { Arena } from "./memory/arena.js";
import type { Heap } from "./memory/heap.js";
import type { WasmMemory } from "./memory/wasm-memory.js";
import type { ReadAttribute, ReadCatalog, ReadEdgeType, ReadVertexType } from "./read-catalog.js";
import type { VersionInfo } from "./state.js";
import { readCell, type CellContext } from "./tables/columns.js";
import { probeId } from "./tables/id-probe.js";
import { BlobWriter } from "./values/blob.js";
import { idText, normalizeId } from "./values/ids.js";

export interface SnapshotHost {
  arena: Arena;
  heap: Heap;
  unpin(version: number): void;
}

// Snapshots only read cells, so they share one scratch writer instead of allocating one per
// pinned read (a single-vertex GET pins a snapshot per request). Its use is synchronous and
// starts with a reset, so sharing is safe even if one ever writes.
const SNAPSHOT_BLOB = new BlobWriter();

export class PinnedSnapshot implements Snapshot {
  readonly version: number;
  readonly headerAddress: number;
  private readonly catalog: ReadCatalog;
  private readonly cells: CellContext;
  private released = false;

  constructor(
    private readonly host: SnapshotHost,
    info: VersionInfo,
  ) {
    this.version = info.version;
    this.headerAddress = info.headerAddress;
    this.catalog = info.catalog;
    this.cells = { arena: host.arena, heap: host.heap, tuples: info.catalog.tuples, blob: SNAPSHOT_BLOB };
  }

  get schema() {
    return this.catalog.schema;
  }

  get layout(): StoreLayout {
    return this.catalog.layout;
  }

  get memory(): WasmMemory {
    return this.host.arena.memory;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.host.unpin(this.version);
  }

  vertexCount(type: string): number {
    return this.field(this.vertexHeader(this.vertexType(type).ordinal), VT.LIVE_COUNT);
  }

  lookup(type: string, id: ExternalId): number | undefined {
    const t = this.vertexType(type);
    const key = normalizeId(t.def, t.idKind, id, this.catalog.tuples);
    if (key === undefined) return undefined;
    const h = this.vertexHeader(t.ordinal);
    if (this.field(h, VT.LIVE_COUNT) === 0) return undefined;
    const local = probeId(this.host.arena, this.host.heap, this.field(h, VT.ID_HASH), this.field(h, VT.ID_HASH_CAPACITY), key);
    return local < 0 ? undefined : this.vidOf(h, local);
  }

  *vertices(type: string): IterableIterator<number> {
    const h = this.vertexHeader(this.vertexType(type).ordinal);
    const slots = this.field(h, VT.SLOT_COUNT);
    const alive = this.field(h, VT.ALIVE);
    for (let local = 0; local < slots; local++) {
      this.check();
      if (this.host.arena.u8[alive + (local >>> 3)] & (1 << (local & 7))) yield this.vidOf(h, local);
    }
  }

  exists(vid: number): boolean {
    this.check();
    const ordinal = this.ordinalOf(vid);
    if (ordinal === NO_TYPE || !this.catalog.vertexByOrdinal[ordinal]) return false;
    const h = this.vertexHeader(ordinal);
    const local = this.localOf(vid);
    return local < this.field(h, VT.SLOT_COUNT) && (this.host.arena.u8[this.field(h, VT.ALIVE) + (local >>> 3)] & (1 << (local & 7))) !== 0;
  }

  typeOf(vid: number): string {
    return this.vertexTypeOf(vid).key;
  }

  idOf(vid: number): IdValue {
    const t = this.vertexTypeOf(vid);
    const h = this.vertexHeader(t.ordinal);
    const local = this.localOf(vid);
    const column = this.field(h, VT.ID_COLUMN);
    const a = this.host.arena;
    switch (t.idKind) {
      case IdKind.INT:
        return a.i64[(column >>> 3) + local];
      case IdKind.UINT:
        return a.u64[(column >>> 3) + local];
      case IdKind.DATETIME:
        return Number(a.i64[(column >>> 3) + local]);
      case IdKind.STRING:
        return this.host.heap.getString(a.u32[(column >>> 2) + local]);
      case IdKind.COMPOSITE:
        return (t.def.compositeKey ?? []).map((name) => this.cell(h, t.byName.get(name)!, local));
    }
  }

  idText(vid: number): string {
    const t = this.vertexTypeOf(vid);
    if (t.idKind === IdKind.INT || t.idKind === IdKind.UINT) {
      // the 8-byte id as two words: ids from 0 to 2^53 need no BigInt (query output
      // prints one per vertex record)
      const at = (this.field(this.vertexHeader(t.ordinal), VT.ID_COLUMN) >>> 2) + this.localOf(vid) * 2;
      const high = this.host.arena.u32[at + 1];
      if (high < 0x200000) return String(high * 4294967296 + this.host.arena.u32[at]);
    }
    return idText(t.idKind, this.idOf(vid));
  }

  attribute(vid: number, name: string): AttrValue | undefined {
    const t = this.vertexTypeOf(vid);
    const attr = t.byName.get(name);
    if (attr) return this.cell(this.vertexHeader(t.ordinal), attr, this.localOf(vid));
    if (name === t.idAttribute) return this.idOf(vid) as AttrValue;
    return undefined;
  }

  attributes(vid: number): Record<string, AttrValue> {
    const t = this.vertexTypeOf(vid);
    const h = this.vertexHeader(t.ordinal);
    const local = this.localOf(vid);
    const out: Record<string, AttrValue> = {};
    if (t.idAttribute) out[t.idAttribute] = this.idOf(vid) as AttrValue;
    for (const attr of t.attributes) out[attr.name] = this.cell(h, attr, local);
    return out;
  }

  attributeReader(type: string, name: string): ((vid: number) => AttrValue) | undefined {
    const t = this.vertexType(type);
    const attr = t.byName.get(name);
    if (!attr) return name === t.idAttribute ? (vid) => this.idOf(vid) as AttrValue : undefined;
    const h = this.vertexHeader(t.ordinal);
    const column = this.columnAddress(h, VT.ATTRIBUTE_TABLE, attr);
    return (vid) => {
      this.check();
      return readCell(this.cells, attr.kind, column, this.localOf(vid), attr.type);
    };
  }

  *edges(vid: number, filter: { type?: string; toType?: string; to?: number } = {}): IterableIterator<EdgeRecord> {
    const ordinal = this.vertexTypeOf(vid).ordinal;
    const local = this.localOf(vid);
    const types = filter.type !== undefined ? [this.edgeType(filter.type)] : this.catalog.edgeByOrdinal.filter((t): t is ReadEdgeType => t !== undefined);
    const toOrdinal = filter.toType !== undefined ? this.vertexType(filter.toType).ordinal : -1;
    for (const t of types) {
      const adj = this.adjacency(t.ordinal, ET.OUT_TABLE, ordinal);
      if (adj === 0 || local >= this.field(adj, ADJ.SLOT_COUNT)) continue;
      const words = this.field(adj, ADJ.ENTRY_BYTES) / 4;
      for (let i = 0; ; i++) {
        this.check();
        // Re-read each step: the arena's views are replaced when memory grows.
        const u32 = this.host.arena.u32;
        const head = (this.field(adj, ADJ.HEADS) >>> 2) + local * 2;
        if (i >= u32[head + 1]) break;
        const at = (u32[head] >>> 2) + i * words;
        const target = u32[at];
        if (filter.to !== undefined && target !== filter.to) continue;
        if (toOrdinal >= 0 && this.ordinalOf(target) !== toOrdinal) continue;
        yield { type: t.key, directed: t.directed, from: vid, to: target, eid: words === 2 ? u32[at + 1] : -1 };
      }
    }
  }

  degree(vid: number, edgeType: string): number {
    const t = this.edgeType(edgeType);
    const adj = this.adjacency(t.ordinal, ET.OUT_TABLE, this.vertexTypeOf(vid).ordinal);
    const local = this.localOf(vid);
    if (adj === 0 || local >= this.field(adj, ADJ.SLOT_COUNT)) return 0;
    return this.host.arena.u32[(this.field(adj, ADJ.HEADS) >>> 2) + local * 2 + 1];
  }

  edgeAttribute(edge: EdgeRecord, name: string): AttrValue | undefined {
    const t = this.edgeType(edge.type);
    const attr = t.byName.get(name);
    if (!attr || edge.eid < 0) return undefined;
    return readCell(this.cells, attr.kind, this.columnAddress(this.edgeHeader(t.ordinal), ET.ATTRIBUTE_TABLE, attr), edge.eid, attr.type);
  }

  edgeAttributes(edge: EdgeRecord): Record<string, AttrValue> {
    const t = this.edgeType(edge.type);
    const out: Record<string, AttrValue> = {};
    if (edge.eid < 0) return out;
    const h = this.edgeHeader(t.ordinal);
    for (const attr of t.attributes) out[attr.name] = readCell(this.cells, attr.kind, this.columnAddress(h, ET.ATTRIBUTE_TABLE, attr), edge.eid, attr.type);
    return out;
  }

  edgeCount(edgeType: string, options: EdgeCountOptions = {}): number {
    const t = this.edgeType(edgeType);
    const fromOrdinals = options.fromType !== undefined ? [this.vertexType(options.fromType).ordinal] : this.catalog.vertexByOrdinal.flatMap((v) => (v ? [v.ordinal] : []));
    const toOrdinal = options.toType !== undefined ? this.vertexType(options.toType).ordinal : -1;
    let count = 0;
    for (const ordinal of fromOrdinals) {
      const adj = this.adjacency(t.ordinal, ET.OUT_TABLE, ordinal);
      if (adj === 0) continue;
      if (toOrdinal < 0) {
        count += this.field(adj, ADJ.ENTRY_COUNT);
        continue;
      }
      const u32 = this.host.arena.u32;
      const words = this.field(adj, ADJ.ENTRY_BYTES) / 4;
      const slots = this.field(adj, ADJ.SLOT_COUNT);
      const heads = this.field(adj, ADJ.HEADS) >>> 2;
      for (let local = 0; local < slots; local++) {
        const deg = u32[heads + local * 2 + 1];
        const at = u32[heads + local * 2] >>> 2;
        for (let i = 0; i < deg; i++) if (this.ordinalOf(u32[at + i * words]) === toOrdinal) count++;
      }
    }
    return count;
  }

  storedEdgeCount(edgeType: string): number {
    return this.field(this.edgeHeader(this.edgeType(edgeType).ordinal), ET.EDGE_COUNT);
  }

  private check(): void {
    if (this.released) throw new StoreError("SNAPSHOT_RELEASED", "the snapshot was released");
  }

  private field(record: number, offset: number): number {
    return this.host.arena.u32[(record + offset) >>> 2];
  }

  private vertexType(key: string): ReadVertexType {
    this.check();
    const t = this.catalog.vertexByKey.get(key);
    if (!t) throw new StoreError("UNKNOWN_VERTEX_TYPE", `invalid vertex type ${shown(key)}`, { type: shown(key) });
    return t;
  }

  private edgeType(key: string): ReadEdgeType {
    this.check();
    const t = this.catalog.edgeByKey.get(key);
    if (!t) throw new StoreError("UNKNOWN_EDGE_TYPE", `invalid edge type ${shown(key)}`, { type: shown(key) });
    return t;
  }

  private vertexTypeOf(vid: number): ReadVertexType {
    this.check();
    const t = this.catalog.vertexByOrdinal[this.ordinalOf(vid)];
    if (!t) throw new StoreError("INVALID_ID", `${vid} is not a vertex of this snapshot`);
    return t;
  }

  private ordinalOf(vid: number): number {
    const block = vid >>> VERTEX_BLOCK_SHIFT;
    if (block >= this.field(this.headerAddress, VH.BLOCK_COUNT)) return NO_TYPE;
    return this.host.arena.u32[(this.field(this.headerAddress, VH.BLOCK_TYPE) >>> 2) + block];
  }

  private localOf(vid: number): number {
    const index = this.host.arena.u32[(this.field(this.headerAddress, VH.BLOCK_INDEX) >>> 2) + (vid >>> VERTEX_BLOCK_SHIFT)];
    return ((index << VERTEX_BLOCK_SHIFT) | (vid & VERTEX_BLOCK_MASK)) >>> 0;
  }

  private vidOf(vertexHeader: number, local: number): number {
    const block = this.host.arena.u32[(this.field(vertexHeader, VT.BLOCKS) >>> 2) + (local >>> VERTEX_BLOCK_SHIFT)];
    return ((block << VERTEX_BLOCK_SHIFT) | (local & VERTEX_BLOCK_MASK)) >>> 0;
  }

  private vertexHeader(ordinal: number): number {
    return this.host.arena.u32[(this.field(this.headerAddress, VH.VERTEX_TYPE_TABLE) >>> 2) + ordinal];
  }

  private edgeHeader(ordinal: number): number {
    return this.host.arena.u32[(this.field(this.headerAddress, VH.EDGE_TYPE_TABLE) >>> 2) + ordinal];
  }

  /** AdjacencyHeader of (edge type, OUT_TABLE or IN_TABLE, vertex type), or 0. */
  private adjacency(edgeOrdinal: number, table: number, vertexOrdinal: number): number {
    const h = this.edgeHeader(edgeOrdinal);
    if (vertexOrdinal >= this.field(this.headerAddress, VH.VERTEX_TYPE_SLOTS)) return 0;
    return this.host.arena.u32[(this.field(h, table) >>> 2) + vertexOrdinal];
  }

  private columnAddress(header: number, tableField: number, attr: ReadAttribute): number {
    return this.field(this.field(header, tableField) + attr.ordinal * COL.BYTES, COL.ADDRESS);
  }

  private cell(vertexHeader: number, attr: ReadAttribute, local: number): AttrValue {
    return readCell(this.cells, attr.kind, this.columnAddress(vertexHeader, VT.ATTRIBUTE_TABLE, attr), local, attr.type);
  }
}
