// Rebuilding a store from an image (format.ts): every checksum is verified first, then the
// tables are recreated with their ordinals and filled from the sections. Edge lists come back
// compacted (one CSR per adjacency) and the heap holds only live values.
import { crc32 } from "node:zlib";
import type { StoreOptions } from "../api.js";
import { StoreError } from "../errors.js";
import { ColumnKind, COLUMN_BYTES, IdKind } from "../layout.js";
import { refreshAllowedPairs } from "../mutations/schema-change.js";
import { StoreState } from "../state.js";
import { EdgeTable } from "../tables/edge-table.js";
import { VertexTable } from "../tables/vertex-table.js";
import type { Column } from "../tables/columns.js";
import { tupleTable } from "../values/coerce.js";
import { IMAGE_END, IMAGE_FORMAT, IMAGE_MAGIC, manifestFromJson, type ColumnManifest, type ImageManifest, type Section } from "./format.js";

const decoder = new TextDecoder();

export function readImage(bytes: Uint8Array, options?: StoreOptions): StoreState {
  const manifest = readManifest(bytes);
  const section = (s: Section): Uint8Array => {
    if (s.offset < 0 || s.offset + s.length > bytes.length) throw corrupt("a section lies outside the image");
    const data = bytes.subarray(s.offset, s.offset + s.length);
    if (crc32(data) !== s.crc) throw corrupt(`checksum mismatch in the section at byte ${s.offset}`);
    return data;
  };
  const u32s = (s: Section) => new Uint32Array(copyAligned(section(s)).buffer);
  const state = new StoreState(manifest.schema, options);
  state.ctx.tuples = tupleTable(manifest.schema.tuples);
  state.vertexTables = new Array(manifest.vertexTypeSlots).fill(null);
  state.edgeTables = new Array(manifest.edgeTypeSlots).fill(null);
  state.ctx.blocks.restore(u32s(manifest.blockTypes), u32s(manifest.blockIndexes));
  const heap = state.ctx.heap;

  for (const m of manifest.vertexTypes) {
    const def = manifest.schema.vertexTypes.find((t) => t.key === m.key);
    if (!def) throw corrupt(`vertex type ${m.key} is not in the image's schema`);
    const table = new VertexTable(state.ctx, def, m.key, m.ordinal, m.idKind);
    const stringIds = m.idKind === IdKind.STRING || m.idKind === IdKind.COMPOSITE;
    table.restore({
      slotCount: m.slotCount,
      liveCount: m.liveCount,
      blocks: m.blocks,
      alive: section(m.alive),
      ids: stringIds ? readRecords(section(m.ids), m.slotCount, (b) => heap.putBytes(b, b.length)) : section(m.ids),
      retired: stringIds ? readRecords(section(m.retired), m.retiredCount, (b) => heap.putBytes(b, b.length)) : section(m.retired),
      retiredCount: m.retiredCount,
      columns: m.columns.map((c) => restoredColumn(c, def.attributes, m.slotCount, section, heap.putBytes.bind(heap))),
    });
    state.vertexTables[m.ordinal] = table;
    state.vertexByKey.set(m.key, table);
  }
  for (const m of manifest.edgeTypes) {
    const def = manifest.schema.edgeTypes.find((t) => t.key === m.key);
    if (!def) throw corrupt(`edge type ${m.key} is not in the image's schema`);
    const table = new EdgeTable(state.ctx, def, m.key, m.ordinal);
    const used = new Uint8Array(m.eidBound);
    table.restore({
      hasEid: m.hasEid,
      edgeCount: m.edgeCount,
      eidBound: m.eidBound,
      columns: m.columns.map((c) => restoredColumn(c, def.attributes, m.eidBound, section, heap.putBytes.bind(heap))),
      adjacencies: m.adjacencies.map((a) => ({ ...a, degrees: u32s(a.degrees), entries: section(a.entries) })),
    });
    if (m.hasEid) {
      for (const adj of table.adjacencies()) adj.forEachEntry((_target, eid) => (used[eid] = 1));
    }
    table.restoreFreeEids(used);
    state.edgeTables[m.ordinal] = table;
    state.edgeByKey.set(m.key, { table, reversed: false, key: m.key, ordinal: m.ordinal });
    if (m.reverse) {
      table.reverse = m.reverse;
      state.edgeByKey.set(m.reverse.key, { table, reversed: true, key: m.reverse.key, ordinal: m.reverse.ordinal });
    }
  }
  refreshAllowedPairs(state, manifest.schema);
  for (const table of state.edgeTables) if (table) state.buildEntryCopies(table);
  state.refreshCatalog();
  state.publish();
  return state;
}

function readManifest(bytes: Uint8Array): ImageManifest {
  if (bytes.length < 32 || decoder.decode(bytes.subarray(0, 8)) !== IMAGE_MAGIC) throw corrupt("it does not start like a store image");
  if (decoder.decode(bytes.subarray(bytes.length - 8)) !== IMAGE_END) throw corrupt("it is truncated (no end marker)");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(bytes.length - 16, true);
  const crc = view.getUint32(bytes.length - 12, true);
  const start = bytes.length - 16 - length;
  if (start < 8) throw corrupt("its manifest length is impossible");
  const json = bytes.subarray(start, bytes.length - 16);
  if (crc32(json) !== crc) throw corrupt("checksum mismatch in the manifest");
  let manifest: ImageManifest;
  try {
    manifest = manifestFromJson(decoder.decode(json));
  } catch {
    throw corrupt("its manifest is not valid JSON");
  }
  if (manifest.format !== IMAGE_FORMAT) throw corrupt(`its format ${manifest.format} is not supported`);
  return manifest;
}

/** Column data as it goes back to memory: fixed-width bytes, or heap addresses of variable-length values. */
function restoredColumn(c: ColumnManifest, attributes: { name: string }[], count: number, section: (s: Section) => Uint8Array, put: (b: Uint8Array, n: number) => number): { manifest: ColumnManifest; def: { name: string } | undefined; data?: Uint8Array } {
  const def = attributes.find((a) => a.name === c.name);
  if (!c.data || c.kind === ColumnKind.NONE) return { manifest: c, def };
  const raw = section(c.data);
  if (c.kind === ColumnKind.STRING || c.kind === ColumnKind.BLOB) return { manifest: c, def, data: readRecords(raw, count, (b) => put(b, b.length)) };
  if (raw.length !== count * COLUMN_BYTES[c.kind]) throw corrupt(`column ${c.name} has the wrong size`);
  return { manifest: c, def, data: raw };
}

/** Consecutive [u32 length][bytes] records → heap addresses (u32, as bytes). */
function readRecords(raw: Uint8Array, count: number, put: (bytes: Uint8Array) => number): Uint8Array {
  const out = new Uint32Array(count);
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 4 > raw.length) throw corrupt("a value list is cut short");
    const length = view.getUint32(at, true);
    if (at + 4 + length > raw.length) throw corrupt("a value lies outside its section");
    out[i] = length === 0 ? 0 : put(raw.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return new Uint8Array(out.buffer);
}

function copyAligned(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(bytes.length / 4) * 4);
  out.set(bytes);
  return out;
}

function corrupt(why: string): StoreError {
  return new StoreError("CORRUPT_IMAGE", `the store image is damaged: ${why}`);
}

export type RestoredColumn = { manifest: ColumnManifest; def: { name: string } | undefined; data?: Uint8Array };
export type { Column };
