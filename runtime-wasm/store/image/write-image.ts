// Writing a pinned version as an image (format.ts). Everything is read through the version's
// headers in memory, never from the writer's tables, so writes that continue while the image
// streams out cannot leak into it. It needs only views of the memory and a plain description
// of the types (ImageCatalog), so it runs as well in another thread that shares the memory:
// the regions of a pinned version are never changed nor reused until it is unpinned.
import { crc32 } from "node:zlib";
import type { DatabaseSchema } from "../../schema/types.js";
import { ADJ, COL, ColumnKind, COLUMN_BYTES, ET, EdgeFlags, IdKind, VERTEX_BLOCK_SHIFT, VH, VT } from "../layout.js";
import type { ReadCatalog } from "../read-catalog.js";
import { IMAGE_END, IMAGE_FORMAT, IMAGE_MAGIC, manifestToJson, type AdjacencyManifest, type ColumnManifest, type EdgeTypeManifest, type ImageManifest, type Section, type VertexTypeManifest } from "./format.js";

const FLUSH_BYTES = 4 << 20;

/** The views writeImage reads through (an Arena has them; so does a view of a shared memory in another thread). */
export interface MemoryViews {
  readonly u8: Uint8Array;
  readonly u32: Uint32Array;
}

/** Views of a shared memory as it is now (enough for a version pinned before). */
export function memoryViews(memory: SharedArrayBuffer): MemoryViews {
  return { u8: new Uint8Array(memory), u32: new Uint32Array(memory) };
}

interface ImageType {
  key: string;
  ordinal: number;
  attributes: { name: string; ordinal: number }[];
}

/** What an image needs to know of the types beside the memory: plain data, so it can be posted to a thread. */
export interface ImageCatalog {
  schema: DatabaseSchema;
  vertexByOrdinal: (ImageType | null | undefined)[];
  edgeByOrdinal: ((ImageType & { reversed: boolean }) | null | undefined)[];
}

/** The plain-data part of a read catalog an image needs (drops definitions, maps and layouts). */
export function imageCatalog(catalog: ReadCatalog): ImageCatalog {
  const attributes = (list: { name: string; ordinal: number }[]) => list.map(({ name, ordinal }) => ({ name, ordinal }));
  return {
    schema: catalog.schema,
    vertexByOrdinal: Array.from(catalog.vertexByOrdinal, (t) => (t ? { key: t.key, ordinal: t.ordinal, attributes: attributes(t.attributes) } : null)),
    edgeByOrdinal: Array.from(catalog.edgeByOrdinal, (t) => (t ? { key: t.key, ordinal: t.ordinal, reversed: t.reversed, attributes: attributes(t.attributes) } : null)),
  };
}

/** Streams bytes to the sink in chunks of a few MiB, keeping offsets and CRCs of sections. */
class ImageWriter {
  private buffer = new Uint8Array(FLUSH_BYTES);
  private used = 0;
  offset = 0;

  constructor(private readonly sink: (chunk: Uint8Array) => void | Promise<void>) {}

  async put(bytes: Uint8Array): Promise<void> {
    for (let at = 0; at < bytes.length; ) {
      const n = Math.min(bytes.length - at, this.buffer.length - this.used);
      this.buffer.set(bytes.subarray(at, at + n), this.used);
      this.used += n;
      at += n;
      this.offset += n;
      if (this.used === this.buffer.length) await this.flush();
    }
  }

  /** A section from memory, read piece by piece (the arena's views may change between awaits). */
  async memorySection(arena: MemoryViews, addr: number, length: number): Promise<Section> {
    const offset = this.offset;
    let crc = 0;
    for (let at = 0; at < length; at += FLUSH_BYTES) {
      const piece = arena.u8.slice(addr + at, addr + Math.min(length, at + FLUSH_BYTES));
      crc = crc32(piece, crc);
      await this.put(piece);
    }
    await this.pad();
    return { offset, length, crc };
  }

  async bytesSection(bytes: Uint8Array): Promise<Section> {
    const offset = this.offset;
    await this.put(bytes);
    await this.pad();
    return { offset, length: bytes.length, crc: crc32(bytes) };
  }

  async flush(): Promise<void> {
    if (this.used === 0) return;
    const chunk = this.buffer.slice(0, this.used);
    this.used = 0;
    await this.sink(chunk);
  }

  private async pad(): Promise<void> {
    const rest = (8 - (this.offset % 8)) % 8;
    if (rest > 0) await this.put(new Uint8Array(rest));
  }
}

/** Write the version whose header is at `header`; returns the image's size in bytes. */
export async function writeImage(arena: MemoryViews, header: number, version: number, catalog: ImageCatalog, sink: (chunk: Uint8Array) => void | Promise<void>): Promise<number> {
  const out = new ImageWriter(sink);
  const field = (record: number, offset: number) => arena.u32[(record + offset) >>> 2];
  await out.put(new TextEncoder().encode(IMAGE_MAGIC));
  const blockCount = field(header, VH.BLOCK_COUNT);
  const vertexTypeSlots = field(header, VH.VERTEX_TYPE_SLOTS);
  const manifest: ImageManifest = {
    format: IMAGE_FORMAT,
    version,
    schema: catalog.schema,
    vertexTypeSlots,
    edgeTypeSlots: field(header, VH.EDGE_TYPE_SLOTS),
    blockTypes: await out.memorySection(arena, field(header, VH.BLOCK_TYPE), blockCount * 4),
    blockIndexes: await out.memorySection(arena, field(header, VH.BLOCK_INDEX), blockCount * 4),
    vertexTypes: [],
    edgeTypes: [],
  };
  for (const t of catalog.vertexByOrdinal) {
    if (!t) continue;
    const h = field(field(header, VH.VERTEX_TYPE_TABLE) + 4 * t.ordinal, 0);
    const slotCount = field(h, VT.SLOT_COUNT);
    const retiredCount = field(h, VT.RETIRED_COUNT);
    const idKind = field(h, VT.ID_KIND) as IdKind;
    const stringIds = idKind === IdKind.STRING || idKind === IdKind.COMPOSITE;
    const blocksAddr = field(h, VT.BLOCKS);
    const blocks: number[] = [];
    for (let i = 0; i < Math.ceil(slotCount / (1 << VERTEX_BLOCK_SHIFT)); i++) blocks.push(arena.u32[(blocksAddr >>> 2) + i]);
    const entry: VertexTypeManifest = {
      key: t.key,
      ordinal: t.ordinal,
      idKind,
      slotCount,
      liveCount: field(h, VT.LIVE_COUNT),
      blocks,
      alive: await out.memorySection(arena, field(h, VT.ALIVE), Math.ceil(slotCount / 8)),
      ids: stringIds ? await out.bytesSection(records(arena, field(h, VT.ID_COLUMN), slotCount)) : await out.memorySection(arena, field(h, VT.ID_COLUMN), slotCount * 8),
      retired: stringIds ? await out.bytesSection(records(arena, field(h, VT.RETIRED), retiredCount)) : await out.memorySection(arena, field(h, VT.RETIRED), retiredCount * 8),
      retiredCount,
      columns: await writeColumns(out, arena, field(h, VT.ATTRIBUTE_TABLE), field(h, VT.ATTRIBUTE_SLOTS), slotCount, t.attributes),
    };
    manifest.vertexTypes.push(entry);
  }
  for (const t of catalog.edgeByOrdinal) {
    if (!t || t.reversed) continue;
    const h = field(field(header, VH.EDGE_TYPE_TABLE) + 4 * t.ordinal, 0);
    const flags = field(h, ET.FLAGS);
    const eidBound = field(h, ET.EID_BOUND);
    const paired = field(h, ET.PAIRED_TYPE);
    const reverse = catalog.edgeByOrdinal[paired];
    const entry: EdgeTypeManifest = {
      key: t.key,
      ordinal: t.ordinal,
      ...(reverse && reverse.reversed ? { reverse: { key: reverse.key, ordinal: reverse.ordinal } } : {}),
      hasEid: (flags & EdgeFlags.HAS_EID) !== 0,
      eidBound,
      edgeCount: field(h, ET.EDGE_COUNT),
      columns: await writeColumns(out, arena, field(h, ET.ATTRIBUTE_TABLE), field(h, ET.ATTRIBUTE_SLOTS), eidBound, t.attributes),
      adjacencies: [],
    };
    const directions: ["out" | "in", number][] = (flags & EdgeFlags.DIRECTED) !== 0 ? [["out", ET.OUT_TABLE], ["in", ET.IN_TABLE]] : [["out", ET.OUT_TABLE]];
    for (const [direction, tableField] of directions) {
      for (let vertexOrdinal = 0; vertexOrdinal < vertexTypeSlots; vertexOrdinal++) {
        const adj = field(field(h, tableField) + 4 * vertexOrdinal, 0);
        if (adj !== 0) entry.adjacencies.push(await writeAdjacency(out, arena, adj, vertexOrdinal, direction));
      }
    }
    manifest.edgeTypes.push(entry);
  }
  const json = new TextEncoder().encode(manifestToJson(manifest));
  await out.put(json);
  const tail = new Uint8Array(16);
  const view = new DataView(tail.buffer);
  view.setUint32(0, json.length, true);
  view.setUint32(4, crc32(json), true);
  tail.set(new TextEncoder().encode(IMAGE_END), 8);
  await out.put(tail);
  await out.flush();
  return out.offset;
}

async function writeColumns(out: ImageWriter, arena: MemoryViews, table: number, slots: number, count: number, live: { name: string; ordinal: number }[]): Promise<ColumnManifest[]> {
  const columns: ColumnManifest[] = [];
  for (let ordinal = 0; ordinal < slots; ordinal++) {
    const kind = arena.u32[(table + ordinal * COL.BYTES + COL.KIND) >>> 2] as ColumnKind;
    const addr = arena.u32[(table + ordinal * COL.BYTES + COL.ADDRESS) >>> 2];
    const name = live.find((a) => a.ordinal === ordinal)?.name ?? "";
    if (kind === ColumnKind.NONE) {
      columns.push({ name, ordinal, kind });
      continue;
    }
    const variable = kind === ColumnKind.STRING || kind === ColumnKind.BLOB;
    const data = variable ? await out.bytesSection(records(arena, addr, count)) : await out.memorySection(arena, addr, count * COLUMN_BYTES[kind]);
    columns.push({ name, ordinal, kind, data });
  }
  return columns;
}

async function writeAdjacency(out: ImageWriter, arena: MemoryViews, adj: number, vertexOrdinal: number, direction: "out" | "in"): Promise<AdjacencyManifest> {
  const field = (offset: number) => arena.u32[(adj + offset) >>> 2];
  const slots = field(ADJ.SLOT_COUNT);
  const entryBytes = field(ADJ.ENTRY_BYTES);
  const degreeList = new Uint32Array(slots);
  const entries = new Uint8Array(field(ADJ.ENTRY_COUNT) * entryBytes);
  let at = 0;
  for (let local = 0; local < slots; local++) {
    const u32 = arena.u32;
    const head = (field(ADJ.HEADS) >>> 2) + local * 2;
    const deg = u32[head + 1];
    degreeList[local] = deg;
    if (deg === 0) continue;
    const list = u32[head];
    entries.set(arena.u8.subarray(list, list + deg * entryBytes), at);
    at += deg * entryBytes;
  }
  const degrees = await out.bytesSection(new Uint8Array(degreeList.buffer));
  return { vertexOrdinal, direction, slots, degrees, entries: await out.bytesSection(entries) };
}

/** The heap records a column of addresses points at, as consecutive [u32 length][bytes]. */
function records(arena: MemoryViews, column: number, count: number): Uint8Array {
  const u32 = arena.u32;
  let total = 0;
  for (let i = 0; i < count; i++) {
    const record = u32[(column >>> 2) + i];
    total += 4 + (record === 0 ? 0 : u32[record >>> 2]);
  }
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  let at = 0;
  for (let i = 0; i < count; i++) {
    const record = u32[(column >>> 2) + i];
    const length = record === 0 ? 0 : u32[record >>> 2];
    view.setUint32(at, length, true);
    if (length > 0) out.set(arena.u8.subarray(record + 4, record + 4 + length), at + 4);
    at += 4 + length;
  }
  return out;
}
