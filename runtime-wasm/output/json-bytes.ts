// A growing byte buffer that JSON text is written into, then read out as one string. The
// output decoder writes a whole `results` array here instead of collecting millions of small
// strings to join: a 262k-vertex PRINT makes 2M pieces, whose strings and the join were most
// of the formatting time and garbage. Text goes in as UTF-8; strings already held as UTF-8
// bytes (the query's output stream) are quoted and escaped straight from their bytes, with
// exactly JSON.stringify's escapes.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const HEX = "0123456789abcdef";
const encoder = new TextEncoder();

/** The escape JSON.stringify writes for a character below 0x20 (`\n`, `\u001f`, ...). */
const CONTROL_ESCAPES: Uint8Array[] = Array.from({ length: 0x20 }, (_, c) => {
  const short: Record<number, string> = { 0x08: "\\b", 0x09: "\\t", 0x0a: "\\n", 0x0c: "\\f", 0x0d: "\\r" };
  return encoder.encode(short[c] ?? `\\u00${HEX[c >> 4]}${HEX[c & 15]}`);
});

/** Text encoded once and written many times (a key's `"key":`, a vertex type's record part). */
export interface JsonPart {
  bytes: Uint8Array;
  wide: boolean;
}

export function jsonPart(text: string): JsonPart {
  const bytes = encoder.encode(text);
  return { bytes, wide: bytes.some((b) => b >= 0x80) };
}

/**
 * The buffer of the last finished text, reused by the next (formatting runs one at a time
 * on the thread): no fresh, zeroed buffer and no garbage per response. Kept up to this size.
 */
const KEPT_BYTES = 64 << 20;
let spare: Uint8Array | undefined;

export class JsonBytes {
  private bytes: Uint8Array;
  private pos = 0;
  /** Whether any byte >= 0x80 was written (the text then needs UTF-8 decoding, not Latin-1). */
  private wide = false;

  /** `expected`: a guess of the text's size in bytes. */
  constructor(expected = 0) {
    const size = Math.max(1 << 16, expected);
    if (spare !== undefined && spare.length >= size) {
      this.bytes = spare;
      spare = undefined;
    } else this.bytes = new Uint8Array(size);
  }

  /** Makes room for `n` more bytes. */
  private room(n: number): void {
    if (this.pos + n <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.pos + n) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.pos));
    this.bytes = grown;
  }

  byte(b: number): void {
    if (this.pos >= this.bytes.length) this.room(1);
    this.bytes[this.pos++] = b;
  }

  part(part: JsonPart): void {
    this.raw(part.bytes);
    if (part.wide) this.wide = true;
  }

  /** ASCII bytes. */
  private raw(bytes: Uint8Array): void {
    this.room(bytes.length);
    if (bytes.length > 16) this.bytes.set(bytes, this.pos);
    else for (let i = 0; i < bytes.length; i++) this.bytes[this.pos + i] = bytes[i];
    this.pos += bytes.length;
  }

  /** A safe integer (|n| < 2^53) in decimal. */
  integer(n: number): void {
    this.room(17);
    const bytes = this.bytes;
    if (n < 0) {
      bytes[this.pos++] = 0x2d;
      n = -n;
    }
    if (n < 10) {
      bytes[this.pos++] = 0x30 + n;
      return;
    }
    let digits = 1;
    for (let p = 10; p <= n; p *= 10) digits++;
    let at = this.pos + digits;
    this.pos = at;
    while (n >= 10) {
      const q = Math.floor(n / 10);
      bytes[--at] = 0x30 + (n - q * 10);
      n = q;
    }
    bytes[--at] = 0x30 + n;
  }

  /** Text as it is (already JSON: numbers, literals, formatted records), as UTF-8. */
  text(s: string): void {
    const n = s.length;
    this.room(n);
    const bytes = this.bytes;
    let pos = this.pos;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        this.pos = pos;
        this.textWide(s.slice(i));
        return;
      }
      bytes[pos++] = c;
    }
    this.pos = pos;
  }

  private textWide(s: string): void {
    this.wide = true;
    // UTF-8 takes at most 3 bytes per UTF-16 unit
    this.room(s.length * 3);
    this.pos += encoder.encodeInto(s, this.bytes.subarray(this.pos)).written;
  }

  /** A string as a JSON string literal, as JSON.stringify writes it. */
  quoted(s: string): void {
    const n = s.length;
    this.room(n + 2);
    const bytes = this.bytes;
    let pos = this.pos;
    bytes[pos++] = QUOTE;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c >= 0x80 || c === QUOTE || c === BACKSLASH) {
        // the rare characters: let JSON.stringify decide (escapes, lone surrogates)
        this.pos = pos;
        this.text(JSON.stringify(s.slice(i)).slice(1));
        return;
      }
      bytes[pos++] = c;
    }
    bytes[pos++] = QUOTE;
    this.pos = pos;
  }

  /** UTF-8 bytes as a JSON string literal: quotes, backslashes and control characters escaped. */
  quotedUtf8(src: Uint8Array, start: number, length: number): void {
    this.room(length + 2);
    this.bytes[this.pos++] = QUOTE;
    const end = start + length;
    let from = start;
    for (let i = start; i < end; i++) {
      const b = src[i];
      if (b >= 0x80) this.wide = true;
      else if (b < 0x20 || b === QUOTE || b === BACKSLASH) {
        this.copy(src, from, i);
        if (b < 0x20) this.raw(CONTROL_ESCAPES[b]);
        else (this.byte(BACKSLASH), this.byte(b));
        from = i + 1;
      }
    }
    this.copy(src, from, end);
    this.byte(QUOTE);
  }

  private copy(src: Uint8Array, from: number, to: number): void {
    if (to <= from) return;
    this.room(to - from);
    this.bytes.set(src.subarray(from, to), this.pos);
    this.pos += to - from;
  }

  /** Where the next byte goes (for `cut`). */
  mark(): number {
    return this.pos;
  }

  /** The text written since `mark`, taken back out of the buffer. */
  cut(mark: number): string {
    const text = this.decode(mark, this.pos);
    this.pos = mark;
    return text;
  }

  /** Everything written, as one string; the writer is done (its buffer goes back for reuse). */
  finish(): string {
    const text = this.decode(0, this.pos);
    if (this.bytes.length <= KEPT_BYTES && (spare === undefined || spare.length < this.bytes.length)) spare = this.bytes;
    this.bytes = new Uint8Array(0);
    this.pos = 0;
    return text;
  }

  private decode(from: number, to: number): string {
    const view = Buffer.from(this.bytes.buffer, this.bytes.byteOffset + from, to - from);
    return this.wide ? view.toString("utf8") : view.toString("latin1");
  }
}
