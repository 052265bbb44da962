// Entry point of the graph store: the types of its API and of its memory layout. See api.ts
// for the contract and layout.ts for the memory ABI. The factories `createStore` and
// `loadStore` (signatures CreateStore / LoadStore in api.ts) are exported from here as well.
export type * from "./api.js";
export { UPSERT_OP_BY_NAME } from "./api.js";
export { StoreError, isStoreError } from "./errors.js";
export * from "./layout.js";
export type { WasmMemory } from "./memory/wasm-memory.js";
