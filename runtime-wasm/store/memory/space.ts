// Versioned regions: the copy-on-write rule that lets readers pin a version while writes go on.
//
// Every array the store keeps in memory is a Region stamped with the version that created it.
// Mutations build version `working` (= published + 1). A region created at or before the
// newest pinned version may be reachable from a pinned version, so it is frozen: writers copy
// it (`writable`) instead of changing it. Regions a mutation no longer references are retired
// at `working` and freed once no pinned version older than that remains.
import { alignUp, Arena } from "./arena.js";

export interface Region {
  addr: number;
  bytes: number;
  createdAt: number;
}

interface Retired {
  addr: number;
  bytes: number;
  retiredAt: number;
}

export class Space {
  /** Number of the last published version. */
  published = 0;
  private readonly pins = new Map<number, number>();
  private maxPinned = -1;
  private minPinned = Infinity;
  private retired: Retired[] = [];
  /** Entries of `retired` before this index are freed already. */
  private retiredHead = 0;
  retiredBytes = 0;
  /** Bytes of regions currently owned by the store (not retired). */
  liveBytes = 0;

  constructor(readonly arena: Arena) {}

  get working(): number {
    return this.published + 1;
  }

  /** A region some pinned version may read: copy before changing. */
  frozen(region: Region): boolean {
    return region.createdAt <= this.maxPinned;
  }

  allocate(bytes: number, zeroed = true): Region {
    const addr = zeroed ? this.arena.allocZeroed(bytes) : this.arena.alloc(bytes);
    this.liveBytes += bytes;
    return { addr, bytes, createdAt: this.working };
  }

  /** A region of at least `min` bytes: a free range of the memory (up to `max` bytes) when one fits, else `preferred` bytes (Arena.allocFlexible). Contents undefined. */
  allocateFlexible(min: number, preferred: number, max: number): Region {
    const { addr, bytes } = this.arena.allocFlexible(min, preferred, max);
    this.liveBytes += bytes;
    return { addr, bytes, createdAt: this.working };
  }

  /** A region no pinned version can read, cut to its first `bytes` (the rest is freed). */
  shrink(region: Region, bytes: number): Region {
    const keep = alignUp(Math.max(bytes, 8));
    if (keep >= region.bytes || this.frozen(region)) return region;
    this.arena.free(region.addr + keep, region.bytes - keep);
    this.liveBytes -= region.bytes - keep;
    return { addr: region.addr, bytes: keep, createdAt: region.createdAt };
  }

  /**
   * Give a region up: freed now when no pinned version can reach it (the published version
   * being superseded is never read again once this mutation publishes, and mutations cannot
   * fail after validation), else once no pin needs it.
   */
  release(region: Region | null | undefined): void {
    if (!region) return;
    this.liveBytes -= region.bytes;
    if (!this.frozen(region)) {
      this.arena.free(region.addr, region.bytes);
      return;
    }
    this.retired.push({ addr: region.addr, bytes: region.bytes, retiredAt: this.working });
    this.retiredBytes += region.bytes;
  }

  /** The region itself when it may be changed in place, else a copy (the original is released). */
  writable(region: Region): Region {
    if (!this.frozen(region)) return region;
    const copy = this.allocate(region.bytes, false);
    this.arena.u8.copyWithin(copy.addr, region.addr, region.addr + region.bytes);
    this.release(region);
    return copy;
  }

  /** A region of `bytes` holding the first `keep` bytes of `region` (rest zeroed); the old one is released. */
  resize(region: Region | null, bytes: number, keep: number): Region {
    const next = this.allocate(bytes, false);
    const u8 = this.arena.u8;
    const kept = region ? Math.min(keep, region.bytes, bytes) : 0;
    if (kept > 0) u8.copyWithin(next.addr, region!.addr, region!.addr + kept);
    u8.fill(0, next.addr + kept, next.addr + bytes);
    this.release(region);
    return next;
  }

  pin(version: number): void {
    this.pins.set(version, (this.pins.get(version) ?? 0) + 1);
    this.recomputePins();
  }

  unpin(version: number): void {
    const n = this.pins.get(version) ?? 0;
    if (n <= 1) this.pins.delete(version);
    else this.pins.set(version, n - 1);
    this.recomputePins();
    this.sweep();
  }

  /** The working version becomes the published one. */
  publish(): void {
    this.published++;
    this.sweep();
  }

  get pinnedVersions(): number {
    return this.pins.size;
  }

  private recomputePins(): void {
    let max = -1;
    let min = Infinity;
    for (const v of this.pins.keys()) {
      if (v > max) max = v;
      if (v < min) min = v;
    }
    this.maxPinned = max;
    this.minPinned = min;
  }

  /**
   * Free retired regions no pinned version can reach (a region retired at r is seen by versions
   * below r). Regions are retired in version order, so the freeable ones are a prefix.
   */
  private sweep(): void {
    const limit = Math.min(this.published, this.minPinned);
    let n = this.retiredHead;
    while (n < this.retired.length && this.retired[n].retiredAt <= limit) {
      const r = this.retired[n++];
      this.arena.free(r.addr, r.bytes);
      this.retiredBytes -= r.bytes;
    }
    this.retiredHead = n;
    if (n > 1024 && n * 2 > this.retired.length) {
      this.retired = this.retired.slice(n);
      this.retiredHead = 0;
    }
  }
}
