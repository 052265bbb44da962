// The JSON reader for request bodies. JSON.parse is not enough for this interface: clients
// send multi-edges as objects with repeated keys (which JSON.parse collapses), and 64-bit
// ids and attribute values must stay exact (which JS numbers cannot). So objects keep every
// entry in order, integers beyond 2^53 become bigint, nesting depth is bounded, and
// malformed text gets an error with its line and column.

/** A parsed JSON value. Objects keep all entries, duplicates included, in source order. */
export type JsonValue = null | boolean | string | number | bigint | JsonValue[] | JsonObject;

export interface JsonObject {
  entries: [string, JsonValue][];
}

export function isJsonObject(v: JsonValue): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Malformed JSON, with the 0-based offset and 1-based line/column of the problem. */
export class JsonSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${reason} at line ${line}, column ${column}`);
    this.name = "JsonSyntaxError";
  }
}

export interface JsonParseOptions {
  /** Deepest allowed nesting of arrays and objects. */
  maxDepth?: number;
}

export const DEFAULT_MAX_DEPTH = 64;

export function parseJsonBody(text: string, options: JsonParseOptions = {}): JsonValue {
  return readJsonBody(text, options, (reader) => reader.value(0));
}

/**
 * Reads a body with `read`, which consumes exactly one JSON value through the reader (for
 * bodies whose outer levels are walked as they are read, without building a tree).
 */
export function readJsonBody<T>(text: string, options: JsonParseOptions, read: (reader: JsonReader) => T): T {
  const reader = new JsonReader(text, options.maxDepth ?? DEFAULT_MAX_DEPTH);
  reader.skipSpace();
  if (reader.pos >= text.length) reader.fail("Empty body, a JSON value was expected");
  const result = read(reader);
  reader.skipSpace();
  if (reader.pos < text.length) reader.fail("Unexpected text after the JSON value");
  return result;
}

const SAFE_DIGITS = 15; // integers with at most 15 digits are always exact as JS numbers

export class JsonReader {
  pos = 0;
  constructor(
    readonly text: string,
    readonly maxDepth: number,
  ) {}

  fail(reason: string, at = this.pos): never {
    let line = 1;
    let lineStart = 0;
    const end = Math.min(at, this.text.length);
    for (let i = 0; i < end; i++) {
      if (this.text.charCodeAt(i) === 10) {
        line++;
        lineStart = i + 1;
      }
    }
    throw new JsonSyntaxError(reason, at, line, at - lineStart + 1);
  }

  skipSpace(): void {
    const t = this.text;
    let p = this.pos;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 32 || c === 10 || c === 13 || c === 9) p++;
      else break;
    }
    this.pos = p;
  }

  value(depth: number): JsonValue {
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case 123 /* { */:
        return this.object(depth + 1);
      case 91 /* [ */:
        return this.array(depth + 1);
      case 34 /* " */:
        return this.string();
      case 116 /* t */:
        return this.literal("true", true);
      case 102 /* f */:
        return this.literal("false", false);
      case 110 /* n */:
        return this.literal("null", null);
      default:
        if (c === 45 || (c >= 48 && c <= 57)) return this.number();
        if (Number.isNaN(c)) this.fail("Unexpected end of body");
        return this.fail(`Unexpected character ${describeChar(this.text, this.pos)}`);
    }
  }

  /** Whether the next value is an object (after white space). */
  atObject(): boolean {
    this.skipSpace();
    return this.text.charCodeAt(this.pos) === 123;
  }

  /**
   * Walks the object at the current position (the caller checked atObject()) without
   * building it: `onEntry` is called with each key and must consume that key's value
   * (with value(), or entries() again one level deeper).
   */
  entries(depth: number, onEntry: (key: string) => void): void {
    if (depth > this.maxDepth) this.fail(`JSON nesting deeper than ${this.maxDepth} levels`);
    this.pos++;
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) === 125) {
      this.pos++;
      return;
    }
    for (;;) {
      if (this.text.charCodeAt(this.pos) !== 34) this.expected("a string key");
      const key = this.string();
      this.skipSpace();
      if (this.text.charCodeAt(this.pos) !== 58) this.expected("':'");
      this.pos++;
      this.skipSpace();
      onEntry(key);
      this.skipSpace();
      const c = this.text.charCodeAt(this.pos);
      this.pos++;
      if (c === 44) {
        this.skipSpace();
        continue;
      }
      if (c === 125) return;
      this.pos--;
      this.expected("',' or '}'");
    }
  }

  object(depth: number): JsonObject {
    if (depth > this.maxDepth) this.fail(`JSON nesting deeper than ${this.maxDepth} levels`);
    this.pos++;
    const entries: [string, JsonValue][] = [];
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) === 125) {
      this.pos++;
      return { entries };
    }
    for (;;) {
      if (this.text.charCodeAt(this.pos) !== 34) this.expected("a string key");
      const key = this.string();
      this.skipSpace();
      if (this.text.charCodeAt(this.pos) !== 58) this.expected("':'");
      this.pos++;
      this.skipSpace();
      entries.push([key, this.value(depth)]);
      this.skipSpace();
      const c = this.text.charCodeAt(this.pos);
      this.pos++;
      if (c === 44) {
        this.skipSpace();
        continue;
      }
      if (c === 125) return { entries };
      this.pos--;
      this.expected("',' or '}'");
    }
  }

  array(depth: number): JsonValue[] {
    if (depth > this.maxDepth) this.fail(`JSON nesting deeper than ${this.maxDepth} levels`);
    this.pos++;
    const items: JsonValue[] = [];
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) === 93) {
      this.pos++;
      return items;
    }
    for (;;) {
      items.push(this.value(depth));
      this.skipSpace();
      const c = this.text.charCodeAt(this.pos);
      this.pos++;
      if (c === 44) {
        this.skipSpace();
        continue;
      }
      if (c === 93) return items;
      this.pos--;
      this.expected("',' or ']'");
    }
  }

  expected(what: string): never {
    if (this.pos >= this.text.length) this.fail(`Unexpected end of body, expected ${what}`);
    return this.fail(`Expected ${what} but found ${describeChar(this.text, this.pos)}`);
  }

  string(): string {
    const t = this.text;
    const start = ++this.pos;
    let p = start;
    // Fast path: no escapes, so the value is a slice of the text.
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 34) {
        this.pos = p + 1;
        return t.slice(start, p);
      }
      if (c === 92) break;
      if (c < 32 || Number.isNaN(c)) this.stringError(p);
      p++;
    }
    let out = t.slice(start, p);
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 34) {
        this.pos = p + 1;
        return out;
      }
      if (c < 32 || Number.isNaN(c)) this.stringError(p);
      if (c !== 92) {
        const runStart = p;
        while (p < t.length && t.charCodeAt(p) !== 92 && t.charCodeAt(p) !== 34 && t.charCodeAt(p) >= 32) p++;
        out += t.slice(runStart, p);
        continue;
      }
      const e = t.charCodeAt(p + 1);
      p += 2;
      switch (e) {
        case 34: out += '"'; break;
        case 92: out += "\\"; break;
        case 47: out += "/"; break;
        case 98: out += "\b"; break;
        case 102: out += "\f"; break;
        case 110: out += "\n"; break;
        case 114: out += "\r"; break;
        case 116: out += "\t"; break;
        case 117: {
          const hex = t.slice(p, p + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("Invalid \\u escape in string", p - 2);
          out += String.fromCharCode(parseInt(hex, 16));
          p += 4;
          break;
        }
        default:
          this.fail("Invalid escape in string", p - 2);
      }
    }
  }

  stringError(p: number): never {
    if (p >= this.text.length) this.fail("Unterminated string", p);
    return this.fail("Control character in string", p);
  }

  literal<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail(`Unexpected character ${describeChar(this.text, this.pos)}`);
    this.pos += word.length;
    return value;
  }

  number(): number | bigint {
    const t = this.text;
    const start = this.pos;
    let p = start;
    if (t.charCodeAt(p) === 45) p++;
    const intStart = p;
    if (t.charCodeAt(p) === 48) p++;
    else if (isDigit(t.charCodeAt(p))) while (isDigit(t.charCodeAt(p))) p++;
    else this.fail("Invalid number", start);
    const intDigits = p - intStart;
    let integral = true;
    if (t.charCodeAt(p) === 46) {
      integral = false;
      p++;
      if (!isDigit(t.charCodeAt(p))) this.fail("Invalid number: digits expected after '.'", p);
      while (isDigit(t.charCodeAt(p))) p++;
    }
    const e = t.charCodeAt(p);
    if (e === 101 || e === 69) {
      integral = false;
      p++;
      const s = t.charCodeAt(p);
      if (s === 43 || s === 45) p++;
      if (!isDigit(t.charCodeAt(p))) this.fail("Invalid number: digits expected in exponent", p);
      while (isDigit(t.charCodeAt(p))) p++;
    }
    this.pos = p;
    const text = t.slice(start, p);
    if (!integral || intDigits <= SAFE_DIGITS) return Number(text);
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : BigInt(text);
  }
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function describeChar(text: string, pos: number): string {
  const c = text.codePointAt(pos)!;
  return c >= 32 && c < 127 ? `'${String.fromCharCode(c)}'` : `U+${c.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Entries of an object as a plain lookup of the last value per key (for bodies where duplicates carry no meaning). */
export function lastByKey(obj: JsonObject): Map<string, JsonValue> {
  const m = new Map<string, JsonValue>();
  for (const [k, v] of obj.entries) m.set(k, v);
  return m;
}
