// Lowering of the binder's types to IR types: collections become the accumulators they
// behave as, a MapAccum's plain value type gets its implied accumulator, HeapAccum sort
// keys become field indexes.
import type { AccumType, GType, TupleGType } from "../bind/types.js";
import { impliedAccum, type IrAccum, type IrTupleType, type IrType } from "./types.js";

export class LowerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LowerError";
  }
}

export function lowerType(t: GType): IrType {
  switch (t.kind) {
    case "primitive":
      return { t: "scalar", name: t.name };
    case "vertex":
      return t.vertexType ? { t: "vertex", vertexType: t.vertexType } : { t: "vertex" };
    case "edge":
      return { t: "edge" };
    case "json":
      return { t: "json", name: t.name };
    case "tuple":
      return lowerTuple(t);
    case "collection":
      return { t: "accum", accum: { a: t.collection === "LIST" ? "list" : t.collection === "SET" ? "set" : "bag", elem: lowerType(t.element) } };
    case "map":
      return { t: "accum", accum: { a: "map", key: lowerType(t.key), value: impliedAccum(lowerType(t.value)) } };
    case "accum":
      return { t: "accum", accum: lowerAccum(t) };
    case "vertexSet":
      return { t: "vset" };
    case "file":
      return { t: "file" };
    case "entry":
    case "void":
      return { t: "void" };
    case "error":
      throw new LowerError("a query with type errors cannot be compiled");
  }
}

export function lowerTuple(t: TupleGType): IrTupleType {
  return { t: "tuple", ...(t.name ? { name: t.name } : {}), fields: t.fields.map((f) => ({ name: f.name, type: lowerType(f.type) })) };
}

export function lowerAccum(a: AccumType): IrAccum {
  switch (a.accum) {
    case "SumAccum":
      return { a: "sum", elem: lowerType(a.element) };
    case "MinAccum":
      return { a: "min", elem: lowerType(a.element) };
    case "MaxAccum":
      return { a: "max", elem: lowerType(a.element) };
    case "AvgAccum":
      return { a: "avg" };
    case "AndAccum":
      return { a: "and" };
    case "OrAccum":
      return { a: "or" };
    case "BitwiseAndAccum":
      return { a: "bitand", width: a.width };
    case "BitwiseOrAccum":
      return { a: "bitor", width: a.width };
    case "ListAccum":
      return { a: "list", elem: lowerType(a.element) };
    case "SetAccum":
      return { a: "set", elem: lowerType(a.element) };
    case "BagAccum":
      return { a: "bag", elem: lowerType(a.element) };
    case "MapAccum":
      return { a: "map", key: lowerType(a.key), value: impliedAccum(lowerType(a.value)) };
    case "ArrayAccum":
      return { a: "array", elem: lowerAccum(a.element), dims: a.dims };
    case "HeapAccum": {
      const tuple = lowerTuple(a.tuple);
      return {
        a: "heap",
        tuple,
        keys: a.keys.map((k) => {
          const field = tuple.fields.findIndex((f) => f.name === k.field);
          if (field < 0) throw new LowerError(`HeapAccum sort key ${k.field} is not a field of its tuple`);
          return { field, desc: k.desc };
        }),
      };
    }
    case "GroupByAccum":
      return { a: "groupby", keys: a.keys.map((k) => ({ name: k.name, type: lowerType(k.type) })), values: a.values.map((v) => ({ name: v.name, accum: lowerAccum(v.type) })) };
  }
}
