// The IR stage's entry point: `lower(bound)` turns a bound query into IR. Declarations
// become numeric ids (the binder's own ids) in symbol tables, types become IR types, CASE
// becomes IF chains and BETWEEN two comparisons, UPDATE and DELETE ... FROM become SELECTs,
// and every SELECT lists its phases in the order they run.
import type { AccumDecl, AliasDecl, BoundExpr, BoundQuery, BoundSelect, BoundStmt, Decl, ExceptionDecl, LoopVarDecl, ParamDecl, VarDecl, VertexSetDecl } from "../bind/bound.js";
import type { IrExpr, IrQuery, IrSelect, IrStmt, IrTarget, IrVar, IrVarKind, IrConstValue } from "./ir.js";
import { accumValueType, BOOL, VSET, type IrType } from "./types.js";
import { LowerError, lowerAccum, lowerTuple, lowerType } from "./lower-types.js";
import { lowerSqlSelect, type SqlSelectHost } from "./lower-sql-select.js";
import { parseDatetime } from "../../runtime-wasm/values/index.js";

export { LowerError } from "./lower-types.js";

const BINARY: Record<string, Extract<IrExpr, { e: "binary" }>["op"]> = {
  "-": "sub",
  "*": "mul",
  "/": "div",
  "%": "mod",
  "<<": "shl",
  ">>": "shr",
  "&": "bitand",
  "|": "bitor",
  "==": "eq",
  "!=": "ne",
  "<": "lt",
  "<=": "le",
  ">": "gt",
  ">=": "ge",
  AND: "and",
  OR: "or",
  UNION: "union",
  INTERSECT: "intersect",
  MINUS: "minus",
};

/** Lowers one bound query. Throws LowerError for what cannot be lowered (type errors). */
export function lower(q: BoundQuery): IrQuery {
  return new Lowering(q).query();
}

class Lowering {
  private readonly vars = new Map<number, IrVar>();
  private readonly ir: IrQuery;
  private selects = 0;
  /** A hidden vertex-set variable receiving the result of UPDATE / DELETE ... FROM. */
  private scratchSet?: number;
  /** Tables of SQL-like SELECT ... INTO: variables the front end declares, held as global ListAccums. */
  private readonly sqlTables = new Set<number>();
  /** The next id for a hidden variable or accumulator (above every id the binder gave out). */
  private nextHiddenId?: number;
  private readonly sqlHost: SqlSelectHost = {
    expr: (x) => this.expr(x),
    select: (sel) => this.select(sel),
    declare: (d, kind) => this.declare(d, kind),
    hiddenVar: (name, kind, type) => {
      const id = this.hiddenId();
      this.vars.set(id, { id, name, kind, type });
      return id;
    },
    globalAccum: (name, type, id) => {
      const accumId = id ?? this.hiddenId();
      if (!this.ir.accums.some((a) => a.id === accumId)) this.ir.accums.push({ id: accumId, name, scope: "global", type });
      return accumId;
    },
    scratchSet: () => this.scratch(),
  };

  constructor(private readonly q: BoundQuery) {
    this.ir = {
      name: q.name,
      graph: q.graph,
      syntax: q.syntax,
      ...(q.returns ? { returns: lowerType(q.returns) } : {}),
      params: [],
      vars: [],
      accums: q.accums.map((a) => this.accum(a)),
      exceptions: [],
      tuples: q.typedefs.map(lowerTuple),
      body: [],
      calls: q.calls.map((c) => c.name),
      selects: 0,
    };
  }

  query(): IrQuery {
    for (const p of this.q.params) {
      this.declare(p, "param");
      this.ir.params.push(p.id);
    }
    for (const s of this.q.vertexSets) this.declare(s, "vset");
    this.ir.body = this.stmts(this.q.body);
    this.ir.vars = [...this.vars.values()].sort((a, b) => a.id - b.id);
    this.ir.selects = this.selects;
    return this.ir;
  }

  private accum(a: AccumDecl) {
    return { id: a.id, name: a.name, scope: a.scope, type: lowerAccum(a.type) };
  }

  /** Registers a declaration as an IR variable (once). */
  private declare(d: Decl, kind: IrVarKind, type?: IrType): number {
    if (!this.vars.has(d.id)) {
      const v: IrVar = { id: d.id, name: d.name, kind, type: type ?? this.declType(d) };
      if (d.declKind === "param") {
        v.paramIndex = d.index;
        const dflt = d.default ? constantOf(d.default) : undefined;
        if (dflt !== undefined) v.default = dflt;
      }
      this.vars.set(d.id, v);
    }
    return d.id;
  }

  private declType(d: Decl): IrType {
    switch (d.declKind) {
      case "param":
      case "var":
      case "loopvar":
        return lowerType(d.type);
      case "vset":
        return VSET;
      case "alias":
        return d.role === "edge" ? { t: "edge" } : { t: "vertex" };
      default:
        throw new LowerError(`${d.declKind} ${d.name} is not a variable`);
    }
  }

  private exception(e: ExceptionDecl): number {
    if (!this.ir.exceptions.some((x) => x.id === e.id)) this.ir.exceptions.push({ id: e.id, name: e.name, code: e.code });
    return e.id;
  }

  // ---------------------------------------------------------------- statements

  private stmts(body: BoundStmt[]): IrStmt[] {
    return body.flatMap((s) => this.stmt(s));
  }

  private stmt(s: BoundStmt): IrStmt[] {
    switch (s.kind) {
      case "declVar":
        return [{ s: "let", id: this.declare(s.decl, s.decl.level === "query" ? "global" : "local"), ...(s.init ? { init: this.expr(s.init) } : {}) }];
      case "resetAccum":
        return [{ s: "resetAccum", id: s.decl.id }];
      case "declAccum":
        return [
          {
            s: "declAccum",
            id: s.decl.id,
            ...(s.init ? { init: this.expr(s.init) } : {}),
            ...(s.heapCapacity ? { capacity: this.expr(s.heapCapacity) } : {}),
            ...(s.arraySizes ? { sizes: s.arraySizes.map((x) => this.expr(x)) } : {}),
          },
        ];
      case "declFile":
        return [{ s: "let", id: this.declare(s.decl, "file"), init: this.expr(s.path) }];
      case "declException":
        this.exception(s.decl);
        return [];
      case "assign":
        return [{ s: "assign", target: this.target(s.target), value: this.expr(s.value) }];
      case "accumulate":
        return [{ s: "accumulate", target: this.target(s.target), value: this.expr(s.value) }];
      case "vsetAssign":
        return [{ s: "vsetAssign", id: this.declare(s.decl, "vset"), value: this.expr(s.value) }];
      case "select":
        return [{ s: "select", id: this.declare(s.decl, "vset"), select: this.select(s.select) }];
      case "expr": {
        // `f.println(...)` binds as a method call on the FILE value: it is a statement of its own
        if (s.expr.kind === "method" && s.expr.method.id === "file.println") {
          const file = this.expr(s.expr.target);
          if (file.e === "var") return [{ s: "println", file: file.id, args: s.expr.args.map((a) => this.expr(a)) }];
        }
        return [{ s: "expr", expr: this.expr(s.expr) }];
      }
      case "if":
        return [{ s: "if", branches: s.branches.map((b) => ({ cond: this.expr(b.cond), body: this.stmts(b.body) })), ...(s.else ? { otherwise: this.stmts(s.else) } : {}) }];
      case "case": {
        // CASE [subject] WHEN x THEN ... : the first true (or equal) WHEN runs.
        const branches = s.whens.map((w) => ({ cond: s.subject ? this.equal(s.subject, w.when) : this.expr(w.when), body: this.stmts(w.body) }));
        if (branches.length === 0) return s.else ? this.stmts(s.else) : [];
        return [{ s: "if", branches, ...(s.else ? { otherwise: this.stmts(s.else) } : {}) }];
      }
      case "while":
        return [{ s: "while", cond: this.expr(s.cond), ...(s.limit ? { limit: this.expr(s.limit) } : {}), body: this.stmts(s.body) }];
      case "foreachRange":
        return [
          {
            s: "forRange",
            id: this.declare(s.loopVar, "loop"),
            low: this.expr(s.low),
            high: this.expr(s.high),
            ...(s.step ? { step: this.expr(s.step) } : {}),
            body: this.stmts(s.body),
          },
        ];
      case "foreach":
        return [{ s: "forEach", ids: s.loopVars.map((v: LoopVarDecl) => this.declare(v, "loop")), collection: this.expr(s.collection), body: this.stmts(s.body) }];
      case "break":
        return [{ s: "break" }];
      case "continue":
        return [{ s: "continue" }];
      case "print":
        return [
          {
            s: "print",
            items: s.items.map((it) => ({
              key: it.key,
              expr: this.expr(it.expr),
              ...(it.projection ? { projection: it.projection.map((p) => ({ key: p.key, expr: this.expr(p.expr) })) } : {}),
              ...(it.expr.kind === "ref" && it.expr.decl.declKind === "vset" ? { projectionVar: it.expr.decl.id } : {}),
            })),
            ...(s.where ? { where: this.expr(s.where) } : {}),
            ...(s.toCsv ? { toCsv: this.declare(s.toCsv, s.toCsv.declKind === "param" ? "param" : "file") } : {}),
          },
        ];
      case "println":
        return [{ s: "println", file: this.declare(s.file, s.file.declKind === "param" ? "param" : "file"), args: s.args.map((a) => this.expr(a)) }];
      case "log":
        return [{ s: "log", cond: this.expr(s.cond), args: s.args.map((a) => this.expr(a)) }];
      case "return":
        return [{ s: "return", ...(s.value ? { value: this.expr(s.value) } : {}) }];
      case "raise":
        return [{ s: "raise", exception: this.exception(s.exception), ...(s.message ? { message: this.expr(s.message) } : {}) }];
      case "try":
        return [
          {
            s: "try",
            body: this.stmts(s.body),
            handlers: s.handlers.map((h) => ({ exception: this.exception(h.exception), body: this.stmts(h.body) })),
            ...(s.else ? { otherwise: this.stmts(s.else) } : {}),
          },
        ];
      case "update":
        return [this.updateSelect(s.select, s.set)];
      case "insert":
        return [this.insert(s)];
      case "deleteSelect":
        return [this.deleteSelect(s.select)];
      case "deleteValue":
        return [{ s: "delete", target: this.expr(s.target) }];
      case "sqlSelect":
        this.sqlTables.add(s.table.id);
        return lowerSqlSelect(this.sqlHost, s);
    }
  }

  /** UPDATE s FROM pattern SET ... WHERE c: a SELECT whose clause does the writes. */
  private updateSelect(sel: BoundSelect, set: BoundStmt[]): IrStmt {
    const ir = this.select(sel);
    const body = this.stmts(set);
    if (sel.selected.role === "edge" || (sel.hops.length > 0 && sel.selected.id !== sel.source.alias.id && sel.hops.every((h) => h.edgeAlias?.id === sel.selected.id))) {
      ir.accum = body;
    } else {
      ir.postAccum = [{ alias: sel.selected.id, body }];
    }
    return { s: "select", id: this.scratch(), select: ir };
  }

  /** DELETE s FROM pattern WHERE c: a SELECT deleting each matched element of the alias. */
  private deleteSelect(sel: BoundSelect): IrStmt {
    const ir = this.select(sel);
    const target: IrExpr = { e: "var", id: sel.selected.id, type: sel.selected.role === "edge" ? { t: "edge" } : { t: "vertex" } };
    if (sel.selected.role === "edge") ir.accum = [{ s: "delete", target }];
    else ir.postAccum = [{ alias: sel.selected.id, body: [{ s: "delete", target }] }];
    return { s: "select", id: this.scratch(), select: ir };
  }

  private hiddenId(): number {
    this.nextHiddenId ??= Math.max(0, ...this.q.accums.map((a) => a.id), ...[...this.vars.keys()]) + 200000;
    return this.nextHiddenId++;
  }

  private scratch(): number {
    if (this.scratchSet === undefined) {
      const id = Math.max(0, ...this.q.accums.map((a) => a.id), ...[...this.vars.keys()]) + 100000;
      this.vars.set(id, { id, name: "__result", kind: "vset", type: VSET });
      this.scratchSet = id;
    }
    return this.scratchSet;
  }

  /**
   * INSERT INTO: values are matched to columns (the named ones, else the id / FROM, TO and
   * then the attributes in schema order, given here by position: `index`); `_` (the
   * attribute's default) leaves the attribute out.
   */
  private insert(s: Extract<BoundStmt, { kind: "insert" }>): IrStmt {
    const isDefault = (v: BoundExpr) => v.kind === "literal" && v.value === "_" && v.type.kind === "void";
    const keyCount = s.element === "vertex" ? 1 : 2;
    const cols = s.columns;
    const isKey = (i: number) => (cols ? ["PRIMARY_ID", "FROM", "TO"].includes(cols[i]) : i < keyCount);
    const attrs: { name: string; index: number; value: IrExpr }[] = [];
    s.values.forEach((v, i) => {
      if (isKey(i) || isDefault(v)) return;
      attrs.push({ name: cols ? cols[i] : "", index: cols ? -1 : i - keyCount, value: this.expr(v) });
    });
    if (s.element === "vertex") {
      const idIndex = cols ? cols.findIndex((c) => c === "PRIMARY_ID") : 0;
      const id = s.values[idIndex >= 0 ? idIndex : 0];
      if (id === undefined) throw new LowerError("INSERT INTO a vertex type needs its primary id");
      // a named column that is the primary id attribute itself counts as the id
      return { s: "insertVertex", vertexType: s.typeName, id: this.expr(id), attrs };
    }
    if (!s.endpoints) throw new LowerError("INSERT INTO an edge type needs its endpoints");
    return {
      s: "insertEdge",
      edgeType: s.typeName,
      from: this.expr(s.endpoints.from),
      ...(s.endpoints.fromType ? { fromType: s.endpoints.fromType } : {}),
      to: this.expr(s.endpoints.to),
      ...(s.endpoints.toType ? { toType: s.endpoints.toType } : {}),
      attrs,
    };
  }

  private target(t: Extract<BoundStmt, { kind: "assign" }>["target"]): IrTarget {
    switch (t.kind) {
      case "var":
        return { t: "var", id: this.declare(t.decl, t.decl.level === "query" ? "global" : "local") };
      case "globalAccum":
        return { t: "gacc", id: t.decl.id, ...(t.indices ? { indices: t.indices.map((x) => this.expr(x)) } : {}) };
      case "vertexAccum":
        return { t: "vacc", id: t.decl.id, vertex: this.expr(t.target), ...(t.indices ? { indices: t.indices.map((x) => this.expr(x)) } : {}) };
      case "attr":
        return {
          t: "attr",
          target: this.expr(t.target),
          name: t.attr.name,
          element: t.attr.owners[0]?.element ?? "vertex",
          owners: t.attr.owners.map((o) => ({ typeName: o.typeName, index: o.index })),
          valueType: lowerType(t.type),
        };
    }
  }

  // ---------------------------------------------------------------- SELECT

  private select(sel: BoundSelect): IrSelect {
    const alias = (a: AliasDecl) => this.declare(a, "alias");
    const index = this.selects++;
    return {
      index,
      syntax: sel.syntax,
      source: {
        alias: alias(sel.source.alias),
        ...(sel.source.vertexSet ? { vset: this.declare(sel.source.vertexSet, "vset") } : {}),
        ...(sel.source.vertexTypes ? { vertexTypes: sel.source.vertexTypes } : {}),
      },
      hops: sel.hops.map((h) => ({
        from: alias(h.from),
        ...(h.edgeAlias ? { edgeAlias: alias(h.edgeAlias) } : {}),
        edges: h.edges.map((e) => ({ edgeType: e.edgeType, direction: e.direction })),
        ...(h.dynamicEdges ? { dynamicEdges: { expr: this.expr(h.dynamicEdges.expr), mark: h.dynamicEdges.mark } } : {}),
        ...(h.repeat ? { repeat: h.repeat } : {}),
        target: alias(h.target),
        ...(h.targetTypes ? { targetTypes: h.targetTypes } : {}),
        ...(h.dynamicTargets ? { dynamicTargets: this.expr(h.dynamicTargets) } : {}),
        ...(h.targetSet ? { targetSet: this.declare(h.targetSet, "vset") } : {}),
      })),
      selected: alias(sel.selected),
      ...(sel.sample
        ? {
            sample: {
              count: this.expr(sel.sample.count),
              percent: sel.sample.percent,
              what: sel.sample.what,
              pinned: sel.sample.pinned,
              ...(sel.sample.when ? { when: this.expr(sel.sample.when) } : {}),
            },
          }
        : {}),
      ...(sel.where ? { where: this.expr(sel.where) } : {}),
      accum: this.stmts(sel.accum),
      postAccum: sel.postAccum.map((p) => ({ alias: alias(p.alias), body: this.stmts(p.stmts) })),
      ...(sel.having ? { having: this.expr(sel.having) } : {}),
      orderBy: sel.orderBy.map((o) => ({ expr: this.expr(o.expr), desc: o.desc })),
      ...(sel.limit ? { limit: this.expr(sel.limit) } : {}),
      ...(sel.offset ? { offset: this.expr(sel.offset) } : {}),
    };
  }

  // ---------------------------------------------------------------- expressions

  private equal(a: BoundExpr, b: BoundExpr): IrExpr {
    return { e: "binary", op: "eq", left: this.expr(a), right: this.expr(b), type: BOOL };
  }

  expr(x: BoundExpr): IrExpr {
    const type = (): IrType => lowerType(x.type);
    switch (x.kind) {
      case "literal":
      case "constant":
        return { e: "const", type: type(), value: constantValue(x.value, x.type.kind === "primitive" ? x.type.name : undefined) };
      case "ref": {
        const d = x.decl;
        if (this.sqlTables.has(d.id)) return { e: "gacc", id: d.id, type: type() };
        if (d.declKind === "vset") {
          // inside PRINT projections a vertex-set name stands for each of its vertices
          const id = this.declare(d as VertexSetDecl, "vset");
          return x.type.kind === "vertexSet" ? { e: "vset", id, type: VSET } : { e: "var", id, type: type() };
        }
        const kind: IrVarKind = d.declKind === "param" ? "param" : d.declKind === "alias" ? "alias" : d.declKind === "loopvar" ? "loop" : (d as VarDecl).level === "query" ? "global" : "local";
        return { e: "var", id: this.declare(d as ParamDecl | VarDecl | LoopVarDecl | AliasDecl, kind), type: type() };
      }
      case "globalAccum":
        return { e: "gacc", id: x.decl.id, type: this.accumReadType(x.decl, x.type) };
      case "vertexAccum":
        return { e: "vacc", id: x.decl.id, vertex: this.expr(x.target), prime: x.prime, type: this.accumReadType(x.decl, x.type) };
      case "attr":
        return {
          e: "attr",
          target: this.expr(x.target),
          name: x.attr.name,
          element: x.attr.owners[0]?.element ?? "vertex",
          owners: x.attr.owners.map((o) => ({ typeName: o.typeName, index: o.index })),
          ...(x.attr.isPrimaryId ? { primaryId: true } : {}),
          type: type(),
        };
      case "pseudoAttr":
        return { e: "typeName", target: this.expr(x.target), type: type() };
      case "tupleField":
        return { e: "field", target: this.expr(x.target), index: x.index, type: type() };
      case "unary":
        return { e: "unary", op: x.op === "-" ? "neg" : x.op === "NOT" ? "not" : "bitnot", arg: this.expr(x.operand), type: type() };
      case "binary": {
        const left = this.expr(x.left);
        const right = this.expr(x.right);
        if (x.op === "+") {
          const numeric = left.type.t === "scalar" && left.type.name !== "STRING";
          return { e: "binary", op: numeric ? "add" : "concat", left, right, type: type() };
        }
        return { e: "binary", op: BINARY[x.op], left, right, type: type() };
      }
      case "convert":
        return { e: "convert", arg: this.expr(x.operand), type: type() };
      case "call":
        return { e: "call", fn: x.fn.name, args: x.args.map((a) => this.expr(a)), ...(x.distinct ? { distinct: true } : {}), type: type() };
      case "method":
        return { e: "method", target: this.expr(x.target), method: x.method.id, args: x.args.map((a) => this.expr(a)), type: type() };
      case "subquery":
        return { e: "subquery", query: x.query.name, args: x.args.map((a) => this.expr(a)), type: type() };
      case "tupleCtor":
        return { e: "tuple", args: x.args.map((a) => this.expr(a)), type: lowerTuple(x.tuple) };
      case "listLit":
      case "setLit":
        return { e: "collection", items: x.elements.map((a) => this.expr(a)), type: type() };
      case "entry":
        return { e: "entry", keys: x.keys.map((a) => this.expr(a)), values: x.values.map((a) => this.expr(a)), type: { t: "void" } };
      case "index":
        return { e: "index", target: this.expr(x.target), indices: x.indices.map((a) => this.expr(a)), type: type() };
      case "case": {
        const branches = x.whens.map((w) => ({ cond: x.subject ? this.equal(x.subject, w.when) : this.expr(w.when), value: this.expr(w.then) }));
        const otherwise = x.else ? this.expr(x.else) : defaultConst(type());
        return { e: "cond", branches, otherwise, type: type() };
      }
      case "in":
        return { e: "in", value: this.expr(x.value), collection: this.expr(x.collection), negated: x.negated, type: BOOL };
      case "between": {
        const v = this.expr(x.value);
        const v2 = this.expr(x.value);
        return {
          e: "binary",
          op: "and",
          left: { e: "binary", op: "le", left: this.expr(x.low), right: v, type: BOOL },
          right: { e: "binary", op: "le", left: v2, right: this.expr(x.high), type: BOOL },
          type: BOOL,
        };
      }
      case "isNull":
        return { e: "isNull", param: this.declare(x.param, "param"), negated: x.negated, type: BOOL };
      case "like":
        return { e: "like", value: this.expr(x.value), pattern: this.expr(x.pattern), ...(x.escape ? { escape: x.escape } : {}), negated: x.negated, type: BOOL };
      case "seed":
        return {
          e: "seed",
          parts: x.parts.map((p) => (p.kind === "allOfType" ? { p: "type" as const, vertexType: p.vertexType } : p.kind === "allVertices" ? { p: "all" as const } : { p: "value" as const, expr: this.expr(p.expr) })),
          type: VSET,
        };
      case "datetimeInterval":
        return { e: "interval", value: this.expr(x.value), unit: x.unit, type: type() };
    }
  }

  /** What reading an accumulator gives: its value type (collections: the collection). */
  private accumReadType(decl: AccumDecl, _given: BoundExpr["type"]): IrType {
    return accumValueType(lowerAccum(decl.type));
  }
}

function constantValue(v: unknown, primitive?: string): IrConstValue {
  if (typeof v === "bigint" || typeof v === "boolean" || typeof v === "string") {
    if (typeof v === "bigint" && (primitive === "FLOAT" || primitive === "DOUBLE")) return Number(v);
    return v;
  }
  if (typeof v === "number") return primitive === "INT" || primitive === "UINT" || primitive === "DATETIME" ? BigInt(Math.trunc(v)) : v;
  throw new LowerError(`unsupported constant ${String(v)}`);
}

/** The constant of a parameter default, when it is one. */
function constantOf(x: BoundExpr): IrConstValue | undefined {
  if (x.kind === "literal" || x.kind === "constant") return constantValue(x.value, x.type.kind === "primitive" ? x.type.name : undefined);
  if (x.kind === "convert") {
    const inner = constantOf(x.operand);
    if (inner === undefined || x.type.kind !== "primitive") return inner;
    if ((x.type.name === "FLOAT" || x.type.name === "DOUBLE") && typeof inner === "bigint") return Number(inner);
    if ((x.type.name === "INT" || x.type.name === "UINT") && typeof inner === "number") return BigInt(Math.trunc(inner));
    return inner;
  }
  if (x.kind === "unary" && x.op === "-") {
    const inner = constantOf(x.operand);
    if (typeof inner === "bigint") return -inner;
    if (typeof inner === "number") return -inner;
  }
  if (x.kind === "call" && x.fn.name === "to_datetime" && x.args[0]?.kind === "literal" && typeof x.args[0].value === "string") {
    const seconds = parseDatetime(x.args[0].value);
    return seconds === undefined ? undefined : BigInt(seconds);
  }
  return undefined;
}

function defaultConst(t: IrType): IrExpr {
  if (t.t === "scalar") {
    const value: IrConstValue =
      t.name === "STRING" ? "" : t.name === "BOOL" ? false : t.name === "FLOAT" || t.name === "DOUBLE" ? 0 : 0n;
    return { e: "const", type: t, value };
  }
  throw new LowerError("a CASE expression without ELSE must have a scalar type");
}
