// Reads the entry-ordered attribute copies a version's headers show (store
// tables/entry-copies.ts) and checks them against the version's columns: every entry's value in
// every copy must equal the column's value at the entry's eid.
import { expect } from "chai";
import type { GraphStore } from "../../../runtime-wasm/store/index.js";
import { ADJ, COL, ET, VH } from "../../../runtime-wasm/store/layout.js";

interface StoreInternals {
  state: { edgeByKey: Map<string, { ordinal: number; reversed: boolean }> };
}

/** Copies found per edge type (one per adjacency and attribute) and the values checked. */
export function checkCopies(store: GraphStore, header: number): { copies: Record<string, number>; values: number } {
  const u32 = new Uint32Array(store.memory.buffer);
  const state = (store as unknown as StoreInternals).state;
  const vertexSlots = u32[(header + VH.VERTEX_TYPE_SLOTS) >>> 2];
  const copies: Record<string, number> = {};
  let values = 0;
  for (const [key, ref] of state.edgeByKey) {
    if (ref.reversed) continue;
    copies[key] = 0;
    const et = u32[(u32[(header + VH.EDGE_TYPE_TABLE) >>> 2] >>> 2) + ref.ordinal];
    if (et === 0) continue;
    const columns = u32[(et + ET.ATTRIBUTE_TABLE) >>> 2];
    const outTable = u32[(et + ET.OUT_TABLE) >>> 2];
    const inTable = u32[(et + ET.IN_TABLE) >>> 2];
    for (const table of inTable === outTable ? [outTable] : [outTable, inTable]) {
      for (let ordinal = 0; ordinal < vertexSlots; ordinal++) {
        const adj = u32[(table >>> 2) + ordinal];
        if (adj === 0) continue;
        const copyTable = u32[(adj + ADJ.ENTRY_COPIES) >>> 2];
        if (copyTable === 0) continue;
        const base = u32[(adj + ADJ.ENTRY_BASE) >>> 2];
        const end = u32[(adj + ADJ.ENTRY_END) >>> 2];
        expect(end - base, "copied range").to.equal(u32[(adj + ADJ.ENTRY_COUNT) >>> 2] * 8);
        for (let attribute = 0; attribute < u32[(et + ET.ATTRIBUTE_SLOTS) >>> 2]; attribute++) {
          const delta = u32[(copyTable >>> 2) + attribute];
          if (delta === 0) continue;
          copies[key]++;
          const column = u32[(columns + attribute * COL.BYTES + COL.ADDRESS) >>> 2];
          for (let entry = base; entry < end; entry += 8) {
            const eid = u32[(entry + 4) >>> 2];
            const copy = (entry + delta) >>> 0;
            expect([u32[copy >>> 2], u32[(copy >>> 2) + 1]]).to.deep.equal([u32[(column >>> 2) + eid * 2], u32[(column >>> 2) + eid * 2 + 1]]);
            values++;
          }
        }
      }
    }
  }
  return { copies, values };
}

export function currentHeader(store: GraphStore): number {
  return store.read((s) => s.headerAddress);
}
