// INSERT INTO a vertex or edge type: values matched to the id and attributes in schema
// order (or to the named columns), `_` meaning the attribute's default.
import type { AstExpr, AstInsert } from "../ast/index.js";
import type { BoundExpr, BoundStmt } from "./bound.js";
import { bindExpr, convertTo } from "./bind-expr.js";
import type { QueryContext } from "./context.js";
import { T, accumAcceptsAccumulate, attrTypeToGType, isAssignable, typeToString, type GType } from "./types.js";

/** `_` as an INSERT value: the attribute's default. */
function defaultMarker(e: AstExpr): BoundExpr {
  return { kind: "literal", value: "_", type: T.VOID, range: e.range };
}

export function bindInsert(cx: QueryContext, s: AstInsert): BoundStmt | undefined {
  const name = s.target.name;
  const vt = cx.view.vertexType(name);
  const et = vt ? undefined : cx.view.edgeType(name);
  if (!vt && !et) {
    s.values.forEach((v) => v.kind !== "Underscore" && v.kind !== "TypedValue" && bindExpr(cx, v));
    cx.error("GSQL2015", s.target.range, { name, graph: cx.graphName });
    return undefined;
  }
  const tuples = cx.catalog.schema.tuples;
  const attrs = (vt ?? et)!.attributes.map((a) => ({ name: a.name, type: attrTypeToGType(a.type, tuples) }));
  // Column slots in order: the id (vertex) or FROM/TO (edge), then the attributes.
  const keySlots = vt ? (vt.compositeKey ? [] : ["PRIMARY_ID"]) : ["FROM", "TO"];
  const allSlots = [...keySlots, ...attrs.map((a) => a.name)];
  const columns = s.columns?.map((c) => c.name) ?? allSlots;
  if (s.columns) {
    for (const c of s.columns) {
      if (!allSlots.includes(c.name) && !(vt && c.name === vt.primaryId.name)) cx.error("GSQL2004", c.range, { name: c.name, owner: `${vt ? "vertex" : "edge"} type ${name}` });
    }
    for (const k of keySlots) if (!columns.includes(k) && !(vt && columns.includes(vt.primaryId.name))) {
      cx.error("GSQL3006", s.range, { name: `INSERT INTO ${name}`, expected: `a ${k} column`, actual: "none" });
    }
  }
  if (s.values.length !== columns.length) {
    cx.error("GSQL3006", s.range, { name: `INSERT INTO ${name}`, expected: columns.length, actual: s.values.length });
  }
  const values: BoundExpr[] = [];
  let endpoints: Extract<BoundStmt, { kind: "insert" }>["endpoints"];
  const ends: { expr: BoundExpr; type?: string }[] = [];
  s.values.forEach((v, i) => {
    const col = columns[i];
    const isKey = col === "PRIMARY_ID" || col === "FROM" || col === "TO" || (vt !== undefined && col === vt.primaryId.name && !vt.compositeKey);
    if (v.kind === "Underscore") {
      if (isKey) cx.error("GSQL4106", v.range, { what: `the ${col === "PRIMARY_ID" ? "primary id" : col} of ${name}` });
      values.push(defaultMarker(v));
      return;
    }
    let typeName: string | undefined;
    let expr: AstExpr = v;
    if (v.kind === "TypedValue") {
      typeName = v.vertexType.name;
      expr = v.value;
      if (!cx.view.vertexType(typeName)) cx.error("GSQL2002", v.vertexType.range, { name: typeName, graph: cx.graphName });
    }
    const b = bindExpr(cx, expr);
    if (col === "FROM" || col === "TO") {
      ends.push({ expr: b, ...(typeName ? { type: typeName } : {}) });
      values.push(b);
      return;
    }
    const attr = attrs.find((a) => a.name === col);
    const t: GType | undefined = attr?.type;
    // A collection attribute takes what its accumulator's += takes (`("k" -> 1.0)` for a MAP).
    const fits = !t || (t.kind === "accum" ? accumAcceptsAccumulate(t, b.type) : isAssignable(t, b.type));
    if (!fits) cx.error("GSQL3001", v.range, { expected: typeToString(t!), actual: typeToString(b.type) });
    values.push(t ? convertTo(b, t) : b);
  });
  if (et && ends.length === 2) {
    endpoints = { from: ends[0]!.expr, to: ends[1]!.expr };
    if (ends[0]!.type) endpoints.fromType = ends[0]!.type;
    if (ends[1]!.type) endpoints.toType = ends[1]!.type;
  }
  const out: Extract<BoundStmt, { kind: "insert" }> = { kind: "insert", element: vt ? "vertex" : "edge", typeName: name, values, range: s.range };
  if (s.columns) out.columns = columns;
  if (endpoints) out.endpoints = endpoints;
  return out;
}
