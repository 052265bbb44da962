// The state shared by every emitter while one query module is built: the module itself,
// host functions imported on first use, run-wide globals, the output key table, string
// constants, and helper functions generated once per module on first use (allocator,
// output writer, container operations specialised per element type).
import { HOST_FUNCTIONS, HOST_MODULE, IMPORT_MEMORY, type HostFunctionName } from "../../runtime-wasm/query/abi.js";
import type { Binding } from "../../runtime-wasm/query/manifest.js";
import { WasmModule, type Expr, type ResultType, type ValueType, type FunctionScope } from "./module.js";

/** Run-wide globals every module has. */
export const G = {
  /** Address of the run-control block (argument of `run`). */
  ctl: "ctl",
  /** Bump allocator: next free byte and end of the current arena chunk. */
  heapPtr: "heap_ptr",
  heapEnd: "heap_end",
  /** Address of the table of free-list heads per buffer size class. */
  freeLists: "free_lists",
  /** Address of the string-constant area copied in at start. */
  strings: "strings",
  /** Output stream: first chunk, current chunk, write position, end of the current chunk. */
  outFirst: "out_first",
  outChunk: "out_chunk",
  outPos: "out_pos",
  outEnd: "out_end",
  /** The data-modification log: a second stream, swapped in while DML records are written. */
  dmlFirst: "dml_first",
  dmlChunk: "dml_chunk",
  dmlPos: "dml_pos",
  dmlEnd: "dml_end",
} as const;

const STRING_SEGMENT = "strings";

export class EmitContext {
  readonly m = new WasmModule();
  private readonly hostImported = new Set<HostFunctionName>();
  private readonly helpers = new Set<string>();
  private readonly keyIndexes = new Map<string, number>();
  readonly keys: string[] = [];
  private readonly stringOffsets = new Map<string, number>();
  private readonly stringBytes: Uint8Array[] = [];
  private stringSize = 0;
  private globalCount = 0;
  /** Schema elements the module reads (manifest bindings), by their JSON text. */
  readonly bindings: Binding[] = [];
  private readonly bindingIndexes = new Map<string, number>();

  constructor() {
    for (const name of Object.values(G)) this.m.global(name, "i32", 0);
    // Declared now so memory instructions built from here on name it; the string segment
    // is added when the module is finished and every constant is known.
    this.m.importSharedMemory({ module: IMPORT_MEMORY[0], base: IMPORT_MEMORY[1] });
  }

  /** Calls a host function, importing it on first use. */
  host(name: HostFunctionName, args: Expr[]): Expr {
    const sig = HOST_FUNCTIONS[name];
    if (!this.hostImported.has(name)) {
      this.m.importFunction(`rt_${name}`, [HOST_MODULE, name], [...sig.params] as ValueType[], sig.result as ResultType);
      this.hostImported.add(name);
    }
    return this.m.call(`rt_${name}`, args, sig.result as ResultType);
  }

  /**
   * Defines helper function `name` the first time it is asked for (by `build`), and returns
   * its name. Helpers specialised per type carry the type in their name.
   */
  helper(name: string, params: { name: string; type: ValueType }[], result: ResultType, build: (f: FunctionScope) => Expr | Expr[]): string {
    if (!this.helpers.has(name)) {
      this.helpers.add(name);
      this.m.func(name, params, result, build);
    }
    return name;
  }

  /** Declares module global `name` the first time it is asked for; returns the name. */
  ensureGlobal(name: string, type: ValueType, initial: number | bigint = 0): string {
    if (!this.globals.has(name)) {
      this.globals.add(name);
      this.m.global(name, type, initial);
    }
    return name;
  }
  private readonly globals = new Set<string>();

  /** A fresh module-global name (e.g. for a global accumulator). */
  newGlobal(prefix: string, type: ValueType, initial: number | bigint = 0): string {
    const name = `${prefix}_${this.globalCount++}`;
    this.m.global(name, type, initial);
    return name;
  }

  /** Index of a schema element in the manifest's bindings (added on first use). */
  bind(b: Binding): number {
    const key = JSON.stringify(b);
    let i = this.bindingIndexes.get(key);
    if (i === undefined) {
      i = this.bindings.length;
      this.bindings.push(b);
      this.bindingIndexes.set(key, i);
    }
    return i;
  }

  /** Index of an output key in the manifest's key table. */
  keyIndex(text: string): number {
    let i = this.keyIndexes.get(text);
    if (i === undefined) {
      i = this.keys.length;
      this.keys.push(text);
      this.keyIndexes.set(text, i);
    }
    return i;
  }

  /** Offset and byte length of a string constant in the string area. */
  stringConstant(text: string): { offset: number; length: number } {
    const bytes = Buffer.from(text, "utf8");
    let offset = this.stringOffsets.get(text);
    if (offset === undefined) {
      offset = this.stringSize;
      this.stringOffsets.set(text, offset);
      this.stringBytes.push(bytes);
      this.stringSize += bytes.length;
    }
    return { offset, length: bytes.length };
  }

  get stringAreaSize(): number {
    return this.stringSize;
  }

  /**
   * Finishes the memory declaration: the string constants become a passive segment, and
   * `init_strings` (called by the prologue, see copyStrings) copies them into the arena.
   */
  finishMemory(alloc: (bytes: Expr) => Expr): void {
    const data = new Uint8Array(this.stringSize);
    let at = 0;
    for (const b of this.stringBytes) {
      data.set(b, at);
      at += b.length;
    }
    this.m.importSharedMemory({ module: IMPORT_MEMORY[0], base: IMPORT_MEMORY[1], segments: [{ name: STRING_SEGMENT, data }] });
    const m = this.m;
    m.func("init_strings", [], "none", () => [
      m.globalSet(G.strings, alloc(m.i32(Math.max(8, this.stringSize)))),
      m.memoryInit(STRING_SEGMENT, m.globalGet(G.strings, "i32"), m.i32(0), m.i32(this.stringSize)),
    ]);
  }

  /** Run prologue: copy the string constants into the arena (after the allocator is set up). */
  copyStrings(): Expr {
    return this.m.call("init_strings", [], "none");
  }
}
