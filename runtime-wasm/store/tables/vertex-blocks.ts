// The global block tables that map internal vertex ids to (type, local slot): blocks of
// 2^VERTEX_BLOCK_SHIFT vids, each owned by one vertex type (layout.ts, "Vertex ids").
import { NO_TYPE, VERTEX_BLOCK_MASK, VERTEX_BLOCK_SHIFT } from "../layout.js";
import type { Region, Space } from "../memory/space.js";

export class VertexBlocks {
  count = 0;
  capacity = 0;
  blockType: Region | null = null;
  blockIndex: Region | null = null;
  private readonly free: number[] = [];

  constructor(private readonly space: Space) {}

  /** A block for the `index`-th block of type `ordinal` (a freed block is reused first). */
  allocate(ordinal: number, index: number): number {
    let block = this.free.pop();
    if (block === undefined) {
      if (this.count === this.capacity) this.grow();
      block = this.count++;
    }
    this.set(block, ordinal, index);
    return block;
  }

  release(block: number): void {
    this.set(block, NO_TYPE, 0);
    this.free.push(block);
  }

  typeOf(vid: number): number {
    const block = vid >>> VERTEX_BLOCK_SHIFT;
    if (block >= this.count) return NO_TYPE;
    return this.space.arena.u32[(this.blockType!.addr >>> 2) + block];
  }

  localOf(vid: number): number {
    const block = vid >>> VERTEX_BLOCK_SHIFT;
    return (this.space.arena.u32[(this.blockIndex!.addr >>> 2) + block] << VERTEX_BLOCK_SHIFT) | (vid & VERTEX_BLOCK_MASK);
  }

  /** Forget every block (the store is cleared). */
  reset(): void {
    this.space.release(this.blockType);
    this.space.release(this.blockIndex);
    this.blockType = this.blockIndex = null;
    this.count = this.capacity = 0;
    this.free.length = 0;
  }

  /** Rebuild from an image's tables. */
  restore(types: Uint32Array, indexes: Uint32Array): void {
    this.reset();
    this.count = types.length;
    this.capacity = Math.max(16, types.length);
    this.blockType = this.space.allocate(this.capacity * 4);
    this.blockIndex = this.space.allocate(this.capacity * 4);
    const u32 = this.space.arena.u32;
    u32.set(types, this.blockType.addr >>> 2);
    u32.set(indexes, this.blockIndex.addr >>> 2);
    for (let b = 0; b < types.length; b++) if (types[b] === NO_TYPE) this.free.push(b);
  }

  private set(block: number, ordinal: number, index: number): void {
    this.blockType = this.space.writable(this.blockType!);
    this.blockIndex = this.space.writable(this.blockIndex!);
    const u32 = this.space.arena.u32;
    u32[(this.blockType.addr >>> 2) + block] = ordinal;
    u32[(this.blockIndex.addr >>> 2) + block] = index;
  }

  private grow(): void {
    const next = Math.max(16, this.capacity * 2);
    this.blockType = this.space.resize(this.blockType, next * 4, this.capacity * 4);
    this.blockIndex = this.space.resize(this.blockIndex, next * 4, this.capacity * 4);
    this.capacity = next;
  }
}
