// The data directory's layout and its guard against two servers writing one directory:
//   DIR/FORMAT        layout name and version (refuses a directory of another format)
//   DIR/LOCK          process id of the server using the directory
//   DIR/wal/          write-ahead log segments
//   DIR/snapshots/    snapshot folders
import { promises as fsp } from "node:fs";
import path from "node:path";
import { ensureDirectory, isMissing, writeFileAtomically } from "./durable-fs.js";

const FORMAT = { format: "wasmgraph-data", version: 1 };

export interface DataDirectory {
  root: string;
  walDir: string;
  snapshotDir: string;
  /** Gives the directory back to other processes. */
  release(): Promise<void>;
}

/** Creates or opens a data directory and takes its lock. */
export async function openDataDirectory(root: string): Promise<DataDirectory> {
  const resolved = path.resolve(root);
  await ensureDirectory(resolved);
  await checkFormat(resolved);
  const lockFile = path.join(resolved, "LOCK");
  await takeLock(lockFile, resolved);
  return {
    root: resolved,
    walDir: path.join(resolved, "wal"),
    snapshotDir: path.join(resolved, "snapshots"),
    release: () => releaseLock(lockFile),
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

async function takeLock(lockFile: string, root: string): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await fsp.writeFile(lockFile, `${process.pid}\n`, { flag: "wx" });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const holder = Number((await fsp.readFile(lockFile, "utf8").catch(() => "")).trim());
    // Our own pid means another part of this process has it open (the lock is not reentrant).
    if (Number.isInteger(holder) && holder > 0 && (holder === process.pid || isAlive(holder))) {
      throw new Error(
        `data directory ${root} is in use by process ${holder}. ` +
          `Stop that server first, or remove ${lockFile} if you are sure no server uses the directory.`,
      );
    }
    // The holder is gone (a crash or kill -9): the lock is stale.
    await fsp.rm(lockFile, { force: true });
  }
  throw new Error(`could not take the lock ${lockFile}`);
}

async function releaseLock(lockFile: string): Promise<void> {
  const holder = (await fsp.readFile(lockFile, "utf8").catch(() => "")).trim();
  if (holder === String(process.pid)) await fsp.rm(lockFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
