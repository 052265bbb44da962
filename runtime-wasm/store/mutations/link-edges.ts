// Linking a long run of an upsert's edges in bulk (one edge type without a discriminator, ends
// already resolved to local slots). The run is sorted by source slot, so each source's list is
// searched once for all of the source's items and grows once for all its new edges; then the
// new edges are sorted by target and appended to the lists at their other end the same way.
// The result equals applying the items one by one in order: an item finds the edge an earlier
// item created (and updates it), items of one edge keep their order, lists keep item order.
// For long runs, the target side (sort and merge) runs in the merge thread (merge-helper.ts)
// while this thread merges the source side.
import { INDEX_LIMIT, SCAN_LIMIT, type Adjacency } from "../tables/adjacency.js";
import type { EdgeRun } from "./edge-plans.js";
import type { PlannedWrite } from "./plan-writes.js";
import { updateEdge } from "./apply-writes.js";
import { RadixOrder } from "../tables/radix-order.js";
import { groupAtTargets } from "../tables/target-groups.js";
import { cancelMerge, JobStatus, joinMerge, mergeHelperFor, postMerge, releaseMerge, warmMergeHelper, type NewEdges, type PendingJob } from "../tables/merge-helper.js";

/**
 * A source's list is read whole into the set of its targets when it holds at most this many
 * entries per item asking it; longer, each item asks the list (Adjacency.find: its edge filter,
 * then a scan). Reading an entry costs a sequential read and a write into a small set; asking
 * costs a cache miss in the filter and often a scan besides. On a 4M-edge R-MAT load, reading
 * at up to 256 entries an item instead of 4 replaced 1.2M asks by 8.9M more entries read and
 * cut the store's apply by a fifth.
 */
const READ_LIST_PER_ITEM = 256;
/** The same for lists with a key index (longer than INDEX_LIMIT), whose asks are cheaper and whose reads are long. */
const READ_INDEXED_LIST_PER_ITEM = 32;
/** Items of one part: item indices must stay below 2^24 (the scratch buffers' reach). */
const PART = 1 << 24;
const NONE = -2;

export function linkRun(run: EdgeRun, fromLocals: Int32Array, toLocals: Int32Array, writes: PlannedWrite[][]): void {
  warmMergeHelper(run.end - run.start);
  for (let start = run.start; start < run.end; start += PART) linkPart(run, start, Math.min(run.end, start + PART), fromLocals, toLocals, writes);
}

function linkPart(run: EdgeRun, start: number, end: number, fromLocals: Int32Array, toLocals: Int32Array, writes: PlannedWrite[][]): void {
  const { table, fromTable, toTable } = run;
  const n = end - start;
  // An undirected type between two vertices of one type has one adjacency for both ends: its
  // new entries at both ends go in together (appendBothEnds), which needs room for 2n.
  const lowerFirst = !table.directed && fromTable === toTable;
  const s = scratch.fit(lowerFirst ? 2 * n : n);
  const { src, dst } = s;
  // An undirected edge between two vertices of one type is searched for from its lower slot
  // (it sits in the lists of both ends, so either end finds it; one end must be chosen so
  // that two items naming it both ways meet in one group).
  for (let k = 0; k < n; k++) {
    let a = fromLocals[start + k];
    let b = toLocals[start + k];
    if (lowerFirst && b < a) {
      const t = a;
      a = b;
      b = t;
    }
    src[k] = a;
    dst[k] = b;
  }
  const out = table.adjacency("out", fromTable.ordinal);
  const inn = lowerFirst ? null : table.adjacency("in", toTable.ordinal);
  // The target side goes to the merge thread when that pays: it sorts the items by target
  // while this thread sorts them by source and finds the new edges, then merges them at their
  // targets while this thread merges the source side. Both are done before the run is (and
  // long before the version is published).
  const job = inn === null || inn === out ? null : postAtTargets(run, inn, n);
  let created = 0;
  try {
    created = linkAtSources(run, out, n, start, writes);
  } catch (err) {
    if (job !== null) dropAtTargets(inn!, job);
    throw err;
  }
  if (created === 0) {
    if (job !== null) dropAtTargets(inn!, job);
    return;
  }
  if (inn === null) appendBothEnds(out, n, created);
  else {
    if (job !== null) releaseMerge(job, created);
    appendGroups(out, s.newTargets, s.newEids, created);
    if (job === null || !joinAtTargets(inn, job)) appendAtTargets(run, n, created);
  }
  table.edgeCount += created;
  table.dirty = true;
}

/** The items by source slot, each found in its source's list or created (linkSource); returns the count of new edges. */
function linkAtSources(run: EdgeRun, out: Adjacency, n: number, start: number, writes: PlannedWrite[][]): number {
  const s = scratch;
  const src = s.src;
  // Items by source slot, in item order within a slot.
  const order = s.sortItems(src, n);
  const hasWrites = run.writes;
  let created = 0;
  s.groups = 0;
  for (let g = 0; g < n; ) {
    const a = src[order[g]];
    let h = g + 1;
    while (h < n && src[order[h]] === a) h++;
    created = linkSource(run, out, a, order, g, h, start, created, hasWrites ? writes : null);
    g = h;
  }
  return created;
}

/**
 * The items g..h of `order` (all from source slot `a`): each finds its edge in `a`'s list or
 * among the edges created before it, else creates one. Returns the count of new edges so far.
 */
function linkSource(run: EdgeRun, out: Adjacency, a: number, order: Int32Array, g: number, h: number, start: number, created: number, writes: PlannedWrite[][] | null): number {
  const { table, fromTable, toTable } = run;
  const s = scratch;
  s.reserve(created + h - g);
  const { dst, newTargets, newEids, newSources, newItems, set } = s;
  const deg = out.degree(a);
  const count = h - g;
  const fromVid = fromTable.vidOf(a);
  const first = created;
  // One item on a short list: a scan of the list. Else a set of the targets seen: the list
  // read into it unless it is long against the items (READ_LIST_PER_ITEM), the list asked
  // otherwise (its filter, its key index).
  const scan = count === 1 && deg <= SCAN_LIMIT;
  const readList = deg <= SCAN_LIMIT || (deg <= INDEX_LIMIT ? READ_LIST_PER_ITEM : READ_INDEXED_LIST_PER_ITEM) * count >= deg;
  if (!scan) {
    set.reset(count + (readList ? deg : 0));
    if (readList && deg > 0) out.forEach(a, (target, eid) => set.add(target, eid));
  }
  for (let j = g; j < h; j++) {
    const k = order[j];
    const to = toTable.vidOf(dst[k]);
    let eid = scan ? out.find(a, to, null) : set.get(to);
    if (eid === NONE && !scan && !readList) eid = out.find(a, to, null);
    if (eid !== NONE) {
      if (writes !== null && writes[start + k].length > 0) updateEdge(table, eid, writes[start + k]);
      continue;
    }
    eid = table.newEid();
    if (writes !== null) {
      const w = writes[start + k];
      for (let x = 0; x < w.length; x++) table.writeAttribute(w[x].column, eid, w[x].value);
    }
    if (!scan) set.add(to, eid);
    newTargets[created] = to;
    newEids[created] = eid;
    newSources[created] = fromVid;
    newItems[created] = k;
    created++;
  }
  if (created > first) s.addGroup(a, first);
  return created;
}

/** Append the run's new edges to the lists at their other end, grouped by target slot, in item order (as the merge thread does). */
function appendAtTargets(run: EdgeRun, n: number, created: number): void {
  const s = scratch;
  const inn = run.table.adjacency("in", run.toTable.ordinal);
  // Items by target slot (dst of the item: after the swap of linkPart, still in toTable).
  const sorted = s.sortItems(s.dst, n);
  s.fitGroups(created);
  s.groups = groupAtTargets(newEdgesOf(run, n), created, sorted, s.qOfItem, { targets: s.sortedTargets, eids: s.sortedEids, groupSlots: s.groupSlots, starts: s.groupStarts });
  appendGroups(inn, s.sortedTargets, s.sortedEids, s.groupStarts[s.groups]);
}

/** The run's items and new edges as the scratch holds them. */
function newEdgesOf(run: EdgeRun, n: number): NewEdges {
  const s = scratch;
  return { items: n, undirected: !run.table.directed, dst: s.dst, newTargets: s.newTargets, newSources: s.newSources, newEids: s.newEids, newItems: s.newItems };
}

/**
 * appendAtTargets handed to the merge thread (merge-helper.ts) before the new edges are known,
 * with the target adjacency's merge prepared as if every item created one (duplicates and
 * self-loops of an undirected type, stored once, leave the space a little larger than
 * needed). The new edges' arrays get room for all n items first: the thread holds them, so
 * they must not be replaced while this thread fills them. Null when the thread is not worth
 * it (or not up): appendAtTargets then runs here.
 */
function postAtTargets(run: EdgeRun, inn: Adjacency, n: number): PendingJob | null {
  // Even one list per item would not make a merge pay: appended list by list, here.
  if (!inn.mergePays(n)) return null;
  const helper = mergeHelperFor(n);
  if (helper === null) return null;
  const s = scratch;
  s.reserve(n);
  const prepared = inn.prepareMerge(run.toTable.slotCount - 1, n);
  return postMerge(helper, run.table.ctx.space.arena.memory.buffer, prepared, newEdgesOf(run, n));
}

/** Give a posted job up (no new edges, or linking failed): the thread stops, and its space is given back. */
function dropAtTargets(inn: Adjacency, job: PendingJob): void {
  inn.abandonPreparedMerge(job.prepared, !cancelMerge(job));
}

/** Take the merge thread's work on the target side; false when it failed (nothing changed: the caller does the work). */
function joinAtTargets(inn: Adjacency, job: PendingJob): boolean {
  const result = joinMerge(job);
  if (result.status === JobStatus.FAILED) {
    inn.abandonPreparedMerge(job.prepared, !result.spaceReusable);
    return false;
  }
  if (result.status === JobStatus.MERGED) {
    inn.adoptPreparedMerge(job.prepared, result.groups);
    return true;
  }
  inn.abandonPreparedMerge(job.prepared);
  const { groupSlots, starts, groups, targets, eids } = result.groups;
  for (let g = 0; g < groups; g++) inn.appendMany(groupSlots[g], targets, eids, starts[g], starts[g + 1] - starts[g]);
  return true;
}

/**
 * The new edges of an undirected type between vertices of one type, appended at both ends by
 * one merge (or list by list) of its one adjacency instead of one per end: each slot's list
 * takes the new edges it is the (lower) source of, in the order found, then those it is the
 * target of, in item order — what appending at the sources and then at the targets gives.
 * A self-loop is stored once.
 */
function appendBothEnds(adj: Adjacency, n: number, created: number): void {
  const s = scratch;
  s.reserve(2 * created);
  const { dst, newTargets, newSources, newEids, newItems, sortedTargets, sortedEids, qOfItem, targetKeys, targetItems, groupSlots, groupStarts } = s;
  // Entry e < created: new edge e at its source (the group it was found in); e ≥ created:
  // new edge e - created at its target.
  let m = 0;
  for (let g = 0; g < s.groups; g++) {
    const end = g + 1 < s.groups ? groupStarts[g + 1] : created;
    for (let q = groupStarts[g]; q < end; q++) {
      targetKeys[m] = groupSlots[g];
      targetItems[m++] = q;
    }
  }
  qOfItem.fill(-1, 0, n);
  for (let q = 0; q < created; q++) qOfItem[newItems[q]] = q;
  for (let k = 0; k < n; k++) {
    const q = qOfItem[k];
    if (q < 0 || newSources[q] === newTargets[q]) continue;
    targetKeys[m] = dst[k];
    targetItems[m++] = created + q;
  }
  // Stable: at each slot its entries as a source come first, each kind in its order.
  const order = s.sortItems(targetKeys, m);
  for (let j = 0; j < m; j++) {
    const e = targetItems[order[j]];
    const atSource = e < created;
    const q = atSource ? e : e - created;
    sortedTargets[j] = atSource ? newTargets[q] : newSources[q];
    sortedEids[j] = newEids[q];
  }
  s.groupSorted(targetKeys, order, m);
  appendGroups(adj, sortedTargets, sortedEids, m);
}

/**
 * Append the groups gathered in the scratch (group g: entries groupStarts[g] up to the next
 * group's start, or `end`) to their lists: by one merge of the whole adjacency when the groups
 * are many against its entries, else list by list.
 */
function appendGroups(adj: Adjacency, targets: Uint32Array, eids: Int32Array, end: number): void {
  const { groupSlots, groupStarts, groups } = scratch;
  groupStarts[groups] = end;
  if (adj.mergePays(groups)) {
    adj.mergeAppend(groupSlots, groupStarts, groups, targets, eids);
    return;
  }
  for (let g = 0; g < groups; g++) adj.appendMany(groupSlots[g], targets, eids, groupStarts[g], groupStarts[g + 1] - groupStarts[g]);
}

/** Target vid → eid for one source's items: generation-stamped, so emptying it is O(1). */
class TargetSet {
  private keys = new Uint32Array(64);
  private values = new Int32Array(64);
  private stamps = new Int32Array(64);
  private stamp = 1;
  private mask = 63;

  reset(expected: number): void {
    if (expected * 2 > this.keys.length) {
      let capacity = this.keys.length;
      while (capacity < expected * 2) capacity *= 2;
      this.keys = new Uint32Array(capacity);
      this.values = new Int32Array(capacity);
      this.stamps = new Int32Array(capacity);
      this.mask = capacity - 1;
      this.stamp = 1;
      return;
    }
    if (++this.stamp === 0x7fffffff) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
  }

  get(key: number): number {
    for (let h = hash(key) & this.mask; ; h = (h + 1) & this.mask) {
      if (this.stamps[h] !== this.stamp) return NONE;
      if (this.keys[h] === key) return this.values[h];
    }
  }

  /** Add a key not in the set yet (the first entry wins for a key listed twice: multi-edges are not told apart here). */
  add(key: number, value: number): void {
    for (let h = hash(key) & this.mask; ; h = (h + 1) & this.mask) {
      if (this.stamps[h] !== this.stamp) {
        this.stamps[h] = this.stamp;
        this.keys[h] = key;
        this.values[h] = value;
        return;
      }
      if (this.keys[h] === key) return;
    }
  }
}

function hash(key: number): number {
  return Math.imul(key ^ (key >>> 16), 0x45d9f3b) ^ (key >>> 13);
}

/** Buffers reused by every run (one writer per store, and a run never starts inside another). */
class Scratch {
  src = new Int32Array(0);
  /** Shared memory, as the new edges' arrays below: the merge thread reads them (postAtTargets). */
  dst = sharedInt32(0);
  /** Target slots of new entries, and the entries (appendBothEnds). */
  targetKeys = new Int32Array(0);
  targetItems = new Int32Array(0);
  private readonly order = new RadixOrder();
  /** Item → index of the new edge it created (for the items that created one). */
  qOfItem = new Int32Array(0);
  newTargets = sharedUint32(0);
  newEids = sharedInt32(0);
  newSources = sharedUint32(0);
  newItems = sharedInt32(0);
  sortedTargets = new Uint32Array(0);
  sortedEids = new Int32Array(0);
  readonly set = new TargetSet();
  /** Lists to append to (ascending slots) and where each one's new entries start. */
  groupSlots = new Int32Array(0);
  groupStarts = new Int32Array(1);
  groups = 0;

  /** Replaces the groups with one per run of equal slots among the first m sorted entries. */
  groupSorted(keys: Int32Array, order: Int32Array, m: number): void {
    this.groups = 0;
    for (let g = 0; g < m; ) {
      const local = keys[order[g]];
      let h = g + 1;
      while (h < m && keys[order[h]] === local) h++;
      this.addGroup(local, g);
      g = h;
    }
  }

  /** Room for `count` groups (and the end of the last); the groups held are dropped. */
  fitGroups(count: number): void {
    if (count + 1 <= this.groupStarts.length) return;
    const size = Math.max(1024, count + 1, this.groupStarts.length * 2);
    this.groupSlots = new Int32Array(size);
    this.groupStarts = new Int32Array(size);
  }

  addGroup(local: number, start: number): void {
    const g = this.groups++;
    if (g + 1 >= this.groupStarts.length) {
      const size = Math.max(1024, this.groupStarts.length * 2);
      this.groupSlots = grown(this.groupSlots, new Int32Array(size));
      this.groupStarts = grown(this.groupStarts, new Int32Array(size));
    }
    this.groupSlots[g] = local;
    this.groupStarts[g] = start;
  }

  fit(n: number): this {
    if (this.src.length < n) {
      const size = Math.max(n, this.src.length * 2, 1024);
      this.src = new Int32Array(size);
      this.dst = sharedInt32(size);
      this.qOfItem = new Int32Array(size);
      this.targetKeys = new Int32Array(size);
      this.targetItems = new Int32Array(size);
    }
    return this;
  }

  /** Items 0..n-1 by key, stable (RadixOrder.sort): a view valid until the next call. */
  sortItems(key: Int32Array, n: number): Int32Array {
    return this.order.sort(key, n);
  }

  /** Room for `count` new edges. */
  reserve(count: number): void {
    if (this.newTargets.length >= count) return;
    const size = Math.max(count, this.newTargets.length * 2, 1024);
    this.newTargets = grown(this.newTargets, sharedUint32(size));
    this.newEids = grown(this.newEids, sharedInt32(size));
    this.newSources = grown(this.newSources, sharedUint32(size));
    this.newItems = grown(this.newItems, sharedInt32(size));
    this.sortedTargets = new Uint32Array(size);
    this.sortedEids = new Int32Array(size);
  }
}

const sharedInt32 = (length: number) => new Int32Array(new SharedArrayBuffer(length * 4));
const sharedUint32 = (length: number) => new Uint32Array(new SharedArrayBuffer(length * 4));

function grown<T extends Uint32Array | Int32Array>(old: T, next: T): T {
  next.set(old);
  return next;
}

const scratch = new Scratch();
