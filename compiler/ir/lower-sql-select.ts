// Lowers the SQL-like SELECT ... INTO (SYNTAX V2) to ordinary IR: a SELECT whose ACCUM adds
// each matched row to a hidden accumulator (a list of rows, or a GroupByAccum keyed by the
// grouping columns holding one accumulator per aggregate), then a FOREACH over that
// accumulator computing the columns, keeping the rows HAVING accepts, ordering them through a
// hidden HeapAccum when there is an ORDER BY, and appending LIMIT/OFFSET's share of them to
// the table. The table itself is a global ListAccum of row tuples, re-created by every run of
// the statement.
//
// Semantics chosen where the language reference is silent: without GROUP BY, rows with
// aggregates are grouped by the non-aggregated columns; aggregates with no grouping column
// give one row even when no row matched, as in SQL: COUNT is 0 and SUM/MIN/MAX/AVG hold their
// type's default (0, 0.0, "") since the language has no NULL (HAVING still applies to that
// row); with grouping columns and no matched rows the table is empty; ORDER BY ties come out
// in no particular order.
import type { BoundExpr, BoundSelect, BoundSqlSelect, Decl, SqlColumn } from "../bind/bound.js";
import type { IrAccum, IrAccumDecl, IrExpr, IrSelect, IrStmt, IrTupleType, IrVarKind } from "./ir.js";
import { accumValueType, BOOL, DOUBLE, INT, isFloatType, type IrType } from "./types.js";
import { lowerType } from "./lower-types.js";

/** What the statement's lowering needs from the query's lowering. */
export interface SqlSelectHost {
  expr(x: BoundExpr): IrExpr;
  select(sel: BoundSelect): IrSelect;
  declare(d: Decl, kind: IrVarKind): number;
  /** A new hidden variable. */
  hiddenVar(name: string, kind: IrVarKind, type: IrType): number;
  /** A new hidden global accumulator (or one with a given id: the table). */
  globalAccum(name: string, type: IrAccum, id?: number): number;
  /** The id of a hidden vertex-set variable receiving the SELECT's (unused) result. */
  scratchSet(): number;
}

const int = (n: number): IrExpr => ({ e: "const", type: INT, value: BigInt(n) });
const varRef = (id: number, type: IrType): IrExpr => ({ e: "var", id, type });
const gacc = (id: number, accum: IrAccum): IrExpr => ({ e: "gacc", id, type: accumValueType(accum) });
const binary = (op: Extract<IrExpr, { e: "binary" }>["op"], left: IrExpr, right: IrExpr, type: IrType): IrExpr =>
  ({ e: "binary", op, left, right, type });
const field = (target: IrExpr, index: number, type: IrType): IrExpr => ({ e: "field", target, index, type });
const tuple = (args: IrExpr[], type: IrTupleType): IrExpr => ({ e: "tuple", args, type });
const convert = (arg: IrExpr, type: IrType): IrExpr =>
  JSON.stringify(arg.type) === JSON.stringify(type) ? arg : { e: "convert", arg, type };

/** How each column of a grouped table is read from one entry of the GroupByAccum. */
type ColumnSource =
  | { from: "key"; index: number }
  | { from: "value"; index: number; fn: NonNullable<SqlColumn["aggregate"]>["fn"]; distinct: boolean };

export function lowerSqlSelect(host: SqlSelectHost, s: BoundSqlSelect): IrStmt[] {
  const rowType = lowerType(s.table.type);
  if (rowType.t !== "accum" || rowType.accum.a !== "list" || rowType.accum.elem.t !== "tuple") {
    throw new Error("a SELECT ... INTO table is a list of tuples");
  }
  const tableAccum = rowType.accum;
  const row = rowType.accum.elem;
  const table = host.globalAccum(s.table.name, tableAccum, s.table.id);
  const select = host.select(s.select);
  const columnVars = s.columns.map((c) => host.declare(c.decl, "global"));
  const columnTypes = row.fields.map((f) => f.type);
  const grouped = s.distinct || s.columns.some((c) => c.aggregate);

  const before: IrStmt[] = [{ s: "declAccum", id: table }];
  let loop: { ids: number[]; collection: IrExpr; columns: IrStmt[]; whenEmpty?: { cond: IrExpr; columns: IrStmt[] } };
  if (!grouped) {
    // every matched row, as it is
    const staged: IrAccum = { a: "list", elem: row };
    const id = host.globalAccum(`${s.table.name}_rows`, staged);
    before.push({ s: "declAccum", id });
    select.accum = [{ s: "accumulate", target: { t: "gacc", id }, value: tuple(s.columns.map((c) => host.expr(c.expr)), row) }];
    const r = host.hiddenVar(`${s.table.name}_row`, "loop", row);
    loop = {
      ids: [r],
      collection: gacc(id, staged),
      columns: columnVars.map((v, i) => ({ s: "let", id: v, init: field(varRef(r, row), i, columnTypes[i]!) })),
    };
  } else {
    loop = groupedRows(host, s, select, before, columnVars, columnTypes);
  }

  // HAVING, then ORDER BY (through a heap) and LIMIT/OFFSET
  const having = s.having ? host.expr(s.having) : undefined;
  const keep = (body: IrStmt[]): IrStmt[] => (having ? [{ s: "if", branches: [{ cond: having, body }] }] : body);
  const limits: IrStmt[] = [];
  const limit = s.limit ? host.hiddenVar(`${s.table.name}_limit`, "global", INT) : undefined;
  const offset = host.hiddenVar(`${s.table.name}_offset`, "global", INT);
  const seen = host.hiddenVar(`${s.table.name}_seen`, "global", INT);
  if (limit !== undefined) limits.push({ s: "let", id: limit, init: convert(host.expr(s.limit!), INT) });
  limits.push({ s: "let", id: offset, init: s.offset ? convert(host.expr(s.offset), INT) : int(0) });
  limits.push({ s: "let", id: seen, init: int(0) });
  /** Appends `value` to the table unless OFFSET skips it or LIMIT is reached. */
  const take = (value: IrExpr): IrStmt[] => {
    let cond = binary("ge", varRef(seen, INT), varRef(offset, INT), BOOL);
    if (limit !== undefined) {
      cond = binary("and", cond, binary("lt", varRef(seen, INT), binary("add", varRef(offset, INT), varRef(limit, INT), INT), BOOL), BOOL);
    }
    return [
      { s: "if", branches: [{ cond, body: [{ s: "accumulate", target: { t: "gacc", id: table }, value }] }] },
      { s: "assign", target: { t: "var", id: seen }, value: binary("add", varRef(seen, INT), int(1), INT) },
    ];
  };
  const columnTuple = tuple(columnVars.map((v, i) => varRef(v, columnTypes[i]!)), row);
  const after: IrStmt[] = [...limits];
  /** The one row of aggregates over no rows, when the statement has one. */
  const emptyRow = (emit: IrStmt[]): IrStmt[] =>
    loop.whenEmpty ? [{ s: "if", branches: [{ cond: loop.whenEmpty.cond, body: [...loop.whenEmpty.columns, ...keep(emit)] }] }] : [];
  if (s.orderBy.length === 0) {
    after.push({ s: "forEach", ids: loop.ids, collection: loop.collection, body: [...loop.columns, ...keep(take(columnTuple))] });
    after.push(...emptyRow(take(columnTuple)));
  } else {
    const keys = s.orderBy.map((o) => host.expr(o.expr));
    const ranked: IrTupleType = {
      t: "tuple",
      fields: [...keys.map((k, i) => ({ name: `order_${i}`, type: k.type })), ...row.fields],
    };
    const heapAccum: IrAccum = { a: "heap", tuple: ranked, keys: s.orderBy.map((o, i) => ({ field: i, desc: o.desc })) };
    const heap = host.globalAccum(`${s.table.name}_ordered`, heapAccum);
    const rank: IrStmt = { s: "accumulate", target: { t: "gacc", id: heap }, value: tuple([...keys, ...columnVars.map((v, i) => varRef(v, columnTypes[i]!))], ranked) };
    after.push(
      { s: "declAccum", id: heap, ...(limit !== undefined ? { capacity: binary("add", varRef(offset, INT), varRef(limit, INT), INT) } : {}) },
      {
        s: "forEach", ids: loop.ids, collection: loop.collection,
        body: [...loop.columns, ...keep([rank])],
      },
      ...emptyRow([rank]),
    );
    const r = host.hiddenVar(`${s.table.name}_ranked`, "loop", ranked);
    const fromRanked = tuple(row.fields.map((f, i) => field(varRef(r, ranked), keys.length + i, f.type)), row);
    after.push({ s: "forEach", ids: [r], collection: gacc(heap, heapAccum), body: take(fromRanked) });
  }
  return [...before, { s: "select", id: host.scratchSet(), select }, ...after];
}

/**
 * Rows grouped by the grouping columns: a GroupByAccum keyed by the non-aggregated columns
 * and the GROUP BY expressions that are not one of them, one accumulator per aggregate
 * (a set for a DISTINCT aggregate), or a count when only DISTINCT asks for the grouping.
 */
function groupedRows(host: SqlSelectHost, s: BoundSqlSelect, select: IrSelect, before: IrStmt[], columnVars: number[], columnTypes: IrType[]):
  { ids: number[]; collection: IrExpr; columns: IrStmt[]; whenEmpty?: { cond: IrExpr; columns: IrStmt[] } } {
  const keys: { name: string; type: IrType }[] = [];
  const keyExprs: IrExpr[] = [];
  const values: { name: string; accum: IrAccum }[] = [];
  const valueExprs: IrExpr[] = [];
  const sources: ColumnSource[] = [];
  s.columns.forEach((c, i) => {
    const e = host.expr(c.expr);
    if (!c.aggregate) {
      sources.push({ from: "key", index: keys.length });
      keys.push({ name: c.name, type: e.type });
      keyExprs.push(e);
      return;
    }
    const { fn, distinct } = c.aggregate;
    sources.push({ from: "value", index: values.length, fn, distinct });
    // MinAccum<STRING> starts at "" and would keep it: string MIN/MAX go through a set too
    const stringMinMax = (fn === "MIN" || fn === "MAX") && e.type.t === "scalar" && e.type.name === "STRING";
    if ((distinct && fn !== "MIN" && fn !== "MAX") || stringMinMax) {
      values.push({ name: c.name, accum: { a: "set", elem: e.type } });
      valueExprs.push(e);
    } else if (fn === "COUNT") {
      values.push({ name: c.name, accum: { a: "sum", elem: INT } });
      valueExprs.push(int(1));
    } else if (fn === "AVG") {
      values.push({ name: c.name, accum: { a: "avg" } });
      valueExprs.push(convert(e, DOUBLE));
    } else {
      values.push({ name: c.name, accum: { a: fn === "SUM" ? "sum" : fn === "MIN" ? "min" : "max", elem: columnTypes[i]! } });
      valueExprs.push(convert(e, columnTypes[i]!));
    }
  });
  const seenKeys = new Set(keyExprs.map((k) => JSON.stringify(k)));
  s.groupBy.forEach((g, i) => {
    const e = host.expr(g);
    if (seenKeys.has(JSON.stringify(e))) return;
    seenKeys.add(JSON.stringify(e));
    keys.push({ name: `group_${i}`, type: e.type });
    keyExprs.push(e);
  });
  const ungrouped = keys.length === 0;
  if (ungrouped) {
    keys.push({ name: "all", type: INT });
    keyExprs.push(int(0));
  }
  if (values.length === 0) {
    values.push({ name: "rows", accum: { a: "sum", elem: INT } });
    valueExprs.push(int(1));
  }
  const groups: IrAccum = { a: "groupby", keys, values };
  const id = host.globalAccum(`${s.table.name}_groups`, groups);
  before.push({ s: "declAccum", id });
  select.accum = [{ s: "accumulate", target: { t: "gacc", id }, value: { e: "entry", keys: keyExprs, values: valueExprs, type: { t: "void" } } }];

  const keyVars = keys.map((k) => host.hiddenVar(`${s.table.name}_${k.name}`, "loop", k.type));
  const valueVars = values.map((v) => host.hiddenVar(`${s.table.name}_${v.name}`, "loop", accumValueType(v.accum)));
  const columns: IrStmt[] = [];
  sources.forEach((src, i) => {
    const type = columnTypes[i]!;
    if (src.from === "key") {
      columns.push({ s: "let", id: columnVars[i]!, init: varRef(keyVars[src.index]!, keys[src.index]!.type) });
      return;
    }
    const accum = values[src.index]!.accum;
    const value = varRef(valueVars[src.index]!, accumValueType(accum));
    if (accum.a !== "set") {
      columns.push({ s: "let", id: columnVars[i]!, init: convert(value, type) });
      return;
    }
    // a DISTINCT aggregate: its set of values, counted, summed or averaged here
    const count: IrExpr = { e: "method", target: value, method: "set.size", args: [], type: INT };
    if (src.fn === "COUNT") {
      columns.push({ s: "let", id: columnVars[i]!, init: count });
      return;
    }
    if (src.fn === "MIN" || src.fn === "MAX") {
      columns.push(...extremeOfSet(host, `${s.table.name}_extreme_${i}`, value, accum.elem, src.fn, columnVars[i]!));
      return;
    }
    const sumType = src.fn === "AVG" ? DOUBLE : type;
    const total = host.hiddenVar(`${s.table.name}_total_${i}`, "global", sumType);
    const item = host.hiddenVar(`${s.table.name}_item_${i}`, "loop", accum.elem);
    columns.push(
      { s: "let", id: total, init: { e: "const", type: sumType, value: isFloatType(sumType) ? 0 : 0n } },
      {
        s: "forEach", ids: [item], collection: value,
        body: [{ s: "assign", target: { t: "var", id: total }, value: binary("add", varRef(total, sumType), convert(varRef(item, accum.elem), sumType), sumType) }],
      },
      {
        s: "let", id: columnVars[i]!,
        init: src.fn === "AVG"
          ? binary("div", varRef(total, DOUBLE), convert(count, DOUBLE), DOUBLE)
          : varRef(total, sumType),
      },
    );
  });
  const loop = { ids: [...keyVars, ...valueVars], collection: gacc(id, groups), columns };
  // DISTINCT alone (no aggregate) over no rows has no row; aggregates always have one
  if (!ungrouped || !s.columns.some((c) => c.aggregate)) return loop;
  const size: IrExpr = { e: "method", target: gacc(id, groups), method: "groupBy.size", args: [], type: INT };
  const whenEmpty = {
    cond: binary("eq", size, int(0), BOOL),
    columns: columnVars.map((v, i): IrStmt => ({ s: "let", id: v, init: defaultValue(columnTypes[i]!) })),
  };
  return { ...loop, whenEmpty };
}

/** `column` = the smallest (MIN) or largest (MAX) item of a set, "" when it is empty. */
function extremeOfSet(host: SqlSelectHost, name: string, set: IrExpr, elem: IrType, fn: "MIN" | "MAX", column: number): IrStmt[] {
  const first = host.hiddenVar(`${name}_first`, "global", BOOL);
  const item = host.hiddenVar(`${name}_item`, "loop", elem);
  const better = binary("or", varRef(first, BOOL), binary(fn === "MIN" ? "lt" : "gt", varRef(item, elem), varRef(column, elem), BOOL), BOOL);
  return [
    { s: "let", id: first, init: { e: "const", type: BOOL, value: true } },
    { s: "let", id: column, init: defaultValue(elem) },
    {
      s: "forEach", ids: [item], collection: set,
      body: [{
        s: "if", branches: [{ cond: better, body: [
          { s: "assign", target: { t: "var", id: column }, value: varRef(item, elem) },
          { s: "assign", target: { t: "var", id: first }, value: { e: "const", type: BOOL, value: false } },
        ] }],
      }],
    },
  ];
}

/** The value an aggregate column holds over no rows: 0 for counts, the type's default otherwise. */
function defaultValue(type: IrType): IrExpr {
  if (type.t === "vertex") return { e: "const", type, value: -1 };
  if (type.t !== "scalar") throw new Error(`an aggregate of type ${type.t}`);
  const value = type.name === "STRING" ? "" : type.name === "BOOL" ? false : isFloatType(type) ? 0 : 0n;
  return { e: "const", type, value };
}
