// File-system steps that durability rests on: fsync of a directory (so a created, renamed
// or removed entry survives a power cut), writing a whole file durably under a temporary
// name and renaming it into place, and removing a tree. Shared by the log and snapshots.
import { promises as fsp } from "node:fs";
import path from "node:path";

/** Makes the directory's entries (creations, renames, removals) durable. */
export async function fsyncDirectory(dir: string): Promise<void> {
  const handle = await fsp.open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Creates a directory (and parents) and makes its entry durable in its parent. */
export async function ensureDirectory(dir: string): Promise<void> {
  const existed = await exists(dir);
  await fsp.mkdir(dir, { recursive: true });
  if (!existed) await fsyncDirectory(path.dirname(dir));
}

export async function exists(file: string): Promise<boolean> {
  try {
    await fsp.stat(file);
    return true;
  } catch (err) {
    if (isMissing(err)) return false;
    throw err;
  }
}

/**
 * Writes `data` to `file` so that after a crash the file holds either its old content or
 * all of `data`: written to a temporary sibling, fsynced, renamed, directory fsynced.
 */
export async function writeFileAtomically(file: string, data: Uint8Array | string): Promise<void> {
  const temporary = `${file}.tmp-${process.pid}`;
  const handle = await fsp.open(temporary, "w");
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fsp.rename(temporary, file);
  await fsyncDirectory(path.dirname(file));
}

export function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}
