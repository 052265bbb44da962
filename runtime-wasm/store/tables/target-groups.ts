// A run's new edges as the lists at their targets take them: grouped by target slot, in item
// order within a slot, as (source vid, eid) entries. Used by the merge thread (merge-thread.ts)
// and by the writer when it does that side itself (link-edges.ts appendAtTargets), so both
// follow one rule.
import type { NewEdges } from "./merge-helper.js";
import type { MergeGroups } from "./merge-lists.js";

/**
 * Fills `out` from `sorted` (the run's items by target slot, item order within a slot) with
 * the items that created an edge (`created` of them, NewEdges); returns the group count.
 * `qOfItem` is scratch of at least `edges.items` entries. A self-loop of an undirected type
 * is stored once, at its source: it is left out here. `out.starts` ends with the entry count.
 */
export function groupAtTargets(edges: NewEdges, created: number, sorted: Int32Array, qOfItem: Int32Array, out: Pick<MergeGroups, "targets" | "eids" | "groupSlots" | "starts">): number {
  const { items, undirected, dst, newTargets, newSources, newEids, newItems } = edges;
  qOfItem.fill(-1, 0, items);
  for (let q = 0; q < created; q++) qOfItem[newItems[q]] = q;
  const { targets, eids, groupSlots, starts } = out;
  let groups = 0;
  let last = -1;
  let m = 0;
  for (let j = 0; j < items; j++) {
    const k = sorted[j];
    const q = qOfItem[k];
    if (q < 0 || (undirected && newSources[q] === newTargets[q])) continue;
    const key = dst[k];
    if (key !== last) {
      groupSlots[groups] = key;
      starts[groups++] = m;
      last = key;
    }
    targets[m] = newSources[q];
    eids[m++] = newEids[q];
  }
  starts[groups] = m;
  return groups;
}
