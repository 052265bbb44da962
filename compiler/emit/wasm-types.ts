// How IR values are held in WebAssembly:
//   INT, UINT, DATETIME  i64            FLOAT   f32          DOUBLE  f64
//   BOOL                 i32 (0/1)      VERTEX  i32 vid (-1: no vertex)
//   STRING               i64: address in the low 32 bits, byte length in the high 32
//   EDGE, tuples, accumulators/collections, vertex sets: i32 address of a record in memory
//   JSONOBJECT/JSONARRAY i64 like STRING, holding the canonical JSON text (emit-json.ts);
//   FILE i32 file number.
import type { IrType } from "../ir/types.js";
import type { ResultType, ValueType } from "./module.js";

export function wasmType(t: IrType): ValueType {
  switch (t.t) {
    case "scalar":
      switch (t.name) {
        case "INT":
        case "UINT":
        case "DATETIME":
        case "STRING":
          return "i64";
        case "FLOAT":
          return "f32";
        case "DOUBLE":
          return "f64";
        case "BOOL":
          return "i32";
      }
      break;
    case "json":
      return "i64";
    default:
      return "i32";
  }
  return "i32";
}

export function wasmResult(t: IrType): ResultType {
  return t.t === "void" ? "none" : wasmType(t);
}

/** Bytes a value of `t` takes inside records and containers. */
export function valueWidth(t: IrType): 1 | 4 | 8 {
  const w = wasmType(t);
  return w === "i64" || w === "f64" ? 8 : 4;
}

/** A short name of `t` for helper functions specialised per type. */
export function typeTag(t: IrType): string {
  switch (t.t) {
    case "scalar":
      return t.name.toLowerCase();
    case "vertex":
      return "vertex";
    case "edge":
      return "edge";
    case "tuple":
      return `tup_${t.fields.map((f) => typeTag(f.type)).join("_")}`;
    case "json":
      return "json";
    case "accum":
      return "acc";
    case "vset":
      return "vset";
    case "file":
      return "file";
    case "void":
      return "void";
  }
}
