// The append-only heap for variable-length values: STRING / FIXED_BINARY text, string ids,
// and encoded collections and tuples. A value is a record [u32 byteLength][bytes] at a
// 4-aligned address; address 0 stands for the empty value. Records are never changed once
// written, so every version may share them; space of overwritten values is reclaimed when the
// store is rebuilt from an image.
import { alignUp } from "./arena.js";
import type { Region, Space } from "./space.js";

const MIN_CHUNK = 256 * 1024;
const MAX_CHUNK = 16 * 1024 * 1024;
/** Very short strings are interned: repeated values (a country code, a gender) share one record. */
const INTERN_MAX_CHARS = 8;
const INTERN_MAX_ENTRIES = 1 << 16;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class Heap {
  readonly chunks: Region[] = [];
  private current: Region | null = null;
  private used = 0;
  private scratch = new Uint8Array(1024);
  private readonly interned = new Map<string, number>();
  /** Bytes of records written (live or not). */
  recordBytes = 0;

  constructor(private readonly space: Space) {}

  /** Store a string; returns its record address (0 for ""). */
  putString(text: string): number {
    if (text.length === 0) return 0;
    if (text.length <= INTERN_MAX_CHARS) {
      const known = this.interned.get(text);
      if (known !== undefined) return known;
    }
    const bytes = this.encode(text);
    const addr = this.putBytes(this.scratch, bytes);
    if (text.length <= INTERN_MAX_CHARS && this.interned.size < INTERN_MAX_ENTRIES) this.interned.set(text, addr);
    return addr;
  }

  /** UTF-8 of `text` in a scratch buffer (valid until the next call); returns its length. */
  encode(text: string): number {
    if (this.scratch.length < text.length * 3) this.scratch = new Uint8Array(text.length * 3 + 64);
    // ASCII, the common case, needs no encoder call (and allocates nothing).
    const scratch = this.scratch;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 128) return encoder.encodeInto(text, scratch).written;
      scratch[i] = c;
    }
    return text.length;
  }

  get scratchBytes(): Uint8Array {
    return this.scratch;
  }

  /** Store `length` bytes of `source` as a record; returns its address (0 when empty). */
  putBytes(source: Uint8Array, length: number): number {
    if (length === 0) return 0;
    const size = alignUp(4 + length, 4);
    if (!this.current || this.used + size > this.current.bytes) this.newChunk(size);
    const addr = this.current!.addr + this.used;
    this.used += size;
    this.recordBytes += size;
    const arena = this.space.arena;
    arena.u32[addr >>> 2] = length;
    const u8 = arena.u8;
    if (length <= 64) for (let i = 0; i < length; i++) u8[addr + 4 + i] = source[i];
    else u8.set(source.subarray(0, length), addr + 4);
    return addr;
  }

  getString(addr: number): string {
    if (addr === 0) return "";
    const u8 = this.space.arena.u8;
    const length = this.space.arena.u32[addr >>> 2];
    return decoder.decode(u8.subarray(addr + 4, addr + 4 + length));
  }

  /** Whether the record at `addr` holds exactly `length` bytes equal to `bytes`. */
  equals(addr: number, bytes: Uint8Array, length: number): boolean {
    const arena = this.space.arena;
    if (addr === 0) return length === 0;
    if (arena.u32[addr >>> 2] !== length) return false;
    const u8 = arena.u8;
    const base = addr + 4;
    for (let i = 0; i < length; i++) if (u8[base + i] !== bytes[i]) return false;
    return true;
  }

  /** Release every chunk (the store is being cleared or rebuilt). */
  clear(): void {
    for (const chunk of this.chunks) this.space.release(chunk);
    this.chunks.length = 0;
    this.current = null;
    this.used = 0;
    this.interned.clear();
    this.recordBytes = 0;
  }

  get bytes(): number {
    let total = 0;
    for (const chunk of this.chunks) total += chunk.bytes;
    return total;
  }

  private newChunk(atLeast: number): void {
    const grown = Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, this.bytes / 4));
    const chunk = this.space.allocate(alignUp(Math.max(grown, atLeast), 8), false);
    this.chunks.push(chunk);
    this.current = chunk;
    this.used = 0;
  }
}
