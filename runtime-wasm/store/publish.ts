// Writing a version's headers (layout.ts): for every changed table a fresh header record, then
// a fresh version header pointing at all of them. Headers are never changed after they are
// written, so a pinned version's header tree stays valid while later versions are built.
import { ADJ, COL, ET, EdgeFlags, NO_TYPE, VERSION_MAGIC, VH, VT } from "./layout.js";
import type { Region, Space } from "./memory/space.js";
import type { StoreState } from "./state.js";
import type { Adjacency } from "./tables/adjacency.js";
import type { Column } from "./tables/columns.js";
import type { EdgeTable } from "./tables/edge-table.js";
import { dropIfChanged, type EntryCopies } from "./tables/entry-copies.js";
import type { VertexTable } from "./tables/vertex-table.js";

/** Write every header of the working version; returns the version header's address. */
export function writeVersion(state: StoreState): number {
  const space = state.space;
  const vertexSlots = state.vertexTables.length;
  const edgeSlots = state.edgeTables.length;
  for (const t of state.vertexTables) if (t && t.dirty) writeVertexHeader(space, t);
  for (const t of state.edgeTables) if (t) writeEdgeHeaders(space, t, vertexSlots);

  const region = space.allocate(VH.BYTES + 4 * (vertexSlots + edgeSlots));
  const u32 = space.arena.u32;
  const h = region.addr >>> 2;
  const vertexTable = region.addr + VH.BYTES;
  const edgeTable = vertexTable + 4 * vertexSlots;
  const blocks = state.ctx.blocks;
  u32[h + VH.MAGIC / 4] = VERSION_MAGIC;
  u32[h + VH.VERSION / 4] = space.working >>> 0;
  u32[h + VH.VERTEX_TYPE_SLOTS / 4] = vertexSlots;
  u32[h + VH.VERTEX_TYPE_TABLE / 4] = vertexTable;
  u32[h + VH.EDGE_TYPE_SLOTS / 4] = edgeSlots;
  u32[h + VH.EDGE_TYPE_TABLE / 4] = edgeTable;
  u32[h + VH.BLOCK_COUNT / 4] = blocks.count;
  u32[h + VH.BLOCK_TYPE / 4] = blocks.blockType?.addr ?? 0;
  u32[h + VH.BLOCK_INDEX / 4] = blocks.blockIndex?.addr ?? 0;
  let vertices = 0;
  state.vertexTables.forEach((t, i) => {
    u32[(vertexTable >>> 2) + i] = t ? t.header!.addr : 0;
    vertices += t ? t.liveCount : 0;
  });
  u32[h + VH.VERTEX_COUNT / 4] = vertices;
  for (let i = 0; i < edgeSlots; i++) u32[(edgeTable >>> 2) + i] = 0;
  for (const t of state.edgeTables) {
    if (!t) continue;
    u32[(edgeTable >>> 2) + t.ordinal] = t.header!.addr;
    if (t.reverse) u32[(edgeTable >>> 2) + t.reverse.ordinal] = t.reverseHeader!.addr;
  }
  // The previous version header is superseded by this one.
  space.release(state.versionHeader);
  state.versionHeader = region;
  return region.addr;
}

function writeVertexHeader(space: Space, t: VertexTable): void {
  const region = space.allocate(VT.BYTES + COL.BYTES * t.columns.length);
  const u32 = space.arena.u32;
  const h = region.addr >>> 2;
  u32[h + VT.ORDINAL / 4] = t.ordinal;
  u32[h + VT.LIVE_COUNT / 4] = t.liveCount;
  u32[h + VT.SLOT_COUNT / 4] = t.slotCount;
  u32[h + VT.ALIVE / 4] = t.alive?.addr ?? 0;
  u32[h + VT.BLOCKS / 4] = t.blocksRegion?.addr ?? 0;
  u32[h + VT.ID_KIND / 4] = t.idKind;
  u32[h + VT.ID_COLUMN / 4] = t.idColumn?.addr ?? 0;
  u32[h + VT.ID_HASH / 4] = t.hash?.addr ?? 0;
  u32[h + VT.ID_HASH_CAPACITY / 4] = t.hashCapacity;
  u32[h + VT.ATTRIBUTE_SLOTS / 4] = t.columns.length;
  u32[h + VT.ATTRIBUTE_TABLE / 4] = region.addr + VT.BYTES;
  u32[h + VT.RETIRED / 4] = t.retired?.addr ?? 0;
  u32[h + VT.RETIRED_COUNT / 4] = t.retiredCount;
  writeColumnTable(space, region.addr + VT.BYTES, t.columns);
  space.release(t.header);
  t.header = region;
  t.dirty = false;
}

function writeEdgeHeaders(space: Space, t: EdgeTable, vertexSlots: number): void {
  dropIfChanged(space, t);
  let changed = t.dirty || t.header === null || (t.outTable?.bytes ?? 0) < vertexSlots * 4;
  for (const adj of t.adjacencies()) {
    if (!adj.dirty && adj.header) continue;
    writeAdjacencyHeader(space, adj, t.entryCopies.get(adj));
    changed = true;
  }
  if (!changed) return;
  const tableBytes = Math.max(8, vertexSlots * 4);
  const outTable = writeAdjacencyTable(space, t.out, tableBytes);
  const inTable = t.directed ? writeAdjacencyTable(space, t.in, tableBytes) : outTable;
  const region = space.allocate(ET.BYTES + COL.BYTES * t.columns.length);
  const attributeTable = region.addr + ET.BYTES;
  writeColumnTable(space, attributeTable, t.columns);
  const flags = (t.directed ? EdgeFlags.DIRECTED : 0) | (t.hasEid ? EdgeFlags.HAS_EID : 0);
  writeEdgeHeader(space, region.addr, t, flags, attributeTable, outTable.addr, inTable.addr, t.reverse?.ordinal ?? NO_TYPE, t.ordinal);
  space.release(t.header);
  t.header = region;
  if (t.reverse) {
    const reverse = space.allocate(ET.BYTES);
    writeEdgeHeader(space, reverse.addr, t, flags | EdgeFlags.REVERSE, attributeTable, inTable.addr, outTable.addr, t.ordinal, t.reverse.ordinal);
    space.release(t.reverseHeader);
    t.reverseHeader = reverse;
  }
  space.release(t.outTable);
  if (t.inTable !== t.outTable) space.release(t.inTable);
  t.outTable = outTable;
  t.inTable = inTable;
  t.dirty = false;
}

function writeEdgeHeader(space: Space, addr: number, t: EdgeTable, flags: number, attributeTable: number, outTable: number, inTable: number, paired: number, ordinal: number): void {
  const u32 = space.arena.u32;
  const h = addr >>> 2;
  u32[h + ET.ORDINAL / 4] = ordinal;
  u32[h + ET.FLAGS / 4] = flags;
  u32[h + ET.EDGE_COUNT / 4] = t.edgeCount;
  u32[h + ET.ATTRIBUTE_SLOTS / 4] = t.columns.length;
  u32[h + ET.ATTRIBUTE_TABLE / 4] = attributeTable;
  u32[h + ET.EID_BOUND / 4] = t.eidBound;
  u32[h + ET.OUT_TABLE / 4] = outTable;
  u32[h + ET.IN_TABLE / 4] = inTable;
  u32[h + ET.PAIRED_TYPE / 4] = paired;
}

function writeAdjacencyTable(space: Space, adjacencies: Map<number, Adjacency>, bytes: number): Region {
  const region = space.allocate(bytes);
  const u32 = space.arena.u32;
  for (const [ordinal, adj] of adjacencies) u32[(region.addr >>> 2) + ordinal] = adj.header!.addr;
  return region;
}

function writeAdjacencyHeader(space: Space, adj: Adjacency, copies: EntryCopies | undefined): void {
  const region = space.allocate(ADJ.BYTES);
  const u32 = space.arena.u32;
  const h = region.addr >>> 2;
  u32[h + ADJ.ENTRY_BYTES / 4] = adj.entryBytes;
  u32[h + ADJ.SLOT_COUNT / 4] = adj.slots;
  u32[h + ADJ.HEADS / 4] = adj.heads?.addr ?? 0;
  u32[h + ADJ.ENTRY_COUNT / 4] = adj.entryCount;
  u32[h + ADJ.ENTRY_BASE / 4] = copies?.base ?? 0;
  u32[h + ADJ.ENTRY_END / 4] = copies?.end ?? 0;
  u32[h + ADJ.ENTRY_COPIES / 4] = copies?.table.addr ?? 0;
  space.release(adj.header);
  adj.header = region;
  adj.dirty = false;
}

function writeColumnTable(space: Space, addr: number, columns: Column[]): void {
  const u32 = space.arena.u32;
  columns.forEach((c, i) => {
    u32[(addr >>> 2) + (i * COL.BYTES) / 4 + COL.KIND / 4] = c.region ? c.kind : 0;
    u32[(addr >>> 2) + (i * COL.BYTES) / 4 + COL.ADDRESS / 4] = c.region?.addr ?? 0;
  });
}
