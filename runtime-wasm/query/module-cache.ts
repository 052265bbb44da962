// Compiled query modules, one per installed query. Compiling the bytes is the costly part of
// making a module runnable (instantiating a compiled module takes well under a millisecond),
// so each installed query is compiled once and the same WebAssembly.Module goes to every run
// and every worker thread (modules cross threads by reference).
import { createHash } from "node:crypto";
import { compileQueryModule } from "./compile-module.js";

interface Entry {
  digest: string;
  module: Promise<WebAssembly.Module>;
}

export class ModuleCache {
  private readonly entries = new Map<string, Entry>();

  /** The compiled module for `key`; compiles when absent or when `bytes` changed. */
  get(key: string, bytes: Uint8Array): Promise<WebAssembly.Module> {
    const digest = createHash("sha256").update(bytes).digest("hex");
    const hit = this.entries.get(key);
    if (hit !== undefined && hit.digest === digest) return hit.module;
    const module = compileQueryModule(bytes);
    const entry = { digest, module };
    this.entries.set(key, entry);
    // A failed compile must not stay cached.
    module.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return module;
  }

  /** The module already compiled for `key`, if any. */
  peek(key: string): Promise<WebAssembly.Module> | undefined {
    return this.entries.get(key)?.module;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
