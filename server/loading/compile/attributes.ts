// Attribute value expressions → value getters, knowing the attribute's type: a scalar token
// converted by type, LIST/SET builders and SPLIT for collections, (k -> v)/MAP/SPLIT for
// maps, tuple constructors, and REDUCE(op(...)) choosing how the value folds into the
// stored one. '_' and missing tokens yield SKIP: the attribute is not written (default on
// create, stored value kept on update).
import type { AttrType, AttrValue, DatabaseSchema } from "../../../runtime-wasm/schema/types.js";
import type { UpsertOp } from "../../../runtime-wasm/store/index.js";
import type { ReducerName, ValueExpr } from "../plan.js";
import { LoadError } from "../errors.js";
import { INVALID, WRONG_LENGTH, emptyMeansMissing, scalarConverter, tupleConverter, type Converted } from "../functions/convert.js";
import { compileToken, describeKind } from "./tokens.js";
import type { ColumnResolver, Row } from "./row.js";

/** Not written: '_', an absent token, or an empty token of a non-STRING type. */
export const SKIP: unique symbol = Symbol("skip");

export type AttributeGetter = (row: Row) => Converted | typeof SKIP;

/**
 * How a loaded value folds into the stored one, as the store's operator symbol. Loading
 * overwrites scalars, appends to LIST/SET and puts MAP entries ("+" on collections) unless a
 * REDUCE names another operator.
 */
export type WriteOp = UpsertOp;

const REDUCER_SYMBOL: Record<ReducerName, UpsertOp> = { overwrite: "=", ignore_if_exists: "~", add: "+", and: "&", or: "|", max: ">", min: "<" };

export interface CompiledAttribute {
  name: string;
  op: WriteOp;
  get: AttributeGetter;
}

export function compileAttribute(
  name: string,
  type: AttrType,
  expr: ValueExpr,
  columns: ColumnResolver,
  schema: DatabaseSchema,
): CompiledAttribute | undefined {
  if (expr.kind === "skip") return undefined;
  let op: WriteOp = type.kind === "scalar" || type.kind === "tuple" ? "=" : "+";
  let inner: ValueExpr = expr;
  if (expr.kind === "reduce") {
    op = REDUCER_SYMBOL[expr.reducer];
    inner = expr.value;
    checkReducer(name, type, expr.reducer);
    if (inner.kind === "reduce") throw new LoadError(`REDUCE cannot be nested (attribute ${name}).`);
  }
  return { name, op, get: compileValue(name, type, inner, columns, schema) };
}

function compileValue(name: string, type: AttrType, expr: ValueExpr, columns: ColumnResolver, schema: DatabaseSchema): AttributeGetter {
  switch (type.kind) {
    case "scalar": {
      if (expr.kind === "tuple" || expr.kind === "list" || expr.kind === "set" || expr.kind === "map" || expr.kind === "split") {
        throw new LoadError(`${describeKind(expr.kind)} cannot load the ${type.name} attribute ${name}.`);
      }
      return scalarGetter(type, expr, columns);
    }
    case "tuple": {
      if (expr.kind !== "tuple") throw new LoadError(`Attribute ${name} of tuple type ${type.name} needs a ${type.name}(...) constructor.`);
      return tupleGetter(type.name, expr, columns, schema);
    }
    case "list":
    case "set":
      return collectionGetter(name, type.kind, type.element, expr, columns, schema);
    case "map":
      return mapGetter(name, type.key, type.value, expr, columns, schema);
  }
}

function scalarGetter(type: AttrType & { kind: "scalar" }, expr: ValueExpr, columns: ColumnResolver): AttributeGetter {
  const token = compileToken(expr, columns);
  const convert = scalarConverter(type.name, type.size);
  const emptyIsMissing = emptyMeansMissing(type);
  return (row) => {
    const t = token(row);
    if (t === undefined || (emptyIsMissing && t === "")) return SKIP;
    return convert(t);
  };
}

function tupleGetter(tupleName: string, expr: ValueExpr & { kind: "tuple" }, columns: ColumnResolver, schema: DatabaseSchema): AttributeGetter {
  if (expr.name !== tupleName) throw new LoadError(`Tuple constructor ${expr.name} does not build a ${tupleName}.`);
  const tuple = schema.tuples.find((t) => t.name === tupleName);
  if (!tuple) throw new LoadError(`Tuple type ${tupleName} does not exist.`);
  if (expr.args.length !== tuple.fields.length) {
    throw new LoadError(`Tuple ${tupleName} has ${tuple.fields.length} fields, but ${expr.args.length} values are given.`);
  }
  const tokens = expr.args.map((a) => compileToken(a, columns));
  const convert = tupleConverter(tuple);
  return (row) => convert(tokens.map((t) => t(row) ?? ""));
}

/** One element getter of a collection: a scalar token or a tuple; SKIP drops the element. */
function elementGetter(element: AttrType, expr: ValueExpr, columns: ColumnResolver, schema: DatabaseSchema): AttributeGetter {
  if (element.kind === "tuple") return tupleGetter(element.name, expr as ValueExpr & { kind: "tuple" }, columns, schema);
  if (element.kind !== "scalar") throw new LoadError("Nested collections cannot be loaded.");
  const convert = scalarConverter(element.name, element.size);
  if (expr.kind === "tuple") throw new LoadError(`A tuple cannot be an element of a collection of ${element.name}.`);
  const token = compileToken(expr, columns);
  const emptyIsMissing = emptyMeansMissing(element);
  return (row) => {
    const t = token(row);
    if (t === undefined || (emptyIsMissing && t === "")) return SKIP;
    return convert(t);
  };
}

function collectionGetter(
  name: string,
  kind: "list" | "set",
  element: AttrType,
  expr: ValueExpr,
  columns: ColumnResolver,
  schema: DatabaseSchema,
): AttributeGetter {
  const finish = (values: AttrValue[]): AttrValue[] => (kind === "set" ? dedupe(values) : values);
  if (expr.kind === "list" || expr.kind === "set") {
    const items = expr.items.map((e) => elementGetter(element, e, columns, schema));
    return (row) => {
      const out: AttrValue[] = [];
      for (const item of items) {
        const v = item(row);
        if (v === INVALID || v === WRONG_LENGTH) return v;
        if (v !== SKIP) out.push(v);
      }
      return finish(out);
    };
  }
  if (expr.kind === "split") {
    if (expr.keySeparator !== undefined) throw new LoadError(`SPLIT with a key separator builds a MAP, not the ${kind.toUpperCase()} attribute ${name}.`);
    if (element.kind !== "scalar") throw new LoadError("SPLIT cannot build tuple elements.");
    const token = compileToken(expr.value, columns);
    const convert = scalarConverter(element.name, element.size);
    const sep = expr.separator;
    if (sep.length === 0) throw new LoadError("SPLIT needs a non-empty separator.");
    return (row) => {
      const t = token(row);
      if (t === undefined || t === "") return finish([]);
      const out: AttrValue[] = [];
      for (const part of t.split(sep)) {
        const v = convert(part);
        if (v === INVALID || v === WRONG_LENGTH) return v;
        out.push(v);
      }
      return finish(out);
    };
  }
  if (expr.kind === "map" || expr.kind === "reduce") throw new LoadError(`${describeKind(expr.kind)} cannot load the ${kind.toUpperCase()} attribute ${name}.`);
  // A single value per line appends one element.
  const single = elementGetter(element, expr, columns, schema);
  return (row) => {
    const v = single(row);
    if (v === SKIP || v === INVALID || v === WRONG_LENGTH) return v;
    return [v];
  };
}

function mapGetter(name: string, keyType: AttrType, valueType: AttrType, expr: ValueExpr, columns: ColumnResolver, schema: DatabaseSchema): AttributeGetter {
  if (expr.kind === "map") {
    const entries = expr.entries.map((e) => ({
      key: elementGetter(keyType, e.key, columns, schema),
      value: elementGetter(valueType, e.value, columns, schema),
    }));
    return (row) => {
      const out: [AttrValue, AttrValue][] = [];
      for (const e of entries) {
        const k = e.key(row);
        const v = e.value(row);
        if (k === INVALID || k === WRONG_LENGTH) return k;
        if (v === INVALID || v === WRONG_LENGTH) return v;
        if (k !== SKIP && v !== SKIP) out.push([k, v]);
      }
      return out;
    };
  }
  if (expr.kind === "split") {
    if (expr.keySeparator === undefined) throw new LoadError(`SPLIT into the MAP attribute ${name} needs a key separator and an element separator.`);
    if (keyType.kind !== "scalar" || valueType.kind !== "scalar") throw new LoadError("SPLIT cannot build tuple values.");
    const token = compileToken(expr.value, columns);
    const [convertKey, convertValue] = [scalarConverter(keyType.name, keyType.size), scalarConverter(valueType.name, valueType.size)];
    const [sep, keySep] = [expr.separator, expr.keySeparator];
    return (row) => {
      const t = token(row);
      if (t === undefined || t === "") return [];
      const out: [AttrValue, AttrValue][] = [];
      for (const part of t.split(sep)) {
        const at = part.indexOf(keySep);
        if (at < 0) return INVALID;
        const k = convertKey(part.slice(0, at));
        const v = convertValue(part.slice(at + keySep.length));
        if (k === INVALID || k === WRONG_LENGTH) return k;
        if (v === INVALID || v === WRONG_LENGTH) return v;
        out.push([k, v]);
      }
      return out;
    };
  }
  throw new LoadError(`The MAP attribute ${name} is loaded with (key -> value), MAP(...) or SPLIT(token, keySeparator, separator).`);
}

function dedupe(values: AttrValue[]): AttrValue[] {
  const seen = new Set<string>();
  const out: AttrValue[] = [];
  for (const v of values) {
    const key = typeof v === "object" ? JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x)) : typeof v + ":" + String(v);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(v);
    }
  }
  return out;
}

/** Rejects at compile time the reducer/type pairs the docs warn can crash the established server. */
function checkReducer(name: string, type: AttrType, op: ReducerName): void {
  const scalar = type.kind === "scalar" ? type.name : undefined;
  const numeric = scalar === "INT" || scalar === "UINT" || scalar === "FLOAT" || scalar === "DOUBLE";
  const ok = (() => {
    switch (op) {
      case "overwrite":
      case "ignore_if_exists":
        return true;
      case "add":
        return numeric || scalar === "STRING" || type.kind !== "scalar";
      case "max":
      case "min":
        return numeric || scalar === "DATETIME";
      case "and":
      case "or":
        return scalar === "BOOL" || scalar === "INT" || scalar === "UINT";
    }
  })();
  if (!ok) throw new LoadError(`Reducer ${op} cannot be applied to the attribute ${name} of type ${describeType(type)}.`);
}

export function describeType(type: AttrType): string {
  switch (type.kind) {
    case "scalar":
      return type.size !== undefined ? `${type.name}(${type.size})` : type.name;
    case "list":
      return `LIST<${describeType(type.element)}>`;
    case "set":
      return `SET<${describeType(type.element)}>`;
    case "map":
      return `MAP<${describeType(type.key)},${describeType(type.value)}>`;
    case "tuple":
      return type.name;
  }
}
