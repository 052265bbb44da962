// Looking a primary id up in a type's id hash (layout.ts VT.ID_HASH). Shared by the writer's
// tables and the snapshot reader so both follow the one probing rule query modules follow.
import { DELETED_ENTRY, EMPTY_ENTRY, hashIdBytes, hashIdHalves } from "../layout.js";
import type { Arena } from "../memory/arena.js";
import type { Heap } from "../memory/heap.js";
import { keyHigh, keyLow, type IdKey } from "../values/ids.js";

/** Local slot holding `key` in the hash at `hashAddress` with `hashCapacity` entries, or -1. */
export function probeId(arena: Arena, heap: Heap, hashAddress: number, hashCapacity: number, key: IdKey): number {
  if (hashCapacity === 0) return -1;
  if (typeof key === "string") return probeText(arena, heap, hashAddress >>> 2, hashCapacity - 1, key);
  if (typeof key === "number") return probeHalves(arena.u32, arena.i32, hashAddress >>> 2, hashCapacity - 1, key | 0, Math.floor(key / 4294967296) | 0);
  return probeHalves(arena.u32, arena.i32, hashAddress >>> 2, hashCapacity - 1, keyLow(key), keyHigh(key));
}

function probeHalves(u32: Uint32Array, i32: Int32Array, base: number, mask: number, low: number, high: number): number {
  for (let h = hashIdHalves(low, high) & mask; ; h = (h + 1) & mask) {
    const at = base + h * 3;
    const e = u32[at];
    if (e === EMPTY_ENTRY) return -1;
    if (i32[at + 1] === low && i32[at + 2] === high && e !== DELETED_ENTRY) return e;
  }
}

function probeText(arena: Arena, heap: Heap, base: number, mask: number, key: string): number {
  const u32 = arena.u32;
  const length = heap.encode(key);
  const bytes = heap.scratchBytes;
  const hash = hashIdBytes(bytes, 0, length);
  for (let h = hash & mask; ; h = (h + 1) & mask) {
    const at = base + h * 3;
    const e = u32[at];
    if (e === EMPTY_ENTRY) return -1;
    if (u32[at + 1] === hash && e !== DELETED_ENTRY && heap.equals(u32[at + 2], bytes, length)) return e;
  }
}
