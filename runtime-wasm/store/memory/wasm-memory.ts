// The shared WebAssembly.Memory the store lives in. The project's TypeScript lib settings
// (ES2023, no DOM) carry no WebAssembly typings, so the store describes the part it uses
// structurally; a real WebAssembly.Memory satisfies it and can be passed to instantiate().
export const WASM_PAGE_BYTES = 65536;
/** wasm32 caps one memory at 65,536 pages (4 GiB). */
export const MAX_PAGES = 65536;

export interface WasmMemory {
  /** Re-read after every grow: a shared memory hands out a longer buffer, old ones keep their length. */
  readonly buffer: SharedArrayBuffer;
  grow(deltaPages: number): number;
}

interface WasmMemoryConstructor {
  new (descriptor: { initial: number; maximum: number; shared: boolean }): WasmMemory;
}

export function createSharedMemory(initialPages: number, maximumPages: number): WasmMemory {
  const wasm = (globalThis as unknown as { WebAssembly: { Memory: WasmMemoryConstructor } }).WebAssembly;
  return new wasm.Memory({ initial: initialPages, maximum: maximumPages, shared: true });
}
