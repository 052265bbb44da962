// Writer-side membership filter of the entries of an adjacency's long lists (those `find`
// does not simply scan; Adjacency.addToFilter): a blocked Bloom filter over
// (local slot, target vid) pairs, two bits in one 32-bit word per pair, 16 to 32 bits per
// pair. "No" is certain; "maybe" is wrong for about one absent pair in a hundred. Finding an
// existing edge (upserts update instead of duplicating) asks it first: most edges a bulk load
// brings are new, and a "no" spares the search of a long list without the cost of a full
// index (EdgeKeyIndex is kept for the few very long lists). Removals leave their bits behind
// (counted as stale); the adjacency rebuilds the filter when it is full or too stale. Host
// memory only.
import { hashIdHalves } from "../layout.js";

export class EdgeFilter {
  private words = new Int32Array(0);
  private mask = -1;
  /** Pairs added since the last rebuild. */
  private count = 0;
  private stale = 0;
  /** Whether the filter holds every entry of its adjacency (false until built, and once full). */
  built = false;

  /** Whether the filter must be rebuilt before it can answer. */
  get needsRebuild(): boolean {
    return !this.built || this.stale * 4 > this.count + 64;
  }

  /** Empty the filter, sized for `entries` pairs with room to double. */
  reset(entries: number): void {
    let words = 64;
    while (words < entries) words *= 2;
    this.words = new Int32Array(words);
    this.mask = words - 1;
    this.count = this.stale = 0;
    this.built = true;
  }

  add(local: number, target: number): void {
    if (!this.built) return;
    if (this.count >= (this.mask + 1) * 2) {
      // Full: it is rebuilt, larger, when next asked.
      this.built = false;
      return;
    }
    const h = hashIdHalves(local, target | 0);
    this.words[h & this.mask] |= bitsOf(h);
    this.count++;
  }

  mightHave(local: number, target: number): boolean {
    const h = hashIdHalves(local, target | 0);
    const bits = bitsOf(h);
    return (this.words[h & this.mask] & bits) === bits;
  }

  noteRemoved(count: number): void {
    this.stale += count;
  }

  clear(): void {
    this.words = new Int32Array(0);
    this.mask = -1;
    this.count = this.stale = 0;
    this.built = false;
  }
}

/** The two bits of a pair within its word (from a second mix of the hash, so they do not follow the word index). */
function bitsOf(h: number): number {
  const g = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  return (1 << (g >>> 27)) | (1 << ((g >>> 22) & 31));
}
