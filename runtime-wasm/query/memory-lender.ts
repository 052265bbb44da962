// Where query runs get their memory. The graph memory has one owner, the store's allocator,
// which runs on the main thread; the query runtime borrows regions from it through this
// interface (arena chunks for runs, the control region for the workers) and returns them.
// Worker threads never grow or carve the memory themselves: they ask the main thread.

export interface MemoryLender {
  /** A region of at least `bytes` bytes (8-byte aligned) that nobody else touches until returned. */
  lend(bytes: number): number;
  /** Gives a region back (the same address and byte count it was lent with). */
  takeBack(address: number, bytes: number): void;
}

/** Thrown when the memory has no room left for a run. */
export class MemoryExhausted extends Error {
  constructor(bytes: number) {
    super(`cannot lend ${bytes} more bytes of graph memory to the query`);
    this.name = "MemoryExhausted";
  }
}

const PAGE = 65536;

/**
 * A lender for a memory with no other owner (tests, tools): grows the memory for every new
 * region and keeps returned regions for reuse.
 */
export function growingLender(memory: WebAssembly.Memory): MemoryLender {
  const free = new Map<number, number>();
  return {
    lend(bytes: number): number {
      const need = Math.ceil(bytes / PAGE) * PAGE;
      for (const [address, size] of free) {
        if (size === need) {
          free.delete(address);
          return address;
        }
      }
      try {
        return memory.grow(need / PAGE) * PAGE;
      } catch {
        throw new MemoryExhausted(need);
      }
    },
    takeBack(address: number, bytes: number): void {
      free.set(address, Math.ceil(bytes / PAGE) * PAGE);
    },
  };
}
