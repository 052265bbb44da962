// The data directory's layout and its guard against two servers writing one directory:
//   DIR/FORMAT        layout name and version (refuses a directory of another format)
//   DIR/LOCK          process id of the server using the directory (see directory-lock.ts)
//   DIR/wal/          write-ahead log segments
//   DIR/snapshots/    snapshot folders
import { promises as fsp } from "node:fs";
import path from "node:path";
import { acquireDirectoryLock } from "./directory-lock.js";
import { ensureDirectory, isMissing, writeFileAtomically } from "./durable-fs.js";

const FORMAT = { format: "wasmgraph-data", version: 1 };

export interface DataDirectory {
  root: string;
  walDir: string;
  snapshotDir: string;
  /** Gives the directory back to other processes. */
  release(): Promise<void>;
}

export interface OpenDirectoryOptions {
  /**
   * When another live process holds the directory, wait for it to stop instead of failing
   * (a standby server that takes over the moment the running one exits or is killed).
   */
  waitForLock?: boolean;
}

/** Creates or opens a data directory and takes its lock. */
export async function openDataDirectory(root: string, options: OpenDirectoryOptions = {}): Promise<DataDirectory> {
  const resolved = path.resolve(root);
  await ensureDirectory(resolved);
  const lock = await acquireDirectoryLock(resolved, options.waitForLock ?? false);
  try {
    await checkFormat(resolved);
  } catch (err) {
    await lock.release();
    throw err;
  }
  return {
    root: resolved,
    walDir: path.join(resolved, "wal"),
    snapshotDir: path.join(resolved, "snapshots"),
    release: () => lock.release(),
  };
}

async function checkFormat(root: string): Promise<void> {
  const file = path.join(root, "FORMAT");
  let text: string;
  try {
    text = await fsp.readFile(file, "utf8");
  } catch (err) {
    if (!isMissing(err)) throw err;
    const entries = (await fsp.readdir(root)).filter((n) => n !== "LOCK");
    if (entries.length > 0) {
      throw new Error(`data directory ${root} is not empty and holds no wasmgraph FORMAT file; refusing to use it`);
    }
    await writeFileAtomically(file, JSON.stringify(FORMAT) + "\n");
    return;
  }
  let found: { format?: unknown; version?: unknown } = {};
  try {
    found = JSON.parse(text) as typeof found;
  } catch {
    // reported below
  }
  if (found.format !== FORMAT.format || found.version !== FORMAT.version) {
    throw new Error(`data directory ${root} has format ${text.trim()}, this server reads ${JSON.stringify(FORMAT)}`);
  }
}
