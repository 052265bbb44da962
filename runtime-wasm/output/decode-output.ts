// Query output: turns the typed stream a query module wrote for its PRINT statements (see
// `Out` in query/abi.ts) into the JSON text of the response's `results` array.
//
// The worker copies the stream out of the run's arena (query/output-chain.ts) before the
// arena is reused; this formats that copy. Numbers are formatted by their GSQL type, from
// their bits: 64-bit integers go from their 8 bytes to decimal text and never through a
// JavaScript number. The text is written as bytes into one buffer (json-bytes.ts) and
// becomes a string once at the end; the stream's strings are escaped from their UTF-8 bytes.
import { Out } from "../query/abi.js";
import { JsonBytes, jsonPart, type JsonPart } from "./json-bytes.js";
import { formatDatetime, formatDouble, formatFloat, type FloatStyle } from "../values/index.js";
import type { GraphReader } from "./graph-reader.js";

export interface OutputManifest {
  /** Key texts referenced by `Out.Key`, by index. */
  keys: string[];
}

export interface DecodeOptions {
  floatStyle?: FloatStyle;
  /** Needed when the output holds vertices or edges. */
  reader?: GraphReader;
}

/** Thrown when the stream is malformed (a bug in the generated code, never user input). */
export class OutputFormatError extends Error {}

/** The `results` array text for an output stream (empty: nothing printed). */
export function decodeOutput(stream: Uint8Array, manifest: OutputManifest, options: DecodeOptions = {}): string {
  return new OutputDecoder(stream, manifest, options).decode();
}

/** Punctuation bytes. */
const enum C {
  comma = 0x2c,
  colon = 0x3a,
  openArray = 0x5b,
  closeArray = 0x5d,
  openObject = 0x7b,
  closeObject = 0x7d,
}

const VERTEX_START = jsonPart('{"v_id":');

/** A container being written: whether it already holds a member (for commas). */
interface Frame {
  kind: "print" | "object" | "array" | "vertex";
  filled: boolean;
}

class OutputDecoder {
  private readonly view: DataView;
  private pos = 0;
  private readonly out: JsonBytes;
  private readonly frames: Frame[] = [];
  private readonly floatStyle: FloatStyle;
  /** `"key":` per manifest key index, and `,"v_type":"T","attributes":{` per vertex type: made once, not per record. */
  private readonly keyPrefixes: (JsonPart | undefined)[] = [];
  private readonly typeParts = new Map<string, JsonPart>();

  constructor(
    private readonly bytes: Uint8Array,
    private readonly manifest: OutputManifest,
    private readonly options: DecodeOptions,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // vertex records print about three bytes of text per byte of stream
    this.out = new JsonBytes(bytes.length * 3);
    this.floatStyle = options.floatStyle ?? "significant";
  }

  decode(): string {
    this.out.byte(C.openArray);
    let prints = 0;
    while (this.more()) {
      const tag = this.u8();
      if (tag !== Out.PrintBegin) throw new OutputFormatError(`expected a PRINT, found tag ${tag}`);
      if (prints++ > 0) this.out.byte(C.comma);
      this.out.byte(C.openObject);
      this.frames.push({ kind: "print", filled: false });
      this.members();
    }
    this.out.byte(C.closeArray);
    return this.out.finish();
  }

  /** Key/value pairs until the End closing the innermost frame. */
  private members(): void {
    for (;;) {
      const tag = this.u8();
      if (tag === Out.End) {
        this.close();
        return;
      }
      const frame = this.frames[this.frames.length - 1];
      if (frame.filled) this.out.byte(C.comma);
      frame.filled = true;
      if (tag === Out.Key) this.out.part(this.keyPrefix(this.u32()));
      else if (tag === Out.KeyText) (this.utf8String(), this.out.byte(C.colon));
      else if (tag === Out.KeyOf) (this.out.quoted(this.valueAsKey()), this.out.byte(C.colon));
      else throw new OutputFormatError(`expected a key, found tag ${tag}`);
      this.value(this.u8());
    }
  }

  /** Array elements until End. */
  private elements(): void {
    for (;;) {
      const tag = this.u8();
      if (tag === Out.End) {
        this.close();
        return;
      }
      const frame = this.frames[this.frames.length - 1];
      if (frame.filled) this.out.byte(C.comma);
      frame.filled = true;
      this.value(tag);
    }
  }

  private value(tag: number): void {
    const out = this.out;
    switch (tag) {
      case Out.Int:
        this.int();
        return;
      case Out.Uint:
        out.text(this.u64().toString());
        return;
      case Out.Float:
        out.text(formatFloat(this.f32(), this.floatStyle));
        return;
      case Out.Double:
        out.text(formatDouble(this.f64(), this.floatStyle));
        return;
      case Out.Bool:
        out.text(this.u8() !== 0 ? "true" : "false");
        return;
      case Out.String:
        this.utf8String();
        return;
      case Out.Datetime:
        out.quoted(formatDatetime(Number(this.i64())));
        return;
      case Out.DatetimeEpoch:
        out.text(this.i64().toString());
        return;
      case Out.VertexId:
        out.quoted(this.reader().vertexId(this.u32()));
        return;
      case Out.NoVertex:
        out.text('""');
        return;
      case Out.Edge: {
        const [type, from, to, slot] = [this.u32(), this.u32(), this.u32(), this.u32()];
        out.text(this.reader().edgeJson(type, from, to, slot));
        return;
      }
      case Out.RawJson:
        out.text(this.text());
        return;
      case Out.ObjectBegin:
        out.byte(C.openObject);
        this.frames.push({ kind: "object", filled: false });
        this.members();
        return;
      case Out.ArrayBegin:
        out.byte(C.openArray);
        this.frames.push({ kind: "array", filled: false });
        this.elements();
        return;
      case Out.VertexRecord:
        this.vertexRecord();
        return;
      default:
        throw new OutputFormatError(`unknown output tag ${tag}`);
    }
  }

  /** The text of the next value, used as an object key (MapAccum keys): strings without quotes. */
  private valueAsKey(): string {
    const mark = this.out.mark();
    this.value(this.u8());
    const text = this.out.cut(mark);
    return text.startsWith('"') ? (JSON.parse(text) as string) : text;
  }

  /** `{"v_id":..,"v_type":..,"attributes":{stored attributes?, then the listed members}}` */
  private vertexRecord(): void {
    const v = this.u32();
    const withAttributes = this.u8() !== 0;
    const reader = this.reader();
    const type = reader.vertexType(v);
    let typePart = this.typeParts.get(type);
    if (typePart === undefined) {
      typePart = jsonPart(`,"v_type":${JSON.stringify(type)},"attributes":{`);
      this.typeParts.set(type, typePart);
    }
    this.out.part(VERTEX_START);
    this.out.quoted(reader.vertexId(v));
    this.out.part(typePart);
    const stored = withAttributes ? reader.vertexAttributesJson(v) : "";
    this.out.text(stored);
    this.frames.push({ kind: "vertex", filled: stored.length > 0 });
    this.members();
  }

  private close(): void {
    const frame = this.frames.pop();
    if (frame === undefined) throw new OutputFormatError("End without an open container");
    if (frame.kind === "array") this.out.byte(C.closeArray);
    else if (frame.kind === "vertex") (this.out.byte(C.closeObject), this.out.byte(C.closeObject));
    else this.out.byte(C.closeObject);
  }

  private keyPrefix(index: number): JsonPart {
    let prefix = this.keyPrefixes[index];
    if (prefix === undefined) {
      prefix = jsonPart(`${JSON.stringify(this.keyText(index))}:`);
      this.keyPrefixes[index] = prefix;
    }
    return prefix;
  }

  private keyText(index: number): string {
    const key = this.manifest.keys[index];
    if (key === undefined) throw new OutputFormatError(`no key ${index} in the manifest`);
    return key;
  }

  private reader(): GraphReader {
    if (this.options.reader === undefined) throw new OutputFormatError("output holds graph elements but no graph reader was given");
    return this.options.reader;
  }

  // ---- reading the stream -------------------------------------------------------------

  private more(): boolean {
    return this.pos < this.bytes.length;
  }

  /** Makes sure `n` bytes remain; returns where they start. */
  private need(n: number): number {
    if (this.pos + n > this.bytes.length) throw new OutputFormatError("output stream ends inside an item");
    const at = this.pos;
    this.pos += n;
    return at;
  }

  private u8(): number {
    return this.bytes[this.need(1)];
  }
  private u32(): number {
    return this.view.getUint32(this.need(4), true);
  }
  /** An INT in decimal: through a JavaScript number when it is exact there (|x| < 2^53), else through a BigInt. */
  private int(): void {
    const at = this.need(8);
    const low = this.view.getUint32(at, true);
    const high = this.view.getInt32(at + 4, true);
    if (high >= -0x200000 && high < 0x200000) this.out.integer(high * 0x100000000 + low);
    else this.out.text(this.view.getBigInt64(at, true).toString());
  }
  private i64(): bigint {
    return this.view.getBigInt64(this.need(8), true);
  }
  private u64(): bigint {
    return this.view.getBigUint64(this.need(8), true);
  }
  private f32(): number {
    return this.view.getFloat32(this.need(4), true);
  }
  private f64(): number {
    return this.view.getFloat64(this.need(8), true);
  }
  private text(): string {
    const length = this.u32();
    const at = this.need(length);
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset + at, length).toString("utf8");
  }
  /** The next string of the stream, written as a JSON string from its UTF-8 bytes. */
  private utf8String(): void {
    const length = this.u32();
    this.out.quotedUtf8(this.bytes, this.need(length), length);
  }
}
