// JSONOBJECT / JSONARRAY values: held like a STRING (i64) whose text is the value's canonical
// JSON (the empty string is the type's default, {} or []), so they are stored, copied, passed
// and compared as strings. parse_json_object/parse_json_array and the getters are host calls
// (runtime-wasm/query/host-json.ts); PRINT writes the text as it is (Out.RawJson).
import { JSON_ON_ARRAY, JsonOp, Out } from "../../runtime-wasm/query/abi.js";
import type { IrExpr } from "../ir/ir.js";
import { INT, type IrType } from "../ir/types.js";
import type { EmitContext } from "./context.js";
import { convert, emitExpr } from "./emit-expr.js";
import { outTagString } from "./emit-output.js";
import { strAddress, strConst, strLength, takeHostText } from "./emit-strings.js";
import type { Expr } from "./module.js";
import { UnsupportedError, type QueryEmitter } from "./query-emitter.js";

type MethodExpr = Extract<IrExpr, { e: "method" }>;

const GETTERS: Record<string, { op: JsonOp; text: boolean }> = {
  getint: { op: JsonOp.GetInt, text: false },
  getdouble: { op: JsonOp.GetDouble, text: false },
  getbool: { op: JsonOp.GetBool, text: false },
  getstring: { op: JsonOp.GetString, text: true },
  getjsonobject: { op: JsonOp.GetObject, text: true },
  getjsonarray: { op: JsonOp.GetArray, text: true },
  containskey: { op: JsonOp.ContainsKey, text: false },
  size: { op: JsonOp.Size, text: false },
};

/** One `json` host call on value `json`, key `key` (a string) and index `index` (i64). */
function jsonHost(cx: EmitContext, op: number, json: Expr, key: Expr, index: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("json_op", [{ name: "op", type: "i32" }, { name: "j", type: "i64" }, { name: "k", type: "i64" }, { name: "i", type: "i64" }], "i64", (f) =>
    cx.host("json", [
      f.param(0).get(),
      strAddress(cx, f.param(1).get()), strLength(cx, f.param(1).get()),
      strAddress(cx, f.param(2).get()), strLength(cx, f.param(2).get()),
      f.param(3).get(),
    ]),
  );
  return m.call(name, [m.i32(op), json, key, index], "i64");
}

/** parse_json_object(text) / parse_json_array(text). */
export function emitParseJson(qe: QueryEmitter, kind: "object" | "array", text: Expr): Expr {
  const cx = qe.cx;
  const m = qe.m;
  const length = jsonHost(cx, kind === "object" ? JsonOp.ParseObject : JsonOp.ParseArray, text, m.i64(0), m.i64(0));
  return takeHostText(cx, m.convert("i64", "i32", length));
}

/** A method of a JSONOBJECT / JSONARRAY value. */
export function emitJsonMethod(qe: QueryEmitter, x: MethodExpr, receiver: "jsonobject" | "jsonarray", name: string): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const getter = GETTERS[name];
  if (!getter) throw new UnsupportedError(`the method ${x.method}`);
  const onArray = receiver === "jsonarray";
  const op = getter.op + (onArray ? JSON_ON_ARRAY : 0);
  const arg = x.args[0];
  const key = arg !== undefined && !onArray ? emitExpr(qe, arg) : m.i64(0);
  const index = arg !== undefined && onArray ? convert(qe, arg.type, INT, emitExpr(qe, arg)) : m.i64(0);
  const result = jsonHost(cx, op, emitExpr(qe, x.target), key, index);
  if (getter.text) return takeHostText(cx, m.convert("i64", "i32", result));
  return fromBits(qe, getter.op, result, x.type);
}

function fromBits(qe: QueryEmitter, op: JsonOp, result: Expr, type: IrType): Expr {
  const m = qe.m;
  switch (op) {
    case JsonOp.GetDouble:
      return m.reinterpret("f64", result);
    case JsonOp.GetBool:
    case JsonOp.ContainsKey:
      return m.convert("i64", "i32", result);
    default:
      return type.t === "scalar" && type.name === "INT" ? result : convert(qe, INT, type, result);
  }
}

/** PRINT of a JSON value: its text as it is ({} / [] for the default). */
export function writeJson(cx: EmitContext, t: Extract<IrType, { t: "json" }>, value: Expr): Expr {
  const m = cx.m;
  const name = cx.helper(`write_${t.name.toLowerCase()}`, [{ name: "j", type: "i64" }], "none", (f) =>
    outTagString(cx, Out.RawJson, m.select(strLength(cx, f.param(0).get()), f.param(0).get(), strConst(cx, t.name === "JSONOBJECT" ? "{}" : "[]"))),
  );
  return m.call(name, [value], "none");
}
