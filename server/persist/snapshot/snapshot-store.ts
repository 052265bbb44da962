// Snapshot files in the data directory: one folder per snapshot, named by the log position
// it covers, holding its payload files (the store's memory regions, the catalog as JSON)
// and a MANIFEST with their sizes and checksums. Writing happens in a worker thread
// (snapshot-writer.ts, write-worker.ts) under a temporary name, renamed into place once
// every file is durable: a folder with the final name is always complete. Loading verifies
// every checksum before use.
import { promises as fsp } from "node:fs";
import path from "node:path";
import { crc32 } from "node:zlib";
import { fsyncDirectory, isMissing } from "../durable-fs.js";
import { decodeManifest, isSectionName, MANIFEST_FILE, type ManifestSection, type SnapshotManifest } from "./manifest.js";
import { SnapshotWriter } from "./snapshot-writer.js";
import type { PinnedImage } from "../../../runtime-wasm/store/index.js";

/**
 * One payload of a snapshot: bytes (which must not change until the write has finished),
 * a stream of chunks (a store serialising a pinned version while writes go on), or a
 * store's pinned version that the writer thread serialises itself from the shared memory.
 */
export interface SnapshotSection {
  name: string;
  data: Uint8Array | readonly Uint8Array[] | AsyncIterable<Uint8Array> | StoreImageSource;
}

/** A pinned store version to be written as an image by the writer thread (see GraphStore.pinImage). */
export interface StoreImageSource {
  storeImage: Omit<PinnedImage, "release">;
}

export interface SnapshotContent {
  /** The log position the state corresponds to. */
  lsn: number;
  sections: readonly SnapshotSection[];
  meta?: Record<string, unknown>;
}

/** A complete snapshot folder found on disk (not yet verified). */
export interface SnapshotEntry {
  lsn: number;
  dir: string;
}

export interface LoadedSnapshot extends SnapshotEntry {
  manifest: SnapshotManifest;
  /** Every section, its size and checksum already verified. */
  sections: Map<string, VerifiedSection>;
}

/** A section of a loaded snapshot, read from its file on demand. */
export interface VerifiedSection {
  bytes: number;
  /** The whole section in one buffer: for small sections such as the catalog. */
  read(): Promise<Buffer>;
  /** The section in chunks: for store images, which may be larger than one buffer can hold. */
  stream(): AsyncIterable<Uint8Array>;
}

/** A snapshot that cannot be trusted: never loaded, always named in the message. */
export class SnapshotCorruptionError extends Error {
  constructor(
    readonly dir: string,
    readonly reason: string,
  ) {
    super(`snapshot ${dir} is damaged: ${reason}`);
    this.name = "SnapshotCorruptionError";
  }
}

const FINAL_NAME = /^snapshot-(\d{20})$/;
const TEMPORARY_SUFFIX = ".tmp";
/** A pruned snapshot is renamed to this suffix before its files go, so a kill mid-delete leaves no partial folder under a final name. */
const REMOVING_SUFFIX = ".removing";
const READ_CHUNK_BYTES = 8 << 20;

export function snapshotDirName(lsn: number): string {
  return `snapshot-${String(lsn).padStart(20, "0")}`;
}

export class SnapshotStore {
  private readonly writer = new SnapshotWriter();

  constructor(readonly dir: string) {}

  /** Complete snapshots, newest first. Leftover temporary folders are ignored. */
  async list(): Promise<SnapshotEntry[]> {
    return (await this.names())
      .map((name) => FINAL_NAME.exec(name))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ lsn: Number(m[1]), dir: path.join(this.dir, m[0]) }))
      .sort((a, b) => b.lsn - a.lsn);
  }

  /** Removes folders of snapshots whose writing (or pruning) a crash interrupted. */
  async removeIncomplete(): Promise<string[]> {
    const partial = (await this.names())
      .filter((n) => n.endsWith(TEMPORARY_SUFFIX) || n.endsWith(REMOVING_SUFFIX))
      .map((n) => path.join(this.dir, n));
    for (const dir of partial) await fsp.rm(dir, { recursive: true, force: true });
    if (partial.length) await fsyncDirectory(this.dir);
    return partial;
  }

  /** Entries of the snapshot folder (none before the first snapshot created it). */
  private async names(): Promise<string[]> {
    try {
      return await fsp.readdir(this.dir);
    } catch (err) {
      if (isMissing(err)) return [];
      throw err;
    }
  }

  /**
   * Writes a snapshot durably (in the writer thread) and returns its entry. A snapshot of
   * the same position already there is kept as is.
   */
  async write(content: SnapshotContent): Promise<SnapshotEntry & { bytes: number }> {
    const names = new Set<string>();
    for (const s of content.sections) {
      if (!isSectionName(s.name) || names.has(s.name)) throw new Error(`invalid or repeated snapshot section name '${s.name}'`);
      names.add(s.name);
    }
    const final = path.join(this.dir, snapshotDirName(content.lsn));
    const { sections } = await this.writer.write({
      parent: this.dir,
      final,
      temporary: final + TEMPORARY_SUFFIX,
      lsn: content.lsn,
      meta: content.meta ?? {},
      sections: content.sections,
    });
    return { lsn: content.lsn, dir: final, bytes: sumBytes(sections) };
  }

  /** Loads the writer thread now, off the main thread, so the first snapshot does not pay for it. */
  warmUp(): void {
    this.writer.warmUp();
  }

  /** Stops the writer thread. */
  close(): Promise<void> {
    return this.writer.close();
  }

  /**
   * Verifies a snapshot's manifest and every payload (size and CRC32, read in chunks) and
   * gives access to its sections; throws SnapshotCorruptionError naming what is wrong.
   */
  async load(entry: SnapshotEntry): Promise<LoadedSnapshot> {
    const manifestText = await readText(path.join(entry.dir, MANIFEST_FILE));
    if (manifestText === undefined) throw new SnapshotCorruptionError(entry.dir, "its MANIFEST is missing");
    const manifest = decodeManifest(manifestText);
    if (typeof manifest === "string") throw new SnapshotCorruptionError(entry.dir, manifest);
    if (manifest.lsn !== entry.lsn) {
      throw new SnapshotCorruptionError(entry.dir, `MANIFEST covers log position ${manifest.lsn}, the folder name ${entry.lsn}`);
    }
    const sections = new Map<string, VerifiedSection>();
    for (const s of manifest.sections) {
      const file = path.join(entry.dir, s.name);
      let size: number;
      try {
        size = (await fsp.stat(file)).size;
      } catch (err) {
        if (isMissing(err)) throw new SnapshotCorruptionError(entry.dir, `payload file ${s.name} is missing`);
        throw err;
      }
      if (size !== s.bytes) {
        throw new SnapshotCorruptionError(entry.dir, `payload file ${s.name} holds ${size} bytes, the MANIFEST says ${s.bytes}`);
      }
      let checksum = 0;
      for await (const chunk of readChunks(file)) checksum = crc32(chunk, checksum);
      if (checksum !== s.crc32) throw new SnapshotCorruptionError(entry.dir, `payload file ${s.name} fails its checksum`);
      sections.set(s.name, { bytes: s.bytes, read: () => fsp.readFile(file), stream: () => readChunks(file) });
    }
    return { ...entry, manifest, sections };
  }

  /** Renames a damaged snapshot so it is never tried again but stays for inspection. */
  async moveAside(entry: SnapshotEntry): Promise<string> {
    const target = `${entry.dir}.damaged-${Date.now()}`;
    await fsp.rename(entry.dir, target);
    await fsyncDirectory(this.dir);
    return target;
  }

  /**
   * Keeps the newest `keep` complete snapshots and removes the rest. Returns the removed ones.
   * Each goes in two steps: a rename out of the final-name space (made durable), then the
   * delete. A kill between them leaves a `.removing` folder that the next start deletes,
   * never a half-deleted folder that recovery would have to refuse by checksum.
   */
  async prune(keep: number): Promise<SnapshotEntry[]> {
    const all = await this.list();
    const removed = all.slice(Math.max(1, keep));
    if (!removed.length) return removed;
    const doomed: string[] = [];
    for (const entry of removed) {
      const target = entry.dir + REMOVING_SUFFIX;
      await fsp.rm(target, { recursive: true, force: true }); // a leftover of an earlier kill
      await fsp.rename(entry.dir, target);
      doomed.push(target);
    }
    await fsyncDirectory(this.dir);
    for (const dir of doomed) await fsp.rm(dir, { recursive: true, force: true });
    await fsyncDirectory(this.dir);
    return removed;
  }
}

/** A file in fresh chunks (each its own buffer, so a consumer may keep them). */
async function* readChunks(file: string): AsyncGenerator<Buffer> {
  const handle = await fsp.open(file, "r");
  try {
    for (let position = 0; ; ) {
      const chunk = Buffer.allocUnsafe(READ_CHUNK_BYTES);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) return;
      position += bytesRead;
      yield bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await fsp.readFile(file, "utf8");
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
}

function sumBytes(sections: readonly ManifestSection[]): number {
  return sections.reduce((n, s) => n + s.bytes, 0);
}
