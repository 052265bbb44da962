// The guard against two servers writing one data directory at the same time.
//
// On Linux the lock is an abstract-namespace Unix socket named after the directory's real
// path: taking it is atomic (two standby servers can never both win) and the kernel gives
// it back the moment its process ends, kill -9 included, so it is never stale. DIR/LOCK
// then only names the holder's pid for messages. On other systems the LOCK file itself is
// the lock: created exclusively, and broken when the process it names is gone (safe unless
// two processes break the same stale lock at the same instant).
import { createHash } from "node:crypto";
import { promises as fsp } from "node:fs";
import net from "node:net";
import path from "node:path";

export interface DirectoryLock {
  release(): Promise<void>;
}

/** How often a waiting process tries the lock again. */
const POLL_MS = 5;

/**
 * Takes the lock of `root` (an existing directory). When another live process holds it:
 * waits if `wait`, else throws naming that process.
 */
export async function acquireDirectoryLock(root: string, wait: boolean): Promise<DirectoryLock> {
  const lockFile = path.join(root, "LOCK");
  for (;;) {
    const lock = process.platform === "linux" ? await tryKernelLock(root, lockFile) : await tryFileLock(lockFile);
    if (typeof lock === "object") return lock;
    if (!wait) {
      const holder = lock === undefined ? "another process" : `process ${lock}`;
      throw new Error(
        `data directory ${root} is in use by ${holder}. Stop that server first` +
          (process.platform === "linux" ? "." : `, or remove ${lockFile} if you are sure no server uses the directory.`),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The lock, or the holder's pid (undefined when it cannot be read). */
async function tryKernelLock(root: string, lockFile: string): Promise<DirectoryLock | number | undefined> {
  const name = "\0wasmgraph-data-" + createHash("sha256").update(await fsp.realpath(root)).digest("hex").slice(0, 48);
  const server = net.createServer();
  const taken = await new Promise<boolean>((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) => (err.code === "EADDRINUSE" ? resolve(false) : reject(err)));
    server.listen(name, () => resolve(true));
  });
  if (!taken) return readHolder(lockFile);
  server.unref();
  await fsp.writeFile(lockFile, `${process.pid}\n`);
  return {
    release: async () => {
      await removeIfOurs(lockFile);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function tryFileLock(lockFile: string): Promise<DirectoryLock | number | undefined> {
  try {
    await fsp.writeFile(lockFile, `${process.pid}\n`, { flag: "wx" });
    return { release: () => removeIfOurs(lockFile) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  const text = await fsp.readFile(lockFile, "utf8").catch(() => "");
  const holder = Number(text.trim());
  // Our own pid means another part of this process has it open (the lock is not reentrant).
  if (Number.isInteger(holder) && holder > 0 && (holder === process.pid || isAlive(holder))) return holder;
  // The holder is gone, or is still writing its pid: if the file is unchanged a moment
  // later, the lock is stale and is removed; the caller tries again.
  await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  if ((await fsp.readFile(lockFile, "utf8").catch(() => "")) === text) await fsp.rm(lockFile, { force: true });
  return holder > 0 ? holder : undefined;
}

async function readHolder(lockFile: string): Promise<number | undefined> {
  const pid = Number((await fsp.readFile(lockFile, "utf8").catch(() => "")).trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

async function removeIfOurs(lockFile: string): Promise<void> {
  if ((await readHolder(lockFile)) === process.pid) await fsp.rm(lockFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
