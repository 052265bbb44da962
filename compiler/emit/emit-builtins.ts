// Built-in functions and methods (gsql-semantics §7, §3): math, strings, DATETIME,
// conversions, aggregates, vertex functions, and the accessor and mutator methods of the
// accumulators. Pure arithmetic runs in WebAssembly; transcendental math, text and calendar
// work are host calls (see the ABI).
import { emitGetAttr, emitSetAttr } from "./emit-get-attr.js";
import { selectVertex, toVertex, toVertexSet } from "./emit-vertex-lookup.js";
import { emitJsonMethod, emitParseJson } from "./emit-json.js";
import { DatetimeOp, FormatKind, MathOp, RuntimeError } from "../../runtime-wasm/query/abi.js";
import type { IrExpr } from "../ir/ir.js";
import { accumValueType, BOOL, DOUBLE, INT, STRING, type IrAccum, type IrType } from "../ir/types.js";
import { accumRead, accumSize, collectionClear, groupByKeyTuple, groupByOffsets } from "./emit-accum.js";
import { aggregate, collectionContains, sizeOf } from "./emit-collections.js";
import { adjacencyDegree, adjacencyHeader, edgeTypeHeader, localSlot, vidTypeOrdinal } from "./emit-graph.js";
import { Entry, htFind, htRemove } from "./emit-hash-table.js";
import { heapPop, heapResize, heapTop } from "./emit-heap.js";
import { listFind, listGet, listRemoveAt, listUpdate } from "./emit-list.js";
import { formatToString, numOp, NumOp, strOp, StrOp } from "./emit-strings.js";
import { bitsOf, defaultValue, makeTuple } from "./emit-values.js";
import { convert, emitExpr } from "./emit-expr.js";
import { vsetCount } from "./emit-vset.js";
import { edgeBag } from "./emit-neighbors.js";
import { emitPrintln } from "./emit-file.js";
import { edgeRecordDirected, vertexIdText } from "./emit-attr.js";
import { arrayReallocate } from "./emit-stmt.js";
import type { Expr } from "./module.js";
import { UnsupportedError, type QueryEmitter } from "./query-emitter.js";
import { wasmType } from "./wasm-types.js";

type CallExpr = Extract<IrExpr, { e: "call" }>;
type MethodExpr = Extract<IrExpr, { e: "method" }>;

const HOST_MATH: Record<string, MathOp> = {
  pow: MathOp.Pow,
  exp: MathOp.Exp,
  log: MathOp.Log,
  log2: MathOp.Log2,
  log10: MathOp.Log10,
  sin: MathOp.Sin,
  cos: MathOp.Cos,
  tan: MathOp.Tan,
  asin: MathOp.Asin,
  acos: MathOp.Acos,
  atan: MathOp.Atan,
  atan2: MathOp.Atan2,
  sinh: MathOp.Sinh,
  cosh: MathOp.Cosh,
  tanh: MathOp.Tanh,
  fmod: MathOp.Fmod,
};

const INTERVAL_SECONDS: Record<string, number> = { SECOND: 1, MINUTE: 60, HOUR: 3600, DAY: 86400, WEEK: 604800 };

export function emitCall(qe: QueryEmitter, x: CallExpr): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const arg = (i: number) => emitExpr(qe, x.args[i]);
  /** Argument i as a DOUBLE. */
  const real = (i: number) => convert(qe, x.args[i].type, DOUBLE, emitExpr(qe, x.args[i]));
  const result = (value: Expr, from: IrType) => convert(qe, from, x.type, value);
  const str = (i: number) => (i < x.args.length ? arg(i) : m.i64(0));
  const num = (i: number, dflt: number) => (i < x.args.length ? convert(qe, x.args[i].type, DOUBLE, emitExpr(qe, x.args[i])) : m.f64(dflt));

  if (x.fn in HOST_MATH) {
    return result(cx.host("math", [m.i32(HOST_MATH[x.fn]), real(0), x.args.length > 1 ? real(1) : m.f64(0)]), DOUBLE);
  }
  switch (x.fn) {
    case "parse_json_object":
    case "parse_json_array":
      return emitParseJson(qe, x.fn === "parse_json_object" ? "object" : "array", arg(0));
    case "abs": {
      const vt = wasmType(x.args[0].type);
      if (vt === "f32" || vt === "f64") return m.fabs(vt, arg(0));
      const v = qe.f.local(vt, "abs");
      return m.block(null, [v.set(arg(0)), m.select(m.lt(vt, v.get(), m.constant(vt, 0)), m.sub(vt, m.constant(vt, 0), v.get()), v.get())], vt);
    }
    case "sqrt":
      return result(m.sqrt("f64", real(0)), DOUBLE);
    case "ceil":
      return m.convert("f64", "i64", m.ceil("f64", real(0)));
    case "floor":
      return m.convert("f64", "i64", m.floor("f64", real(0)));
    case "round":
    case "trunc": {
      if (x.args.length > 1) {
        return result(cx.host("math", [m.i32(x.fn === "round" ? MathOp.Round : MathOp.Trunc), real(0), real(1)]), DOUBLE);
      }
      if (wasmType(x.args[0].type) === "i64") return result(arg(0), x.args[0].type);
      const v = qe.f.local("f64", "r");
      const rounded = x.fn === "trunc" ? m.ftrunc("f64", v.get()) : m.select(m.ge("f64", v.get(), m.f64(0)), m.floor("f64", m.add("f64", v.get(), m.f64(0.5))), m.ceil("f64", m.sub("f64", v.get(), m.f64(0.5))));
      return result(m.block(null, [v.set(real(0)), rounded], "f64"), DOUBLE);
    }
    case "cot":
      return result(m.div("f64", m.f64(1), cx.host("math", [m.i32(MathOp.Tan), real(0), m.f64(0)])), DOUBLE);
    case "degrees":
      return result(m.mul("f64", real(0), m.f64(180 / Math.PI)), DOUBLE);
    case "radians":
      return result(m.mul("f64", real(0), m.f64(Math.PI / 180)), DOUBLE);
    case "ldexp":
      return result(m.mul("f64", real(0), cx.host("math", [m.i32(MathOp.Pow), m.f64(2), real(1)])), DOUBLE);
    case "sign": {
      const v = qe.f.local("f64", "s");
      return m.block(null, [v.set(real(0)), m.convert("i32", "i64", m.sub("i32", m.gt("f64", v.get(), m.f64(0)), m.lt("f64", v.get(), m.f64(0))))], "i64");
    }
    case "square": {
      const vt = wasmType(x.args[0].type);
      const v = qe.f.local(vt, "sq");
      return m.block(null, [v.set(arg(0)), m.mul(vt, v.get(), v.get())], vt);
    }
    case "pi":
      return result(m.f64(Math.PI), DOUBLE);
    case "float_to_int":
      return m.convert(wasmType(x.args[0].type), "i64", arg(0));
    case "rand":
      return result(cx.host("random", []), DOUBLE);
    case "to_string":
      return toText(qe, x.args[0]);
    case "str_to_int":
      return numOp(cx, NumOp.StrToInt, arg(0));
    case "to_datetime":
      return numOp(cx, NumOp.ToDatetime, arg(0));
    case "now":
      return cx.host("nowSeconds", []);
    case "datetime_to_epoch":
    case "epoch_to_datetime":
      return arg(0);
    case "datetime_diff":
      return m.sub("i64", arg(0), arg(1));
    case "datetime_format":
      return strOp(cx, StrOp.DatetimeFormat, [x.args.length > 1 ? arg(1) : emitExpr(qe, { e: "const", type: { t: "scalar", name: "STRING" }, value: "%Y-%m-%d %H:%M:%S" })], m.convert("i64", "f64", arg(0)));
    case "year":
    case "month":
    case "day":
    case "hour":
    case "minute":
    case "second": {
      const op = { year: DatetimeOp.Year, month: DatetimeOp.Month, day: DatetimeOp.Day, hour: DatetimeOp.Hour, minute: DatetimeOp.Minute, second: DatetimeOp.Second }[x.fn];
      return cx.host("datetimeOp", [m.i32(op), arg(0), m.i64(0)]);
    }
    case "datetime_add":
    case "datetime_sub":
      return datetimeShift(qe, x);
    case "length":
      return numOp(cx, NumOp.Length, arg(0));
    case "lower":
      return strOp(cx, StrOp.Lower, [arg(0)]);
    case "upper":
      return strOp(cx, StrOp.Upper, [arg(0)]);
    case "trim":
      return strOp(cx, StrOp.Trim, [arg(0)], m.f64(0));
    case "ltrim":
      return strOp(cx, StrOp.Trim, [arg(0), str(1)], m.f64(1));
    case "rtrim":
      return strOp(cx, StrOp.Trim, [arg(0), str(1)], m.f64(2));
    case "substr":
      return strOp(cx, StrOp.Substr, [arg(0)], num(1, 0), num(2, -1));
    case "left":
      return strOp(cx, StrOp.Left, [arg(0)], num(1, 0));
    case "right":
      return strOp(cx, StrOp.Right, [arg(0)], num(1, 0));
    case "lpad":
    case "rpad":
      return strOp(cx, x.fn === "lpad" ? StrOp.Lpad : StrOp.Rpad, [arg(0), str(2)], num(1, 0));
    case "replace":
      return strOp(cx, StrOp.Replace, [arg(0), arg(1), str(2)]);
    case "instr":
      return numOp(cx, NumOp.Instr, arg(0), arg(1), num(2, 0), num(3, 1));
    case "find_in_set":
      return numOp(cx, NumOp.FindInSet, arg(0), arg(1));
    case "insert":
      // insert(s, pos, s2) or insert(s, pos, n, s2)
      return x.args.length === 4 ? strOp(cx, StrOp.Insert, [arg(0), arg(3)], num(1, 0), num(2, 0)) : strOp(cx, StrOp.Insert, [arg(0), arg(2)], num(1, 0), m.f64(0));
    case "ascii":
      return numOp(cx, NumOp.Ascii, arg(0));
    case "chr":
      return strOp(cx, StrOp.Chr, [], num(0, 0));
    case "space":
      return strOp(cx, StrOp.Space, [], num(0, 0));
    case "soundex":
      return strOp(cx, StrOp.Soundex, [arg(0)]);
    case "difference":
      return numOp(cx, NumOp.Difference, arg(0), arg(1));
    case "translate":
      return strOp(cx, StrOp.Translate, [arg(0), arg(1), arg(2)]);
    case "repeat":
      return strOp(cx, StrOp.Repeat, [arg(0)], num(1, 0));
    case "reverse":
      return strOp(cx, StrOp.Reverse, [arg(0)]);
    case "gsql_uuid_v4":
      return strOp(cx, StrOp.Uuid, []);
    case "getvid":
      return m.convert("i32", "i64", arg(0));
    case "count":
    case "sum":
    case "min":
    case "max":
    case "avg":
      return aggregate(qe, x.fn, x.args[0], x.distinct ?? false, x.type);
    case "isempty":
      return m.eqz("i32", sizeOf(qe, x.args[0]));
    case "coalesce":
      return coalesce(qe, x);
    case "to_vertex":
      return toVertex(qe, x.args[0], x.args[1]);
    case "to_vertex_set":
      return toVertexSet(qe, x.args[0], x.args[1]);
    case "selectvertex":
      return selectVertex(qe, x.args);
    default:
      throw new UnsupportedError(`the function ${x.fn}()`);
  }
}

/** to_string: the value's text as PRINT would show it (strings unchanged). */
function toText(qe: QueryEmitter, a: IrExpr): Expr {
  const t = a.type;
  if (t.t === "vertex") return vertexIdText(qe, emitExpr(qe, a));
  if (t.t !== "scalar") throw new UnsupportedError(`to_string of a ${t.t}`);
  return scalarText(qe, t.name, emitExpr(qe, a));
}

/** A scalar value of the named type as text (strings as they are): to_string and LOG. */
export function scalarText(qe: QueryEmitter, typeName: string, v: Expr): Expr {
  const cx = qe.cx;
  const m = qe.m;
  switch (typeName) {
    case "INT":
      return formatToString(cx, FormatKind.Int, v);
    case "UINT":
      return formatToString(cx, FormatKind.Uint, v);
    case "FLOAT":
      return formatToString(cx, FormatKind.Float, bitsOf(cx, "f32", v));
    case "DOUBLE":
      return formatToString(cx, FormatKind.Double, bitsOf(cx, "f64", v));
    case "BOOL":
      return formatToString(cx, FormatKind.Bool, m.convert("i32", "i64", v, true));
    case "DATETIME":
      return formatToString(cx, FormatKind.Datetime, v);
    default:
      return v;
  }
}

/** datetime_add / datetime_sub with INTERVAL n UNIT. */
function datetimeShift(qe: QueryEmitter, x: CallExpr): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const interval = x.args[1];
  if (interval.e !== "interval") throw new Error("datetime_add without an INTERVAL");
  let amount = convert(qe, interval.value.type, INT, emitExpr(qe, interval.value));
  if (x.fn === "datetime_sub") amount = m.sub("i64", m.i64(0), amount);
  const unit = interval.unit.toUpperCase();
  if (unit === "MONTH" || unit === "YEAR") {
    if (unit === "YEAR") amount = m.mul("i64", amount, m.i64(12));
    return cx.host("datetimeOp", [m.i32(DatetimeOp.AddMonths), emitExpr(qe, x.args[0]), amount]);
  }
  const seconds = INTERVAL_SECONDS[unit];
  if (seconds === undefined) throw new UnsupportedError(`INTERVAL unit ${unit}`);
  return m.add("i64", emitExpr(qe, x.args[0]), m.mul("i64", amount, m.i64(seconds)));
}

/** COALESCE: the first argument that is not a missing parameter, converted to the first's type. */
function coalesce(qe: QueryEmitter, x: CallExpr): Expr {
  const m = qe.m;
  let value = convert(qe, x.args[x.args.length - 1].type, x.type, emitExpr(qe, x.args[x.args.length - 1]));
  for (let i = x.args.length - 2; i >= 0; i--) {
    const a = x.args[i];
    const converted = convert(qe, a.type, x.type, emitExpr(qe, a));
    if (a.e === "var" && qe.variable(a.id).kind === "param") {
      value = m.if(m.globalGet(qe.ownGlobal(`present${a.id}`, "i32"), "i32"), converted, value);
    } else {
      value = converted;
    }
  }
  return value;
}

export function emitMethod(qe: QueryEmitter, x: MethodExpr): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const [receiver, name] = x.method.split(".") as [string, string];
  const target = () => emitExpr(qe, x.target);
  const arg = (i: number) => emitExpr(qe, x.args[i]);
  const t = x.target.type;
  const acc: IrAccum | undefined = t.t === "accum" ? t.accum : undefined;
  const lname = name.toLowerCase();

  if (receiver === "vertexSet" && lname === "size") return m.convert("i32", "i64", vsetCount(cx, target()), true);
  if (receiver === "file" && lname === "println") return emitPrintln(qe, x.target, x.args);
  if ((receiver === "vertex" || receiver === "edge") && lname === "getattr") return emitGetAttr(qe, x, receiver);
  if ((receiver === "vertex" || receiver === "edge") && lname === "setattr") return emitSetAttr(qe, x, receiver);
  if (receiver === "vertex") return vertexMethod(qe, x, lname);
  // v.neighbors(...).filter(cond) and the attribute forms (the binder allows no other receiver)
  if (x.method === "bag.filter" && x.target.e === "method" && x.target.method.startsWith("vertex.")) return vertexMethod(qe, x.target, x.target.method.slice(7).toLowerCase(), x.args[0]);
  if (receiver === "edge" && lname === "isdirected") {
    const edge = x.target.e === "var" ? qe.clause.edges.get(x.target.id) : undefined;
    if (edge) return m.i32(edge.directed ? 1 : 0);
    return edgeRecordDirected(qe, target());
  }
  if (receiver === "jsonobject" || receiver === "jsonarray") return emitJsonMethod(qe, x, receiver, lname);
  if (acc === undefined) throw new UnsupportedError(`the method ${x.method}`);
  const asInt = (v: Expr) => m.convert("i32", "i64", v, true);
  if (lname === "size") return asInt(sizeOf(qe, x.target));
  if (lname === "clear") return collectionClear(cx, acc, target(), true);
  switch (acc.a) {
    case "list":
      switch (lname) {
        case "get":
          return listGet(cx, acc.elem, target(), convert(qe, x.args[0].type, INT, arg(0)));
        case "contains":
          return collectionContains(qe, x.target, x.args[0]);
        case "update":
          return listUpdate(cx, acc.elem, target(), convert(qe, x.args[0].type, INT, arg(0)), arg(1));
        case "remove":
          return listRemoveAt(cx, acc.elem, target(), convert(qe, x.args[0].type, INT, arg(0)));
        case "removeone":
          return listFind(cx, acc.elem, target(), arg(0), "removeOne");
        case "removeall":
          return listFind(cx, acc.elem, target(), arg(0), "removeAll");
      }
      break;
    case "set":
    case "bag":
      switch (lname) {
        case "contains":
          return collectionContains(qe, x.target, x.args[0]);
        case "remove":
          return acc.a === "set" ? htRemove(cx, acc.elem, target(), arg(0)) : bagRemove(qe, acc, target(), arg(0), false);
        case "removeall":
          return acc.a === "set" ? htRemove(cx, acc.elem, target(), arg(0)) : bagRemove(qe, acc, target(), arg(0), true);
      }
      break;
    case "map":
      switch (lname) {
        case "containskey":
          return m.ne("i32", htFind(cx, acc.key, target(), arg(0)), m.i32(0));
        case "get":
          return mapGet(qe, acc, target(), arg(0));
        case "remove":
          return htRemove(cx, acc.key, target(), arg(0));
      }
      break;
    case "array":
      if (lname === "reallocate") return arrayReallocate(qe, acc, target(), x.args.map((a, i) => m.convert("i64", "i32", convert(qe, a.type, INT, arg(i)))));
      break;
    case "heap":
      switch (lname) {
        case "top":
          return heapTop(cx, acc, target());
        case "pop":
          return heapPop(cx, acc, target());
        case "resize":
          return heapResize(cx, acc, target(), m.convert("i64", "i32", convert(qe, x.args[0].type, INT, arg(0))));
      }
      break;
    case "groupby": {
      const keyTuple = groupByKeyTuple(acc);
      const key = () => makeTuple(cx, keyTuple, x.args.map((_, i) => arg(i)));
      switch (lname) {
        case "containskey":
          return m.ne("i32", htFind(cx, keyTuple, target(), key()), m.i32(0));
        case "remove":
          return htRemove(cx, keyTuple, target(), key());
        case "get":
          return groupByGet(qe, acc, target(), key(), x.type);
      }
      break;
    }
    default:
      break;
  }
  throw new UnsupportedError(`the method ${x.method}`);
}

/** Map value for `key`, or the value type's default. */
function mapGet(qe: QueryEmitter, a: Extract<IrAccum, { a: "map" }>, map: Expr, key: Expr): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const vt = accumValueType(a.value);
  const e = qe.f.local("i32", "entry");
  return m.block(
    null,
    [e.set(htFind(cx, a.key, map, key)), m.if(e.get(), accumRead(cx, a.value, m.add("i32", e.get(), m.i32(Entry.value))), defaultValue(cx, vt))],
    wasmType(vt),
  );
}

/** GroupBy get: a tuple of the key's accumulator values (defaults when missing). */
function groupByGet(qe: QueryEmitter, a: Extract<IrAccum, { a: "groupby" }>, table: Expr, key: Expr, resultType: IrType): Expr {
  const m = qe.m;
  const cx = qe.cx;
  if (resultType.t !== "tuple") throw new Error("groupBy get without a tuple type");
  const { offsets } = groupByOffsets(a);
  const e = qe.f.local("i32", "entry");
  const values = a.values.map((v, i) =>
    m.if(e.get(), accumRead(cx, v.accum, m.add("i32", e.get(), m.i32(Entry.value + offsets[i]))), defaultValue(cx, accumValueType(v.accum))),
  );
  return m.block(null, [e.set(htFind(cx, groupByKeyTuple(a), table, key)), makeTuple(cx, resultType, values)], "i32");
}

/** Bag remove (one copy) / removeAll (every copy). */
function bagRemove(qe: QueryEmitter, a: Extract<IrAccum, { a: "list" | "set" | "bag" }>, bag: Expr, value: Expr, all: boolean): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const b = qe.f.local("i32", "bag");
  const v = qe.f.local(wasmType(a.elem), "v");
  const e = qe.f.local("i32", "entry");
  return m.block(
    null,
    [
      b.set(bag),
      v.set(value),
      e.set(htFind(cx, a.elem, b.get(), v.get())),
      m.if(
        m.eqz("i32", e.get()),
        m.i32(0),
        m.block(
          null,
          [
            m.if(
              m.or("i32", m.i32(all ? 1 : 0), m.le("i64", m.load("i64", e.get(), Entry.value), m.i64(1))),
              m.drop(htRemove(cx, a.elem, b.get(), v.get())),
              m.store("i64", e.get(), m.sub("i64", m.load("i64", e.get(), Entry.value), m.i64(1)), Entry.value),
            ),
            m.i32(1),
          ],
          "i32",
        ),
      ),
    ],
    "i32",
  );
}

/**
 * Vertex functions: outdegree([types]), and the edge walks neighbors([types]),
 * neighborAttribute(E, T, attr), edgeAttribute(E, attr) with the condition of a
 * `.filter(...)` after them. outdegree's and neighbors' types may be named at run time.
 */
function vertexMethod(qe: QueryEmitter, x: MethodExpr, name: string, filter?: IrExpr): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const dynamic = x.args[0] !== undefined && x.args[0].e !== "const" && (name === "outdegree" || name === "neighbors");
  const types = dynamic ? [...qe.view.edgeByName.values()].map((e) => ({ key: e.key, name: e.name })) : edgeTypesArgument(qe, x.args[0]);
  // Edge types named at run time (a STRING or a collection of names): each type counts when named.
  const named = (typeName: string, degree: Expr): Expr => {
    if (!dynamic) return degree;
    const arg = x.args[0]!;
    const constant: IrExpr = { e: "const", value: typeName, type: STRING };
    const test: IrExpr = arg.type.t === "scalar" ? { e: "binary", op: "eq", left: arg, right: constant, type: BOOL } : { e: "in", value: constant, collection: arg, negated: false, type: BOOL };
    return m.if(emitExpr(qe, test), degree, m.i32(0));
  };
  switch (name) {
    case "outdegree": {
      const v = qe.f.local("i32", "v");
      const ord = qe.f.local("i32", "ord");
      const local = qe.f.local("i32", "local");
      const total = qe.f.local("i64", "deg");
      return m.block(
        null,
        [
          v.set(emitExpr(qe, x.target)),
          total.set(m.i64(0)),
          m.if(
            m.ne("i32", v.get(), m.i32(-1)),
            m.seq(
              ord.set(vidTypeOrdinal(cx, v.get())),
              local.set(localSlot(cx, v.get())),
              ...types.map((et) =>
                total.set(m.add("i64", total.get(), m.convert("i32", "i64", named(et.name, adjacencyDegree(cx, adjacencyHeader(cx, edgeTypeHeader(cx, et.key), "out", ord.get()), local.get())), true))),
              ),
            ),
          ),
          total.get(),
        ],
        "i64",
      );
    }
    case "neighbors":
      return edgeBag(qe, {
        vertex: emitExpr(qe, x.target),
        edgeTypes: types.map((t) => t.name),
        element: { kind: "neighbor" },
        elementType: { t: "vertex" },
        filter,
        ...(dynamic ? { walked: (typeName: string) => named(typeName, m.i32(1)) } : {}),
      });
    case "neighborattribute":
      return edgeBag(qe, {
        vertex: emitExpr(qe, x.target),
        edgeTypes: types.map((t) => t.name),
        element: { kind: "neighborAttribute", targetType: constantName(x.args[1], name), attr: constantName(x.args[2], name) },
        elementType: bagElement(x.type),
        filter,
      });
    case "edgeattribute":
      return edgeBag(qe, { vertex: emitExpr(qe, x.target), edgeTypes: types.map((t) => t.name), element: { kind: "edgeAttribute", attr: constantName(x.args[1], name) }, elementType: bagElement(x.type), filter });
    default:
      throw new UnsupportedError(`the vertex function ${name}()`);
  }
}

/** A type or attribute name argument of a vertex function: a constant STRING. */
function constantName(a: IrExpr | undefined, fn: string): string {
  if (a?.e === "const" && typeof a.value === "string") return a.value;
  throw new UnsupportedError(`a type or attribute name given by a variable in ${fn}()`);
}

function bagElement(t: IrType): IrType {
  if (t.t === "accum" && t.accum.a === "bag") return t.accum.elem;
  throw new Error("a vertex function's result is not a bag");
}

/**
 * The edge types a vertex function counts: the named ones (a constant STRING, `|`-joined
 * names allowed), or every edge type of the graph whose out-lists hold outgoing directed
 * or undirected edges (reverse types count as the out-edges of their own source).
 */
function edgeTypesArgument(qe: QueryEmitter, a: IrExpr | undefined): { key: string; name: string }[] {
  const all = [...qe.view.edgeByName.values()];
  if (a === undefined) return all.map((e) => ({ key: e.key, name: e.name }));
  if (a.e === "const" && typeof a.value === "string") {
    return a.value
      .split("|")
      .map((n) => n.trim())
      .filter((n) => n !== "")
      .map((n) => ({ key: qe.edgeTypeKey(n), name: n }));
  }
  throw new UnsupportedError("edge types given by a variable in a vertex function");
}


