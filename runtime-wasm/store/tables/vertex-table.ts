// One vertex type's data: local slots with an alive bitmap, the primary-id column and its hash
// index, attribute columns, the retired ids of permanent deletes, and the type's vid blocks.
// This is the writer's view; it changes regions through the Space's copy-on-write rule, and
// publish.ts writes the VertexTypeHeader readers see.
import type { AttrValue, VertexType } from "../../schema/types.js";
import { DELETED_ENTRY, EMPTY_ENTRY, IdKind, VERTEX_BLOCK_MASK, VERTEX_BLOCK_SHIFT, hashIdBytes, hashIdHalves } from "../layout.js";
import { probeId } from "./id-probe.js";
import { ColumnSet, type RestoredColumn } from "./column-set.js";
import type { Region } from "../memory/space.js";
import { idColumnBytes, keyHigh, keyLow, type IdKey } from "../values/ids.js";
import { columnBytes, writeCell, type Column } from "./columns.js";
import type { StoreContext } from "./context.js";

const MIN_SLOTS = 64;

/** A vertex type's arrays as an image holds them (variable-length values already moved to the heap). */
export interface VertexRestore {
  slotCount: number;
  liveCount: number;
  blocks: number[];
  alive: Uint8Array;
  ids: Uint8Array;
  retired: Uint8Array;
  retiredCount: number;
  columns: RestoredColumn[];
}
const MIN_HASH = 16;

export class VertexTable {
  readonly idBytes: number;
  slotCount = 0;
  liveCount = 0;
  capacity = 0;
  alive: Region | null = null;
  idColumn: Region | null = null;
  readonly attributes = new ColumnSet();
  /** Attributes whose value is the primary id (composite key parts, PRIMARY KEY): set on create, never written. */
  keyColumns: Column[] = [];
  /** Block numbers of this type, in local-slot order, and their mirror in memory. */
  readonly blocks: number[] = [];
  blocksRegion: Region | null = null;
  hash: Region | null = null;
  hashCapacity = 0;
  private hashUsed = 0;
  retired: Region | null = null;
  retiredCount = 0;
  private retiredCapacity = 0;
  readonly retiredKeys = new Set<IdKey>();
  readonly freeSlots: number[] = [];
  header: Region | null = null;
  dirty = true;

  constructor(
    readonly ctx: StoreContext,
    public def: VertexType,
    readonly key: string,
    readonly ordinal: number,
    readonly idKind: IdKind,
  ) {
    this.idBytes = idColumnBytes(idKind);
    this.setAttributes(def);
  }

  get columns(): Column[] {
    return this.attributes.columns;
  }

  get byName(): ReadonlyMap<string, Column> {
    return this.attributes.byName;
  }

  /** Match columns to the type's attributes by name and type; new ones are created with their default. */
  setAttributes(def: VertexType): void {
    this.def = def;
    this.attributes.match(this.ctx.space, def.attributes, this.ctx.tuples, (column) => {
      if (this.capacity > 0) this.fillColumn(column);
      else column.region = this.ctx.space.allocate(8);
    });
    this.findKeyColumns();
    this.dirty = true;
  }

  private findKeyColumns(): void {
    const def = this.def;
    const keyNames = def.compositeKey?.length ? def.compositeKey : def.primaryIdAsAttribute ? [def.primaryId.name] : [];
    this.keyColumns = keyNames.map((n) => this.byName.get(n)).filter((c): c is Column => c !== undefined);
  }

  /** Fill the table from an image (see image/read-image.ts); replaces whatever it held. */
  restore(data: VertexRestore): void {
    const { space, arena } = this.ctx;
    const capacity = Math.max(MIN_SLOTS, data.slotCount);
    this.capacity = capacity;
    this.slotCount = data.slotCount;
    this.liveCount = data.liveCount;
    this.alive = space.allocate(Math.ceil(capacity / 64) * 8);
    arena.u8.set(data.alive, this.alive.addr);
    this.idColumn = space.allocate(capacity * this.idBytes);
    arena.u8.set(data.ids, this.idColumn.addr);
    this.attributes.restore(space, data.columns, this.def.attributes, capacity, this.ctx.tuples);
    this.findKeyColumns();
    this.blocks.length = 0;
    this.blocks.push(...data.blocks);
    this.blocksRegion = space.allocate(Math.max(8, this.blocks.length) * 4);
    arena.u32.set(this.blocks, this.blocksRegion.addr >>> 2);
    this.hash = null;
    this.rehash();
    this.retiredCapacity = Math.max(16, data.retiredCount);
    this.retired = space.allocate(this.retiredCapacity * this.idBytes);
    arena.u8.set(data.retired, this.retired.addr);
    this.retiredCount = data.retiredCount;
    this.retiredKeys.clear();
    for (let i = 0; i < data.retiredCount; i++) this.retiredKeys.add(this.keyIn(this.retired.addr, i));
    this.freeSlots.length = 0;
    for (let local = data.slotCount - 1; local >= 0; local--) if (!this.isAlive(local)) this.freeSlots.push(local);
    this.dirty = true;
  }

  vidOf(local: number): number {
    return ((this.blocks[local >>> VERTEX_BLOCK_SHIFT] << VERTEX_BLOCK_SHIFT) | (local & VERTEX_BLOCK_MASK)) >>> 0;
  }

  isAlive(local: number): boolean {
    return local < this.slotCount && (this.ctx.arena.u8[this.alive!.addr + (local >>> 3)] & (1 << (local & 7))) !== 0;
  }

  /** Local slot of the live vertex with this id, or -1. */
  find(key: IdKey): number {
    if (this.liveCount === 0) return -1;
    if (this.direct !== null && typeof key === "number") return key >= 0 && key < this.direct.length ? this.direct[key] : -1;
    return probeId(this.ctx.arena, this.ctx.heap, this.hash!.addr, this.hashCapacity, key);
  }

  /**
   * Writer-side shortcut for INT/UINT types whose ids are small non-negative integers (the
   * common case of numbered vertices): id → local slot in a plain array, kept while ids stay
   * dense enough; the id hash in memory stays the readers' path.
   */
  private direct: Int32Array | null = null;
  private directOff = false;

  private noteDirect(key: IdKey, local: number): void {
    if (this.directOff) return;
    if (typeof key !== "number" || key < 0 || key > Math.max(1 << 20, this.liveCount * 8)) {
      this.direct = null;
      this.directOff = true;
      return;
    }
    if (!this.direct) {
      // First use (or after a load): take in every live vertex, or give up if ids are not small.
      this.direct = new Int32Array(0);
      for (let l = 0; l < this.slotCount && !this.directOff; l++) if (l !== local && this.isAlive(l)) this.noteDirect(this.keyAt(l), l);
      if (this.directOff) return;
    }
    if (key >= this.direct.length) {
      const next = new Int32Array(Math.max(1024, key + 1, this.direct.length * 2)).fill(-1);
      next.set(this.direct);
      this.direct = next;
    }
    this.direct[key] = local;
  }

  /** Create a vertex with default attributes; returns its local slot. `keyValues` fill key attributes. */
  create(key: IdKey, keyValues?: AttrValue[]): number {
    const reused = this.freeSlots.length > 0;
    const local = reused ? this.freeSlots.pop()! : this.slotCount;
    if (!reused) {
      if (local >= this.capacity) this.grow(Math.max(MIN_SLOTS, this.capacity * 2));
      if (local >>> VERTEX_BLOCK_SHIFT >= this.blocks.length) this.addBlock();
      this.slotCount++;
    }
    // Make room in the id hash first: a rehash re-inserts every live slot, and this one is not live yet.
    if ((this.hashUsed + 1) * 4 > this.hashCapacity * 3) this.rehash();
    const { space, arena } = this.ctx;
    this.alive = space.writable(this.alive!);
    arena.u8[this.alive.addr + (local >>> 3)] |= 1 << (local & 7);
    this.idColumn = space.writable(this.idColumn!);
    this.writeId(local, key);
    const columns = this.columns;
    for (let i = 0; i < columns.length; i++) {
      const column = columns[i];
      if (column.region && (reused || !column.zeroDefault)) this.writeAttribute(column, local, column.defaultValue);
    }
    if (keyValues) for (let i = 0; i < keyValues.length; i++) this.writeAttribute(this.keyColumns[i], local, keyValues[i]);
    this.liveCount++;
    this.hashInsert(local);
    if (this.idKind === IdKind.INT || this.idKind === IdKind.UINT) this.noteDirect(key, local);
    this.dirty = true;
    return local;
  }

  /** Delete the vertex in `local` (its edges are the caller's business). */
  remove(local: number, key: IdKey, permanent: boolean): void {
    const { space, arena } = this.ctx;
    this.alive = space.writable(this.alive!);
    arena.u8[this.alive.addr + (local >>> 3)] &= ~(1 << (local & 7));
    this.hashRemove(local, key);
    if (this.direct && typeof key === "number" && key < this.direct.length) this.direct[key] = -1;
    this.liveCount--;
    this.freeSlots.push(local);
    if (permanent) this.retireKey(key, local);
    this.dirty = true;
  }

  /** Write a canonical value (copying the column first when a pinned version can see it). */
  writeAttribute(column: Column, local: number, value: AttrValue): void {
    column.region = this.ctx.space.writable(column.region!);
    writeCell(this.ctx, column.kind, column.region.addr, local, column.def.type, value);
    this.dirty = true;
  }

  /** The id key stored in a slot. */
  keyAt(local: number): IdKey {
    return this.keyIn(this.idColumn!.addr, local);
  }

  /** The id key at `index` of an id-column-shaped array. */
  private keyIn(column: number, index: number): IdKey {
    const arena = this.ctx.arena;
    if (this.idBytes === 4) return this.ctx.heap.getString(arena.u32[(column >>> 2) + index]);
    const i = (column >>> 2) + index * 2;
    const low = arena.i32[i];
    const high = arena.i32[i + 1];
    if (this.idKind === IdKind.UINT) {
      const n = (high >>> 0) * 4294967296 + (low >>> 0);
      return Number.isSafeInteger(n) ? n : arena.u64[(column >>> 3) + index];
    }
    const n = high * 4294967296 + (low >>> 0);
    return Number.isSafeInteger(n) ? n : arena.i64[(column >>> 3) + index];
  }

  /** Drop every vertex (slots restart at 0; blocks and capacity are kept). */
  clearVertices(keepRetired: boolean): void {
    const { space } = this.ctx;
    // Fresh zeroed arrays: pinned versions keep the old ones, and new slots start from zero.
    if (this.capacity > 0) {
      this.alive = space.resize(this.alive, this.alive!.bytes, 0);
      this.idColumn = space.resize(this.idColumn, this.idColumn!.bytes, 0);
      this.attributes.zero(space);
    }
    this.slotCount = 0;
    this.liveCount = 0;
    this.freeSlots.length = 0;
    this.hashReset(MIN_HASH);
    this.direct = null;
    this.directOff = false;
    if (!keepRetired) {
      space.release(this.retired);
      this.retired = null;
      this.retiredKeys.clear();
      this.retiredCount = this.retiredCapacity = 0;
    }
    this.dirty = true;
  }

  /** Release every region and block (the type is dropped). */
  dispose(): void {
    const { space, blocks } = this.ctx;
    for (const r of [this.alive, this.idColumn, this.hash, this.retired, this.blocksRegion, this.header]) space.release(r);
    this.attributes.release(space);
    for (const b of this.blocks) blocks.release(b);
  }

  private writeId(local: number, key: IdKey): void {
    const arena = this.ctx.arena;
    const addr = this.idColumn!.addr;
    if (this.idBytes === 4) {
      const heap = this.ctx.heap;
      arena.u32[(addr >>> 2) + local] = heap.putBytes(heap.scratchBytes, heap.encode(key as string));
    } else {
      arena.i32[(addr >>> 2) + local * 2] = keyLow(key as number | bigint);
      arena.i32[(addr >>> 2) + local * 2 + 1] = keyHigh(key as number | bigint);
    }
  }

  /** Remember a deleted id for good (permanent delete); `local` still holds its id. */
  retireKey(key: IdKey, local: number): void {
    if (this.retiredKeys.has(key)) return;
    this.retiredKeys.add(key);
    const { space, arena } = this.ctx;
    if (this.retiredCount === this.retiredCapacity) {
      const next = Math.max(16, this.retiredCapacity * 2);
      this.retired = space.resize(this.retired, next * this.idBytes, this.retiredCount * this.idBytes);
      this.retiredCapacity = next;
    }
    // Appending beyond RETIRED_COUNT is invisible to pinned versions: no copy needed.
    const r = this.retired!.addr;
    const id = this.idColumn!.addr;
    if (this.idBytes === 4) arena.u32[(r >>> 2) + this.retiredCount] = arena.u32[(id >>> 2) + local];
    else arena.i64[(r >>> 3) + this.retiredCount] = arena.i64[(id >>> 3) + local];
    this.retiredCount++;
  }

  /** Grow every per-slot array to `slots`. */
  grow(slots: number): void {
    const { space } = this.ctx;
    const old = this.capacity;
    this.alive = space.resize(this.alive, Math.ceil(slots / 64) * 8, Math.ceil(old / 64) * 8);
    this.idColumn = space.resize(this.idColumn, slots * this.idBytes, old * this.idBytes);
    this.attributes.resize(space, old, slots);
    this.capacity = slots;
    if (!this.hash) this.hashReset(MIN_HASH);
  }

  private addBlock(): void {
    const index = this.blocks.length;
    this.blocks.push(this.ctx.blocks.allocate(this.ordinal, index));
    const space = this.ctx.space;
    const cap = this.blocksRegion ? this.blocksRegion.bytes / 4 : 0;
    if (index >= cap) this.blocksRegion = space.resize(this.blocksRegion, Math.max(8, cap * 2) * 4, cap * 4);
    else this.blocksRegion = space.writable(this.blocksRegion!);
    this.ctx.arena.u32[(this.blocksRegion.addr >>> 2) + index] = this.blocks[index];
  }

  /** A new column filled with the attribute's default for every slot. */
  private fillColumn(column: Column): void {
    column.region = this.ctx.space.allocate(columnBytes(column.kind, this.capacity));
    if (column.zeroDefault) return;
    for (let local = 0; local < this.slotCount; local++) writeCell(this.ctx, column.kind, column.region.addr, local, column.def.type, column.defaultValue);
  }

  /** Insert a slot the hash does not hold yet (its id is already in the id column); the caller made room (see create). */
  private hashInsert(local: number): void {
    this.hash = this.ctx.space.writable(this.hash!);
    this.placeEntry(local);
  }

  /** Write the hash entry of a live slot into the first free place of its probe sequence. */
  private placeEntry(local: number): void {
    const { arena } = this.ctx;
    const u32 = arena.u32;
    const base = this.hash!.addr >>> 2;
    const mask = this.hashCapacity - 1;
    const id = this.idColumn!.addr >>> 2;
    let a: number;
    let b: number;
    let hash: number;
    if (this.idBytes === 4) {
      const record = u32[id + local];
      a = hash = record === 0 ? hashIdBytes(arena.u8, 0, 0) : hashIdBytes(arena.u8, record + 4, record + 4 + u32[record >>> 2]);
      b = record;
    } else {
      a = u32[id + local * 2];
      b = u32[id + local * 2 + 1];
      hash = hashIdHalves(a | 0, b | 0);
    }
    for (let h = hash & mask; ; h = (h + 1) & mask) {
      const at = base + h * 3;
      const e = u32[at];
      if (e === EMPTY_ENTRY || e === DELETED_ENTRY) {
        if (e === EMPTY_ENTRY) this.hashUsed++;
        u32[at] = local;
        u32[at + 1] = a;
        u32[at + 2] = b;
        return;
      }
    }
  }

  private hashRemove(local: number, key: IdKey): void {
    this.hash = this.ctx.space.writable(this.hash!);
    const u32 = this.ctx.arena.u32;
    const base = this.hash.addr >>> 2;
    const mask = this.hashCapacity - 1;
    for (let h = this.hashOf(key) & mask; ; h = (h + 1) & mask) {
      const e = u32[base + h * 3];
      if (e === EMPTY_ENTRY) return;
      if (e === local) {
        u32[base + h * 3] = DELETED_ENTRY;
        return;
      }
    }
  }

  private hashOf(key: IdKey): number {
    if (typeof key === "string") {
      const heap = this.ctx.heap;
      return hashIdBytes(heap.scratchBytes, 0, heap.encode(key));
    }
    return hashIdHalves(keyLow(key), keyHigh(key));
  }

  private hashReset(capacity: number): void {
    const { space, arena } = this.ctx;
    space.release(this.hash);
    this.hash = space.allocate(capacity * 12, false);
    arena.u32.fill(EMPTY_ENTRY, this.hash.addr >>> 2, (this.hash.addr >>> 2) + capacity * 3);
    this.hashCapacity = capacity;
    this.hashUsed = 0;
  }

  /** Rebuild the hash at a size fitting the live vertices (drops tombstones). */
  rehash(): void {
    // Load after a rehash stays below 0.7; the table grows again at 0.75 (entries are 12 bytes).
    let capacity = MIN_HASH;
    while (capacity * 0.7 < this.liveCount + 1) capacity *= 2;
    this.hashReset(capacity);
    for (let local = 0; local < this.slotCount; local++) if (this.isAlive(local)) this.placeEntry(local);
  }
}
