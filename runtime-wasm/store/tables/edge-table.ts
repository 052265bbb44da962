// One edge type's data: its adjacencies (out and in lists per vertex type; one shared table
// for an undirected type), the eid space and attribute columns indexed by eid, and the
// discriminator columns that join the edge identity. A reverse edge type has no table of its
// own: it is this table read the other way (see publish.ts).
import type { AttrValue, EdgeType } from "../../schema/types.js";
import type { Region } from "../memory/space.js";
import { Adjacency } from "./adjacency.js";
import { ColumnSet, type RestoredColumn } from "./column-set.js";
import { columnBytes, readCell, writeCell, type Column } from "./columns.js";
import type { StoreContext } from "./context.js";
import { dropEntryCopies, type EntryCopies } from "./entry-copies.js";

/** An edge type's arrays as an image holds them. */
export interface EdgeRestore {
  hasEid: boolean;
  edgeCount: number;
  eidBound: number;
  columns: RestoredColumn[];
  adjacencies: { vertexOrdinal: number; direction: "out" | "in"; degrees: Uint32Array; entries: Uint8Array }[];
}

export class EdgeTable {
  directed: boolean;
  hasEid: boolean;
  entryBytes: 4 | 8;
  /** Reverse type (WITH REVERSE_EDGE), if any. */
  reverse: { key: string; ordinal: number } | null = null;
  out = new Map<number, Adjacency>();
  in = new Map<number, Adjacency>();
  readonly attributes = new ColumnSet();
  discriminator: Column[] = [];
  eidBound = 0;
  private eidCapacity = 0;
  private freeEids: number[] = [];
  edgeCount = 0;
  /** Allowed (source type ordinal, target type ordinal) pairs, as source * 65536 + target. */
  allowed = new Set<number>();
  header: Region | null = null;
  reverseHeader: Region | null = null;
  outTable: Region | null = null;
  inTable: Region | null = null;
  dirty = true;
  /** Entry-ordered copies of the 8-byte attributes per adjacency (entry-copies.ts). */
  readonly entryCopies = new Map<Adjacency, EntryCopies>();
  entryCopiesFresh = false;

  constructor(
    readonly ctx: StoreContext,
    public def: EdgeType,
    readonly key: string,
    readonly ordinal: number,
  ) {
    this.directed = def.directed;
    this.hasEid = def.attributes.length > 0 || def.discriminator.length > 0;
    this.entryBytes = this.hasEid ? 8 : 4;
    if (!this.directed) this.in = this.out;
    this.setAttributes(def);
  }

  get columns(): Column[] {
    return this.attributes.columns;
  }

  get byName(): ReadonlyMap<string, Column> {
    return this.attributes.byName;
  }

  /** Match columns to attributes by name and type; new ones get their default for every existing eid. */
  setAttributes(def: EdgeType): void {
    this.def = def;
    this.attributes.match(this.ctx.space, def.attributes, this.ctx.tuples, (column) => this.fillColumn(column));
    this.discriminator = def.discriminator.map((n) => this.byName.get(n)).filter((c): c is Column => c !== undefined);
    this.dirty = true;
  }

  /** The adjacency of a vertex type in one direction (created on first use). */
  adjacency(direction: "out" | "in", vertexOrdinal: number): Adjacency {
    const map = direction === "out" ? this.out : this.in;
    let adj = map.get(vertexOrdinal);
    if (!adj) {
      adj = new Adjacency(this.ctx.space, this.entryBytes, direction === "out" || !this.directed);
      map.set(vertexOrdinal, adj);
      this.dirty = true;
    }
    return adj;
  }

  /** Every distinct adjacency (an undirected type's out and in are one). */
  adjacencies(): Adjacency[] {
    return this.directed ? [...this.out.values(), ...this.in.values()] : [...this.out.values()];
  }

  /** An eid for a new edge, its attributes at their defaults. */
  newEid(): number {
    if (!this.hasEid) return -1;
    const reused = this.freeEids.pop();
    const eid = reused ?? this.eidBound++;
    if (eid >= this.eidCapacity) this.growEids(Math.max(64, this.eidCapacity * 2));
    const columns = this.columns;
    for (let i = 0; i < columns.length; i++) {
      const column = columns[i];
      if (column.region && (reused !== undefined || !column.zeroDefault)) this.writeAttribute(column, eid, column.defaultValue);
    }
    return eid;
  }

  freeEid(eid: number): void {
    if (eid >= 0) this.freeEids.push(eid);
  }

  readAttribute(column: Column, eid: number): AttrValue {
    return readCell(this.ctx, column.kind, column.region!.addr, eid, column.def.type);
  }

  writeAttribute(column: Column, eid: number, value: AttrValue): void {
    column.region = this.ctx.space.writable(column.region!);
    writeCell(this.ctx, column.kind, column.region.addr, eid, column.def.type, value);
    this.dirty = true;
  }

  /** Store a new edge in the lists of both ends. */
  link(fromOrdinal: number, fromLocal: number, fromVid: number, toOrdinal: number, toLocal: number, toVid: number, eid: number): void {
    this.adjacency("out", fromOrdinal).append(fromLocal, toVid, eid);
    if (this.directed || fromVid !== toVid) this.adjacency("in", toOrdinal).append(toLocal, fromVid, eid);
    this.edgeCount++;
    this.dirty = true;
  }

  /** Remove one stored edge from the lists of both ends and free its eid. */
  unlink(fromOrdinal: number, fromLocal: number, fromVid: number, toOrdinal: number, toLocal: number, toVid: number, eid: number): void {
    removeOne(this.out.get(fromOrdinal), fromLocal, toVid, eid);
    if (this.directed || fromVid !== toVid) removeOne(this.in.get(toOrdinal), toLocal, fromVid, eid);
    this.freeEid(eid);
    this.edgeCount--;
    this.dirty = true;
  }

  /** Give every edge an eid (the type gained its first attribute): lists are rebuilt with 8-byte entries. */
  convertToEids(vidOf: (ordinal: number, local: number) => number, vertexOf: (vid: number) => { ordinal: number; local: number }): void {
    if (this.hasEid) return;
    const old = this.adjacencies();
    const oldOut = this.out;
    this.hasEid = true;
    this.entryBytes = 8;
    this.out = new Map();
    this.in = this.directed ? new Map() : this.out;
    this.edgeCount = 0;
    for (const [ordinal, adj] of oldOut) {
      for (let local = 0; local < adj.slots; local++) {
        if (adj.degree(local) === 0) continue;
        const fromVid = vidOf(ordinal, local);
        adj.forEach(local, (target) => {
          // An undirected edge sits in both lists: link it once, from its lower end.
          if (!this.directed && target < fromVid) return;
          const to = vertexOf(target);
          this.link(ordinal, local, fromVid, to.ordinal, to.local, target, this.newEid());
        });
      }
    }
    for (const adj of old) adj.dispose();
    this.dirty = true;
  }

  dispose(): void {
    dropEntryCopies(this.ctx.space, this);
    for (const adj of this.adjacencies()) adj.dispose();
    this.attributes.release(this.ctx.space);
    // An undirected type's in-table is its out-table: release it once (twice corrupts the free lists).
    const inTable = this.inTable === this.outTable ? null : this.inTable;
    for (const r of [this.header, this.reverseHeader, this.outTable, inTable]) this.ctx.space.release(r);
    this.out.clear();
    this.in.clear();
  }

  /** Forget all edges (the store is cleared); columns keep their capacity but restart at eid 0. */
  clearEdges(): void {
    for (const adj of this.adjacencies()) adj.dispose();
    this.out = new Map();
    this.in = this.directed ? new Map() : this.out;
    this.attributes.zero(this.ctx.space);
    this.eidBound = 0;
    this.freeEids = [];
    this.edgeCount = 0;
    this.dirty = true;
  }

  /** Fill the table from an image (see image/read-image.ts). */
  restore(data: EdgeRestore): void {
    const { space } = this.ctx;
    this.hasEid = data.hasEid;
    this.entryBytes = data.hasEid ? 8 : 4;
    this.eidBound = data.eidBound;
    this.eidCapacity = Math.max(64, data.eidBound);
    this.attributes.restore(space, data.columns, this.def.attributes, this.eidCapacity, this.ctx.tuples);
    this.discriminator = this.def.discriminator.map((n) => this.byName.get(n)).filter((c): c is Column => c !== undefined);
    this.edgeCount = data.edgeCount;
    this.out = new Map();
    this.in = this.directed ? new Map() : this.out;
    for (const a of data.adjacencies) {
      const adj = this.adjacency(a.direction, a.vertexOrdinal);
      adj.restore(a.degrees, a.entries);
    }
    this.dirty = true;
  }

  /** After a restore: free eids are those no list references. */
  restoreFreeEids(used: Uint8Array): void {
    this.freeEids = [];
    for (let eid = this.eidBound - 1; eid >= 0; eid--) if (!used[eid]) this.freeEids.push(eid);
  }

  private growEids(capacity: number): void {
    this.attributes.resize(this.ctx.space, this.eidCapacity, capacity);
    this.eidCapacity = capacity;
  }

  private fillColumn(column: Column): void {
    column.region = this.ctx.space.allocate(columnBytes(column.kind, Math.max(1, this.eidCapacity)));
    if (column.zeroDefault) return;
    for (let eid = 0; eid < this.eidBound; eid++) writeCell(this.ctx, column.kind, column.region.addr, eid, column.def.type, column.defaultValue);
  }
}

function removeOne(adj: Adjacency | undefined, local: number, target: number, eid: number): void {
  if (!adj) return;
  let done = false;
  adj.removeWhere(local, (t, e) => {
    if (done || t !== target || e !== eid) return false;
    done = true;
    return true;
  });
}
