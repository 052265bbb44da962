// IR types. Close to the language's types, normalised for code generation: SET/BAG/LIST/MAP
// values are the matching accumulators (a SET<INT> parameter behaves as a read-only
// SetAccum<INT>), and a MapAccum whose value is a plain type gets the accumulator that type
// implies (numbers and strings add, lists append, anything else is replaced).

export type IrScalarName = "INT" | "UINT" | "FLOAT" | "DOUBLE" | "BOOL" | "STRING" | "DATETIME";

export interface IrTupleType {
  t: "tuple";
  name?: string;
  fields: { name: string; type: IrType }[];
}

export type IrType =
  | { t: "scalar"; name: IrScalarName }
  | { t: "vertex"; vertexType?: string }
  | { t: "edge" }
  | IrTupleType
  | { t: "json"; name: "JSONOBJECT" | "JSONARRAY" }
  | { t: "accum"; accum: IrAccum }
  | { t: "vset" }
  | { t: "file" }
  | { t: "void" };

export type IrAccum =
  | { a: "sum" | "min" | "max"; elem: IrType }
  | { a: "avg" | "and" | "or" }
  | { a: "bitand" | "bitor"; width: number }
  | { a: "list" | "set" | "bag"; elem: IrType }
  | { a: "map"; key: IrType; value: IrAccum }
  | { a: "array"; elem: IrAccum; dims: number }
  | { a: "heap"; tuple: IrTupleType; keys: { field: number; desc: boolean }[] }
  | { a: "groupby"; keys: { name: string; type: IrType }[]; values: { name: string; accum: IrAccum }[] }
  /** Implied by MapAccum<K, V> for a V that does not add up (VERTEX, DATETIME, tuples): `+=` replaces. */
  | { a: "replace"; elem: IrType };

export const INT: IrType = { t: "scalar", name: "INT" };
export const UINT: IrType = { t: "scalar", name: "UINT" };
export const FLOAT: IrType = { t: "scalar", name: "FLOAT" };
export const DOUBLE: IrType = { t: "scalar", name: "DOUBLE" };
export const BOOL: IrType = { t: "scalar", name: "BOOL" };
export const STRING: IrType = { t: "scalar", name: "STRING" };
export const DATETIME: IrType = { t: "scalar", name: "DATETIME" };
export const VERTEX: IrType = { t: "vertex" };
export const EDGE: IrType = { t: "edge" };
export const VSET: IrType = { t: "vset" };
export const VOID: IrType = { t: "void" };

export function scalar(t: IrType, ...names: IrScalarName[]): boolean {
  return t.t === "scalar" && (names.length === 0 || names.includes(t.name));
}

export function isIntegerType(t: IrType): boolean {
  return scalar(t, "INT", "UINT");
}

export function isFloatType(t: IrType): boolean {
  return scalar(t, "FLOAT", "DOUBLE");
}

export function accumType(accum: IrAccum): IrType {
  return { t: "accum", accum };
}

/** What reading an accumulator gives (its "output type"). */
export function accumValueType(a: IrAccum): IrType {
  switch (a.a) {
    case "sum":
    case "min":
    case "max":
    case "replace":
      return a.elem;
    case "avg":
      return DOUBLE;
    case "and":
    case "or":
      return BOOL;
    case "bitand":
    case "bitor":
      return INT;
    default:
      // Collections are read as themselves.
      return accumType(a);
  }
}

/** Whether the accumulator holds a collection (read as a container, not a number). */
export function isCollectionAccum(a: IrAccum): boolean {
  return a.a === "list" || a.a === "set" || a.a === "bag" || a.a === "map" || a.a === "array" || a.a === "heap" || a.a === "groupby";
}

/** The accumulator a MapAccum value of plain type `v` implies. */
export function impliedAccum(v: IrType): IrAccum {
  if (v.t === "accum") return v.accum;
  if (scalar(v, "INT", "UINT", "FLOAT", "DOUBLE", "STRING")) return { a: "sum", elem: v };
  if (scalar(v, "BOOL")) return { a: "or" };
  return { a: "replace", elem: v };
}

/** GSQL spelling of a type, for dumps and messages. */
export function typeText(t: IrType): string {
  switch (t.t) {
    case "scalar":
      return t.name;
    case "vertex":
      return t.vertexType ? `VERTEX<${t.vertexType}>` : "VERTEX";
    case "edge":
      return "EDGE";
    case "tuple":
      return t.name ?? `TUPLE<${t.fields.map((f) => `${typeText(f.type)} ${f.name}`).join(", ")}>`;
    case "json":
      return t.name;
    case "accum":
      return accumText(t.accum);
    case "vset":
      return "VSET";
    case "file":
      return "FILE";
    case "void":
      return "VOID";
  }
}

export function accumText(a: IrAccum): string {
  switch (a.a) {
    case "sum":
      return `SumAccum<${typeText(a.elem)}>`;
    case "min":
      return `MinAccum<${typeText(a.elem)}>`;
    case "max":
      return `MaxAccum<${typeText(a.elem)}>`;
    case "avg":
      return "AvgAccum";
    case "and":
      return "AndAccum";
    case "or":
      return "OrAccum";
    case "bitand":
      return a.width === 64 ? "BitwiseAndAccum" : `BitwiseAndAccum<${a.width}>`;
    case "bitor":
      return a.width === 64 ? "BitwiseOrAccum" : `BitwiseOrAccum<${a.width}>`;
    case "list":
      return `ListAccum<${typeText(a.elem)}>`;
    case "set":
      return `SetAccum<${typeText(a.elem)}>`;
    case "bag":
      return `BagAccum<${typeText(a.elem)}>`;
    case "map":
      return `MapAccum<${typeText(a.key)}, ${accumText(a.value)}>`;
    case "array":
      return `ArrayAccum<${accumText(a.elem)}>${"[]".repeat(a.dims)}`;
    case "heap":
      return `HeapAccum<${typeText(a.tuple)}>(${a.keys.map((k) => `${a.tuple.fields[k.field].name} ${k.desc ? "DESC" : "ASC"}`).join(", ")})`;
    case "groupby":
      return `GroupByAccum<${[...a.keys.map((k) => `${typeText(k.type)} ${k.name}`), ...a.values.map((v) => `${accumText(v.accum)} ${v.name}`)].join(", ")}>`;
    case "replace":
      return `Replace<${typeText(a.elem)}>`;
  }
}

export function sameIrType(a: IrType, b: IrType): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
