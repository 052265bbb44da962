// Writer-side index of long edge lists: (local slot, target vid) → eid, so that finding an
// existing edge (upserts update instead of duplicating) stays O(1) for hub vertices where a
// scan of the list would be O(degree). Host memory only; the adjacency marks which lists it
// holds and fills it lazily (also after a load).
import { hashIdHalves } from "../layout.js";

const EMPTY = -1;
const DELETED = -2;

export class EdgeKeyIndex {
  private sources = new Int32Array(0);
  private targets = new Int32Array(0);
  private eids = new Int32Array(0);
  private used = 0;
  private live = 0;
  add(local: number, target: number, eid: number): void {
    target |= 0;
    if ((this.used + 1) * 4 > this.sources.length * 3) this.resize();
    const mask = this.sources.length - 1;
    for (let h = hashIdHalves(local, target) & mask; ; h = (h + 1) & mask) {
      const s = this.sources[h];
      if (s === EMPTY || s === DELETED) {
        if (s === EMPTY) this.used++;
        this.sources[h] = local;
        this.targets[h] = target;
        this.eids[h] = eid;
        this.live++;
        return;
      }
    }
  }

  remove(local: number, target: number, eid: number): void {
    if (this.sources.length === 0) return;
    target |= 0;
    const mask = this.sources.length - 1;
    for (let h = hashIdHalves(local, target) & mask; ; h = (h + 1) & mask) {
      const s = this.sources[h];
      if (s === EMPTY) return;
      if (s === local && this.targets[h] === target && this.eids[h] === eid) {
        this.sources[h] = DELETED;
        this.live--;
        return;
      }
    }
  }

  /** Call `visit(eid)` for every indexed edge (local → target) until it returns true; returns that eid, or -2 when none. */
  find(local: number, target: number, visit: ((eid: number) => boolean) | null): number {
    if (this.sources.length === 0) return -2;
    target |= 0;
    const mask = this.sources.length - 1;
    for (let h = hashIdHalves(local, target) & mask; ; h = (h + 1) & mask) {
      const s = this.sources[h];
      if (s === EMPTY) return -2;
      if (s === local && this.targets[h] === target && (visit === null || visit(this.eids[h]))) return this.eids[h];
    }
  }

  clear(): void {
    this.sources = new Int32Array(0);
    this.targets = new Int32Array(0);
    this.eids = new Int32Array(0);
    this.used = this.live = 0;
  }

  private resize(): void {
    // Load after a resize stays at most 0.5; the table grows again at 0.75.
    let capacity = 1024;
    while (capacity < (this.live + 1) * 2) capacity *= 2;
    const [sources, targets, eids] = [this.sources, this.targets, this.eids];
    this.sources = new Int32Array(capacity).fill(EMPTY);
    this.targets = new Int32Array(capacity);
    this.eids = new Int32Array(capacity);
    this.used = this.live = 0;
    for (let i = 0; i < sources.length; i++) if (sources[i] >= 0) this.add(sources[i], targets[i], eids[i]);
  }
}
