// Looking a primary id up in a type's id hash (layout.ts VT.ID_HASH). Shared by the writer's
// tables and the snapshot reader so both follow the one probing rule query modules follow.
import { DELETED_ENTRY, EMPTY_ENTRY, hashIdBytes, hashIdHalves } from "../layout.js";
import type { Arena } from "../memory/arena.js";
import type { Heap } from "../memory/heap.js";
import { keyHigh, keyLow, type IdKey } from "../values/ids.js";

/** Local slot holding `key` in the hash at `hashAddress` (over the id column at `idColumn`), or -1. */
export function probeId(arena: Arena, heap: Heap, hashAddress: number, hashCapacity: number, idColumn: number, key: IdKey): number {
  if (hashCapacity === 0) return -1;
  if (typeof key === "string") return probeText(arena, heap, hashAddress >>> 2, hashCapacity - 1, idColumn >>> 2, key);
  if (typeof key === "number") return probeHalves(arena.u32, arena.i32, hashAddress >>> 2, hashCapacity - 1, idColumn >>> 2, key | 0, Math.floor(key / 4294967296) | 0);
  return probeHalves(arena.u32, arena.i32, hashAddress >>> 2, hashCapacity - 1, idColumn >>> 2, keyLow(key), keyHigh(key));
}

function probeHalves(u32: Uint32Array, i32: Int32Array, base: number, mask: number, idBase: number, low: number, high: number): number {
  for (let h = hashIdHalves(low, high) & mask; ; h = (h + 1) & mask) {
    const e = u32[base + h];
    if (e === EMPTY_ENTRY) return -1;
    if (e !== DELETED_ENTRY && i32[idBase + e * 2] === low && i32[idBase + e * 2 + 1] === high) return e;
  }
}

function probeText(arena: Arena, heap: Heap, base: number, mask: number, idBase: number, key: string): number {
  const u32 = arena.u32;
  const length = heap.encode(key);
  const bytes = heap.scratchBytes;
  for (let h = hashIdBytes(bytes, 0, length) & mask; ; h = (h + 1) & mask) {
    const e = u32[base + h];
    if (e === EMPTY_ENTRY) return -1;
    if (e !== DELETED_ENTRY && heap.equals(u32[idBase + e], bytes, length)) return e;
  }
}
