// The write-ahead log's compact binary form of a loading job's batch ("load-batch" command):
// columnar, so a batch of a million edges is a few typed copies instead of a JSON text of
// a million objects. Items are cut into runs of consecutive items that share their types,
// flag and attribute names/operators (a load statement writes long such runs); each run
// stores one column per id and per attribute.
//
// Payload = 'B' (the format byte beside command-codec's 'J' and 'T'), version byte 1, then
// (little endian; str = u32 byte length + UTF-8):
//   graph str
//   u32 vertex runs, each: type str, newVertexOnly u8, u32 n, signature, id column, attribute columns
//   u32 edge runs, each: type str, from type str, to type str, vertexMustExist u8, u32 n,
//                        signature, from-id column, to-id column, attribute columns
//   u32 byte length + command-codec payload of { vertexDeletes, edgeDeletes } (rare in loads)
// signature = u32 k, then k × (attribute name str, operator str)
// column = kind u8, then:
//   1 int32:   n × i32 (every value an integer number in int32 range, not -0)
//   2 float64: n × f64 (every value a number: keeps -0, NaN, ±Infinity exactly)
//   3 string:  n × u32 UTF-16 lengths, then one text holding the values joined
// text = u8 0 + str, or u8 1 + u32 byte length + UTF-16LE (a string with a lone surrogate)
//   4 values:  n tagged values (any mix; see writeValue)
// Values come back exactly as they were: same JS types (bigint stays bigint), same keys in
// the same order, same order of items.
import type { AttrValue } from "../../runtime-wasm/schema/types.js";
import { edgeCount, emptyBatch, pushEdge, type AttributeWrite, type EdgeRun, type LoadBatch, type VertexId, type VertexWrite, type WriteOp } from "../loading/sink.js";
import { decodeCommand, encodeCommand, type CommandValue } from "./command-codec.js";

export const LOAD_BATCH_FORMAT = 0x42; // 'B'
const VERSION = 1;

export interface LoadBatchCommandShape {
  kind: "load-batch";
  graph: string;
  batch: LoadBatch;
}

export function isLoadBatchCommand(value: unknown): value is LoadBatchCommandShape {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "load-batch" && typeof (value as { batch?: unknown }).batch === "object";
}

const COL_INT32 = 1;
const COL_FLOAT64 = 2;
const COL_STRING = 3;
const COL_VALUES = 4;

const V_FALSE = 0;
const V_TRUE = 1;
const V_INT32 = 2;
const V_FLOAT64 = 3;
const V_BIGINT = 4;
const V_STRING = 5;
const V_ARRAY = 6;
const V_OBJECT = 7;

/** Payloads encoded where a batch was read (the loader's reader thread), by batch. */
const encodedBatches = new WeakMap<LoadBatch, { graph: string; payload: Uint8Array }>();

/**
 * Notes that `payload` is encodeLoadBatchCommand's result for this batch of `graph` (made by
 * the thread that read it, so the thread that applies it does not encode it again). The batch
 * must not change afterwards.
 */
export function noteEncodedLoadBatch(graph: string, batch: LoadBatch, payload: Uint8Array): void {
  encodedBatches.set(batch, { graph, payload });
}

export function encodeLoadBatchCommand(command: LoadBatchCommandShape): Buffer {
  const known = encodedBatches.get(command.batch);
  if (known !== undefined && known.graph === command.graph) return Buffer.from(known.payload.buffer, known.payload.byteOffset, known.payload.byteLength);
  const w = new ByteWriter(1024 + edgeCount(command.batch) * 8 + command.batch.vertices.length * 8);
  w.u8(LOAD_BATCH_FORMAT);
  w.u8(VERSION);
  w.str(command.graph);
  const { vertices, edgeRuns, vertexDeletes, edgeDeletes } = command.batch;
  const vertexRuns = runs(vertices, sameVertexRun);
  w.u32(vertexRuns.length);
  for (const [start, end] of vertexRuns) {
    const first = vertices[start]!;
    w.str(first.type);
    w.u8(first.newVertexOnly ? 1 : 0);
    w.u32(end - start);
    writeSignature(w, first.attributes);
    writeColumn(w, end - start, (i) => vertices[start + i]!.id as AttrValue);
    writeAttributeColumns(w, vertices, start, end);
  }
  const parts: [EdgeRun, number, number][] = [];
  for (const run of edgeRuns) {
    const attributes = run.attributes;
    if (attributes === undefined) parts.push([run, 0, run.from.length]);
    else for (const [start, end] of runs(attributes, sameSignature)) parts.push([run, start, end]);
  }
  w.u32(parts.length);
  for (const [run, start, end] of parts) {
    w.str(run.type);
    w.str(run.fromType);
    w.str(run.toType);
    w.u8(run.vertexMustExist ? 1 : 0);
    w.u32(end - start);
    const attributes = run.attributes;
    writeSignature(w, attributes?.[start] ?? []);
    writeColumn(w, end - start, (i) => run.from[start + i] as AttrValue);
    writeColumn(w, end - start, (i) => run.to[start + i] as AttrValue);
    const k = attributes?.[start]?.length ?? 0;
    for (let a = 0; a < k; a++) writeColumn(w, end - start, (i) => attributes![start + i]![a]!.value);
  }
  const rest = encodeCommand({ vertexDeletes, edgeDeletes } as unknown as CommandValue);
  w.u32(rest.length);
  w.bytes(rest);
  return w.finish();
}

export function decodeLoadBatchCommand(payload: Uint8Array): LoadBatchCommandShape {
  const r = new ByteReader(payload);
  if (r.u8() !== LOAD_BATCH_FORMAT) throw new Error("not a binary load batch record");
  const version = r.u8();
  if (version !== VERSION) throw new Error(`logged load batch has unknown version ${version}`);
  const graph = r.str();
  const vertices: VertexWrite[] = [];
  for (let runCount = r.u32(); runCount > 0; runCount--) {
    const type = r.str();
    const newVertexOnly = r.u8() === 1;
    const n = r.u32();
    const signature = readSignature(r);
    const ids = readColumn(r, n);
    const columns = signature.map(() => readColumn(r, n));
    for (let i = 0; i < n; i++) vertices.push({ type, id: ids[i]! as VertexWrite["id"], attributes: attributesAt(signature, columns, i), newVertexOnly });
  }
  // Runs are rebuilt item by item, as the loader built them (parts of one run join again).
  const batch = emptyBatch();
  for (let runCount = r.u32(); runCount > 0; runCount--) {
    const type = r.str();
    const fromType = r.str();
    const toType = r.str();
    const vertexMustExist = r.u8() === 1;
    const n = r.u32();
    const signature = readSignature(r);
    const from = readColumn(r, n);
    const to = readColumn(r, n);
    const columns = signature.map(() => readColumn(r, n));
    for (let i = 0; i < n; i++) pushEdge(batch, type, fromType, toType, vertexMustExist, from[i]! as VertexId, to[i]! as VertexId, attributesAt(signature, columns, i));
  }
  const rest = decodeCommand(r.bytes(r.u32())) as unknown as Pick<LoadBatch, "vertexDeletes" | "edgeDeletes">;
  if (!r.atEnd) throw new Error("logged load batch has bytes after its end");
  return { kind: "load-batch", graph, batch: { vertices, edgeRuns: batch.edgeRuns, vertexDeletes: rest.vertexDeletes, edgeDeletes: rest.edgeDeletes } };
}

/** [start, end) ranges of consecutive items for which `same(first, item)` holds. */
function runs<T>(items: readonly T[], same: (a: T, b: T) => boolean): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  for (let i = 1; i <= items.length; i++) {
    if (i < items.length && same(items[start]!, items[i]!)) continue;
    if (i > start) out.push([start, i]);
    start = i;
  }
  return out;
}

function sameVertexRun(a: VertexWrite, b: VertexWrite): boolean {
  return a.type === b.type && a.newVertexOnly === b.newVertexOnly && sameSignature(a.attributes, b.attributes);
}

function sameSignature(a: readonly AttributeWrite[], b: readonly AttributeWrite[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.name !== b[i]!.name || a[i]!.op !== b[i]!.op) return false;
  return true;
}

function writeSignature(w: ByteWriter, attributes: readonly AttributeWrite[]): void {
  w.u32(attributes.length);
  for (const a of attributes) {
    w.str(a.name);
    w.str(a.op);
  }
}

function readSignature(r: ByteReader): { name: string; op: WriteOp }[] {
  const out: { name: string; op: WriteOp }[] = [];
  for (let k = r.u32(); k > 0; k--) out.push({ name: r.str(), op: r.str() as WriteOp });
  return out;
}

function writeAttributeColumns(w: ByteWriter, items: readonly { attributes: AttributeWrite[] }[], start: number, end: number): void {
  const k = items[start]!.attributes.length;
  for (let a = 0; a < k; a++) writeColumn(w, end - start, (i) => items[start + i]!.attributes[a]!.value);
}

function attributesAt(signature: readonly { name: string; op: WriteOp }[], columns: readonly AttrValue[][], i: number): AttributeWrite[] {
  const out: AttributeWrite[] = new Array<AttributeWrite>(signature.length);
  for (let a = 0; a < signature.length; a++) out[a] = { name: signature[a]!.name, value: columns[a]![i]!, op: signature[a]!.op };
  return out;
}

// String.prototype.isWellFormed (ES2024) is in Node 20, not yet in the TypeScript lib we target.
const isWellFormed = (s: string) => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

const isInt32 = (v: number) => (v | 0) === v && (v !== 0 || 1 / v > 0);

/** One column of n values, in the narrowest kind that holds all of them exactly. */
function writeColumn(w: ByteWriter, n: number, valueAt: (i: number) => AttrValue): void {
  let allInt32 = true;
  let allNumbers = true;
  let allStrings = true;
  for (let i = 0; i < n && (allNumbers || allStrings); i++) {
    const v = valueAt(i);
    if (typeof v === "number") {
      allStrings = false;
      if (allInt32 && !isInt32(v)) allInt32 = false;
    } else {
      allNumbers = false;
      allInt32 = false;
      if (typeof v !== "string") allStrings = false;
    }
  }
  if (n > 0 && allNumbers && allInt32) {
    w.u8(COL_INT32);
    const at = w.reserve(4 * n);
    for (let i = 0; i < n; i++) w.view.setInt32(at + 4 * i, valueAt(i) as number, true);
  } else if (n > 0 && allNumbers) {
    w.u8(COL_FLOAT64);
    const at = w.reserve(8 * n);
    for (let i = 0; i < n; i++) w.view.setFloat64(at + 8 * i, valueAt(i) as number, true);
  } else if (n > 0 && allStrings) {
    w.u8(COL_STRING);
    const at = w.reserve(4 * n);
    const parts = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      const s = valueAt(i) as string;
      parts[i] = s;
      w.view.setUint32(at + 4 * i, s.length, true);
    }
    w.text(parts.join(""));
  } else {
    w.u8(COL_VALUES);
    for (let i = 0; i < n; i++) writeValue(w, valueAt(i));
  }
}

function readColumn(r: ByteReader, n: number): AttrValue[] {
  const out = new Array<AttrValue>(n);
  const kind = r.u8();
  switch (kind) {
    case COL_INT32: {
      const at = r.skip(4 * n);
      for (let i = 0; i < n; i++) out[i] = r.view.getInt32(at + 4 * i, true);
      return out;
    }
    case COL_FLOAT64: {
      const at = r.skip(8 * n);
      for (let i = 0; i < n; i++) out[i] = r.view.getFloat64(at + 8 * i, true);
      return out;
    }
    case COL_STRING: {
      const at = r.skip(4 * n);
      const joined = r.text();
      let offset = 0;
      for (let i = 0; i < n; i++) {
        const length = r.view.getUint32(at + 4 * i, true);
        if (offset + length > joined.length) throw new Error("logged load batch has a string column longer than its text");
        out[i] = joined.slice(offset, offset + length);
        offset += length;
      }
      return out;
    }
    case COL_VALUES:
      for (let i = 0; i < n; i++) out[i] = readValue(r);
      return out;
    default:
      throw new Error(`logged load batch has unknown column kind ${kind}`);
  }
}

function writeValue(w: ByteWriter, v: AttrValue): void {
  switch (typeof v) {
    case "boolean":
      w.u8(v ? V_TRUE : V_FALSE);
      return;
    case "number":
      if (isInt32(v)) {
        w.u8(V_INT32);
        const at = w.reserve(4);
        w.view.setInt32(at, v, true);
      } else {
        w.u8(V_FLOAT64);
        const at = w.reserve(8);
        w.view.setFloat64(at, v, true);
      }
      return;
    case "bigint":
      w.u8(V_BIGINT);
      w.str(v.toString());
      return;
    case "string":
      w.u8(V_STRING);
      w.text(v);
      return;
    case "object":
      if (Array.isArray(v)) {
        w.u8(V_ARRAY);
        w.u32(v.length);
        for (const item of v as AttrValue[]) writeValue(w, item);
        return;
      }
      if (v !== null) {
        const keys = Object.keys(v);
        w.u8(V_OBJECT);
        w.u32(keys.length);
        for (const key of keys) {
          w.str(key);
          writeValue(w, v[key]!);
        }
        return;
      }
  }
  throw new TypeError(`a load batch holds a value the log cannot write (${typeof v})`);
}

function readValue(r: ByteReader): AttrValue {
  const tag = r.u8();
  switch (tag) {
    case V_FALSE:
      return false;
    case V_TRUE:
      return true;
    case V_INT32:
      return r.view.getInt32(r.skip(4), true);
    case V_FLOAT64:
      return r.view.getFloat64(r.skip(8), true);
    case V_BIGINT:
      return BigInt(r.str());
    case V_STRING:
      return r.text();
    case V_ARRAY: {
      const out: AttrValue[] = [];
      for (let n = r.u32(); n > 0; n--) out.push(readValue(r));
      return out;
    }
    case V_OBJECT: {
      const out: { [field: string]: AttrValue } = {};
      for (let n = r.u32(); n > 0; n--) {
        const key = r.str();
        out[key] = readValue(r);
      }
      return out;
    }
    default:
      throw new Error(`logged load batch has unknown value tag ${tag}`);
  }
}

/** An append-only byte buffer that doubles as it fills. */
class ByteWriter {
  private buffer: Buffer;
  view: DataView;
  private length = 0;

  constructor(capacity: number) {
    this.buffer = Buffer.allocUnsafe(capacity);
    this.view = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.byteLength);
  }

  /** Makes room for `bytes` more bytes and returns where they start. */
  reserve(bytes: number): number {
    const at = this.length;
    if (at + bytes > this.buffer.length) {
      const next = Buffer.allocUnsafe(Math.max(at + bytes, this.buffer.length * 2));
      this.buffer.copy(next, 0, 0, at);
      this.buffer = next;
      this.view = new DataView(next.buffer, next.byteOffset, next.byteLength);
    }
    this.length = at + bytes;
    return at;
  }

  u8(v: number): void {
    const at = this.reserve(1);
    this.buffer[at] = v;
  }

  u32(v: number): void {
    // Reserve first: it may replace the view.
    const at = this.reserve(4);
    this.view.setUint32(at, v, true);
  }

  str(s: string): void {
    const at = this.reserve(4);
    // At most 3 bytes per UTF-16 unit; the unused room is given back.
    const start = this.reserve(3 * s.length);
    const written = this.buffer.write(s, start, "utf8");
    this.length = start + written;
    this.view.setUint32(at, written, true);
  }

  /** User text: UTF-8, or UTF-16 when it holds a lone surrogate (UTF-8 cannot say it). */
  text(s: string): void {
    if (isWellFormed(s)) {
      this.u8(0);
      this.str(s);
    } else {
      this.u8(1);
      this.u32(2 * s.length);
      const at = this.reserve(2 * s.length);
      this.buffer.write(s, at, "utf16le");
    }
  }

  bytes(b: Uint8Array): void {
    const at = this.reserve(b.length);
    this.buffer.set(b, at);
  }

  finish(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

/** Reads what ByteWriter wrote; running past the end is damage and throws. */
class ByteReader {
  readonly view: DataView;
  private readonly buffer: Buffer;
  private at = 0;

  constructor(payload: Uint8Array) {
    this.buffer = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
    this.view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  }

  get atEnd(): boolean {
    return this.at === this.buffer.length;
  }

  skip(bytes: number): number {
    const at = this.at;
    if (bytes < 0 || at + bytes > this.buffer.length) throw new Error("logged load batch ends too early");
    this.at = at + bytes;
    return at;
  }

  u8(): number {
    return this.buffer[this.skip(1)]!;
  }

  u32(): number {
    return this.view.getUint32(this.skip(4), true);
  }

  str(): string {
    const length = this.u32();
    const at = this.skip(length);
    return this.buffer.toString("utf8", at, at + length);
  }

  text(): string {
    if (this.u8() === 0) return this.str();
    const length = this.u32();
    const at = this.skip(length);
    return this.buffer.toString("utf16le", at, at + length);
  }

  bytes(length: number): Uint8Array {
    const at = this.skip(length);
    return this.buffer.subarray(at, at + length);
  }
}
