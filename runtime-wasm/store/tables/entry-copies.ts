// Entry-ordered copies of an edge type's 8-byte attributes (INT, UINT, DOUBLE, DATETIME): for
// each adjacency whose lists sit back to back in one chunk, and each such attribute, an array
// holding at every entry's position the value of that entry's edge. A compiled walk over a
// list then reads the values in the order it reads the entries, instead of at random by eid
// across the whole column; on large graphs those random reads are much of a weighted
// traversal's time (a Bellman-Ford over 3.6M undirected edges spent about 40% of it on them).
// Renumbering eids in list order cannot give the same: an undirected edge sits in two lists
// and has one eid, so at most one of its two entries can follow its list's order.
//
// Built when the store is compacted and when it is loaded from an image. Any later change to
// the type (an edge, a list, an attribute value, the schema) drops them at the next publish
// (dropIfChanged), and compiled walks read the eid-indexed column again. They are never
// written after they are built, so a pinned version keeps reading its own until it is
// released (they are retired like every other region). Memory: 8 bytes per entry per
// attribute (an undirected edge has two entries).
import { COLUMN_BYTES, ColumnKind } from "../layout.js";
import type { Region, Space } from "../memory/space.js";
import type { Adjacency } from "./adjacency.js";
import type { Column } from "./columns.js";

/** The copies of one adjacency, as its header shows them (layout.ts, ADJ.ENTRY_*). */
export interface EntryCopies {
  /** [base, end): the entries' bytes. */
  base: number;
  end: number;
  /** u32 per attribute ordinal: 0, or the copy's address minus `base` (mod 2^32). */
  table: Region;
  copies: Region[];
}

/** What the copies need of an edge table (EdgeTable implements it). */
export interface CopiesOwner {
  entryBytes: 4 | 8;
  columns: Column[];
  adjacencies(): Adjacency[];
  entryCopies: Map<Adjacency, EntryCopies>;
  /** Set when the copies were built since the last publish: the changes that publish sees are theirs. */
  entryCopiesFresh: boolean;
  dirty: boolean;
}

/** Whether a column's cells are 8 bytes of plain data (copied as they are). */
function copied(column: Column): boolean {
  return column.region !== null && column.kind !== ColumnKind.BLOB && column.kind !== ColumnKind.STRING && COLUMN_BYTES[column.kind] === 8;
}

/** Whether compacting the table would give it copies it lacks now (a non-empty list area without one). */
export function entryCopiesMissing(owner: CopiesOwner): boolean {
  if (owner.entryBytes !== 8 || !owner.columns.some(copied)) return false;
  return owner.adjacencies().some((adj) => adj.entryCount > 0 && !owner.entryCopies.has(adj));
}

/** (Re)build the copies of every packed adjacency of the table. */
export function buildEntryCopies(space: Space, owner: CopiesOwner): void {
  dropEntryCopies(space, owner);
  if (owner.entryBytes !== 8) return;
  const columns = owner.columns.map((c, ordinal) => ({ c, ordinal })).filter(({ c }) => copied(c));
  if (columns.length === 0) return;
  for (const adj of owner.adjacencies()) {
    const base = adj.packedBase;
    if (base < 0 || adj.entryCount === 0 || !listsBackToBack(space, adj, base)) continue;
    const count = adj.entryCount;
    const table = space.allocate(Math.max(8, owner.columns.length * 4));
    const copies: Region[] = [];
    for (const { c, ordinal } of columns) {
      const copy = space.allocate(count * 8, false);
      if (c.kind === ColumnKind.F64) fillDoubles(space, base, count, c.region!.addr, copy.addr);
      else fillCopy(space, base, count, c.region!.addr, copy.addr);
      space.arena.u32[(table.addr >>> 2) + ordinal] = (copy.addr - base) >>> 0;
      copies.push(copy);
    }
    owner.entryCopies.set(adj, { base, end: base + count * 8, table, copies });
    adj.dirty = true;
  }
  owner.entryCopiesFresh = true;
}

/** Release the table's copies (their adjacencies' headers are rewritten without them). */
export function dropEntryCopies(space: Space, owner: CopiesOwner): void {
  for (const [adj, c] of owner.entryCopies) {
    for (const r of [c.table, ...c.copies]) space.release(r);
    adj.dirty = true;
  }
  owner.entryCopies.clear();
}

/** At publish: drop copies that a change since they were built made stale. */
export function dropIfChanged(space: Space, owner: CopiesOwner): void {
  if (owner.entryCopies.size > 0 && !owner.entryCopiesFresh && (owner.dirty || owner.adjacencies().some((a) => a.dirty))) dropEntryCopies(space, owner);
  owner.entryCopiesFresh = false;
}

/** Whether the lists fill [base, base + entries * 8) in slot order with nothing between them. */
function listsBackToBack(space: Space, adj: Adjacency, base: number): boolean {
  let next = base;
  for (let local = 0; local < adj.slots; local++) {
    const deg = adj.degree(local);
    if (deg === 0) continue;
    if (adj.listAddress(local) !== next) return false;
    next += deg * 8;
  }
  return next === base + adj.entryCount * 8;
}

/**
 * copy[k] = column[eid of entry k] for a DOUBLE column, one float load and store per entry
 * (about twice as fast as two words: the gather is random reads over the whole column).
 */
function fillDoubles(space: Space, base: number, count: number, column: number, copy: number): void {
  const u32 = space.arena.u32;
  const f64 = space.arena.f64;
  const entries = base >>> 2;
  const from = column >>> 3;
  const to = copy >>> 3;
  for (let k = 0; k < count; k++) f64[to + k] = f64[from + u32[entries + 2 * k + 1]];
}

/** copy[k] = column[eid of entry k], 8 bytes each as two words (bit for bit, whatever the kind). */
function fillCopy(space: Space, base: number, count: number, column: number, copy: number): void {
  const u32 = space.arena.u32;
  const entries = base >>> 2;
  const from = column >>> 2;
  const to = copy >>> 2;
  for (let k = 0; k < count; k++) {
    const at = from + u32[entries + 2 * k + 1] * 2;
    u32[to + 2 * k] = u32[at];
    u32[to + 2 * k + 1] = u32[at + 1];
  }
}
