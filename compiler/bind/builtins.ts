// Built-in functions and methods, table-driven: name, arity, argument kinds, result type.
// The binder looks a call up here, checks its arguments and records the entry in the bound
// tree, so the back end lowers by `id` without re-deriving anything.
import {
  T, elementTypeOf, isInteger, isNumeric, isPrimitive, widen, accumOutputType,
  type AccumType, type GType,
} from "./types.js";

/** What an argument position accepts. */
export type ArgKind =
  | "num" | "int" | "string" | "bool" | "datetime" | "vertex" | "edge" | "any"
  /** A Set/Bag/List accumulator, SET/BAG parameter, `(a, b)` literal or vertex set. */
  | "many"
  /** A STRING naming types, or a collection of such strings. */
  | "typeNames"
  | "interval"
  | "json";

export interface BuiltinFunction {
  id: string;
  /** Lower-case name as written in dumps and PRINT keys. */
  name: string;
  args: ArgKind[];
  /** How many trailing entries of `args` may be left out. */
  optional: number;
  /** Further arguments of this kind may follow (COALESCE, println). */
  variadic?: ArgKind;
  result: (args: GType[]) => GType;
  /** COUNT/SUM/MIN/MAX/AVG take `DISTINCT`. */
  aggregate?: boolean;
}

const fixed = (t: GType) => () => t;
const sameAsFirst = (args: GType[]) => args[0] ?? T.ERROR;
const numericOfFirst = (args: GType[]) => (args[0] && isNumeric(args[0]) ? args[0] : T.DOUBLE);

function fn(name: string, args: ArgKind[], result: (args: GType[]) => GType, optional = 0, extra: Partial<BuiltinFunction> = {}): BuiltinFunction {
  return { id: `fn.${name}`, name, args, optional, result, ...extra };
}

/** Element type of a collection argument, for SUM/MIN/MAX/AVG. */
function elementOfFirst(args: GType[]): GType {
  const el = args[0] ? elementTypeOf(args[0]) : undefined;
  return el ?? T.ERROR;
}

const FUNCTIONS: BuiltinFunction[] = [
  // Math (gsql-semantics §7.2). Real-valued results are DOUBLE: computing in single
  // precision would lose digits the established server keeps.
  fn("abs", ["num"], numericOfFirst),
  fn("ceil", ["num"], fixed(T.INT)),
  fn("floor", ["num"], fixed(T.INT)),
  fn("round", ["num", "int"], (a) => (a.length > 1 ? T.DOUBLE : T.INT), 1),
  fn("trunc", ["num", "int"], (a) => (a.length > 1 || !isInteger(a[0] ?? T.ERROR) ? T.DOUBLE : a[0]!), 1),
  ...["sqrt", "exp", "log", "log2", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
    "cot", "degrees", "radians"].map((n) => fn(n, ["num"], fixed(T.DOUBLE))),
  fn("pow", ["num", "num"], fixed(T.DOUBLE)),
  fn("atan2", ["num", "num"], fixed(T.DOUBLE)),
  fn("fmod", ["num", "num"], fixed(T.DOUBLE)),
  fn("ldexp", ["num", "int"], fixed(T.DOUBLE)),
  fn("sign", ["num"], fixed(T.INT)),
  fn("square", ["num"], numericOfFirst),
  fn("pi", [], fixed(T.DOUBLE)),
  fn("float_to_int", ["num"], fixed(T.INT)),
  fn("rand", ["int"], fixed(T.DOUBLE), 1),
  // Conversion and JSON (§7.5).
  fn("to_string", ["any"], fixed(T.STRING)),
  fn("str_to_int", ["string"], fixed(T.INT)),
  fn("to_datetime", ["string"], fixed(T.DATETIME)),
  fn("parse_json_object", ["string"], fixed(T.JSONOBJECT)),
  fn("parse_json_array", ["string"], fixed(T.JSONARRAY)),
  // DATETIME (§7.4).
  fn("now", [], fixed(T.DATETIME)),
  fn("datetime_to_epoch", ["datetime"], fixed(T.INT)),
  fn("epoch_to_datetime", ["int"], fixed(T.DATETIME)),
  fn("datetime_format", ["datetime", "string"], fixed(T.STRING), 1),
  ...["year", "month", "day", "hour", "minute", "second"].map((n) => fn(n, ["datetime"], fixed(T.INT))),
  fn("datetime_add", ["datetime", "interval"], fixed(T.DATETIME)),
  fn("datetime_sub", ["datetime", "interval"], fixed(T.DATETIME)),
  fn("datetime_diff", ["datetime", "datetime"], fixed(T.INT)),
  // Strings (§7.3).
  fn("length", ["string"], fixed(T.INT)),
  fn("lower", ["string"], fixed(T.STRING)),
  fn("upper", ["string"], fixed(T.STRING)),
  fn("trim", ["string"], fixed(T.STRING)),
  fn("ltrim", ["string", "string"], fixed(T.STRING), 1),
  fn("rtrim", ["string", "string"], fixed(T.STRING), 1),
  fn("substr", ["string", "int", "int"], fixed(T.STRING), 1),
  fn("left", ["string", "int"], fixed(T.STRING)),
  fn("right", ["string", "int"], fixed(T.STRING)),
  fn("lpad", ["string", "int", "string"], fixed(T.STRING), 1),
  fn("rpad", ["string", "int", "string"], fixed(T.STRING), 1),
  fn("replace", ["string", "string", "string"], fixed(T.STRING), 1),
  fn("instr", ["string", "string", "int", "int"], fixed(T.INT), 2),
  fn("find_in_set", ["string", "string"], fixed(T.INT)),
  fn("insert", ["string", "int", "any", "string"], fixed(T.STRING), 1),
  fn("ascii", ["string"], fixed(T.INT)),
  fn("chr", ["int"], fixed(T.STRING)),
  fn("space", ["int"], fixed(T.STRING)),
  fn("soundex", ["string"], fixed(T.STRING)),
  fn("difference", ["string", "string"], fixed(T.INT)),
  fn("translate", ["string", "string", "string"], fixed(T.STRING)),
  fn("repeat", ["string", "int"], fixed(T.STRING)),
  fn("reverse", ["string"], fixed(T.STRING)),
  fn("gsql_uuid_v4", [], fixed(T.STRING)),
  // Vertices (§7.1).
  fn("getvid", ["vertex"], fixed(T.INT)),
  fn("to_vertex", ["any", "string"], fixed(T.VERTEX)),
  fn("to_vertex_set", ["any", "string"], fixed({ kind: "vertexSet" })),
  // Aggregates over collections (§3.4).
  fn("count", ["many"], fixed(T.INT), 0, { aggregate: true }),
  fn("sum", ["many"], elementOfFirst, 0, { aggregate: true }),
  fn("min", ["many"], elementOfFirst, 0, { aggregate: true }),
  fn("max", ["many"], elementOfFirst, 0, { aggregate: true }),
  fn("avg", ["many"], elementOfFirst, 0, { aggregate: true }),
  fn("isempty", ["many"], fixed(T.BOOL)),
  fn("coalesce", ["any"], sameAsFirst, 0, { variadic: "any" }),
  fn("evaluate", ["string", "string"], fixed(T.ERROR)),
];

const FUNCTION_BY_NAME = new Map(FUNCTIONS.map((f) => [f.name, f]));

/** Built-in function names are case-insensitive (keyword functions like COALESCE, COUNT). */
export function lookupFunction(name: string): BuiltinFunction | undefined {
  return FUNCTION_BY_NAME.get(name.toLowerCase());
}

/** Does an argument of type `t` fit kind `k`? Numbers convert among themselves. */
export function argFits(k: ArgKind, t: GType): boolean {
  if (t.kind === "error") return true;
  switch (k) {
    case "num": return isNumeric(t);
    case "int": return isInteger(t);
    case "string": return isPrimitive(t, "STRING");
    case "bool": return isPrimitive(t, "BOOL");
    case "datetime": return isPrimitive(t, "DATETIME");
    case "vertex": return t.kind === "vertex";
    case "edge": return t.kind === "edge";
    case "json": return t.kind === "json";
    case "interval": return t.kind === "primitive" && t.name === "INT";
    case "many": return elementTypeOf(t) !== undefined && (t.kind === "collection" || t.kind === "vertexSet" || t.kind === "accum");
    case "typeNames": {
      if (isPrimitive(t, "STRING")) return true;
      const el = elementTypeOf(t);
      return el !== undefined && isPrimitive(el, "STRING");
    }
    case "any": return t.kind !== "void";
  }
}

// ---------------------------------------------------------------- methods

export type ReceiverKind =
  | "vertex" | "edge" | "vertexSet" | "file" | "jsonobject" | "jsonarray"
  | "list" | "set" | "bag" | "map" | "array" | "heap" | "groupBy" | "bitwise";

export interface BuiltinMethod {
  id: string;
  name: string;
  receiver: ReceiverKind;
  args: ArgKind[];
  optional: number;
  variadic?: ArgKind;
  /** A mutator (`clear`, `remove`, ...): allowed on globals at query level, on vertex accumulators in POST-ACCUM. */
  mutator: boolean;
  result: (receiver: GType, args: GType[]) => GType;
}

function method(receiver: ReceiverKind, name: string, args: ArgKind[], result: (r: GType, a: GType[]) => GType,
  extra: { optional?: number; mutator?: boolean; variadic?: ArgKind } = {}): BuiltinMethod {
  return { id: `${receiver}.${name}`, name, receiver, args, optional: extra.optional ?? 0, variadic: extra.variadic,
    mutator: extra.mutator ?? false, result };
}

const elementOfReceiver = (r: GType) => elementTypeOf(r) ?? T.ERROR;
const bagOf = (element: GType): GType => ({ kind: "accum", accum: "BagAccum", element });
const size = (r: ReceiverKind) => method(r, "size", [], () => T.INT);
const clear = (r: ReceiverKind) => method(r, "clear", [], () => T.VOID, { mutator: true });
const contains = (r: ReceiverKind) => method(r, "contains", ["any"], () => T.BOOL);

function mapValue(r: GType): GType {
  if (r.kind === "accum" && r.accum === "MapAccum") return r.value.kind === "accum" ? accumOutputType(r.value) : r.value;
  if (r.kind === "map") return r.value;
  return T.ERROR;
}

/** GroupByAccum.get(keys): a tuple of its accumulators' values, read by alias. */
function groupByValue(r: GType): GType {
  if (r.kind !== "accum" || r.accum !== "GroupByAccum") return T.ERROR;
  return { kind: "tuple", fields: r.values.map((v) => ({ name: v.name, type: accumOutputType(v.type) })) };
}

function heapTuple(r: GType): GType {
  return r.kind === "accum" && r.accum === "HeapAccum" ? r.tuple : T.ERROR;
}

const METHODS: BuiltinMethod[] = [
  method("vertex", "outdegree", ["typeNames"], () => T.INT, { optional: 1 }),
  method("vertex", "neighbors", ["typeNames"], () => bagOf(T.VERTEX), { optional: 1 }),
  // Result element types depend on the schema: the binder refines them (see bind-expr).
  method("vertex", "neighborAttribute", ["string", "string", "string"], () => bagOf(T.ERROR)),
  method("vertex", "edgeAttribute", ["string", "string"], () => bagOf(T.ERROR)),
  method("vertex", "getAttr", ["string", "string"], () => T.ERROR, { optional: 1 }),
  method("vertex", "setAttr", ["string", "any"], () => T.VOID),
  method("edge", "getAttr", ["string", "string"], () => T.ERROR, { optional: 1 }),
  method("edge", "setAttr", ["string", "any"], () => T.VOID),
  method("edge", "isDirected", [], () => T.BOOL),
  size("vertexSet"),
  method("file", "println", ["any"], () => T.VOID, { variadic: "any", optional: 1 }),
  method("jsonobject", "containsKey", ["string"], () => T.BOOL),
  method("jsonobject", "size", [], () => T.INT),
  ...(["jsonobject", "jsonarray"] as const).flatMap((r) => {
    const key: ArgKind = r === "jsonobject" ? "string" : "int";
    return [
      method(r, "getInt", [key], () => T.INT),
      method(r, "getDouble", [key], () => T.DOUBLE),
      method(r, "getString", [key], () => T.STRING),
      method(r, "getBool", [key], () => T.BOOL),
      method(r, "getJsonObject", [key], () => T.JSONOBJECT),
      method(r, "getJsonArray", [key], () => T.JSONARRAY),
    ];
  }),
  method("jsonarray", "size", [], () => T.INT),
  // ListAccum and LIST values.
  size("list"), contains("list"), clear("list"),
  method("list", "get", ["int"], elementOfReceiver),
  method("list", "update", ["int", "any"], () => T.BOOL, { mutator: true }),
  method("list", "remove", ["int"], () => T.BOOL, { mutator: true }),
  method("list", "removeOne", ["any"], () => T.BOOL, { mutator: true }),
  method("list", "removeAll", ["any"], () => T.BOOL, { mutator: true }),
  // SetAccum / BagAccum and SET/BAG parameters.
  size("set"), contains("set"), clear("set"),
  method("set", "remove", ["any"], () => T.BOOL, { mutator: true }),
  size("bag"), contains("bag"), clear("bag"),
  method("bag", "remove", ["any"], () => T.BOOL, { mutator: true }),
  method("bag", "removeAll", ["any"], () => T.BOOL, { mutator: true }),
  // MapAccum.
  size("map"), clear("map"),
  method("map", "containsKey", ["any"], () => T.BOOL),
  method("map", "get", ["any"], mapValue),
  method("map", "remove", ["any"], () => T.BOOL, { mutator: true }),
  // ArrayAccum.
  size("array"),
  method("array", "reallocate", ["int"], () => T.VOID, { variadic: "int", mutator: true }),
  // HeapAccum.
  size("heap"), clear("heap"),
  method("heap", "top", [], heapTuple),
  method("heap", "pop", [], heapTuple, { mutator: true }),
  method("heap", "resize", ["int"], () => T.VOID, { mutator: true }),
  // GroupByAccum: keys are passed positionally.
  size("groupBy"), clear("groupBy"),
  method("groupBy", "get", ["any"], groupByValue, { variadic: "any" }),
  method("groupBy", "containsKey", ["any"], () => T.BOOL, { variadic: "any" }),
  method("groupBy", "remove", ["any"], () => T.BOOL, { variadic: "any", mutator: true }),
  // BitwiseAnd/OrAccum.
  method("bitwise", "reset", [], () => T.VOID, { mutator: true }),
  method("bitwise", "set", ["int", "bool"], () => T.VOID, { optional: 2, mutator: true }),
  method("bitwise", "get", ["int"], () => T.BOOL),
  method("bitwise", "flip", ["int", "int"], () => T.VOID, { optional: 1, mutator: true }),
  method("bitwise", "cardinality", [], () => T.INT),
  ...["and", "or", "xor"].map((n) => method("bitwise", n, ["any"], (r) => r, { mutator: true })),
];

const METHOD_BY_KEY = new Map(METHODS.map((m) => [`${m.receiver}.${m.name.toLowerCase()}`, m]));

/** Which method table a receiver type uses (undefined: the type has no methods). */
export function receiverKind(t: GType): ReceiverKind | undefined {
  switch (t.kind) {
    case "vertex": return "vertex";
    case "edge": return "edge";
    case "vertexSet": return "vertexSet";
    case "file": return "file";
    case "json": return t.name === "JSONOBJECT" ? "jsonobject" : "jsonarray";
    case "map": return "map";
    case "collection": return t.collection === "LIST" ? "list" : t.collection === "SET" ? "set" : "bag";
    case "accum": return accumReceiver(t);
    default: return undefined;
  }
}

function accumReceiver(a: AccumType): ReceiverKind | undefined {
  switch (a.accum) {
    case "ListAccum": return "list";
    case "SetAccum": return "set";
    case "BagAccum": return "bag";
    case "MapAccum": return "map";
    case "ArrayAccum": return "array";
    case "HeapAccum": return "heap";
    case "GroupByAccum": return "groupBy";
    case "BitwiseAndAccum": case "BitwiseOrAccum": return "bitwise";
    default: return undefined;
  }
}

/** Method names are matched case-insensitively, as the reference server's examples mix cases. */
export function lookupMethod(receiver: GType, name: string): BuiltinMethod | undefined {
  const kind = receiverKind(receiver);
  return kind ? METHOD_BY_KEY.get(`${kind}.${name.toLowerCase()}`) : undefined;
}

/** Arithmetic result of `a op b` on numbers (no check: callers verify both are numeric). */
export function arithmeticResult(a: GType, b: GType): GType {
  return widen(a, b);
}
