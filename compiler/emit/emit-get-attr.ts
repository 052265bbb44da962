// `v.getAttr("name", "TYPE")` / `e.getAttr(...)` and `v.setAttr("name", value)` /
// `e.setAttr(...)` with the attribute named by a constant. getAttr reads the stored attribute
// of that name on whichever of the value's possible types has it (a vertex or edge of a type
// without it reads the requested type's default, as a plain attribute read does), converted
// to the requested type when both are numbers. setAttr is the attribute assignment
// `v.name = value` (the same write log, the same visibility); it converts nothing, so the
// value must have the stored type, and a vertex or edge of a type without the attribute is
// left alone. A name given at run time, or owners storing the attribute with different
// types, is not compiled.
import type { IrExpr, IrType } from "../ir/ir.js";
import { isFloatType, isIntegerType, sameIrType, typeText } from "../ir/types.js";
import type { AttrType } from "../../runtime-wasm/schema/types.js";
import { emitAttrWrite } from "./emit-dml.js";
import { emitExpr } from "./emit-expr.js";
import { defaultValue } from "./emit-values.js";
import type { Expr } from "./module.js";
import { UnsupportedError, type QueryEmitter } from "./query-emitter.js";

type MethodExpr = Extract<IrExpr, { e: "method" }>;

interface Owners {
  name: string;
  owners: { typeName: string; index: number }[];
  /** The attribute's stored type (undefined: no possible type of the value has it). */
  stored?: IrType;
}

/** The types among the value's possible ones that have the attribute named by argument 0. */
function attributeOwners(qe: QueryEmitter, x: MethodExpr, element: "vertex" | "edge", method: string): Owners {
  const nameArg = x.args[0];
  if (nameArg === undefined || nameArg.e !== "const" || typeof nameArg.value !== "string") throw new UnsupportedError(`${method}() with an attribute name given at run time`);
  const name = nameArg.value;
  const t = x.target.type;
  const known = t.t === "vertex" && t.vertexType !== undefined ? qe.view.vertexType(t.vertexType) : undefined;
  const types = element === "vertex" ? (known ? [known] : [...qe.view.vertexByName.values()]) : [...qe.view.edgeByName.values()];
  const owners: { typeName: string; index: number }[] = [];
  let stored: IrType | undefined;
  for (const type of types) {
    const index = type.attributes.findIndex((a) => a.name === name);
    if (index < 0) continue;
    const at = irTypeOf(type.attributes[index].type, method);
    if (stored !== undefined && !sameIrType(stored, at)) throw new UnsupportedError(`${method}("${name}") of types that store it differently`);
    stored = at;
    owners.push({ typeName: type.name, index });
  }
  return { name, owners, ...(stored ? { stored } : {}) };
}

export function emitGetAttr(qe: QueryEmitter, x: MethodExpr, element: "vertex" | "edge"): Expr {
  const { name, owners, stored } = attributeOwners(qe, x, element, "getAttr");
  if (stored === undefined) return defaultValue(qe.cx, x.type);
  const read: IrExpr = { e: "attr", target: x.target, name, element, owners, type: stored };
  if (sameIrType(stored, x.type)) return emitExpr(qe, read);
  const numeric = (u: IrType) => isIntegerType(u) || isFloatType(u);
  if (numeric(stored) && numeric(x.type)) return emitExpr(qe, { e: "convert", arg: read, type: x.type });
  throw new UnsupportedError(`getAttr() of the ${typeText(stored)} attribute ${name} as ${typeText(x.type)}`);
}

export function emitSetAttr(qe: QueryEmitter, x: MethodExpr, element: "vertex" | "edge"): Expr {
  const { name, owners, stored } = attributeOwners(qe, x, element, "setAttr");
  const value = x.args[1]!;
  if (stored === undefined) return qe.m.nop();
  if (!sameIrType(stored, value.type)) throw new UnsupportedError(`setAttr() of the ${typeText(stored)} attribute ${name} with a ${typeText(value.type)} value`);
  if (element === "edge") {
    const edge = x.target.e === "var" ? qe.clause.edges.get(x.target.id) : undefined;
    if (edge && !owners.some((o) => o.typeName === edge.edgeTypeName)) return qe.m.nop();
  }
  return emitAttrWrite(qe, { t: "attr", target: x.target, name, element, owners, valueType: stored }, value, false);
}

function irTypeOf(t: AttrType, method: string): IrType {
  if (t.kind === "scalar" && t.name !== "FIXED_BINARY") return { t: "scalar", name: t.name };
  if ((t.kind === "list" || t.kind === "set") && t.element.kind === "scalar" && t.element.name !== "FIXED_BINARY") {
    return { t: "accum", accum: { a: t.kind, elem: { t: "scalar", name: t.element.name } } };
  }
  throw new UnsupportedError(`${method}() of a MAP, tuple or FIXED_BINARY attribute`);
}
