// `v.getAttr("name", "TYPE")` and `e.getAttr(...)` with the attribute named by a constant:
// the stored attribute of that name on whichever of the value's possible types has it (a
// vertex or edge of a type without it reads the requested type's default, as a plain
// attribute read does), converted to the requested type when both are numbers. A name
// given at run time, or owners storing the attribute with different types, is not compiled.
import type { IrExpr, IrType } from "../ir/ir.js";
import { isFloatType, isIntegerType, sameIrType, typeText } from "../ir/types.js";
import type { AttrType } from "../../runtime-wasm/schema/types.js";
import { emitExpr } from "./emit-expr.js";
import { defaultValue } from "./emit-values.js";
import type { Expr } from "./module.js";
import { UnsupportedError, type QueryEmitter } from "./query-emitter.js";

type MethodExpr = Extract<IrExpr, { e: "method" }>;

export function emitGetAttr(qe: QueryEmitter, x: MethodExpr, element: "vertex" | "edge"): Expr {
  const nameArg = x.args[0];
  if (nameArg === undefined || nameArg.e !== "const" || typeof nameArg.value !== "string") throw new UnsupportedError("getAttr() with an attribute name given at run time");
  const name = nameArg.value;
  const t = x.target.type;
  const known = t.t === "vertex" && t.vertexType !== undefined ? qe.view.vertexType(t.vertexType) : undefined;
  const types = element === "vertex" ? (known ? [known] : [...qe.view.vertexByName.values()]) : [...qe.view.edgeByName.values()];
  const owners: { typeName: string; index: number }[] = [];
  let stored: IrType | undefined;
  for (const type of types) {
    const index = type.attributes.findIndex((a) => a.name === name);
    if (index < 0) continue;
    const at = irTypeOf(type.attributes[index].type);
    if (stored !== undefined && !sameIrType(stored, at)) throw new UnsupportedError(`getAttr("${name}") of types that store it differently`);
    stored = at;
    owners.push({ typeName: type.name, index });
  }
  if (stored === undefined) return defaultValue(qe.cx, x.type);
  const read: IrExpr = { e: "attr", target: x.target, name, element, owners, type: stored };
  if (sameIrType(stored, x.type)) return emitExpr(qe, read);
  const numeric = (u: IrType) => isIntegerType(u) || isFloatType(u);
  if (numeric(stored) && numeric(x.type)) return emitExpr(qe, { e: "convert", arg: read, type: x.type });
  throw new UnsupportedError(`getAttr() of the ${typeText(stored)} attribute ${name} as ${typeText(x.type)}`);
}

function irTypeOf(t: AttrType): IrType {
  if (t.kind === "scalar" && t.name !== "FIXED_BINARY") return { t: "scalar", name: t.name };
  if ((t.kind === "list" || t.kind === "set") && t.element.kind === "scalar" && t.element.name !== "FIXED_BINARY") {
    return { t: "accum", accum: { a: t.kind, elem: { t: "scalar", name: t.element.name } } };
  }
  throw new UnsupportedError("getAttr() of a MAP, tuple or FIXED_BINARY attribute");
}
