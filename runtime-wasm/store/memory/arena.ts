// Byte-range allocator over one shared WebAssembly memory, plus the typed views the store
// reads and writes through. Free ranges are binned by size (powers of two) and coalesced
// with their neighbours; the memory grows when no free range fits. Views are recreated
// after every grow because a shared memory hands out a new, longer buffer.
import { StoreError } from "../errors.js";
import { SB } from "../layout.js";
import { MAX_PAGES, WASM_PAGE_BYTES, type WasmMemory } from "./wasm-memory.js";

const ALIGN = 8;

export function alignUp(n: number, align = ALIGN): number {
  return Math.ceil(n / align) * align;
}

export class Arena {
  u8!: Uint8Array;
  u32!: Uint32Array;
  i32!: Int32Array;
  f32!: Float32Array;
  f64!: Float64Array;
  i64!: BigInt64Array;
  u64!: BigUint64Array;
  /** End of the highest allocation: memory above it is unused. */
  top: number;
  /** Bytes in free ranges below `top`. */
  freeBytes = 0;
  private readonly freeByStart = new Map<number, number>();
  private readonly freeByEnd = new Map<number, number>();
  private readonly bins: Set<number>[] = [];

  constructor(
    readonly memory: WasmMemory,
    readonly maximumPages: number,
    top: number = SB.BYTES,
  ) {
    this.top = top;
    this.refresh();
  }

  get byteLength(): number {
    return this.u8.byteLength;
  }

  /** Recreate the views (after the memory grew). */
  refresh(): void {
    const buffer = this.memory.buffer;
    this.u8 = new Uint8Array(buffer);
    this.u32 = new Uint32Array(buffer);
    this.i32 = new Int32Array(buffer);
    this.f32 = new Float32Array(buffer);
    this.f64 = new Float64Array(buffer);
    this.i64 = new BigInt64Array(buffer);
    this.u64 = new BigUint64Array(buffer);
  }

  /** Allocate `bytes` (rounded up to 8), 8-aligned. Contents are undefined unless zeroed. */
  alloc(bytes: number): number {
    const size = alignUp(Math.max(bytes, ALIGN));
    const fit = this.takeFree(size);
    if (fit !== undefined) return fit;
    this.ensureCapacity(this.top + size);
    const addr = this.top;
    this.top += size;
    return addr;
  }

  /**
   * Allocate at least `min` bytes (8-aligned), for callers that can use any size (list
   * chunks), so that fragments of free memory get used: the largest free range of at least
   * `min` bytes, cut to `max`; without one, `preferred` bytes.
   */
  allocFlexible(min: number, preferred: number, max: number): { addr: number; bytes: number } {
    const low = alignUp(Math.max(min, ALIGN));
    const high = Math.max(low, Math.floor(max / ALIGN) * ALIGN);
    if (this.freeBytes >= low) {
      for (let bin = this.bins.length - 1; bin >= binOf(low); bin--) {
        const set = this.bins[bin];
        if (!set || set.size === 0) continue;
        let best = -1;
        let bestSize = 0;
        for (const start of set) {
          const have = this.freeByStart.get(start)!;
          if (have > bestSize) {
            best = start;
            bestSize = have;
          }
        }
        if (bestSize < low) continue;
        const take = Math.min(bestSize, high);
        this.removeFree(best, bestSize);
        if (bestSize > take) this.addFree(best + take, bestSize - take);
        return { addr: best, bytes: take };
      }
    }
    const bytes = alignUp(Math.max(low, preferred));
    return { addr: this.alloc(bytes), bytes };
  }

  allocZeroed(bytes: number): number {
    const addr = this.alloc(bytes);
    this.u8.fill(0, addr, addr + alignUp(Math.max(bytes, ALIGN)));
    return addr;
  }

  free(addr: number, bytes: number): void {
    let start = addr;
    let size = alignUp(Math.max(bytes, ALIGN));
    const before = this.freeByEnd.get(start);
    if (before !== undefined) {
      const beforeSize = start - before;
      this.removeFree(before, beforeSize);
      start = before;
      size += beforeSize;
    }
    const afterSize = this.freeByStart.get(start + size);
    if (afterSize !== undefined) {
      this.removeFree(start + size, afterSize);
      size += afterSize;
    }
    if (start + size === this.top) {
      this.top = start;
      return;
    }
    this.addFree(start, size);
  }

  /**
   * Refuse a mutation that may need `bytes` more than the memory's maximum allows (keeping a
   * headroom for estimates that fall short), so that none fails half-way for want of memory.
   * The memory itself grows lazily, as allocations need it.
   */
  reserve(bytes: number): void {
    const limit = Math.min(this.maximumPages, MAX_PAGES) * WASM_PAGE_BYTES;
    const headroom = Math.min(256 << 20, limit / 16);
    if (this.top - this.freeBytes + bytes + headroom > limit) {
      throw new StoreError("OUT_OF_MEMORY", `the change needs about ${bytes} bytes more than the store's memory maximum allows`);
    }
  }

  private ensureCapacity(end: number): void {
    if (end <= this.u8.byteLength) return;
    const currentPages = this.u8.byteLength / WASM_PAGE_BYTES;
    const neededPages = Math.ceil(end / WASM_PAGE_BYTES);
    const limit = Math.min(this.maximumPages, MAX_PAGES);
    if (neededPages > limit) {
      throw new StoreError("OUT_OF_MEMORY", `the graph needs ${neededPages} pages of memory, above the maximum of ${limit}`);
    }
    // Grow by at least 1/32 (and 1 MiB) so that a stream of small batches does not grow page by page.
    const target = Math.min(limit, Math.max(neededPages, currentPages + Math.max(16, Math.ceil(currentPages / 32))));
    this.memory.grow(target - currentPages);
    this.refresh();
  }

  private takeFree(size: number): number | undefined {
    if (this.freeBytes < size) return undefined;
    const first = binOf(size);
    for (let bin = first; bin < this.bins.length; bin++) {
      const set = this.bins[bin];
      if (!set || set.size === 0) continue;
      for (const start of set) {
        const have = this.freeByStart.get(start)!;
        if (have < size) continue;
        this.removeFree(start, have);
        if (have > size) this.addFree(start + size, have - size);
        return start;
      }
    }
    return undefined;
  }

  private addFree(start: number, size: number): void {
    this.freeByStart.set(start, size);
    this.freeByEnd.set(start + size, start);
    const bin = binOf(size);
    (this.bins[bin] ??= new Set()).add(start);
    this.freeBytes += size;
  }

  private removeFree(start: number, size: number): void {
    this.freeByStart.delete(start);
    this.freeByEnd.delete(start + size);
    this.bins[binOf(size)].delete(start);
    this.freeBytes -= size;
  }
}

function binOf(size: number): number {
  return 31 - Math.clz32(size);
}
