// `v.getAttr(name, "TYPE")` / `e.getAttr(...)` and `v.setAttr(name, value)` /
// `e.setAttr(...)`. getAttr reads the stored attribute of that name on whichever of the
// value's possible types has it (a vertex or edge of a type without it reads the requested
// type's default, as a plain attribute read does), converted to the requested type when
// both are numbers. setAttr is the attribute assignment `v.name = value` (the same write
// log, the same visibility); it converts nothing, so the value must have the stored type,
// and a vertex or edge of a type without the attribute is left alone.
//
// The name may be given at run time (a STRING parameter, say): the module then compares it
// with every attribute name of the possible types known at INSTALL and reads (or writes) the
// one that matches. A name no possible type has, or whose stored type cannot give the
// requested one (getAttr) or take the value (setAttr), reads the requested type's default
// (writes nothing). A constant name that some possible type stores, but none in a type that
// fits, is an INSTALL error instead. When types store one name with different types, the
// value's type picks the column; owners whose type does not fit read the default.
import type { IrExpr, IrType } from "../ir/ir.js";
import { BOOL, isFloatType, isIntegerType, sameIrType, STRING, typeText } from "../ir/types.js";
import type { AttrType } from "../../runtime-wasm/schema/types.js";
import { emitAttrWrite } from "./emit-dml.js";
import { emitExpr } from "./emit-expr.js";
import { strConst, strEq } from "./emit-strings.js";
import { defaultValue } from "./emit-values.js";
import type { Expr } from "./module.js";
import { UnsupportedError, type QueryEmitter } from "./query-emitter.js";
import type { ValueType } from "./module.js";
import { wasmType } from "./wasm-types.js";

type MethodExpr = Extract<IrExpr, { e: "method" }>;
type Owner = { typeName: string; index: number };

/** One attribute name stored with one type, and the types that store it so. */
interface StoredAttr {
  name: string;
  stored: IrType;
  owners: Owner[];
}

/** The value's possible types (vertex or edge types of the schema). */
function possibleTypes(qe: QueryEmitter, x: MethodExpr, element: "vertex" | "edge") {
  const t = x.target.type;
  const known = t.t === "vertex" && t.vertexType !== undefined ? qe.view.vertexType(t.vertexType) : undefined;
  return element === "vertex" ? (known ? [known] : [...qe.view.vertexByName.values()]) : [...qe.view.edgeByName.values()];
}

/**
 * Attributes of the possible types, grouped by name and stored type; only `name` when it is
 * given. Attribute types these methods cannot carry are an error for a named attribute and
 * left out otherwise.
 */
function storedAttrs(qe: QueryEmitter, x: MethodExpr, element: "vertex" | "edge", method: string, name?: string): StoredAttr[] {
  const groups: StoredAttr[] = [];
  for (const type of possibleTypes(qe, x, element)) {
    type.attributes.forEach((a, index) => {
      if (name !== undefined && a.name !== name) return;
      const stored = irTypeOf(a.type);
      if (stored === undefined) {
        if (name !== undefined) throw new UnsupportedError(`${method}() of a MAP, tuple or FIXED_BINARY attribute`);
        return;
      }
      const group = groups.find((g) => g.name === a.name && sameIrType(g.stored, stored));
      if (group) group.owners.push({ typeName: type.name, index });
      else groups.push({ name: a.name, stored, owners: [{ typeName: type.name, index }] });
    });
  }
  return groups;
}

/** The constant attribute name of argument 0, or undefined when it is given at run time. */
function constantName(x: MethodExpr): string | undefined {
  const arg = x.args[0];
  return arg !== undefined && arg.e === "const" && typeof arg.value === "string" ? arg.value : undefined;
}

const isNumeric = (t: IrType) => isIntegerType(t) || isFloatType(t);

export function emitGetAttr(qe: QueryEmitter, x: MethodExpr, element: "vertex" | "edge"): Expr {
  const name = constantName(x);
  const all = storedAttrs(qe, x, element, "getAttr", name);
  const readable = all.filter((g) => sameIrType(g.stored, x.type) || (isNumeric(g.stored) && isNumeric(x.type)));
  if (name !== undefined && all.length > 0 && readable.length === 0) {
    throw new UnsupportedError(`getAttr() of the ${typeText(all[0].stored)} attribute ${name} as ${typeText(x.type)}`);
  }
  const read = (g: StoredAttr): Expr => {
    const value: IrExpr = { e: "attr", target: x.target, name: g.name, element, owners: g.owners, type: g.stored };
    return emitExpr(qe, sameIrType(g.stored, x.type) ? value : { e: "convert", arg: value, type: x.type });
  };
  // The common case keeps the plain attribute read: one constant name, stored one way.
  if (name !== undefined && readable.length <= 1) return readable.length ? read(readable[0]) : defaultValue(qe.cx, x.type);
  return dispatch(qe, x, readable, wasmType(x.type), read, defaultValue(qe.cx, x.type));
}

export function emitSetAttr(qe: QueryEmitter, x: MethodExpr, element: "vertex" | "edge"): Expr {
  const name = constantName(x);
  const value = x.args[1]!;
  const all = storedAttrs(qe, x, element, "setAttr", name);
  const writable = all.filter((g) => sameIrType(g.stored, value.type));
  if (name !== undefined && all.length > 0 && writable.length === 0) {
    throw new UnsupportedError(`setAttr() of the ${typeText(all[0].stored)} attribute ${name} with a ${typeText(value.type)} value`);
  }
  const edge = element === "edge" && x.target.e === "var" ? qe.clause.edges.get(x.target.id) : undefined;
  // An edge alias has one known type: only that type's attributes can be written.
  const targets = edge ? writable.filter((g) => g.owners.some((o) => o.typeName === edge.edgeTypeName)) : writable;
  const write = (g: StoredAttr): Expr => emitAttrWrite(qe, { t: "attr", target: x.target, name: g.name, element, owners: g.owners, valueType: g.stored }, value, false);
  // A write touches only its owners' types, and one value type matches one stored type of a
  // name, so no type test is needed here.
  if (name !== undefined) return targets.length ? qe.m.seq(...targets.map(write)) : qe.m.nop();
  return dispatch(qe, x, targets, "none", write, undefined);
}

/**
 * An if-else chain over the candidates: the run-time name (when not constant) equal to the
 * candidate's and, for getAttr (`fallback` given) where several candidates share a name, the
 * value's type among the candidate's owners. `fallback` is the value when none matches;
 * without one the chain is a statement.
 */
function dispatch(qe: QueryEmitter, x: MethodExpr, candidates: StoredAttr[], resultType: ValueType | "none", body: (g: StoredAttr) => Expr, fallback: Expr | undefined): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const runtimeName = constantName(x) === undefined ? qe.f.local("i64", "attr_name") : undefined;
  const typeName: IrExpr = { e: "typeName", target: x.target, type: STRING };
  const condition = (g: StoredAttr): Expr => {
    const tests: Expr[] = [];
    if (runtimeName) tests.push(strEq(cx, runtimeName.get(), strConst(cx, g.name)));
    if (fallback !== undefined && candidates.filter((c) => c.name === g.name).length > 1) {
      const ofType = g.owners
        .map((o): IrExpr => ({ e: "binary", op: "eq", left: typeName, right: { e: "const", value: o.typeName, type: STRING }, type: BOOL }))
        .reduce((a, b): IrExpr => ({ e: "binary", op: "or", left: a, right: b, type: BOOL }));
      tests.push(emitExpr(qe, ofType));
    }
    return tests.length ? tests.reduce((a, b) => m.and("i32", a, b)) : m.i32(1);
  };
  let chain: Expr = fallback ?? m.nop();
  for (let i = candidates.length - 1; i >= 0; i--) chain = m.if(condition(candidates[i]), body(candidates[i]), chain);
  if (!runtimeName) return chain;
  const setName = runtimeName.set(emitExpr(qe, x.args[0]!));
  return resultType === "none" ? m.seq(setName, chain) : m.block(null, [setName, chain], resultType);
}

/** The IR type of a stored attribute these methods carry (scalars, lists and sets of scalars). */
function irTypeOf(t: AttrType): IrType | undefined {
  if (t.kind === "scalar" && t.name !== "FIXED_BINARY") return { t: "scalar", name: t.name };
  if ((t.kind === "list" || t.kind === "set") && t.element.kind === "scalar" && t.element.name !== "FIXED_BINARY") {
    return { t: "accum", accum: { a: t.kind, elem: { t: "scalar", name: t.element.name } } };
  }
  return undefined;
}
