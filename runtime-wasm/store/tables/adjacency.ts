// The edge lists of one (edge type, direction, vertex type): per local slot a head
// [list address, degree] (layout.ts, AdjacencyHeader). Lists live in chunks. New entries go to
// a list's spare capacity or move the list to fresh chunk space with room to grow: the delta.
// Entries a pinned version can see are never changed: appends write beyond every pinned
// degree, and a removal from a list in a chunk a pinned version may read copies the list.
// `compact` folds all lists into one fresh contiguous chunk in slot order (a CSR) and
// releases the old chunks.
import type { Region, Space } from "../memory/space.js";
import { EdgeFilter } from "./edge-filter.js";
import { EdgeKeyIndex } from "./edge-index.js";
import { CHUNK_MASK, INDEXED, mergeLists, NO_CHUNK, writeEntries, type MergeGroups } from "./merge-lists.js";

interface Chunk {
  region: Region;
  /** Bytes handed out (bump pointer). */
  used: number;
  /** Bytes of list capacity still owned by lists. */
  live: number;
  /** Unique per chunk ever made, so a hole can tell whether its chunk is still the same. */
  serial: number;
}

let chunkSerial = 0;

const MIN_CHUNK = 4 * 1024;
const MAX_CHUNK = 1024 * 1024;
/** Lists above this many bytes get a chunk of their own. */
const OWN_CHUNK = 64 * 1024;
/** Lists longer than this are asked of the filter before they are scanned. */
export const SCAN_LIMIT = 32;
/** Lists longer than this are searched through the key index rather than scanned. */
export const INDEX_LIMIT = 4096;
/**
 * Appending to a list costs about this many times a slot's step in `mergeAppend` (measured on
 * a 4M-edge load: ~250 ns for a list, mostly cache misses and moves, against ~10 ns a slot
 * and ~1 ns a word copied in slot order).
 */
const LIST_APPEND_COST = 24;
/**
 * The same for lists stored packed (after a merge, a compaction or a restore): none has spare
 * capacity, so every list appended to moves, and the hole it leaves is repacked by a later
 * tidy (measured on the last, smaller batch of a 4M-edge load: ~1.2 µs a list, and a tidy of
 * ~45 ms an adjacency, against ~14 ns a slot for a merge).
 */
const PACKED_LIST_APPEND_COST = 96;

export class Adjacency {
  readonly entryWords: 1 | 2;
  /** Slots covered by `heads`. */
  slots = 0;
  /** u32 pairs [list address, degree] per slot. */
  heads: Region | null = null;
  /**
   * Writer-only metadata per slot (see NO_CHUNK); kept next to each other so one access finds
   * both. Shared memory, so that the merge thread can write a merge's copy of it.
   */
  private meta = sharedInt32(0);
  /** A previous `meta`, kept for the next merge run in the merge thread to write into. */
  private spareMeta = sharedInt32(0);
  private chunks: (Chunk | null)[] = [];
  private freeChunkIds: number[] = [];
  /** Reusable holes by size class (see classSize): triples [address, chunk id, chunk serial]. */
  private holes: number[][] = [];
  private current = -1;
  entryCount = 0;
  /** Bytes in chunks no longer owned by any list. */
  garbage = 0;
  /**
   * `slack` right after the last tidy or compact: what tidying could not give back (chunks a
   * pinned version reads, chunks with little unowned space). The next tidy waits until slack
   * grew well past it, so tidying stays in proportion to what was appended since.
   */
  slackAfterTidy = 0;
  chunkBytes = 0;
  /**
   * Whether every list sits in the one chunk, back to back in slot order with no spare
   * capacity (after a merge, a compaction or a restore, until a list changes otherwise): a
   * merge may then move the lists within the chunk when it has room.
   */
  private packed = false;
  header: Region | null = null;
  dirty = true;
  /** Present on adjacencies used to find edges by (source, target): the filter, and the index of very long lists. */
  readonly index: EdgeKeyIndex | null;
  readonly filter: EdgeFilter | null;

  constructor(
    private readonly space: Space,
    readonly entryBytes: 4 | 8,
    indexed: boolean,
  ) {
    this.entryWords = entryBytes === 8 ? 2 : 1;
    this.index = indexed ? new EdgeKeyIndex() : null;
    this.filter = indexed ? new EdgeFilter() : null;
  }

  /** The address of the first entry while every list sits back to back in slot order in one chunk (after a compaction or a restore); else -1. */
  get packedBase(): number {
    const only = this.chunks.length === 1 ? this.chunks[0] : null;
    return this.packed && only !== null ? only.region.addr : -1;
  }

  degree(local: number): number {
    return local < this.slots ? this.space.arena.u32[(this.heads!.addr >>> 2) + local * 2 + 1] : 0;
  }

  /** Address of the list of `local` (0 when it has none). */
  listAddress(local: number): number {
    return local < this.slots ? this.space.arena.u32[(this.heads!.addr >>> 2) + local * 2] : 0;
  }

  ensureSlots(count: number): void {
    if (count <= this.slots) return;
    const next = Math.max(count, this.slots * 2, 64);
    this.heads = this.space.resize(this.heads, next * 8, this.slots * 8);
    const meta = sharedInt32(next * 2);
    meta.set(this.meta);
    for (let i = this.slots; i < next; i++) meta[i * 2 + 1] = NO_CHUNK;
    this.meta = meta;
    this.slots = next;
    this.dirty = true;
  }

  append(local: number, target: number, eid: number): void {
    if (local >= this.slots) this.ensureSlots(local + 1);
    const head = (this.heads!.addr >>> 2) + local * 2;
    const deg = this.space.arena.u32[head + 1];
    if (deg === this.meta[local * 2]) this.relocate(local, deg, deg + 1);
    this.heads = this.space.writable(this.heads!);
    const u32 = this.space.arena.u32;
    const h = (this.heads.addr >>> 2) + local * 2;
    const at = (u32[h] >>> 2) + deg * this.entryWords;
    u32[at] = target;
    if (this.entryWords === 2) u32[at + 1] = eid;
    u32[h + 1] = deg + 1;
    this.entryCount++;
    this.addToFilter(local, deg, 1, u32[h] >>> 2);
    if ((this.meta[local * 2 + 1] & INDEXED) !== 0) this.index!.add(local, target, eid);
    this.dirty = true;
  }

  /**
   * Append `count` entries to `local`'s list at once: targets[from..from+count) (and their
   * eids), moving the list at most once, to space sized for all of them.
   */
  appendMany(local: number, targets: Uint32Array, eids: Int32Array, from: number, count: number): void {
    if (local >= this.slots) this.ensureSlots(local + 1);
    const deg = this.space.arena.u32[(this.heads!.addr >>> 2) + local * 2 + 1];
    if (deg + count > this.meta[local * 2]) this.relocate(local, deg, deg + count);
    this.heads = this.space.writable(this.heads!);
    const u32 = this.space.arena.u32;
    const h = (this.heads.addr >>> 2) + local * 2;
    writeEntries(u32, (u32[h] >>> 2) + deg * this.entryWords, targets, eids, from, count, this.entryWords);
    u32[h + 1] = deg + count;
    this.entryCount += count;
    this.addToFilter(local, deg, count, u32[h] >>> 2);
    if ((this.meta[local * 2 + 1] & INDEXED) !== 0) for (let k = from; k < from + count; k++) this.index!.add(local, targets[k], eids[k]);
    this.dirty = true;
  }

  /**
   * Find an entry of `local`'s list with this target for which `accept(eid)` holds (any entry
   * when `accept` is null); returns its eid (-1 for a type without eids) or -2 when there is none.
   */
  find(local: number, target: number, accept: ((eid: number) => boolean) | null): number {
    if (local >= this.slots) return -2;
    const u32 = this.space.arena.u32;
    const head = (this.heads!.addr >>> 2) + local * 2;
    const deg = u32[head + 1];
    if (deg === 0) return -2;
    if (deg > SCAN_LIMIT && this.filter !== null) {
      if (this.filter.needsRebuild) this.rebuildFilter();
      if (!this.filter.mightHave(local, target)) return -2;
      if (deg > INDEX_LIMIT) {
        if ((this.meta[local * 2 + 1] & INDEXED) === 0) this.indexList(local);
        return this.index!.find(local, target, accept);
      }
    }
    const words = this.entryWords;
    const start = u32[head] >>> 2;
    const end = start + deg * words;
    for (let at = start; at < end; at += words) {
      if (u32[at] !== target) continue;
      const eid = words === 2 ? u32[at + 1] : -1;
      if (accept === null || accept(eid)) return eid;
    }
    return -2;
  }

  /** Remove the entries of `local`'s list for which `drop(target, eid)` holds (called once per entry); returns how many. */
  removeWhere(local: number, drop: (target: number, eid: number) => boolean): number {
    const deg = this.degree(local);
    if (deg === 0) return 0;
    const u32 = this.space.arena.u32;
    const words = this.entryWords;
    const from = this.listAddress(local) >>> 2;
    const marks = this.marks(deg);
    const indexed = (this.meta[local * 2 + 1] & INDEXED) !== 0;
    let removed = 0;
    for (let i = 0; i < deg; i++) {
      const at = from + i * words;
      const target = u32[at];
      const eid = words === 2 ? u32[at + 1] : -1;
      marks[i] = drop(target, eid) ? 1 : 0;
      if (marks[i] === 0) continue;
      removed++;
      if (indexed) this.index!.remove(local, target, eid);
    }
    if (removed === 0) return 0;
    this.filter?.noteRemoved(removed);
    const kept = deg - removed;
    if (kept === 0) this.dropList(local);
    else if (this.space.frozen(this.chunks[this.meta[local * 2 + 1] & CHUNK_MASK]!.region)) {
      // A list a pinned version may read is copied without the removed entries.
      const oldChunk = this.meta[local * 2 + 1] & CHUNK_MASK;
      const oldBytes = this.meta[local * 2] * this.entryBytes;
      const addr = this.allocList(kept);
      const chunk = this.grantedChunk;
      const capacity = this.grantedCapacity;
      let n = 0;
      for (let i = 0; i < deg; i++) if (marks[i] === 0) this.copyEntry(from + i * words, (addr >>> 2) + n++ * words);
      this.setList(local, addr, capacity, chunk);
      this.freeSpace(oldChunk, from * 4, oldBytes);
    } else {
      let n = 0;
      for (let i = 0; i < deg; i++) if (marks[i] === 0) this.copyEntry(from + i * words, from + n++ * words);
      this.packed = false;
    }
    this.setDegree(local, kept);
    this.entryCount -= removed;
    this.dirty = true;
    return removed;
  }

  /** Empty `local`'s list (its vertex is deleted); returns the entries it had. */
  clear(local: number): number {
    const deg = this.degree(local);
    if (deg === 0 && this.listAddress(local) === 0) return 0;
    if ((this.meta[local * 2 + 1] & INDEXED) !== 0) {
      this.forEach(local, (target, eid) => this.index!.remove(local, target, eid));
      this.meta[local * 2 + 1] &= ~INDEXED;
    }
    this.setDegree(local, 0);
    this.entryCount -= deg;
    this.filter?.noteRemoved(deg);
    this.dropList(local);
    this.dirty = true;
    return deg;
  }

  forEach(local: number, visit: (target: number, eid: number) => void): void {
    const deg = this.degree(local);
    if (deg === 0) return;
    const u32 = this.space.arena.u32;
    const words = this.entryWords;
    const from = this.listAddress(local) >>> 2;
    for (let i = 0; i < deg; i++) visit(u32[from + i * words], words === 2 ? u32[from + i * words + 1] : -1);
  }

  forEachEntry(visit: (target: number, eid: number) => void): void {
    for (let local = 0; local < this.slots; local++) this.forEach(local, visit);
  }

  /** Fold every list into one fresh contiguous chunk in slot order; returns the bytes freed. */
  compact(): number {
    const before = this.chunkBytes;
    const total = Math.max(8, this.entryCount * this.entryBytes);
    const target = this.space.allocate(total, false);
    this.heads = this.space.writable(this.heads!);
    const arena = this.space.arena;
    const u32 = arena.u32;
    const heads = this.heads.addr >>> 2;
    const meta = this.meta;
    let p = target.addr;
    for (let local = 0; local < this.slots; local++) {
      const deg = u32[heads + local * 2 + 1];
      if (deg === 0) {
        u32[heads + local * 2] = 0;
        meta[local * 2] = 0;
        meta[local * 2 + 1] = NO_CHUNK | (meta[local * 2 + 1] & INDEXED);
        continue;
      }
      const from = u32[heads + local * 2];
      const bytes = deg * this.entryBytes;
      if (bytes <= 32) for (let i = 0; i < bytes; i += 4) u32[(p + i) >>> 2] = u32[(from + i) >>> 2];
      else arena.u8.copyWithin(p, from, from + bytes);
      u32[heads + local * 2] = p;
      meta[local * 2] = deg;
      meta[local * 2 + 1] = 0 | (meta[local * 2 + 1] & INDEXED);
      p += bytes;
    }
    for (const chunk of this.chunks) if (chunk) this.space.release(chunk.region);
    this.chunks = [{ region: target, used: total, live: total, serial: ++chunkSerial }];
    this.freeChunkIds = [];
    this.holes = [];
    this.current = -1;
    this.garbage = 0;
    this.chunkBytes = total;
    this.slackAfterTidy = 0;
    this.packed = true;
    this.dirty = true;
    return before - total;
  }

  /** Whether `mergeAppend` of `groups` lists' new entries is cheaper than appending list by list. */
  mergePays(groups: number): boolean {
    return mergePays(this.slots, this.entryCount * this.entryWords, groups, this.packed);
  }

  /**
   * Append many lists' new entries at once by rewriting the adjacency as one fresh CSR (as
   * `compact` does): group g adds targets[starts[g]..starts[g+1]) (and their eids) to the end
   * of slot groupSlots[g]'s list; groups are in ascending slot order, one per slot. Costs one
   * sequential copy of every list instead of a random access (and often a move) per list
   * appended to, which is cheaper when the groups are many against the entries stored
   * (`mergePays`). Lists stored back to back are copied as one range.
   */
  mergeAppend(groupSlots: Int32Array, starts: Int32Array, groups: number, targets: Uint32Array, eids: Int32Array): void {
    if (groups === 0) return;
    this.ensureSlots(groupSlots[groups - 1] + 1);
    const words = this.entryWords;
    const added = starts[groups] - starts[0];
    const total = Math.max(8, (this.entryCount + added) * this.entryBytes);
    const only = this.chunks.length === 1 ? this.chunks[0] : null;
    if (this.packed && only !== null && only.region.bytes >= total && !this.space.frozen(only.region)) {
      this.mergeInPlace(only, groupSlots, starts, groups, targets, eids, total);
      return;
    }
    const region = this.space.allocate(mergeRegionBytes(total), false);
    this.heads = this.space.writable(this.heads!);
    const merge: MergeGroups = { groupSlots, starts, groups, targets, eids };
    const grown = this.filter === null ? null : (local: number, deg: number, count: number, list: number, first: number) => this.noteGrown(local, deg, count, list, first, merge);
    const heads = this.heads.addr >>> 2;
    mergeLists(this.space.arena.u32, { from: heads, to: heads, metaFrom: this.meta, metaTo: this.meta }, this.slots, words, region.addr >>> 2, merge, grown);
    this.adoptMerged(region, total, merge, false);
  }

  /**
   * Space for a merge another thread runs (merge-thread.ts): fresh heads, meta and list range
   * for up to `added` new entries at slots up to `lastSlot` (both may be upper bounds), which
   * that thread fills from this adjacency's current lists, heads and meta (it only reads them). Nothing here changes until
   * `adoptPreparedMerge`; `abandonPreparedMerge` gives the space back.
   */
  prepareMerge(lastSlot: number, added: number): PreparedMerge {
    const rule = { slots: this.slots, words: this.entryCount * this.entryWords, packed: this.packed };
    this.ensureSlots(lastSlot + 1);
    const total = Math.max(8, (this.entryCount + added) * this.entryBytes);
    if (this.spareMeta.length !== this.slots * 2) this.spareMeta = sharedInt32(this.slots * 2);
    return {
      rule,
      slots: this.slots,
      words: this.entryWords,
      heads: this.heads!,
      meta: this.meta,
      total,
      region: this.space.allocate(mergeRegionBytes(total), false),
      newHeads: this.space.allocate(this.slots * 8, false),
      newMeta: this.spareMeta,
    };
  }

  /** Take a merge another thread ran into `prepared` with `merge`'s groups (at most the entries prepared for). */
  adoptPreparedMerge(prepared: PreparedMerge, merge: MergeGroups): void {
    this.space.release(this.heads);
    this.heads = prepared.newHeads;
    this.spareMeta = this.meta;
    this.meta = prepared.newMeta;
    const added = merge.starts[merge.groups] - merge.starts[0];
    this.adoptMerged(prepared.region, Math.max(8, (this.entryCount + added) * this.entryBytes), merge, true);
  }

  /**
   * Give back the space of a merge not run (or run and not taken). When the thread given it
   * may still write there (it did not answer in time), the space is left to it instead: never
   * reused, not even the spare meta.
   */
  abandonPreparedMerge(prepared: PreparedMerge, threadMayWrite = false): void {
    if (threadMayWrite) {
      if (this.spareMeta === prepared.newMeta) this.spareMeta = sharedInt32(0);
      return;
    }
    this.space.release(prepared.region);
    this.space.release(prepared.newHeads);
  }

  /** The filter and key index learn the `count` new entries of `local`'s list (now `deg + count` long at word `list`), from entry `first` of the merge. */
  private noteGrown(local: number, deg: number, count: number, list: number, first: number, merge: MergeGroups): void {
    this.addToFilter(local, deg, count, list);
    if ((this.meta[local * 2 + 1] & INDEXED) !== 0) for (let k = first; k < first + count; k++) this.index!.add(local, merge.targets[k], merge.eids[k]);
  }

  /**
   * After `mergeLists` wrote every list to `region` (`elsewhere`: in another thread, which
   * could not update the filter and key index): the old chunks give way to the region as the
   * one chunk.
   */
  private adoptMerged(region: Region, total: number, merge: MergeGroups, elsewhere: boolean): void {
    const { groupSlots, starts, groups } = merge;
    // A merge in another thread could not tell the filter and index: they learn the new entries here.
    if (elsewhere && this.filter !== null) {
      const u32 = this.space.arena.u32;
      const heads = this.heads!.addr >>> 2;
      for (let g = 0; g < groups; g++) {
        const local = groupSlots[g];
        const count = starts[g + 1] - starts[g];
        this.noteGrown(local, u32[heads + local * 2 + 1] - count, count, u32[heads + local * 2] >>> 2, starts[g], merge);
      }
    }
    for (const chunk of this.chunks) if (chunk) this.space.release(chunk.region);
    this.chunks = [{ region, used: total, live: total, serial: ++chunkSerial }];
    this.freeChunkIds = [];
    this.holes = [];
    this.current = -1;
    this.garbage = 0;
    this.chunkBytes = region.bytes;
    this.slackAfterTidy = region.bytes - total;
    this.entryCount += starts[groups] - starts[0];
    this.packed = true;
    this.dirty = true;
  }

  /**
   * `mergeAppend` within the packed lists' own chunk, which no pinned version reads and which
   * has room for the new entries: from the last slot down, each list moves up by the new
   * entries of the slots below it (lists in between move as one range), and a growing list's
   * new entries go after its old ones. Moving up from the top never overwrites a list not
   * moved yet.
   */
  private mergeInPlace(chunk: Chunk, groupSlots: Int32Array, starts: Int32Array, groups: number, targets: Uint32Array, eids: Int32Array, total: number): void {
    this.heads = this.space.writable(this.heads!);
    const u32 = this.space.arena.u32;
    const heads = this.heads.addr >>> 2;
    const meta = this.meta;
    const words = this.entryWords;
    const base = chunk.region.addr >>> 2;
    // Word positions: `end` is where the list placed next ends; [runFrom, runEnd) lists still
    // to move up by `shift` (set in the heads already).
    let end = base + (this.entryCount + starts[groups] - starts[0]) * words;
    let runFrom = 0;
    let runEnd = 0;
    let shift = 0;
    let g = groups - 1;
    for (let local = this.slots - 1; local >= 0; local--) {
      const h = heads + local * 2;
      const deg = u32[h + 1];
      if (g < 0 || groupSlots[g] !== local) {
        if (deg === 0) continue;
        const from = u32[h] >>> 2;
        const to = end - deg * words;
        if (runEnd > runFrom && from + deg * words === runFrom && to - from === shift) runFrom = from;
        else {
          if (shift !== 0) moveWordsUp(u32, runFrom + shift, runFrom, runEnd);
          runFrom = from;
          runEnd = from + deg * words;
          shift = to - from;
        }
        u32[h] = to << 2;
        end = to;
        continue;
      }
      if (shift !== 0) moveWordsUp(u32, runFrom + shift, runFrom, runEnd);
      runFrom = runEnd = 0;
      const first = starts[g];
      const count = starts[g + 1] - first;
      end -= count * words;
      writeEntries(u32, end, targets, eids, first, count, words);
      const to = end - deg * words;
      if (deg > 0) {
        const from = u32[h] >>> 2;
        if (from !== to) moveWordsUp(u32, to, from, from + deg * words);
      }
      end = to;
      u32[h] = to << 2;
      u32[h + 1] = deg + count;
      meta[local * 2] = deg + count;
      meta[local * 2 + 1] &= INDEXED;
      this.addToFilter(local, deg, count, to);
      if ((meta[local * 2 + 1] & INDEXED) !== 0) for (let k = first; k < first + count; k++) this.index!.add(local, targets[k], eids[k]);
      g--;
    }
    if (shift !== 0) moveWordsUp(u32, runFrom + shift, runFrom, runEnd);
    chunk.used = chunk.live = total;
    this.slackAfterTidy = chunk.region.bytes - total;
    this.entryCount += starts[groups] - starts[0];
    this.dirty = true;
  }

  /** Bytes of chunk space no list owns: holes left by moved lists and the unused ends of chunks. */
  get slack(): number {
    let live = 0;
    for (const chunk of this.chunks) if (chunk) live += chunk.live;
    return this.chunkBytes - live;
  }

  /**
   * Repack the lists of each chunk no pinned version can read to the chunk's start, in place,
   * and give the chunk's unowned end back to the memory: holes and unused chunk ends become
   * free memory again (new chunks and other arrays reuse it), while every list keeps its spare
   * capacity (unlike `compact`, the next appends do not move them). Only chunks of which at
   * least an eighth is unowned are repacked (with the autoCompact threshold of a quarter, that
   * keeps tidying rare). Returns the bytes freed.
   */
  tidy(): number {
    this.packed = false;
    const before = this.chunkBytes;
    const groups = this.slotsByChunk(this.chunks.length);
    const words = this.entryWords;
    for (let id = 0; id < this.chunks.length; id++) {
      const chunk = this.chunks[id];
      if (chunk === null || this.space.frozen(chunk.region) || chunk.region.bytes - chunk.live < chunk.region.bytes / 8) continue;
      if (chunk.live === 0) {
        this.chunks[id] = null;
        this.dropChunk(id, chunk);
        if (this.current === id) this.current = -1;
        continue;
      }
      // The lists go through a scratch copy (in slot order), so overlapping moves need no care.
      const scratch = this.scratchWords(chunk.live >>> 2);
      const u32 = this.space.arena.u32;
      const heads = this.heads!.addr >>> 2;
      const meta = this.meta;
      let n = 0;
      for (let g = groups.starts[id]; g < groups.starts[id + 1]; g++) {
        const local = groups.slots[g];
        const from = u32[heads + local * 2] >>> 2;
        const end = from + u32[heads + local * 2 + 1] * words;
        for (let w = from, to = n; w < end; ) scratch[to++] = u32[w++];
        n += meta[local * 2] * words;
      }
      const base = chunk.region.addr;
      u32.set(scratch.subarray(0, n), base >>> 2);
      this.heads = this.space.writable(this.heads!);
      const writableHeads = this.heads.addr >>> 2;
      let p = base;
      for (let g = groups.starts[id]; g < groups.starts[id + 1]; g++) {
        const local = groups.slots[g];
        this.space.arena.u32[writableHeads + local * 2] = p;
        p += meta[local * 2] * this.entryBytes;
      }
      this.garbage -= chunk.used - chunk.live;
      this.chunkBytes -= chunk.region.bytes;
      chunk.region = this.space.shrink(chunk.region, chunk.live);
      this.chunkBytes += chunk.region.bytes;
      chunk.used = chunk.live;
      // Holes recorded in this chunk are gone: a new serial makes them stale.
      chunk.serial = ++chunkSerial;
      if (this.current === id) this.current = -1;
    }
    this.slackAfterTidy = this.slack;
    this.dirty = true;
    return before - this.chunkBytes;
  }

  private scratch = new Uint32Array(0);

  private scratchWords(count: number): Uint32Array {
    if (this.scratch.length < count) this.scratch = new Uint32Array(count);
    return this.scratch;
  }

  /** The slots with a list, grouped by the id of the chunk holding it (a counting sort). */
  private slotsByChunk(chunkIds: number): { starts: Int32Array; slots: Int32Array } {
    const starts = new Int32Array(chunkIds + 1);
    const meta = this.meta;
    let total = 0;
    for (let local = 0; local < this.slots; local++) {
      const id = meta[local * 2 + 1] & CHUNK_MASK;
      if (id === NO_CHUNK) continue;
      starts[id + 1]++;
      total++;
    }
    for (let id = 0; id < chunkIds; id++) starts[id + 1] += starts[id];
    const fill = starts.slice(0, chunkIds);
    const slots = new Int32Array(total);
    for (let local = 0; local < this.slots; local++) {
      const id = meta[local * 2 + 1] & CHUNK_MASK;
      if (id !== NO_CHUNK) slots[fill[id]++] = local;
    }
    return { starts, slots };
  }

  /** Release a chunk no list uses any more (its entry in `chunks` is already cleared or reused). */
  private dropChunk(id: number, chunk: Chunk): void {
    this.garbage -= chunk.used - chunk.live;
    this.chunkBytes -= chunk.region.bytes;
    this.space.release(chunk.region);
    this.freeChunkIds.push(id);
  }

  /** Release everything (the edge type or the vertex type is dropped, or all its vertices deleted). */
  dispose(): void {
    this.packed = false;
    for (const chunk of this.chunks) if (chunk) this.space.release(chunk.region);
    for (const r of [this.heads, this.header]) this.space.release(r);
    this.chunks = [];
    this.holes = [];
    this.slackAfterTidy = 0;
    this.heads = this.header = null;
    this.meta = sharedInt32(0);
    this.spareMeta = sharedInt32(0);
    this.slots = 0;
    this.entryCount = 0;
    this.index?.clear();
    this.filter?.clear();
  }

  /** Rebuild from an image: degrees per slot and the entries of all lists back to back. */
  restore(degrees: Uint32Array, entries: Uint8Array): void {
    this.ensureSlots(degrees.length);
    const arena = this.space.arena;
    const total = Math.max(8, entries.length);
    const region = this.space.allocate(total, false);
    arena.u8.set(entries, region.addr);
    const heads = this.heads!.addr >>> 2;
    let p = region.addr;
    let count = 0;
    for (let local = 0; local < degrees.length; local++) {
      const deg = degrees[local];
      if (deg === 0) continue;
      arena.u32[heads + local * 2] = p;
      arena.u32[heads + local * 2 + 1] = deg;
      this.meta[local * 2] = deg;
      this.meta[local * 2 + 1] = 0;
      p += deg * this.entryBytes;
      count += deg;
    }
    this.chunks = [{ region, used: total, live: total, serial: ++chunkSerial }];
    this.chunkBytes = total;
    this.slackAfterTidy = 0;
    this.entryCount = count;
    this.packed = true;
    this.dirty = true;
  }

  /**
   * Refill the filter from every list (it was full, too stale, or never built). Sized for
   * twice the entries stored (with the filter's own room to double): an adjacency a bulk load
   * grows is passed over again at every fourfold growth rather than every doubling (measured:
   * a 4M-edge load rebuilt at 0.5M and 3.5M entries, the second pass ~110 ms of the writer's
   * time; now once).
   */
  private rebuildFilter(): void {
    const filter = this.filter!;
    filter.reset(this.entryCount * 2);
    const u32 = this.space.arena.u32;
    const heads = this.heads!.addr >>> 2;
    const words = this.entryWords;
    for (let local = 0; local < this.slots; local++) {
      const deg = u32[heads + local * 2 + 1];
      if (deg <= SCAN_LIMIT) continue;
      const from = u32[heads + local * 2] >>> 2;
      for (let i = 0; i < deg; i++) filter.add(local, u32[from + i * words]);
    }
  }

  /**
   * The filter after `count` entries were appended to `local`'s list of `deg` (the list at word
   * `list`): it holds the entries of long lists only (`find` scans short ones without asking),
   * so a list's entries go in when it grows past SCAN_LIMIT, all of them at that moment. That
   * spares the filter's random access for most entries of most lists.
   */
  private addToFilter(local: number, deg: number, count: number, list: number): void {
    const filter = this.filter;
    if (filter === null || !filter.built || deg + count <= SCAN_LIMIT) return;
    const u32 = this.space.arena.u32;
    const words = this.entryWords;
    for (let i = deg <= SCAN_LIMIT ? 0 : deg; i < deg + count; i++) filter.add(local, u32[list + i * words]);
  }

  private indexList(local: number): void {
    const index = this.index!;
    this.meta[local * 2 + 1] |= INDEXED;
    this.forEach(local, (target, eid) => index.add(local, target, eid));
  }

  private setDegree(local: number, deg: number): void {
    this.packed = false;
    this.heads = this.space.writable(this.heads!);
    this.space.arena.u32[(this.heads.addr >>> 2) + local * 2 + 1] = deg;
  }

  private copyEntry(fromWord: number, toWord: number): void {
    const u32 = this.space.arena.u32;
    u32[toWord] = u32[fromWord];
    if (this.entryWords === 2) u32[toWord + 1] = u32[fromWord + 1];
  }

  private markBuffer = new Uint8Array(64);

  private marks(count: number): Uint8Array {
    if (this.markBuffer.length < count) this.markBuffer = new Uint8Array(count * 2);
    return this.markBuffer;
  }

  /** Move `local`'s list to new space of at least `capacity` entries, keeping its `deg` entries. */
  private relocate(local: number, deg: number, capacity: number): void {
    const old = this.listAddress(local);
    const oldChunk = this.meta[local * 2 + 1] & CHUNK_MASK;
    const oldBytes = this.meta[local * 2] * this.entryBytes;
    const addr = this.allocList(capacity);
    const chunk = this.grantedChunk;
    const granted = this.grantedCapacity;
    if (deg > 0) this.space.arena.u8.copyWithin(addr, old, old + deg * this.entryBytes);
    this.setList(local, addr, granted, chunk);
    if (old !== 0) this.freeSpace(oldChunk, old, oldBytes);
  }

  private setList(local: number, addr: number, capacity: number, chunk: number): void {
    this.packed = false;
    this.heads = this.space.writable(this.heads!);
    this.space.arena.u32[(this.heads.addr >>> 2) + local * 2] = addr;
    this.meta[local * 2] = capacity;
    this.meta[local * 2 + 1] = chunk | (this.meta[local * 2 + 1] & INDEXED);
  }

  private dropList(local: number): void {
    const addr = this.listAddress(local);
    if (addr === 0) return;
    const chunk = this.meta[local * 2 + 1] & CHUNK_MASK;
    const bytes = this.meta[local * 2] * this.entryBytes;
    this.setList(local, 0, 0, NO_CHUNK);
    this.freeSpace(chunk, addr, bytes);
  }

  /** Chunk id and capacity of the space the last allocList returned (no result object: it runs per relocation). */
  private grantedChunk = 0;
  private grantedCapacity = 0;

  /** Space for a list of at least `capacity` entries, of its size class: from a hole if one is free; long lists get a chunk of their own. */
  private allocList(capacity: number): number {
    const sizeClass = classFor(capacity);
    if (classSize(sizeClass) * this.entryBytes > OWN_CHUNK) {
      const granted = classSize(sizeClass);
      const bytes = granted * this.entryBytes;
      const id = this.addChunk(bytes);
      const chunk = this.chunks[id]!;
      chunk.used = chunk.live = bytes;
      return this.grant(chunk.region.addr, id, granted);
    }
    const granted = classSize(sizeClass);
    const bytes = granted * this.entryBytes;
    const holes = this.holes[sizeClass];
    while (holes && holes.length > 0) {
      const serial = holes.pop()!;
      const id = holes.pop()!;
      const addr = holes.pop()!;
      const chunk = this.chunks[id];
      if (!chunk || chunk.serial !== serial) continue;
      chunk.live += bytes;
      this.garbage -= bytes;
      return this.grant(addr, id, granted);
    }
    let current = this.current >= 0 ? this.chunks[this.current] : null;
    if (!current || current.used + bytes > current.region.bytes) {
      const previous = this.current;
      this.current = this.addChunk(Math.max(bytes, Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, this.chunkBytes / 4))), bytes);
      if (previous >= 0) this.releaseIfDead(previous);
      current = this.chunks[this.current]!;
    }
    const addr = current.region.addr + current.used;
    current.used += bytes;
    current.live += bytes;
    return this.grant(addr, this.current, granted);
  }

  private grant(addr: number, chunk: number, capacity: number): number {
    this.grantedChunk = chunk;
    this.grantedCapacity = capacity;
    return addr;
  }

  /**
   * A new chunk of `bytes`; or, given the `least` bytes its first list needs, the largest free
   * range of the memory that holds it (up to MAX_CHUNK), so that freed space gets reused.
   */
  private addChunk(bytes: number, least?: number): number {
    const size = Math.ceil(bytes / 8) * 8;
    const region = least !== undefined ? this.space.allocateFlexible(Math.max(least, MIN_CHUNK), size, MAX_CHUNK) : this.space.allocate(size, false);
    const chunk: Chunk = { region, used: 0, live: 0, serial: ++chunkSerial };
    this.chunkBytes += region.bytes;
    const id = this.freeChunkIds.pop();
    if (id !== undefined) {
      this.chunks[id] = chunk;
      return id;
    }
    this.chunks.push(chunk);
    return this.chunks.length - 1;
  }

  /** Give up list space at `addr`; in a chunk no pinned version can read, it becomes a reusable hole. */
  private freeSpace(id: number, addr: number, bytes: number): void {
    const chunk = this.chunks[id]!;
    chunk.live -= bytes;
    this.garbage += bytes;
    if (chunk.live > 0 && bytes <= OWN_CHUNK && !this.space.frozen(chunk.region)) {
      (this.holes[classWithin(bytes / this.entryBytes)] ??= []).push(addr, id, chunk.serial);
    }
    this.releaseIfDead(id);
  }

  private releaseIfDead(id: number): void {
    const chunk = this.chunks[id];
    if (!chunk || chunk.live > 0 || id === this.current) return;
    this.garbage -= chunk.used;
    this.chunkBytes -= chunk.region.bytes;
    this.space.release(chunk.region);
    this.chunks[id] = null;
    this.freeChunkIds.push(id);
  }
}

/** What a merge another thread runs gets (Adjacency.prepareMerge). */
export interface PreparedMerge {
  /** The cost rule's inputs before the merge (mergePays(rule.slots, rule.words, groups, rule.packed)). */
  rule: { slots: number; words: number; packed: boolean };
  slots: number;
  words: 1 | 2;
  /** The current heads and meta (read only), and the fresh ones the merge writes for every slot. */
  heads: Region;
  meta: Int32Array;
  newHeads: Region;
  newMeta: Int32Array;
  /** The range the lists go to, and the bytes they fill at most. */
  region: Region;
  total: number;
}

/** Bytes reserved for a merge's lists of `total` bytes: room for the next merges to be done in place (below the share of slack that starts a tidy). */
function mergeRegionBytes(total: number): number {
  return Math.ceil((total * 9) / 64) * 8;
}

function sharedInt32(length: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(length * 4));
}

/**
 * The cost rule of `Adjacency.mergePays` (also used to reserve memory for the merge's copy:
 * there, `packed` left true, the rule that merges the more often).
 */
export function mergePays(slots: number, words: number, groups: number, packed = true): boolean {
  return slots + words / 8 <= (packed ? PACKED_LIST_APPEND_COST : LIST_APPEND_COST) * groups;
}

/** Move words [from, end) up to `to` (≥ from; the ranges may overlap): short ranges by a loop from the top. */
function moveWordsUp(u32: Uint32Array, to: number, from: number, end: number): void {
  if (end - from > 32) u32.copyWithin(to, from, end);
  else for (let w = end - 1, t = to + (end - from) - 1; w >= from; ) u32[t--] = u32[w--];
}

// List sizes come in classes: 1, 2, 3, 4 entries, then two per doubling (6, 8, 12, 16, 24,
// 32, ...). A growing list moves O(log degree) times and keeps on average about a sixth of
// its space spare (powers of two would keep a quarter), and the space it leaves is a hole of
// a class the lists growing behind it reuse.
const SMALL = 4;
const STEPS = 2;

/** Entries of size class `c`. */
export function classSize(c: number): number {
  if (c < SMALL) return c + 1;
  c -= SMALL;
  const k = Math.floor(c / STEPS);
  return (SMALL / STEPS) * 2 ** k * (STEPS + (c % STEPS) + 1);
}

/** The smallest class holding `capacity` entries. */
export function classFor(capacity: number): number {
  if (capacity <= SMALL) return Math.max(1, capacity) - 1;
  // SMALL * 2^k < capacity <= SMALL * 2^(k+1), in steps of `unit`.
  const k = 31 - Math.clz32(Math.floor((capacity - 1) / SMALL));
  const unit = (SMALL / STEPS) * 2 ** k;
  return SMALL + k * STEPS + Math.ceil(capacity / unit) - STEPS - 1;
}

/** The largest class that fits in `entries` (for holes). */
export function classWithin(entries: number): number {
  const c = classFor(entries);
  return classSize(c) > entries ? c - 1 : c;
}
