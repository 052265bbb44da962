// The parameter block a run starts with: the store ordinals of the schema elements the
// module reads (its manifest's bindings) and the values of its parameters, encoded for the
// module's prologue to read. The host has already checked and converted the values (and
// resolved vertex ids to internal ids); this only lays them out.
//
//   [u32 binding count][u32 ordinal per binding] (padded to 8)
//   one 16-byte slot per parameter: [u32 present][u32 0][8 bytes of value]
//   variable area (strings, collection elements)
//
// Values: INT/UINT/DATETIME i64, FLOAT f32, DOUBLE f64, BOOL u32, VERTEX u32 vid
// (0xffffffff: none), STRING [u32 offset from block start][u32 byte length], SET/BAG/LIST
// [u32 offset][u32 count] of 8-byte elements encoded the same way.
import type { ManifestParam, ParamType } from "./manifest.js";

/** A parameter value as the host hands it over; undefined = not given (NULL). */
export type ParamValue = bigint | number | boolean | string | ParamValue[] | undefined;

export const PARAM_SLOT_BYTES = 16;
export const NO_VERTEX = 0xffffffff;

export function paramsOffset(bindingCount: number): number {
  return Math.ceil((4 + 4 * bindingCount) / 8) * 8;
}

export function encodeParamBlock(ordinals: number[], params: ManifestParam[], values: ParamValue[]): Uint8Array {
  const fixed = paramsOffset(ordinals.length) + PARAM_SLOT_BYTES * params.length;
  // String elements of collections: their (offset, length) is written once the tail is laid out.
  const patch: { at: number; offset: number; length: number }[] = [];
  const tail: Uint8Array[] = [];
  let tailBytes = 0;
  const place = (bytes: Uint8Array): number => {
    const at = fixed + tailBytes;
    tail.push(bytes);
    tailBytes += bytes.length;
    const pad = (8 - (bytes.length % 8)) % 8;
    if (pad) {
      tail.push(new Uint8Array(pad));
      tailBytes += pad;
    }
    return at;
  };

  const head = new DataView(new ArrayBuffer(fixed));
  head.setUint32(0, ordinals.length, true);
  ordinals.forEach((o, i) => head.setUint32(4 + 4 * i, o >>> 0, true));
  params.forEach((p, i) => {
    const slot = paramsOffset(ordinals.length) + PARAM_SLOT_BYTES * i;
    const value = values[i];
    if (value === undefined) return;
    head.setUint32(slot, 1, true);
    const at = slot + 8;
    if (p.type.collection) {
      const items = value as ParamValue[];
      const elems = new DataView(new ArrayBuffer(8 * items.length));
      const strings: { index: number; text: string }[] = [];
      items.forEach((item, k) => {
        if (p.type.base === "STRING" || p.type.base === "JSONOBJECT" || p.type.base === "JSONARRAY") strings.push({ index: k, text: String(item) });
        else writeScalar(elems, 8 * k, p.type, item);
      });
      const offset = place(new Uint8Array(elems.buffer));
      for (const s of strings) {
        const bytes = Buffer.from(s.text, "utf8");
        const sAt = place(bytes);
        patch.push({ at: offset + 8 * s.index, offset: sAt, length: bytes.length });
      }
      head.setUint32(at, offset, true);
      head.setUint32(at + 4, items.length, true);
    } else if (p.type.base === "STRING" || p.type.base === "JSONOBJECT" || p.type.base === "JSONARRAY") {
      const bytes = Buffer.from(String(value), "utf8");
      head.setUint32(at, place(bytes), true);
      head.setUint32(at + 4, bytes.length, true);
    } else {
      writeScalar(head, at, p.type, value);
    }
  });

  const out = new Uint8Array(fixed + tailBytes);
  out.set(new Uint8Array(head.buffer), 0);
  let at = fixed;
  for (const t of tail) {
    out.set(t, at);
    at += t.length;
  }
  const view = new DataView(out.buffer);
  for (const p of patch) {
    view.setUint32(p.at, p.offset, true);
    view.setUint32(p.at + 4, p.length, true);
  }
  return out;
}

function writeScalar(view: DataView, at: number, type: ParamType, value: ParamValue): void {
  switch (type.base) {
    case "INT":
    case "DATETIME":
      view.setBigInt64(at, BigInt.asIntN(64, BigInt(value as bigint | number)), true);
      return;
    case "UINT":
      view.setBigUint64(at, BigInt.asUintN(64, BigInt(value as bigint | number)), true);
      return;
    case "FLOAT":
      view.setFloat32(at, Number(value), true);
      return;
    case "DOUBLE":
      view.setFloat64(at, Number(value), true);
      return;
    case "BOOL":
      view.setUint32(at, value ? 1 : 0, true);
      return;
    case "VERTEX":
      view.setUint32(at, value === undefined ? NO_VERTEX : Number(value) >>> 0, true);
      return;
    default:
      throw new Error(`cannot encode a ${type.base} parameter value`);
  }
}
