// The SQL-like SELECT ... INTO (SYNTAX V2): FROM and WHERE as in a SELECT block, then a table
// of columns, optionally grouped and aggregated (COUNT, SUM, MIN, MAX, AVG over the matched
// rows), with HAVING and ORDER BY reading the columns by name. The table is declared under its
// INTO name as a list of rows, so PRINT and later statements can use it.
import type { AstExpr, AstSqlSelect } from "../ast/index.js";
import type { BoundExpr, BoundSelect, BoundStmt, SqlColumn, VarDecl } from "./bound.js";
import { bindCondition, bindExpecting, bindExpr } from "./bind-expr.js";
import { bindPatterns, inSelectScope, withClause } from "./bind-select.js";
import type { QueryContext } from "./context.js";
import { T, isNumeric, isOrderable, typeToString, type GType } from "./types.js";

type AggregateName = NonNullable<SqlColumn["aggregate"]>["fn"];
const AGGREGATES: readonly AggregateName[] = ["COUNT", "SUM", "MIN", "MAX", "AVG"];

interface AggregateCall {
  fn: AggregateName;
  distinct: boolean;
  arg: AstExpr;
}

/** `COUNT(x)`, `SUM(DISTINCT x)`, ...: an aggregate over the rows when it is a whole column. */
function aggregateCall(e: AstExpr): AggregateCall | undefined {
  if (e.kind !== "Call") return undefined;
  const fn = AGGREGATES.find((a) => a === e.callee.name.toUpperCase());
  // COUNT(*) counts the rows: any argument that is always there does
  if (e.star) return fn === "COUNT" ? { fn, distinct: false, arg: { kind: "IntLiteral", text: "1", range: e.range } } : undefined;
  if (e.args.length !== 1) return undefined;
  return fn ? { fn, distinct: e.distinct, arg: e.args[0]! } : undefined;
}

export function bindSqlSelect(cx: QueryContext, s: AstSqlSelect): BoundStmt | undefined {
  if (cx.syntax === "v1") cx.error("GSQL3035", s.range, { what: "the SQL-like SELECT ... INTO", where: "in SYNTAX V1" });
  const bound = inSelectScope(cx, (scope) => {
    const { source, hops } = bindPatterns(cx, scope, s.from, s.range);
    const select: BoundSelect = {
      range: s.range, syntax: cx.syntax, source, hops, selected: source.alias, accum: [], postAccum: [], orderBy: [],
    };
    if (s.where) select.where = withClause(cx, scope, "where", () => bindCondition(cx, s.where!));
    const columns = bindColumns(cx, s);
    const written = new Map(columns.map((c, i) => [c, s.columns[i]!.expr]));
    const groupBy = s.groupBy.map((g) => bindExpr(cx, g));
    // HAVING and ORDER BY see the columns by name (an aggregate by its own text, when it is one).
    const tail = cx.inBlock(() => {
      for (const c of columns) cx.declare(c.name, c.decl, c.decl.range);
      const out: Pick<BoundSqlSelectParts, "having" | "orderBy" | "limit" | "offset"> = { orderBy: [] };
      if (s.having) out.having = withClause(cx, scope, "having", () => bindCondition(cx, columnsFor(cx, s.having!, written, "HAVING")));
      for (const k of s.orderBy) {
        const expr = withClause(cx, scope, "orderBy", () => bindExpr(cx, columnsFor(cx, k.expr, written, "ORDER BY")));
        if (!isOrderable(expr.type) && expr.type.kind !== "error") cx.error("GSQL3040", k.range, { actual: typeToString(expr.type) });
        out.orderBy.push({ expr, desc: k.order === "DESC" });
      }
      if (s.limit) {
        const l = s.limit;
        withClause(cx, scope, "limit", () => {
          out.limit = bindExpecting(cx, l.count, T.INT);
          if (l.offset) out.offset = bindExpecting(cx, l.offset, T.INT);
        });
        if (l.form === "count-offset" && s.orderBy.length === 0) cx.error("GSQL3017", l.offset!.range);
      }
      return out;
    });
    return { select, columns, groupBy, ...tail };
  });
  const table: VarDecl = {
    declKind: "var", id: cx.newId(), name: s.into.name, range: s.into.range, level: "query",
    type: {
      kind: "accum", accum: "ListAccum",
      element: { kind: "tuple", fields: bound.columns.map((c) => ({ name: c.name, type: c.decl.type })) },
    },
  };
  cx.declare(s.into.name, table, s.into.range);
  return { kind: "sqlSelect", table, distinct: s.distinct, range: s.range, ...bound };
}

type BoundSqlSelectParts = Omit<Extract<BoundStmt, { kind: "sqlSelect" }>, "kind" | "range" | "table" | "distinct">;

/** The columns: per-row expressions first, then aggregates (the grouping columns come first). */
function bindColumns(cx: QueryContext, s: AstSqlSelect): SqlColumn[] {
  const columns: SqlColumn[] = [];
  let firstAggregate: string | undefined;
  for (const c of s.columns) {
    const name = c.alias?.name ?? c.keyText;
    const call = aggregateCall(c.expr);
    let expr: BoundExpr;
    let type: GType;
    if (call) {
      expr = bindExpr(cx, call.arg);
      type = aggregateType(cx, call, expr);
      firstAggregate ??= name;
    } else {
      expr = bindExpr(cx, c.expr);
      type = expr.type;
      if (firstAggregate !== undefined) cx.error("GSQL3047", c.range, { name, aggregate: firstAggregate });
    }
    const decl: VarDecl = { declKind: "var", id: cx.newId(), name, range: c.alias?.range ?? c.range, type, level: "dml" };
    if (columns.some((x) => x.name === name)) cx.error("GSQL2011", decl.range, { name });
    columns.push({ name, decl, expr, ...(call ? { aggregate: { fn: call.fn, distinct: call.distinct } } : {}) });
  }
  return columns;
}

function aggregateType(cx: QueryContext, call: AggregateCall, arg: BoundExpr): GType {
  const bad = (expected: string): GType => {
    if (arg.type.kind !== "error") cx.error("GSQL3007", call.arg.range, { index: 1, name: call.fn, expected, actual: typeToString(arg.type) });
    return T.ERROR;
  };
  switch (call.fn) {
    case "COUNT": return T.INT;
    case "SUM": return isNumeric(arg.type) ? arg.type : bad("a number");
    case "AVG": return isNumeric(arg.type) ? T.DOUBLE : bad("a number");
    case "MIN": case "MAX": return isOrderable(arg.type) ? arg.type : bad("an orderable value");
  }
}

/**
 * `e` with each aggregate call replaced by a reference to the column computing it (matched by
 * its written form); an aggregate that is not a column is an error.
 */
function columnsFor(cx: QueryContext, e: AstExpr, columns: Map<SqlColumn, AstExpr>, clause: string): AstExpr {
  const call = aggregateCall(e);
  if (call) {
    const shape = shapeOf(e);
    const column = [...columns].find(([c, written]) => c.aggregate && shapeOf(written) === shape)?.[0];
    if (!column) {
      cx.error("GSQL3048", e.range, { clause });
      return { kind: "IntLiteral", text: "0", range: e.range };
    }
    return { kind: "Ident", name: column.name, range: e.range };
  }
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(e)) {
    copy[key] = Array.isArray(value) ? value.map((v) => (isExpr(v) ? columnsFor(cx, v, columns, clause) : v))
      : isExpr(value) ? columnsFor(cx, value, columns, clause) : value;
  }
  return copy as unknown as AstExpr;
}

function isExpr(v: unknown): v is AstExpr {
  return typeof v === "object" && v !== null && "kind" in v && "range" in v;
}

/** An expression's structure without source positions or keyword case, for comparing two written forms. */
function shapeOf(e: unknown): string {
  return JSON.stringify(e, (key, value: unknown) => {
    if (key === "range") return undefined;
    if (isExpr(value) && value.kind === "Call" && value.keyword) {
      return { ...value, callee: { ...value.callee, name: value.callee.name.toUpperCase() } };
    }
    return value;
  });
}
