// Entry point of the graph store: `createStore` / `loadStore` and the types of its API and of
// its memory layout. See api.ts for the contract and layout.ts for the memory ABI.
export type * from "./api.js";
export { UPSERT_OP_BY_NAME } from "./api.js";
export { StoreError, isStoreError } from "./errors.js";
export * from "./layout.js";
export type { WasmMemory } from "./memory/wasm-memory.js";
export { createStore, loadStore } from "./graph-store.js";
