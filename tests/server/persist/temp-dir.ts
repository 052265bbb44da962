// A fresh temporary directory per test, removed afterwards: call in a describe block.
import { promises as fsp } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface TempDir {
  /** The test's own directory (exists). */
  root: string;
  /** A data directory path inside it (not created). */
  dataDir: string;
}

export function useTempDir(prefix: string): TempDir {
  const dirs: TempDir = { root: "", dataDir: "" };
  beforeEach(async () => {
    dirs.root = await fsp.mkdtemp(path.join(os.tmpdir(), `wasmgraph-${prefix}-`));
    dirs.dataDir = path.join(dirs.root, "data");
  });
  afterEach(() => fsp.rm(dirs.root, { recursive: true, force: true }));
  return dirs;
}
