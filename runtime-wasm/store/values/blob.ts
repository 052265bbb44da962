// Binary encoding of LIST, SET, MAP and tuple values, stored as heap records so that worker
// threads and query modules can read them from memory. Little-endian, unaligned:
//   INT / DATETIME i64, UINT u64, FLOAT f32, DOUBLE f64, BOOL u8 (0/1),
//   STRING / FIXED_BINARY [u32 byteLength][UTF-8],
//   LIST / SET [u32 count][element]*, MAP [u32 count]([key][value])*,
//   tuple: its fields in declaration order (INT/UINT fields always 8 bytes).
import type { AttrType, AttrValue } from "../../schema/types.js";
import type { TupleTable } from "./coerce.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class BlobWriter {
  bytes = new Uint8Array(256);
  view = new DataView(this.bytes.buffer);
  length = 0;

  reset(): void {
    this.length = 0;
  }

  private room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const next = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
    this.view = new DataView(next.buffer);
  }

  write(type: AttrType, value: AttrValue, tuples: TupleTable): void {
    switch (type.kind) {
      case "scalar":
        return this.scalar(type.name, value);
      case "list":
      case "set": {
        const items = value as AttrValue[];
        this.u32(items.length);
        for (const item of items) this.write(type.element, item, tuples);
        return;
      }
      case "map": {
        const pairs = value as [AttrValue, AttrValue][];
        this.u32(pairs.length);
        for (const [k, v] of pairs) {
          this.write(type.key, k, tuples);
          this.write(type.value, v, tuples);
        }
        return;
      }
      case "tuple": {
        const fields = tuples.get(type.name)?.fields ?? [];
        const o = value as { [field: string]: AttrValue };
        for (const f of fields) this.write(f.type, o[f.name], tuples);
        return;
      }
    }
  }

  private u32(n: number): void {
    this.room(4);
    this.view.setUint32(this.length, n, true);
    this.length += 4;
  }

  private scalar(name: string, value: AttrValue): void {
    switch (name) {
      case "INT":
        this.room(8);
        this.view.setBigInt64(this.length, value as bigint, true);
        this.length += 8;
        return;
      case "UINT":
        this.room(8);
        this.view.setBigUint64(this.length, value as bigint, true);
        this.length += 8;
        return;
      case "DATETIME":
        this.room(8);
        this.view.setBigInt64(this.length, BigInt(value as number), true);
        this.length += 8;
        return;
      case "FLOAT":
        this.room(4);
        this.view.setFloat32(this.length, value as number, true);
        this.length += 4;
        return;
      case "DOUBLE":
        this.room(8);
        this.view.setFloat64(this.length, value as number, true);
        this.length += 8;
        return;
      case "BOOL":
        this.room(1);
        this.bytes[this.length++] = value ? 1 : 0;
        return;
      default: {
        const text = value as string;
        this.room(4 + text.length * 3);
        const written = encoder.encodeInto(text, this.bytes.subarray(this.length + 4)).written;
        this.view.setUint32(this.length, written, true);
        this.length += 4 + written;
      }
    }
  }
}

/** Decode a value of `type` starting at `offset` of `bytes`; returns the value and the next offset. */
export function readBlobValue(type: AttrType, bytes: Uint8Array, offset: number, tuples: TupleTable): [AttrValue, number] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return read(type, bytes, view, offset, tuples);
}

function read(type: AttrType, bytes: Uint8Array, view: DataView, at: number, tuples: TupleTable): [AttrValue, number] {
  switch (type.kind) {
    case "scalar":
      return scalar(type.name, bytes, view, at);
    case "list":
    case "set": {
      const n = view.getUint32(at, true);
      let p = at + 4;
      const out: AttrValue[] = [];
      for (let i = 0; i < n; i++) {
        const [v, next] = read(type.element, bytes, view, p, tuples);
        out.push(v);
        p = next;
      }
      return [out, p];
    }
    case "map": {
      const n = view.getUint32(at, true);
      let p = at + 4;
      const out: [AttrValue, AttrValue][] = [];
      for (let i = 0; i < n; i++) {
        const [k, afterKey] = read(type.key, bytes, view, p, tuples);
        const [v, afterValue] = read(type.value, bytes, view, afterKey, tuples);
        out.push([k, v]);
        p = afterValue;
      }
      return [out, p];
    }
    case "tuple": {
      const out: { [field: string]: AttrValue } = {};
      let p = at;
      for (const f of tuples.get(type.name)?.fields ?? []) {
        const [v, next] = read(f.type, bytes, view, p, tuples);
        out[f.name] = v;
        p = next;
      }
      return [out, p];
    }
  }
}

function scalar(name: string, bytes: Uint8Array, view: DataView, at: number): [AttrValue, number] {
  switch (name) {
    case "INT":
      return [view.getBigInt64(at, true), at + 8];
    case "UINT":
      return [view.getBigUint64(at, true), at + 8];
    case "DATETIME":
      return [Number(view.getBigInt64(at, true)), at + 8];
    case "FLOAT":
      return [view.getFloat32(at, true), at + 4];
    case "DOUBLE":
      return [view.getFloat64(at, true), at + 8];
    case "BOOL":
      return [bytes[at] !== 0, at + 1];
    default: {
      const n = view.getUint32(at, true);
      return [decoder.decode(bytes.subarray(at + 4, at + 4 + n)), at + 4 + n];
    }
  }
}
