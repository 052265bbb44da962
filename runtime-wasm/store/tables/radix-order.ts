// The stable ordering of items by a non-negative integer key (a slot) that bulk linking
// sorts by: used on the writer thread (link-edges.ts) and in the merge thread (merge-thread.ts).
const RADIX_BITS = 11;
const RADIX_BUCKETS = 1 << RADIX_BITS;
const RADIX_MASK = RADIX_BUCKETS - 1;

export class RadixOrder {
  /** The two halves of the sort: item indices, and their keys beside them. */
  private sortA = new Int32Array(0);
  private sortB = new Int32Array(0);
  private keysA = new Int32Array(0);
  private keysB = new Int32Array(0);
  private readonly counts = new Int32Array(RADIX_BUCKETS);

  /**
   * The indices 0..n-1 ordered by key[i] (slots: non-negative), equal keys in index order:
   * a least-significant-digit radix sort, 11 bits a pass, as many passes as the largest key
   * needs (two for a million slots). Each item's key moves with it, so that every pass reads
   * keys in order rather than through the permutation. The result is a view of a scratch
   * buffer, valid until the next call.
   */
  sort(key: Int32Array, n: number): Int32Array {
    if (this.sortA.length < n) {
      const size = Math.max(n, this.sortA.length * 2, 1024);
      this.sortA = new Int32Array(size);
      this.sortB = new Int32Array(size);
      this.keysA = new Int32Array(size);
      this.keysB = new Int32Array(size);
    }
    let a = this.sortA;
    let b = this.sortB;
    let ka = this.keysA;
    let kb = this.keysB;
    let max = 0;
    for (let i = 0; i < n; i++) {
      const k = key[i];
      a[i] = i;
      ka[i] = k;
      if (k > max) max = k;
    }
    const counts = this.counts;
    for (let shift = 0; shift === 0 || (shift < 32 && max >>> shift > 0); shift += RADIX_BITS) {
      counts.fill(0);
      for (let i = 0; i < n; i++) counts[(ka[i] >>> shift) & RADIX_MASK]++;
      let sum = 0;
      for (let d = 0; d < RADIX_BUCKETS; d++) {
        const c = counts[d];
        counts[d] = sum;
        sum += c;
      }
      for (let i = 0; i < n; i++) {
        const k = ka[i];
        const at = counts[(k >>> shift) & RADIX_MASK]++;
        b[at] = a[i];
        kb[at] = k;
      }
      let t = a;
      a = b;
      b = t;
      t = ka;
      ka = kb;
      kb = t;
    }
    return a.subarray(0, n);
  }
}
