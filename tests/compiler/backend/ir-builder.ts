// A small builder for IR queries in tests, so cases read close to the GSQL they stand for.
import type { IrExpr, IrQuery, IrStmt, IrTarget, IrVarKind } from "../../../compiler/ir/ir.js";
import { accumValueType, type IrAccum, type IrType, type IrTupleType } from "../../../compiler/ir/types.js";

export const T = {
  INT: { t: "scalar", name: "INT" } as IrType,
  UINT: { t: "scalar", name: "UINT" } as IrType,
  FLOAT: { t: "scalar", name: "FLOAT" } as IrType,
  DOUBLE: { t: "scalar", name: "DOUBLE" } as IrType,
  BOOL: { t: "scalar", name: "BOOL" } as IrType,
  STRING: { t: "scalar", name: "STRING" } as IrType,
  DATETIME: { t: "scalar", name: "DATETIME" } as IrType,
  VERTEX: { t: "vertex" } as IrType,
  EDGE: { t: "edge" } as IrType,
  VSET: { t: "vset" } as IrType,
  VOID: { t: "void" } as IrType,
};

export const acc = (a: IrAccum): IrType => ({ t: "accum", accum: a });
export const tuple = (fields: [string, IrType][], name?: string): IrTupleType => ({ t: "tuple", name, fields: fields.map(([n, type]) => ({ name: n, type })) });

const COMPARISONS = new Set(["eq", "ne", "lt", "le", "gt", "ge", "and", "or"]);

export class IrBuilder {
  readonly q: IrQuery;
  private nextId = 1;

  constructor(name = "q", graph = "G", syntax: "v1" | "v2" = "v1") {
    this.q = { name, graph, syntax, params: [], vars: [], accums: [], exceptions: [], tuples: [], body: [], calls: [], selects: 0 };
  }

  private id(): number {
    return this.nextId++;
  }

  variable(name: string, type: IrType, kind: IrVarKind = "global"): number {
    const id = this.id();
    this.q.vars.push({ id, name, kind, type });
    return id;
  }

  param(name: string, type: IrType, dflt?: bigint | number | boolean | string): number {
    const id = this.id();
    this.q.vars.push({ id, name, kind: "param", type, paramIndex: this.q.params.length, default: dflt });
    this.q.params.push(id);
    return id;
  }

  accum(name: string, scope: "global" | "vertex", type: IrAccum): number {
    const id = this.id();
    this.q.accums.push({ id, name, scope, type });
    return id;
  }

  exception(name: string, code: number): number {
    const id = this.id();
    this.q.exceptions.push({ id, name, code });
    return id;
  }

  // ---- expressions
  int(v: bigint | number): IrExpr {
    return { e: "const", type: T.INT, value: BigInt(v) };
  }
  uint(v: bigint | number): IrExpr {
    return { e: "const", type: T.UINT, value: BigInt(v) };
  }
  double(v: number): IrExpr {
    return { e: "const", type: T.DOUBLE, value: v };
  }
  float(v: number): IrExpr {
    return { e: "const", type: T.FLOAT, value: v };
  }
  str(v: string): IrExpr {
    return { e: "const", type: T.STRING, value: v };
  }
  bool(v: boolean): IrExpr {
    return { e: "const", type: T.BOOL, value: v };
  }
  datetime(seconds: number): IrExpr {
    return { e: "const", type: T.DATETIME, value: BigInt(seconds) };
  }
  v(id: number): IrExpr {
    const decl = this.q.vars.find((x) => x.id === id)!;
    return decl.kind === "vset" ? { e: "vset", id, type: T.VSET } : { e: "var", id, type: decl.type };
  }
  g(id: number): IrExpr {
    const a = this.q.accums.find((x) => x.id === id)!;
    return { e: "gacc", id, type: accumValueType(a.type) };
  }
  va(id: number, vertex: IrExpr, prime = false): IrExpr {
    const a = this.q.accums.find((x) => x.id === id)!;
    return { e: "vacc", id, vertex, prime, type: accumValueType(a.type) };
  }
  bin(op: Extract<IrExpr, { e: "binary" }>["op"], left: IrExpr, right: IrExpr, type?: IrType): IrExpr {
    return { e: "binary", op, left, right, type: type ?? (COMPARISONS.has(op) ? T.BOOL : left.type) };
  }
  conv(arg: IrExpr, type: IrType): IrExpr {
    return { e: "convert", arg, type };
  }
  call(fn: string, args: IrExpr[], type: IrType, distinct?: boolean): IrExpr {
    return { e: "call", fn, args, type, distinct };
  }
  method(target: IrExpr, method: string, args: IrExpr[], type: IrType): IrExpr {
    return { e: "method", target, method, args, type };
  }
  list(items: IrExpr[], elem: IrType): IrExpr {
    return { e: "collection", items, type: acc({ a: "list", elem }) };
  }
  set(items: IrExpr[], elem: IrType, kind: "set" | "bag" = "set"): IrExpr {
    return { e: "collection", items, type: acc({ a: kind, elem }) };
  }
  entry(keys: IrExpr[], values: IrExpr[]): IrExpr {
    return { e: "entry", keys, values, type: T.VOID };
  }
  tup(t: IrTupleType, args: IrExpr[]): IrExpr {
    return { e: "tuple", args, type: t };
  }
  attr(target: IrExpr, name: string, owners: string[], type: IrType, element: "vertex" | "edge" = "vertex"): IrExpr {
    return { e: "attr", target, name, element, owners: owners.map((typeName) => ({ typeName, index: 0 })), type };
  }

  // ---- statements
  add(...stmts: IrStmt[]): this {
    this.q.body.push(...stmts);
    return this;
  }
  let(id: number, init?: IrExpr): IrStmt {
    return { s: "let", id, init };
  }
  declAccum(id: number, init?: IrExpr, capacity?: IrExpr): IrStmt {
    return { s: "declAccum", id, init, capacity };
  }
  assign(target: IrTarget, value: IrExpr): IrStmt {
    return { s: "assign", target, value };
  }
  accumulate(target: IrTarget, value: IrExpr): IrStmt {
    return { s: "accumulate", target, value };
  }
  gt(id: number): IrTarget {
    return { t: "gacc", id };
  }
  vt(id: number, vertex: IrExpr): IrTarget {
    return { t: "vacc", id, vertex };
  }
  vr(id: number): IrTarget {
    return { t: "var", id };
  }
  print(...items: [string, IrExpr][]): IrStmt {
    return { s: "print", items: items.map(([key, expr]) => ({ key, expr, projectionVar: expr.e === "vset" ? expr.id : undefined })) };
  }
  select(target: number, sel: Omit<Extract<IrStmt, { s: "select" }>["select"], "index" | "syntax" | "orderBy" | "postAccum" | "accum" | "hops"> & Partial<Extract<IrStmt, { s: "select" }>["select"]>): IrStmt {
    const index = this.q.selects++;
    return { s: "select", id: target, select: { index, syntax: this.q.syntax, hops: [], accum: [], postAccum: [], orderBy: [], ...sel } };
  }
}
