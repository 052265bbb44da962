// The binary image of one store version (what `serialize` writes and `loadStore` reads):
//
//   "WGIMAGE1"                       8 bytes
//   section*                         raw array bytes, each padded to 8 bytes
//   manifest                         JSON (UTF-8): schema, ordinals, counts, section table
//   u32 manifest length, u32 manifest CRC-32, "WGIMEND1"
//
// A section is one array of the version, tightly packed: fixed-width columns and tables as
// they are in memory (only the used part), edge lists back to back in slot order (with their
// degrees, they form a CSR), and variable-length values (strings, collections, string ids)
// as consecutive [u32 length][bytes] records, one per slot. Every section carries a CRC-32.
// Id hashes are not written: loading rebuilds them (their string entries hold addresses).
import type { DatabaseSchema } from "../../schema/types.js";
import type { ColumnKind, IdKind } from "../layout.js";

export const IMAGE_MAGIC = "WGIMAGE1";
export const IMAGE_END = "WGIMEND1";
export const IMAGE_FORMAT = 2;

export interface Section {
  offset: number;
  length: number;
  crc: number;
}

export interface ColumnManifest {
  name: string;
  ordinal: number;
  kind: ColumnKind;
  /** Absent for a dropped attribute's ordinal. */
  data?: Section;
}

export interface VertexTypeManifest {
  key: string;
  ordinal: number;
  idKind: IdKind;
  slotCount: number;
  liveCount: number;
  blocks: number[];
  alive: Section;
  ids: Section;
  retired: Section;
  retiredCount: number;
  columns: ColumnManifest[];
}

export interface AdjacencyManifest {
  vertexOrdinal: number;
  direction: "out" | "in";
  slots: number;
  degrees: Section;
  entries: Section;
}

export interface EdgeTypeManifest {
  key: string;
  ordinal: number;
  reverse?: { key: string; ordinal: number };
  hasEid: boolean;
  eidBound: number;
  edgeCount: number;
  columns: ColumnManifest[];
  adjacencies: AdjacencyManifest[];
}

export interface ImageManifest {
  format: number;
  version: number;
  schema: DatabaseSchema;
  vertexTypeSlots: number;
  edgeTypeSlots: number;
  blockTypes: Section;
  blockIndexes: Section;
  vertexTypes: VertexTypeManifest[];
  edgeTypes: EdgeTypeManifest[];
}

/** JSON with bigints (schema defaults) kept exact. */
export function manifestToJson(manifest: ImageManifest): string {
  return JSON.stringify(manifest, (_k, v) => (typeof v === "bigint" ? { $bigint: v.toString() } : v));
}

export function manifestFromJson(text: string): ImageManifest {
  return JSON.parse(text, (_k, v) => (v !== null && typeof v === "object" && typeof v.$bigint === "string" && Object.keys(v).length === 1 ? BigInt(v.$bigint) : v));
}
