// Compiled query modules kept in the data directory (DIR/modules/), so a restart installs
// every installed query again from its module instead of loading the compiler and compiling
// (about a second for the compiler to load, and a compile per query). A cache, not state:
// the catalog in the log and snapshots says which queries are installed; a module missing,
// damaged or built by another version of the compiler is compiled again. Files are written
// whole (temporary file, then rename) and checked against their SHA-256 when read.
//
// File: u32 LE header length, header (command codec: { sha256, manifest }), module bytes.
// Name: SHA-256 of the compiler's identity (its code) and the caller's key, in hex.
import { createHash } from "node:crypto";
import { promises as fsp } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { QueryManifest } from "../../runtime-wasm/query/manifest.js";
import { decodeCommand, encodeCommand, type CommandValue } from "./command-codec.js";
import { isMissing } from "./durable-fs.js";

const SUFFIX = ".module";

export interface StoredModule {
  bytes: Uint8Array;
  manifest: QueryManifest;
}

export class ModuleStore {
  /** Files read or written since start: the ones prune() keeps. */
  private readonly used = new Set<string>();
  private ensured: Promise<unknown> | undefined;

  constructor(private readonly dir: string) {}

  /** The module stored under `key` by this compiler, or undefined (missing or damaged). */
  async get(key: string): Promise<StoredModule | undefined> {
    const name = await fileName(key);
    let data: Buffer;
    try {
      data = await fsp.readFile(path.join(this.dir, name));
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
    const stored = decodeModuleFile(data);
    if (stored) this.used.add(name);
    return stored;
  }

  /** Stores a module; a failure only costs a compile at the next start. */
  async put(key: string, module: StoredModule): Promise<void> {
    const name = await fileName(key);
    this.used.add(name);
    this.ensured ??= fsp.mkdir(this.dir, { recursive: true });
    await this.ensured;
    const file = path.join(this.dir, name);
    const temporary = `${file}.${process.pid}.tmp`;
    await fsp.writeFile(temporary, encodeModuleFile(module));
    await fsp.rename(temporary, file);
  }

  /** Removes every file not read or written since start (modules of dropped queries, older compilers, leftovers). */
  async prune(): Promise<number> {
    let names: string[];
    try {
      names = await fsp.readdir(this.dir);
    } catch (err) {
      if (isMissing(err)) return 0;
      throw err;
    }
    const stale = names.filter((n) => !this.used.has(n));
    await Promise.all(stale.map((n) => fsp.rm(path.join(this.dir, n), { force: true })));
    return stale.length;
  }
}

export function encodeModuleFile(module: StoredModule): Buffer {
  const sha256 = createHash("sha256").update(module.bytes).digest("hex");
  const header = encodeCommand({ sha256, manifest: module.manifest as unknown as CommandValue });
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  return Buffer.concat([length, header, module.bytes]);
}

/** The module in a file's bytes, or undefined when they are cut short or damaged. */
export function decodeModuleFile(data: Buffer): StoredModule | undefined {
  try {
    if (data.length < 4) return undefined;
    const headerEnd = 4 + data.readUInt32LE(0);
    if (headerEnd > data.length) return undefined;
    const header = decodeCommand(data.subarray(4, headerEnd)) as { sha256?: unknown; manifest?: unknown };
    const bytes = data.subarray(headerEnd);
    if (typeof header.sha256 !== "string" || createHash("sha256").update(bytes).digest("hex") !== header.sha256) return undefined;
    return { bytes: new Uint8Array(bytes), manifest: header.manifest as QueryManifest };
  } catch {
    return undefined;
  }
}

let compilerIdentity: Promise<string> | undefined;

async function fileName(key: string): Promise<string> {
  const identity = await (compilerIdentity ??= hashCompilerCode());
  return createHash("sha256").update(identity).update("\n").update(key).digest("hex") + SUFFIX;
}

/**
 * What a module depends on besides its query: the code of the compiler and of the runtime
 * (the store's memory layout the module reads, the host functions it calls), hashed once per
 * process (milliseconds), so an upgraded server never runs a module an older build made.
 */
async function hashCompilerCode(): Promise<string> {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
  const hash = createHash("sha256");
  for (const folder of ["compiler", "runtime-wasm"]) {
    const entries = await fsp.readdir(path.join(root, folder), { recursive: true, withFileTypes: true }).catch(() => []);
    const files = entries.filter((e) => e.isFile() && /\.(js|wasm)$/.test(e.name)).map((e) => path.join(e.parentPath, e.name)).sort();
    for (const file of files) hash.update(path.relative(root, file)).update(await fsp.readFile(file));
  }
  return hash.digest("hex");
}
