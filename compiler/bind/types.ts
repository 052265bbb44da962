// The GSQL type system as the binder sees it: base types, tuples, collections, every
// accumulator type, vertex sets and FILE; numeric widening; what `=` and `+=` accept for
// each accumulator and what reading one gives; schema attribute types mapped into the
// language. Types are plain data so bound trees stay JSON-friendly.
import type { AttrType, TupleType } from "../../runtime-wasm/schema/types.js";

export type PrimitiveName = "INT" | "UINT" | "FLOAT" | "DOUBLE" | "BOOL" | "STRING" | "DATETIME";
export type NumericName = "INT" | "UINT" | "FLOAT" | "DOUBLE";

export interface TupleField {
  name: string;
  type: GType;
}

export type AccumName =
  | "SumAccum" | "MinAccum" | "MaxAccum" | "AvgAccum" | "AndAccum" | "OrAccum"
  | "BitwiseAndAccum" | "BitwiseOrAccum" | "ListAccum" | "SetAccum" | "BagAccum"
  | "MapAccum" | "ArrayAccum" | "HeapAccum" | "GroupByAccum";

/** One HeapAccum ordering key: a field of its tuple, ascending unless `desc`. */
export interface HeapKey {
  field: string;
  desc: boolean;
}

export type AccumType =
  | { kind: "accum"; accum: "SumAccum" | "MinAccum" | "MaxAccum"; element: GType }
  | { kind: "accum"; accum: "AvgAccum" | "AndAccum" | "OrAccum" }
  | { kind: "accum"; accum: "BitwiseAndAccum" | "BitwiseOrAccum"; width: number }
  | { kind: "accum"; accum: "ListAccum" | "SetAccum" | "BagAccum"; element: GType }
  | { kind: "accum"; accum: "MapAccum"; key: GType; value: GType }
  | { kind: "accum"; accum: "ArrayAccum"; element: AccumType; dims: number }
  | { kind: "accum"; accum: "HeapAccum"; tuple: TupleGType; keys: HeapKey[] }
  | { kind: "accum"; accum: "GroupByAccum"; keys: TupleField[]; values: { name: string; type: AccumType }[] };

export type TupleGType = { kind: "tuple"; name?: string; fields: TupleField[] };

export type GType =
  | { kind: "primitive"; name: PrimitiveName }
  /** VERTEX (any type) or VERTEX<T>. */
  | { kind: "vertex"; vertexType?: string }
  | { kind: "edge"; edgeType?: string }
  | { kind: "json"; name: "JSONOBJECT" | "JSONARRAY" }
  /** A named (TYPEDEF) or anonymous (TUPLE<...>) tuple. */
  | TupleGType
  /** SET<T>/BAG<T>/LIST<T> values (parameters, DML-level locals, literals) and MAP<K,V>. */
  | { kind: "collection"; collection: "SET" | "BAG" | "LIST"; element: GType }
  | { kind: "map"; key: GType; value: GType }
  | AccumType
  /** A vertex-set variable or expression; `vertexTypes` undefined means ANY. */
  | { kind: "vertexSet"; vertexTypes?: string[] }
  | { kind: "file" }
  /** `(k -> v)` and `(k1, k2 -> v1, v2)` entry literals, only meaningful as `+=` operands. */
  | { kind: "entry"; keys: GType[]; values: GType[] }
  | { kind: "void" }
  /** The type of an expression that already produced a diagnostic: accepted everywhere. */
  | { kind: "error" };

export const T = {
  INT: { kind: "primitive", name: "INT" } as GType,
  UINT: { kind: "primitive", name: "UINT" } as GType,
  FLOAT: { kind: "primitive", name: "FLOAT" } as GType,
  DOUBLE: { kind: "primitive", name: "DOUBLE" } as GType,
  BOOL: { kind: "primitive", name: "BOOL" } as GType,
  STRING: { kind: "primitive", name: "STRING" } as GType,
  DATETIME: { kind: "primitive", name: "DATETIME" } as GType,
  VERTEX: { kind: "vertex" } as GType,
  EDGE: { kind: "edge" } as GType,
  JSONOBJECT: { kind: "json", name: "JSONOBJECT" } as GType,
  JSONARRAY: { kind: "json", name: "JSONARRAY" } as GType,
  FILE: { kind: "file" } as GType,
  VOID: { kind: "void" } as GType,
  ERROR: { kind: "error" } as GType,
} as const;

export function primitive(name: PrimitiveName): GType {
  return { kind: "primitive", name };
}

export function isPrimitive(t: GType, ...names: PrimitiveName[]): boolean {
  return t.kind === "primitive" && (names.length === 0 || names.includes(t.name));
}

const NUMERIC_RANK: Record<NumericName, number> = { INT: 0, UINT: 1, FLOAT: 2, DOUBLE: 3 };

export function isNumeric(t: GType): t is { kind: "primitive"; name: NumericName } {
  return t.kind === "primitive" && t.name in NUMERIC_RANK;
}

export function isInteger(t: GType): boolean {
  return isPrimitive(t, "INT", "UINT");
}

export function isFloating(t: GType): boolean {
  return isPrimitive(t, "FLOAT", "DOUBLE");
}

export function isError(t: GType): boolean {
  return t.kind === "error";
}

/** Widening INT → UINT → FLOAT → DOUBLE: the wider of two numeric types. */
export function widen(a: GType, b: GType): GType {
  if (!isNumeric(a) || !isNumeric(b)) return T.ERROR;
  return NUMERIC_RANK[a.name] >= NUMERIC_RANK[b.name] ? a : b;
}

/** Structural equality; named tuples compare by name, anonymous ones by field types. */
export function sameType(a: GType, b: GType): boolean {
  if (a.kind === "error" || b.kind === "error") return true;
  switch (a.kind) {
    case "primitive":
      return b.kind === "primitive" && a.name === b.name;
    case "vertex":
      return b.kind === "vertex" && a.vertexType === b.vertexType;
    case "edge":
      return b.kind === "edge" && a.edgeType === b.edgeType;
    case "json":
      return b.kind === "json" && a.name === b.name;
    case "tuple":
      if (b.kind !== "tuple") return false;
      if (a.name !== undefined && b.name !== undefined) return a.name === b.name;
      return a.fields.length === b.fields.length && a.fields.every((f, i) => sameType(f.type, b.fields[i]!.type));
    case "collection":
      return b.kind === "collection" && a.collection === b.collection && sameType(a.element, b.element);
    case "map":
      return b.kind === "map" && sameType(a.key, b.key) && sameType(a.value, b.value);
    case "accum":
      return b.kind === "accum" && sameAccum(a, b);
    case "vertexSet":
      return b.kind === "vertexSet";
    case "entry":
      return b.kind === "entry" && a.keys.length === b.keys.length && a.values.length === b.values.length;
    default:
      return a.kind === b.kind;
  }
}

function sameAccum(a: AccumType, b: AccumType): boolean {
  if (a.accum !== b.accum) return false;
  switch (a.accum) {
    case "SumAccum": case "MinAccum": case "MaxAccum": case "ListAccum": case "SetAccum": case "BagAccum":
      return sameType(a.element, (b as typeof a).element);
    case "MapAccum":
      return sameType(a.key, (b as typeof a).key) && sameType(a.value, (b as typeof a).value);
    case "ArrayAccum":
      return a.dims === (b as typeof a).dims && sameAccum(a.element, (b as typeof a).element);
    case "HeapAccum":
      return sameType(a.tuple, (b as typeof a).tuple);
    case "GroupByAccum": {
      const o = b as typeof a;
      return a.keys.length === o.keys.length && a.values.length === o.values.length &&
        a.keys.every((k, i) => sameType(k.type, o.keys[i]!.type)) &&
        a.values.every((v, i) => sameAccum(v.type, o.values[i]!.type));
    }
    case "BitwiseAndAccum": case "BitwiseOrAccum":
      return a.width === (b as typeof a).width;
    default:
      return true;
  }
}

/** The GSQL spelling of a type, for messages and dumps. */
export function typeToString(t: GType): string {
  switch (t.kind) {
    case "primitive": return t.name;
    case "vertex": return t.vertexType ? `VERTEX<${t.vertexType}>` : "VERTEX";
    case "edge": return t.edgeType ? `EDGE<${t.edgeType}>` : "EDGE";
    case "json": return t.name;
    case "tuple": return t.name ?? `TUPLE<${t.fields.map((f) => typeToString(f.type)).join(", ")}>`;
    case "collection": return `${t.collection}<${typeToString(t.element)}>`;
    case "map": return `MAP<${typeToString(t.key)}, ${typeToString(t.value)}>`;
    case "accum": return accumToString(t);
    case "vertexSet": return t.vertexTypes ? `vertex set (${t.vertexTypes.join("|")})` : "vertex set (ANY)";
    case "file": return "FILE";
    case "entry": return `(${t.keys.map(typeToString).join(", ")} -> ${t.values.map(typeToString).join(", ")})`;
    case "void": return "VOID";
    case "error": return "<error>";
  }
}

function accumToString(a: AccumType): string {
  switch (a.accum) {
    case "SumAccum": case "MinAccum": case "MaxAccum": case "ListAccum": case "SetAccum": case "BagAccum":
      return `${a.accum}<${typeToString(a.element)}>`;
    case "MapAccum": return `MapAccum<${typeToString(a.key)}, ${typeToString(a.value)}>`;
    case "ArrayAccum": return `ArrayAccum<${accumToString(a.element)}>${"[]".repeat(a.dims)}`;
    case "HeapAccum":
      return `HeapAccum<${typeToString(a.tuple)}>(${a.keys.map((k) => `${k.field} ${k.desc ? "DESC" : "ASC"}`).join(", ")})`;
    case "GroupByAccum":
      return `GroupByAccum<${[...a.keys.map((k) => `${typeToString(k.type)} ${k.name}`),
        ...a.values.map((v) => `${accumToString(v.type)} ${v.name}`)].join(", ")}>`;
    case "BitwiseAndAccum": case "BitwiseOrAccum":
      return a.width === 64 ? a.accum : `${a.accum}<${a.width}>`;
    default: return a.accum;
  }
}

/** Types whose values can be ordered (Min/Max elements, ORDER BY keys, heap keys, `<`). */
export function isOrderable(t: GType): boolean {
  if (t.kind === "error") return true;
  if (t.kind === "primitive") return t.name !== "BOOL";
  if (t.kind === "vertex" || t.kind === "edge") return true;
  if (t.kind === "tuple") return t.fields.every((f) => isOrderable(f.type));
  return false;
}

/** Types usable as set, bag, list elements and map keys: base types and tuples. */
export function isElementType(t: GType): boolean {
  return t.kind === "primitive" || t.kind === "vertex" || t.kind === "edge" || t.kind === "tuple" ||
    t.kind === "json" || t.kind === "error";
}

/** The element type of something iterable (FOREACH, IN, aggregate functions, `+=` of many). */
export function elementTypeOf(t: GType): GType | undefined {
  if (t.kind === "error") return T.ERROR;
  if (t.kind === "collection") return t.element;
  if (t.kind === "vertexSet") return t.vertexTypes?.length === 1 ? { kind: "vertex", vertexType: t.vertexTypes[0] } : T.VERTEX;
  if (t.kind === "accum") {
    switch (t.accum) {
      case "ListAccum": case "SetAccum": case "BagAccum": return t.element;
      case "HeapAccum": return t.tuple;
      case "ArrayAccum": return accumOutputType(t.element);
      default: return undefined;
    }
  }
  return undefined;
}

/**
 * Whether a value of type `src` may be stored into a place of type `dst` (assignment,
 * initialiser, argument, RETURN). Numbers convert freely (float → INT truncates); a
 * vertex of a known type fits generic VERTEX and a generic one fits VERTEX<T> (checked at
 * run time); collections fit when their elements do.
 */
export function isAssignable(dst: GType, src: GType): boolean {
  if (dst.kind === "error" || src.kind === "error") return true;
  if (isNumeric(dst) && isNumeric(src)) return true;
  switch (dst.kind) {
    case "primitive":
      return src.kind === "primitive" && src.name === dst.name;
    case "vertex":
      return src.kind === "vertex" && (!dst.vertexType || !src.vertexType || dst.vertexType === src.vertexType);
    case "edge":
      return src.kind === "edge";
    case "tuple":
      return src.kind === "tuple" && sameType(dst, src);
    case "collection": {
      const el = elementTypeOf(src);
      const srcIsMany = src.kind === "collection" || src.kind === "vertexSet" ||
        (src.kind === "accum" && (src.accum === "ListAccum" || src.accum === "SetAccum" || src.accum === "BagAccum"));
      return srcIsMany && el !== undefined && isAssignable(dst.element, el);
    }
    case "map":
      return (src.kind === "map" && isAssignable(dst.key, src.key) && isAssignable(dst.value, src.value)) ||
        (src.kind === "accum" && src.accum === "MapAccum" && isAssignable(dst.key, src.key) && isAssignable(dst.value, src.value));
    case "accum":
      return accumAcceptsAssign(dst, src);
    case "vertexSet":
      return src.kind === "vertexSet";
    default:
      return sameType(dst, src);
  }
}

/** Scalar accumulators: the element type `+=`/`=` take. */
function scalarAccumInput(a: AccumType): GType | undefined {
  switch (a.accum) {
    case "SumAccum": case "MinAccum": case "MaxAccum": return a.element;
    case "AvgAccum": return T.DOUBLE;
    case "AndAccum": case "OrAccum": return T.BOOL;
    case "BitwiseAndAccum": case "BitwiseOrAccum": return T.INT;
    default: return undefined;
  }
}

/** What `acc = v` accepts: the accumulator's own type, or a value of its output type. */
export function accumAcceptsAssign(a: AccumType, src: GType): boolean {
  if (src.kind === "error") return true;
  if (src.kind === "accum" && sameAccum(a, src)) return true;
  const scalar = scalarAccumInput(a);
  if (scalar) return isAssignable(scalar, src) || (src.kind === "accum" && isAssignable(scalar, accumOutputType(src)));
  // Collections: `@@l = [1, 2]`, `@@s = (1, 2)`, `@@s = someSetParam`, `@@m = otherMap`; a single
  // element makes a one-element collection (as the loader's overwrite reducer does).
  return accumAcceptsAccumulate(a, src) && src.kind !== "entry";
}

/** What `acc += v` accepts, per accumulator type (gsql-semantics §3). */
export function accumAcceptsAccumulate(a: AccumType, src: GType): boolean {
  if (src.kind === "error") return true;
  switch (a.accum) {
    case "SumAccum":
      if (isPrimitive(a.element, "STRING")) return isPrimitive(src, "STRING") || isSumOf(src, a);
      return isNumeric(src) || isSumOf(src, a);
    case "MinAccum": case "MaxAccum":
      return isAssignable(a.element, src) || (src.kind === "accum" && src.accum === a.accum && isAssignable(a.element, src.element));
    case "AvgAccum":
      return isNumeric(src);
    case "AndAccum": case "OrAccum":
      return isPrimitive(src, "BOOL") || (src.kind === "accum" && (src.accum === "AndAccum" || src.accum === "OrAccum"));
    case "BitwiseAndAccum": case "BitwiseOrAccum":
      return isInteger(src) || (src.kind === "accum" && src.accum === a.accum);
    case "ListAccum": {
      if (isAssignable(a.element, src) && src.kind !== "collection" && src.kind !== "accum") return true;
      if (a.element.kind === "accum" && src.kind === "accum" && sameAccum(a.element, src)) return true;
      // ListAccum<ListAccum<T>> += [a, b]: the list is one element.
      if (a.element.kind === "accum" && a.element.accum === "ListAccum") {
        const inner = manyElement(src, ["LIST"], ["ListAccum"]);
        if (inner !== undefined && isAssignable(a.element.element, inner)) return true;
      }
      const el = manyElement(src, ["LIST"], ["ListAccum"]);
      return el !== undefined && isAssignable(a.element, el);
    }
    case "SetAccum": case "BagAccum": {
      if (isAssignable(a.element, src) && src.kind !== "collection" && src.kind !== "accum" && src.kind !== "vertexSet") return true;
      const el = manyElement(src, ["SET", "BAG", "LIST"], ["SetAccum", "BagAccum", "ListAccum"]);
      if (el !== undefined) return isAssignable(a.element, el);
      return src.kind === "vertexSet" && a.element.kind === "vertex";
    }
    case "MapAccum":
      if (src.kind === "accum" && src.accum === "MapAccum") return isAssignable(a.key, src.key) && valueAccepts(a.value, src.value);
      if (src.kind === "map") return isAssignable(a.key, src.key) && valueAccepts(a.value, src.value);
      return src.kind === "entry" && src.keys.length === 1 && src.values.length === 1 &&
        isAssignable(a.key, src.keys[0]!) && valueAccepts(a.value, src.values[0]!);
    case "ArrayAccum":
      return src.kind === "accum" && sameAccum(a, src);
    case "HeapAccum":
      return (src.kind === "tuple" && tupleFits(a.tuple, src)) || (src.kind === "accum" && src.accum === "HeapAccum" && sameType(a.tuple, src.tuple));
    case "GroupByAccum":
      if (src.kind === "accum") return sameAccum(a, src);
      return src.kind === "entry" && src.keys.length === a.keys.length && src.values.length === a.values.length &&
        src.keys.every((k, i) => isAssignable(a.keys[i]!.type, k)) &&
        src.values.every((v, i) => accumAcceptsAccumulate(a.values[i]!.type, v));
  }
}

function isSumOf(src: GType, a: AccumType): boolean {
  return src.kind === "accum" && src.accum === "SumAccum" && a.accum === "SumAccum" && isAssignable(a.element, src.element);
}

/** A MapAccum value slot: an accumulator value takes what its `+=` takes, a plain value what `=` takes. */
function valueAccepts(value: GType, src: GType): boolean {
  if (value.kind === "accum") return accumAcceptsAccumulate(value, src);
  return isAssignable(value, src);
}

/** A tuple value fits a heap's tuple when it is that tuple, or an anonymous one of matching field types. */
function tupleFits(dst: TupleGType, src: TupleGType): boolean {
  if (src.name !== undefined && dst.name !== undefined) return src.name === dst.name;
  return src.fields.length === dst.fields.length && src.fields.every((f, i) => isAssignable(dst.fields[i]!.type, f.type));
}

function manyElement(src: GType, collections: string[], accums: AccumName[]): GType | undefined {
  if (src.kind === "collection" && collections.includes(src.collection)) return src.element;
  if (src.kind === "accum" && accums.includes(src.accum)) return elementTypeOf(src);
  return undefined;
}

/** The value read from an accumulator: scalars give their value, collections themselves. */
export function accumOutputType(a: AccumType): GType {
  switch (a.accum) {
    case "SumAccum": case "MinAccum": case "MaxAccum": return a.element;
    case "AvgAccum": return T.DOUBLE;
    case "AndAccum": case "OrAccum": return T.BOOL;
    case "BitwiseAndAccum": case "BitwiseOrAccum": return T.INT;
    default: return a;
  }
}

/** Which element types each accumulator allows (null: no element parameter). */
function listDepth(t: GType): number {
  return t.kind === "accum" && t.accum === "ListAccum" ? 1 + listDepth(t.element) : 0;
}

export function checkAccumElement(a: AccumType): string | undefined {
  switch (a.accum) {
    case "SumAccum":
      return isNumeric(a.element) || isPrimitive(a.element, "STRING") || isError(a.element)
        ? undefined : "SumAccum takes INT, UINT, FLOAT, DOUBLE or STRING";
    case "MinAccum": case "MaxAccum":
      return isOrderable(a.element) ? undefined : `${a.accum} takes a number, STRING, DATETIME, VERTEX or tuple`;
    case "ListAccum":
      if (listDepth(a) > 3) return "ListAccum nests at most three deep";
      return isElementType(a.element) || (a.element.kind === "accum" && a.element.accum === "ListAccum")
        ? undefined : "ListAccum takes a base type, a tuple or a ListAccum";
    case "SetAccum": case "BagAccum":
      return isElementType(a.element) ? undefined : `${a.accum} takes a base type or a tuple`;
    case "MapAccum":
      if (!isElementType(a.key)) return "a MapAccum key must be a base type or a tuple";
      if (a.value.kind === "accum" && a.value.accum === "HeapAccum") return "a MapAccum value cannot be a HeapAccum";
      return isElementType(a.value) || a.value.kind === "accum" ? undefined : "a MapAccum value must be a base type, tuple or accumulator";
    case "ArrayAccum":
      return ["HeapAccum", "MapAccum", "GroupByAccum"].includes(a.element.accum)
        ? "ArrayAccum cannot hold HeapAccum, MapAccum or GroupByAccum" : undefined;
    case "HeapAccum": {
      const missing = a.keys.find((k) => !a.tuple.fields.some((f) => f.name === k.field));
      return missing ? `the heap's tuple ${typeToString(a.tuple)} has no field ${missing.field}` : undefined;
    }
    default:
      return undefined;
  }
}

/** Schema attribute types in the language: scalars one-to-one, SET<t> → SetAccum<t>, LIST → ListAccum, MAP → MapAccum. */
export function attrTypeToGType(t: AttrType, tuples: readonly TupleType[]): GType {
  switch (t.kind) {
    case "scalar":
      return t.name === "FIXED_BINARY" ? T.STRING : primitive(t.name);
    case "list":
      return { kind: "accum", accum: "ListAccum", element: attrTypeToGType(t.element, tuples) };
    case "set":
      return { kind: "accum", accum: "SetAccum", element: attrTypeToGType(t.element, tuples) };
    case "map":
      return { kind: "accum", accum: "MapAccum", key: attrTypeToGType(t.key, tuples), value: attrTypeToGType(t.value, tuples) };
    case "tuple": {
      const def = tuples.find((x) => x.name === t.name);
      return def ? tupleTypeToGType(def, tuples) : T.ERROR;
    }
  }
}

export function tupleTypeToGType(def: TupleType, tuples: readonly TupleType[]): TupleGType {
  return { kind: "tuple", name: def.name, fields: def.fields.map((f) => ({ name: f.name, type: attrTypeToGType(f.type, tuples) })) };
}
