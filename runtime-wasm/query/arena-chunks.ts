// Arena chunks: the regions of the graph memory a query run allocates in (ArenaChunk in
// the ABI). The main thread lends them to runs from a MemoryLender and keeps chunks that
// runs gave back for the next runs, so a steady query load stops borrowing new memory.
import { ArenaChunk, MIN_CHUNK_BYTES } from "./abi.js";
import type { MemoryLender } from "./memory-lender.js";

const PAGE = 65536;
/** Free chunks kept for reuse beyond this many bytes go back to the lender. */
const KEEP_FREE_BYTES = 256 << 20;

export class ArenaChunks {
  /** Free chunks: address -> byte size. */
  private readonly free = new Map<number, number>();
  /** Every chunk lent out: address -> byte size. */
  private readonly lent = new Map<number, number>();
  private freeBytes = 0;

  constructor(
    private readonly memory: WebAssembly.Memory,
    private readonly lender: MemoryLender,
  ) {}

  /** Lends a chunk with at least `usable` bytes after its header; returns its address. */
  take(usable: number): number {
    const need = Math.max(MIN_CHUNK_BYTES, Math.ceil((usable + ArenaChunk.headerSize) / PAGE) * PAGE);
    let best = 0;
    let bestSize = Infinity;
    for (const [address, size] of this.free) {
      if (size >= need && size < bestSize) {
        best = address;
        bestSize = size;
      }
    }
    let address: number;
    let size: number;
    if (best !== 0) {
      this.free.delete(best);
      this.freeBytes -= bestSize;
      [address, size] = [best, bestSize];
    } else {
      [address, size] = [this.lender.lend(need), need];
    }
    this.lent.set(address, size);
    new DataView(this.memory.buffer).setUint32(address + ArenaChunk.size, size, true);
    return address;
  }

  /** Takes back chunks lent earlier; keeps them for reuse up to a limit. */
  giveBack(chunks: Iterable<number>): void {
    for (const address of chunks) {
      const size = this.lent.get(address);
      if (size === undefined) continue;
      this.lent.delete(address);
      if (this.freeBytes + size <= KEEP_FREE_BYTES) {
        this.free.set(address, size);
        this.freeBytes += size;
      } else {
        this.lender.takeBack(address, size);
      }
    }
  }

  /** Bytes kept for reuse. */
  get spareBytes(): number {
    return this.freeBytes;
  }
}
