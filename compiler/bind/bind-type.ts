// Written types in queries (parameters, variables, accumulators, RETURNS, typedefs) to
// GTypes, resolving vertex types, tuple names and accumulator shapes.
import type { AstAccumType, AstTupleField, AstType } from "../ast/index.js";
import type { QueryContext } from "./context.js";
import {
  T, checkAccumElement, primitive, typeToString, type AccumType, type GType, type PrimitiveName, type TupleField,
  type TupleGType,
} from "./types.js";

export function bindType(cx: QueryContext, t: AstType): GType {
  switch (t.kind) {
    case "BaseType":
      switch (t.name) {
        case "VERTEX": {
          if (!t.typeArg) return T.VERTEX;
          const name = t.typeArg.name;
          if (!cx.view.vertexType(name)) {
            cx.error("GSQL2002", t.typeArg.range, { name, graph: cx.graphName });
            return T.VERTEX;
          }
          return { kind: "vertex", vertexType: name };
        }
        case "EDGE": {
          if (!t.typeArg) return T.EDGE;
          const name = t.typeArg.name;
          if (!cx.view.edgeType(name)) cx.error("GSQL2003", t.typeArg.range, { name, graph: cx.graphName });
          return { kind: "edge", edgeType: name };
        }
        case "JSONOBJECT": return T.JSONOBJECT;
        case "JSONARRAY": return T.JSONARRAY;
        case "FILE": return T.FILE;
        case "FIXED_BINARY": return T.STRING;
        default: return primitive(t.name as PrimitiveName);
      }
    case "CollectionType": {
      const args = t.args.map((a) => bindType(cx, a));
      if (t.name === "MAP") return args.length === 2 ? { kind: "map", key: args[0]!, value: args[1]! } : T.ERROR;
      return args.length === 1 ? { kind: "collection", collection: t.name, element: args[0]! } : T.ERROR;
    }
    case "TupleType":
      return { kind: "tuple", fields: bindTupleFields(cx, t.fields) };
    case "NamedType": {
      const tuple = cx.lookupTuple(t.name.name);
      if (!tuple) {
        cx.error("GSQL2007", t.name.range, { name: t.name.name });
        return T.ERROR;
      }
      return tuple;
    }
    case "AccumType":
      return bindAccumType(cx, t) ?? T.ERROR;
  }
}

export function bindTupleFields(cx: QueryContext, fields: AstTupleField[]): TupleField[] {
  return fields.map((f, i) => ({ name: f.name?.name ?? `field${i}`, type: bindType(cx, f.type) }));
}

const NUMERIC: readonly PrimitiveName[] = ["INT", "UINT", "FLOAT", "DOUBLE"];
const BOOLEAN: readonly PrimitiveName[] = ["BOOL"];
const INTEGER: readonly PrimitiveName[] = ["INT", "UINT"];

/**
 * The element type some files write on accumulators that fold one fixed kind of value
 * (`OrAccum<BOOL>`, `AvgAccum<DOUBLE>`, `BitwiseOrAccum<INT>`): it must be one of `allowed`.
 * It changes nothing in the bound type; an AvgAccum still averages as DOUBLE.
 */
function checkSpelledElement(cx: QueryContext, t: AstAccumType, allowed: readonly PrimitiveName[]): boolean {
  const written = t.args[0];
  if (!written) return true;
  const element = bindType(cx, written);
  if (element.kind === "error") return false;
  if (element.kind === "primitive" && allowed.includes(element.name)) return true;
  cx.error("GSQL3021", written.range, {
    reason: `${t.spelling} folds ${allowed.join(" or ")} values, not ${typeToString(element)}`,
  });
  return false;
}

/** An accumulator type, checked (element kinds, heap keys); undefined after an error. */
export function bindAccumType(cx: QueryContext, t: AstAccumType): AccumType | undefined {
  const arg = (i: number): GType => (t.args[i] ? bindType(cx, t.args[i]!) : T.ERROR);
  let out: AccumType | undefined;
  switch (t.name) {
    case "SumAccum": case "MinAccum": case "MaxAccum": case "ListAccum": case "SetAccum": case "BagAccum":
      out = { kind: "accum", accum: t.name, element: arg(0) };
      break;
    case "AvgAccum": case "AndAccum": case "OrAccum":
      if (!checkSpelledElement(cx, t, t.name === "AvgAccum" ? NUMERIC : BOOLEAN)) return undefined;
      out = { kind: "accum", accum: t.name };
      break;
    case "BitwiseAndAccum": case "BitwiseOrAccum":
      if (!checkSpelledElement(cx, t, INTEGER)) return undefined;
      out = { kind: "accum", accum: t.name, width: t.width ? Number(t.width) : 64 };
      break;
    case "MapAccum":
      out = { kind: "accum", accum: "MapAccum", key: arg(0), value: arg(1) };
      break;
    case "ArrayAccum": {
      const el = arg(0);
      if (el.kind !== "accum") {
        cx.error("GSQL3021", t.range, { reason: `ArrayAccum holds accumulators, not ${typeToString(el)}` });
        return undefined;
      }
      out = { kind: "accum", accum: "ArrayAccum", element: el, dims: 1 };
      break;
    }
    case "HeapAccum": {
      const tuple = arg(0);
      if (tuple.kind !== "tuple") {
        if (tuple.kind !== "error") cx.error("GSQL3021", t.range, { reason: `HeapAccum holds a tuple type, not ${typeToString(tuple)}` });
        return undefined;
      }
      out = {
        kind: "accum", accum: "HeapAccum", tuple: tuple as TupleGType,
        keys: (t.heap?.keys ?? []).map((k) => ({ field: k.field.name, desc: k.order === "DESC" })),
      };
      break;
    }
    case "GroupByAccum": {
      const keys: TupleField[] = [];
      const values: { name: string; type: AccumType }[] = [];
      for (const [i, f] of (t.groupBy ?? []).entries()) {
        const ft = bindType(cx, f.type);
        const name = f.name?.name ?? `field${i}`;
        if (ft.kind === "accum") values.push({ name, type: ft });
        else if (values.length > 0) {
          cx.error("GSQL3021", f.range, { reason: "GroupByAccum lists its key fields before its accumulators" });
          return undefined;
        } else keys.push({ name, type: ft });
      }
      if (keys.length === 0 || values.length === 0) {
        cx.error("GSQL3021", t.range, { reason: "GroupByAccum needs key fields and at least one accumulator" });
        return undefined;
      }
      out = { kind: "accum", accum: "GroupByAccum", keys, values };
      break;
    }
  }
  if (!out) return undefined;
  const problem = checkAccumElement(out);
  if (problem) {
    cx.error("GSQL3021", t.range, { reason: problem });
    return undefined;
  }
  return out;
}
