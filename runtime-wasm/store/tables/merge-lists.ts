// The copy at the heart of Adjacency.mergeAppend: every list of an adjacency rewritten, in slot
// order, into one fresh range, with the new entries of the lists that grow after their old
// ones. A pure function of typed arrays (no store objects), so that the merge thread
// (merge-thread.ts) runs the same code on the shared memory as the writer thread does.

/** Host metadata per slot: [capacity, chunk id | INDEXED]; chunk id NO_CHUNK when the slot has no list. */
export const NO_CHUNK = 0x3fffffff;
export const CHUNK_MASK = 0x3fffffff;
export const INDEXED = 0x40000000;

/** The new entries of a merge: group g adds targets[starts[g]..starts[g+1]) (and eids) to slot groupSlots[g]; ascending slots, one group per slot. */
export interface MergeGroups {
  groupSlots: Int32Array;
  starts: Int32Array;
  groups: number;
  targets: Uint32Array;
  eids: Int32Array;
}

/** Told of each list that grew, at its new place (word `list`), in slot order: `count` new entries after `deg` old ones, from entry `first` of the groups' arrays. */
export type GrownList = (local: number, deg: number, count: number, list: number, first: number) => void;

/** Where a merge reads a slot's head and meta, and where it writes them (the same arrays to update in place). */
export interface MergeHeads {
  /** Word of the first head ([address, degree] pairs) read, and of the first written. */
  from: number;
  to: number;
  metaFrom: Int32Array;
  metaTo: Int32Array;
}

/**
 * Rewrite the lists of `slots` slots back to back from word `dest`, appending each group's
 * entries to its slot's list; every list ends up at its new address with capacity = degree
 * in chunk 0 (slots without a list in none). Heads and meta are read from `heads.from` and
 * `heads.metaFrom` and written to `heads.to` and `heads.metaTo`: the same arrays (in place,
 * the writer), or fresh ones filled for every slot (the merge thread, which leaves the
 * current ones as they are). Old lists are only read, so the old range stays valid for
 * whoever still reads it. Lists back to back in the old space are copied as one range.
 */
export function mergeLists(u32: Uint32Array, heads: MergeHeads, slots: number, words: number, dest: number, g: MergeGroups, grown: GrownList | null): void {
  const { groupSlots, starts, groups, targets, eids } = g;
  const { metaFrom, metaTo } = heads;
  const fresh = heads.from !== heads.to;
  // Word positions: p where the next list goes; [runFrom, runEnd) old entries still to be
  // copied to runTo.
  let p = dest;
  let runFrom = 0;
  let runEnd = 0;
  let runTo = p;
  let next = 0;
  let nextGroupSlot = groups > 0 ? groupSlots[0] : -1;
  for (let local = 0; local < slots; local++) {
    const h = heads.from + local * 2;
    const out = heads.to + local * 2;
    const deg = u32[h + 1];
    if (local !== nextGroupSlot) {
      if (deg === 0) {
        if (fresh || (metaFrom[local * 2 + 1] & CHUNK_MASK) !== NO_CHUNK) {
          u32[out] = 0;
          u32[out + 1] = 0;
          metaTo[local * 2] = 0;
          metaTo[local * 2 + 1] = NO_CHUNK | (metaFrom[local * 2 + 1] & INDEXED);
        }
        continue;
      }
      const from = u32[h] >>> 2;
      if (from !== runEnd) {
        copyWords(u32, runTo, runFrom, runEnd);
        runFrom = from;
        runTo = p;
      }
      runEnd = from + deg * words;
      u32[out] = p << 2;
      u32[out + 1] = deg;
      p += deg * words;
      metaTo[local * 2] = deg;
      metaTo[local * 2 + 1] = metaFrom[local * 2 + 1] & INDEXED;
      continue;
    }
    // A list that grows: its old entries, then the new ones.
    if (deg > 0) {
      const from = u32[h] >>> 2;
      if (from !== runEnd) {
        copyWords(u32, runTo, runFrom, runEnd);
        runFrom = from;
        runTo = p;
      }
      runEnd = from + deg * words;
    }
    copyWords(u32, runTo, runFrom, runEnd);
    const list = p;
    u32[out] = p << 2;
    p += deg * words;
    const first = starts[next];
    const count = starts[next + 1] - first;
    p = writeEntries(u32, p, targets, eids, first, count, words);
    u32[out + 1] = deg + count;
    metaTo[local * 2] = deg + count;
    metaTo[local * 2 + 1] = metaFrom[local * 2 + 1] & INDEXED;
    if (grown !== null) grown(local, deg, count, list, first);
    runFrom = runEnd = 0;
    runTo = p;
    next++;
    nextGroupSlot = next < groups ? groupSlots[next] : -1;
  }
  copyWords(u32, runTo, runFrom, runEnd);
}

/**
 * Writes the entries targets[first, first + count) (each with its eid when an entry is two
 * words) from word `at` on; returns the word after the last.
 */
export function writeEntries(u32: Uint32Array, at: number, targets: Uint32Array, eids: Int32Array, first: number, count: number, words: number): number {
  if (words === 1) {
    for (let k = first; k < first + count; k++) u32[at++] = targets[k];
  } else {
    for (let k = first; k < first + count; k++) {
      u32[at++] = targets[k];
      u32[at++] = eids[k];
    }
  }
  return at;
}

/** Copy words [from, end) to `to` (ranges apart): short ranges by a loop, which beats a call to copyWithin. */
function copyWords(u32: Uint32Array, to: number, from: number, end: number): void {
  if (end - from > 32) u32.copyWithin(to, from, end);
  else for (let w = from; w < end; ) u32[to++] = u32[w++];
}
