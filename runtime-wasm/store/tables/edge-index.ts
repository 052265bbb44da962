// Writer-side index of long edge lists: (local slot, target vid) → eid, so that finding an
// existing edge (upserts update instead of duplicating) stays O(1) for hub vertices where a
// scan of the list would be O(degree). Host memory only; the adjacency marks which lists it
// holds and fills it lazily (also after a load).
import { hashIdHalves } from "../layout.js";

const EMPTY = -1;
const DELETED = -2;

/** Words per slot: [source, target, eid, unused] side by side, so a probe touches one cache line. */
const W = 4;

export class EdgeKeyIndex {
  private slots = new Int32Array(0);
  private mask = -1;
  private used = 0;
  private live = 0;

  add(local: number, target: number, eid: number): void {
    target |= 0;
    if ((this.used + 1) * 4 > (this.mask + 1) * 3) this.resize();
    const slots = this.slots;
    const mask = this.mask;
    for (let h = hashIdHalves(local, target) & mask; ; h = (h + 1) & mask) {
      const at = h * W;
      const s = slots[at];
      if (s === EMPTY || s === DELETED) {
        if (s === EMPTY) this.used++;
        slots[at] = local;
        slots[at + 1] = target;
        slots[at + 2] = eid;
        this.live++;
        return;
      }
    }
  }

  remove(local: number, target: number, eid: number): void {
    if (this.mask < 0) return;
    target |= 0;
    const slots = this.slots;
    const mask = this.mask;
    for (let h = hashIdHalves(local, target) & mask; ; h = (h + 1) & mask) {
      const at = h * W;
      const s = slots[at];
      if (s === EMPTY) return;
      if (s === local && slots[at + 1] === target && slots[at + 2] === eid) {
        slots[at] = DELETED;
        this.live--;
        return;
      }
    }
  }

  /** Call `visit(eid)` for every indexed edge (local → target) until it returns true; returns that eid, or -2 when none. */
  find(local: number, target: number, visit: ((eid: number) => boolean) | null): number {
    if (this.mask < 0) return -2;
    target |= 0;
    const slots = this.slots;
    const mask = this.mask;
    for (let h = hashIdHalves(local, target) & mask; ; h = (h + 1) & mask) {
      const at = h * W;
      const s = slots[at];
      if (s === EMPTY) return -2;
      if (s === local && slots[at + 1] === target && (visit === null || visit(slots[at + 2]))) return slots[at + 2];
    }
  }

  clear(): void {
    this.slots = new Int32Array(0);
    this.mask = -1;
    this.used = this.live = 0;
  }

  private resize(): void {
    // Load after a resize stays at most 0.5; the table grows again at 0.75.
    let capacity = 1024;
    while (capacity < (this.live + 1) * 2) capacity *= 2;
    const old = this.slots;
    this.slots = new Int32Array(capacity * W);
    for (let h = 0; h < capacity; h++) this.slots[h * W] = EMPTY;
    this.mask = capacity - 1;
    this.used = this.live = 0;
    for (let at = 0; at < old.length; at += W) if (old[at] >= 0) this.add(old[at], old[at + 1], old[at + 2]);
  }
}
