// The manifest of a snapshot: which log position it covers and, for every payload file,
// its size and CRC32. Stored as one line of JSON followed by a line with the CRC32 of that
// JSON, so damage to the manifest itself is detected as well as damage to a payload.
import { crc32 } from "node:zlib";

export const MANIFEST_FILE = "MANIFEST";
export const SNAPSHOT_FORMAT = "wasmgraph-snapshot";
export const SNAPSHOT_FORMAT_VERSION = 1;

export interface ManifestSection {
  name: string;
  bytes: number;
  crc32: number;
}

export interface SnapshotManifest {
  format: typeof SNAPSHOT_FORMAT;
  version: number;
  /** Every logged command up to and including this position is in the snapshot. */
  lsn: number;
  createdAt: string;
  /** Small facts from the state's owner (payload format versions, counts). */
  meta: Record<string, unknown>;
  sections: ManifestSection[];
}

export function encodeManifest(manifest: SnapshotManifest): string {
  const body = JSON.stringify(manifest);
  return `${body}\ncrc32 ${crc32(body).toString(16).padStart(8, "0")}\n`;
}

/** The manifest, or the reason the text is not a valid one. */
export function decodeManifest(text: string): SnapshotManifest | string {
  const lines = text.split("\n");
  if (lines.length !== 3 || lines[2] !== "") return "manifest is incomplete";
  const [body, check] = lines as [string, string];
  const match = /^crc32 ([0-9a-f]{8})$/.exec(check);
  if (!match) return "manifest checksum line is missing or malformed";
  if (crc32(body) !== parseInt(match[1]!, 16)) return "manifest checksum mismatch";
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return "manifest is not valid JSON";
  }
  const m = parsed as Partial<SnapshotManifest>;
  if (m.format !== SNAPSHOT_FORMAT) return "not a wasmgraph snapshot manifest";
  if (m.version !== SNAPSHOT_FORMAT_VERSION) return `snapshot format version ${String(m.version)} is not supported (expected ${SNAPSHOT_FORMAT_VERSION})`;
  if (!Number.isSafeInteger(m.lsn) || (m.lsn as number) < 0) return "manifest log position is invalid";
  if (!Array.isArray(m.sections)) return "manifest lists no sections";
  for (const s of m.sections) {
    if (!isSectionName(s?.name) || !Number.isSafeInteger(s.bytes) || !Number.isInteger(s.crc32)) {
      return "manifest section entry is invalid";
    }
  }
  return m as SnapshotManifest;
}

/** Section names become file names: keep them to a safe alphabet, no paths. */
export function isSectionName(name: unknown): name is string {
  return typeof name === "string" && /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(name) && name !== MANIFEST_FILE;
}
