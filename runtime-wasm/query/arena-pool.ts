// Arena chunks: the regions of the graph's shared memory a query run allocates in.
//
// Each worker thread owns a pool per memory. A chunk comes from the pool when one of the
// right size is free, else from `memory.grow`, which is atomic on a shared memory, so the
// region it returns belongs to the caller alone whatever other threads (or the store) do.
// WebAssembly memory never shrinks; returned chunks are kept for the next runs instead.
import { ArenaChunk, MIN_CHUNK_BYTES } from "./abi.js";

const PAGE = 65536;

/** Thrown when the memory cannot grow any further. */
export class ArenaExhausted extends Error {
  constructor(bytes: number) {
    super(`cannot lend ${bytes} more bytes of graph memory to the query`);
    this.name = "ArenaExhausted";
  }
}

export class ArenaPool {
  /** Free chunks: address -> byte size. */
  private readonly free = new Map<number, number>();
  /** Every chunk this pool made: address -> byte size (kept on the JavaScript side too, so
   * a chunk's size survives whatever a run wrote into it). */
  private readonly sizes = new Map<number, number>();
  /** Bytes this pool ever took from the memory (for statistics). */
  grownBytes = 0;

  constructor(readonly memory: WebAssembly.Memory) {}

  /** Lends a chunk with at least `usable` bytes after its header; returns its address. */
  take(usable: number): number {
    const need = Math.max(MIN_CHUNK_BYTES, roundUp(usable + ArenaChunk.headerSize, PAGE));
    let best = 0;
    let bestSize = Infinity;
    for (const [addr, size] of this.free) {
      if (size >= need && size < bestSize) {
        best = addr;
        bestSize = size;
      }
    }
    if (best !== 0) {
      this.free.delete(best);
      new DataView(this.memory.buffer).setUint32(best + ArenaChunk.size, bestSize, true);
      return best;
    }
    let oldPages: number;
    try {
      oldPages = this.memory.grow(need / PAGE);
    } catch {
      throw new ArenaExhausted(need);
    }
    const addr = oldPages * PAGE;
    this.grownBytes += need;
    this.sizes.set(addr, need);
    new DataView(this.memory.buffer).setUint32(addr + ArenaChunk.size, need, true);
    return addr;
  }

  /** Takes back chunks lent earlier. */
  giveBack(chunks: Iterable<number>): void {
    for (const addr of chunks) {
      const size = this.sizes.get(addr);
      if (size !== undefined) this.free.set(addr, size);
    }
  }

  /** Bytes currently free in the pool. */
  get freeBytes(): number {
    let n = 0;
    for (const size of this.free.values()) n += size;
    return n;
  }
}

function roundUp(n: number, to: number): number {
  return Math.ceil(n / to) * to;
}
