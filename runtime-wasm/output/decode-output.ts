// Query output: turns the typed stream a query module wrote for its PRINT statements (see
// `Out` in query/abi.ts) into the JSON text of the response's `results` array.
//
// The stream lives in a chain of chunks in the graph memory. Numbers are formatted by
// their GSQL type here, from their bits: 64-bit integers go straight from two 32-bit words
// to decimal text and never through a JavaScript number.
import { Out, OutputChunk } from "../query/abi.js";
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

/** The `results` array text for the stream starting at chunk `first` (0 = nothing printed). */
export function decodeOutput(memory: WebAssembly.Memory, first: number, manifest: OutputManifest, options: DecodeOptions = {}): string {
  return new OutputDecoder(memory, first, manifest, options).decode();
}

/** A container being written: whether it already holds a member (for commas). */
interface Frame {
  kind: "print" | "object" | "array" | "vertex";
  filled: boolean;
}

class OutputDecoder {
  private readonly bytes: Uint8Array;
  private readonly view: DataView;
  private chunk: number;
  private pos = 0;
  private end = 0;
  private out: string[] = [];
  private readonly frames: Frame[] = [];
  private readonly floatStyle: FloatStyle;

  constructor(
    memory: WebAssembly.Memory,
    first: number,
    private readonly manifest: OutputManifest,
    private readonly options: DecodeOptions,
  ) {
    this.bytes = new Uint8Array(memory.buffer);
    this.view = new DataView(memory.buffer);
    this.chunk = first;
    this.floatStyle = options.floatStyle ?? "significant";
    if (first !== 0) this.enterChunk(first);
  }

  decode(): string {
    this.out.push("[");
    let prints = 0;
    while (this.more()) {
      const tag = this.u8();
      if (tag !== Out.PrintBegin) throw new OutputFormatError(`expected a PRINT, found tag ${tag}`);
      if (prints++ > 0) this.out.push(",");
      this.out.push("{");
      this.frames.push({ kind: "print", filled: false });
      this.members();
    }
    this.out.push("]");
    return this.out.join("");
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
      if (frame.filled) this.out.push(",");
      frame.filled = true;
      if (tag === Out.Key) this.out.push(JSON.stringify(this.keyText(this.u32())), ":");
      else if (tag === Out.KeyText) this.out.push(JSON.stringify(this.text()), ":");
      else if (tag === Out.KeyOf) this.out.push(JSON.stringify(this.valueAsKey()), ":");
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
      if (frame.filled) this.out.push(",");
      frame.filled = true;
      this.value(tag);
    }
  }

  private value(tag: number): void {
    const out = this.out;
    switch (tag) {
      case Out.Int:
        out.push(this.i64().toString());
        return;
      case Out.Uint:
        out.push(this.u64().toString());
        return;
      case Out.Float:
        out.push(formatFloat(this.f32(), this.floatStyle));
        return;
      case Out.Double:
        out.push(formatDouble(this.f64(), this.floatStyle));
        return;
      case Out.Bool:
        out.push(this.u8() !== 0 ? "true" : "false");
        return;
      case Out.String:
        out.push(JSON.stringify(this.text()));
        return;
      case Out.Datetime:
        out.push(JSON.stringify(formatDatetime(Number(this.i64()))));
        return;
      case Out.DatetimeEpoch:
        out.push(this.i64().toString());
        return;
      case Out.VertexId:
        out.push(JSON.stringify(this.reader().vertexId(this.u32())));
        return;
      case Out.NoVertex:
        out.push('""');
        return;
      case Out.Edge: {
        const [type, from, to, slot] = [this.u32(), this.u32(), this.u32(), this.u32()];
        out.push(this.reader().edgeJson(type, from, to, slot));
        return;
      }
      case Out.RawJson:
        out.push(this.text());
        return;
      case Out.ObjectBegin:
        out.push("{");
        this.frames.push({ kind: "object", filled: false });
        this.members();
        return;
      case Out.ArrayBegin:
        out.push("[");
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
    const saved = this.out;
    this.out = [];
    this.value(this.u8());
    const text = this.out.join("");
    this.out = saved;
    return text.startsWith('"') ? (JSON.parse(text) as string) : text;
  }

  /** `{"v_id":..,"v_type":..,"attributes":{stored attributes?, then the listed members}}` */
  private vertexRecord(): void {
    const v = this.u32();
    const withAttributes = this.u8() !== 0;
    const reader = this.reader();
    this.out.push(`{"v_id":${JSON.stringify(reader.vertexId(v))},"v_type":${JSON.stringify(reader.vertexType(v))},"attributes":{`);
    const stored = withAttributes ? reader.vertexAttributesJson(v) : "";
    this.out.push(stored);
    this.frames.push({ kind: "vertex", filled: stored.length > 0 });
    this.members();
  }

  private close(): void {
    const frame = this.frames.pop();
    if (frame === undefined) throw new OutputFormatError("End without an open container");
    this.out.push(frame.kind === "array" ? "]" : frame.kind === "vertex" ? "}}" : "}");
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

  // ---- reading the chunk chain ----------------------------------------------------------

  private enterChunk(chunk: number): void {
    this.chunk = chunk;
    this.pos = chunk + OutputChunk.headerSize;
    this.end = this.pos + this.view.getUint32(chunk + OutputChunk.used, true);
  }

  /** True while bytes remain; moves on to the next chunk when this one is used up. */
  private more(): boolean {
    while (this.chunk !== 0 && this.pos >= this.end) {
      const next = this.view.getUint32(this.chunk + OutputChunk.next, true);
      if (next === 0) {
        this.chunk = 0;
        return false;
      }
      this.enterChunk(next);
    }
    return this.chunk !== 0;
  }

  /** Makes sure `n` bytes are readable in the current chunk (items never span chunks). */
  private need(n: number): number {
    if (!this.more() || this.pos + n > this.end) throw new OutputFormatError("output stream ends inside an item");
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
    return Buffer.from(this.bytes.buffer, at, length).toString("utf8");
  }
}
