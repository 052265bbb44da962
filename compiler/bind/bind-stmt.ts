// Statements at both levels (query body, and DML inside ACCUM / POST-ACCUM / UPDATE SET):
// declarations, assignments with their placement rules (gsql-semantics §2.3), control flow,
// PRINT, exceptions, and the data-modification statements.
import type {
  AstAccumDecl, AstAssign, AstExpr, AstForeach, AstPrint, AstPrintItem, AstStatement, AstVarDecl,
  AstVertexSetDecl,
} from "../ast/index.js";
import type { SourceRange } from "../diagnostics/index.js";
import type {
  AccumDecl, AssignTarget, BoundExpr, BoundStmt, LoopVarDecl, PrintItem, VarDecl, VertexSetDecl,
} from "./bound.js";
import { bindAccumType, bindType } from "./bind-type.js";
import {
  bindCondition, bindExpecting, bindExpr, bindIndex, bindName, convertTo, errorExpr, lookupAccum, vertexTypesOf,
} from "./bind-expr.js";
import { bindSelect } from "./bind-select.js";
import { bindInsert } from "./bind-dml.js";
import { bindSqlSelect } from "./bind-sql-select.js";
import { LEVEL_NAMES, isDml, type QueryContext } from "./context.js";
import {
  T, accumAcceptsAccumulate, accumAcceptsAssign, accumOutputType, elementTypeOf, isAssignable, isInteger, isPrimitive,
  sameType, typeToString, type GType,
} from "./types.js";

export function bindStatements(cx: QueryContext, stmts: AstStatement[]): BoundStmt[] {
  const out: BoundStmt[] = [];
  for (const s of stmts) {
    const b = bindStatement(cx, s);
    if (Array.isArray(b)) out.push(...b);
    else if (b) out.push(b);
  }
  return out;
}

function notAllowedHere(cx: QueryContext, what: string, range: SourceRange): void {
  cx.error("GSQL3035", range, { what, where: LEVEL_NAMES[cx.level] });
}

function bindStatement(cx: QueryContext, s: AstStatement): BoundStmt | BoundStmt[] | undefined {
  const range = s.range;
  const dml = isDml(cx.level);
  switch (s.kind) {
    case "TypedefTuple":
      if (dml) return notAllowedHere(cx, "TYPEDEF", range), undefined;
      bindTypedef(cx, s);
      return undefined;
    case "AccumDecl":
      return bindAccumDecl(cx, s);
    case "VarDecl":
      return bindVarDecl(cx, s);
    case "FileDecl": {
      if (dml) return notAllowedHere(cx, "a FILE declaration", range), undefined;
      const decl: VarDecl = { declKind: "var", id: cx.newId(), name: s.name.name, range: s.name.range, type: T.FILE, level: "query" };
      const path = bindExpecting(cx, s.path, T.STRING);
      cx.declare(s.name.name, decl, s.name.range);
      return { kind: "declFile", decl, path, range };
    }
    case "ExceptionDecl": {
      if (dml) return notAllowedHere(cx, "an EXCEPTION declaration", range), undefined;
      const code = s.code.kind === "IntLiteral" ? Number(s.code.text) : NaN;
      if (!(code > 40000)) cx.error("GSQL3020", s.code.range, { code: s.code.kind === "IntLiteral" ? s.code.text : "a non-constant" });
      const decl = { declKind: "exception" as const, id: cx.newId(), name: s.name.name, range: s.name.range, code };
      if (cx.exceptions.has(decl.name)) cx.error("GSQL2011", s.name.range, { name: decl.name });
      cx.exceptions.set(decl.name, decl);
      return { kind: "declException", decl, range };
    }
    case "VertexSetDecl":
      return bindVertexSetDecl(cx, s);
    case "Assign":
      return bindAssign(cx, s);
    case "ExprStatement": {
      if (s.expr.kind === "Call" && s.expr.callee.name.toLowerCase() === "reset_collection_accum") return bindResetAccum(cx, s.expr.args, range);
      const expr = bindExpr(cx, s.expr);
      if (!["call", "method", "subquery"].includes(expr.kind) && expr.type.kind !== "error") {
        cx.error("GSQL3035", range, { what: "an expression without effect", where: "as a statement" });
      }
      return { kind: "expr", expr, range };
    }
    case "If":
      return {
        kind: "if", range,
        branches: s.branches.map((b) => ({ cond: bindCondition(cx, b.condition), body: cx.inBlock(() => bindStatements(cx, b.body)) })),
        ...(s.otherwise ? { else: cx.inBlock(() => bindStatements(cx, s.otherwise!)) } : {}),
      };
    case "CaseStatement": {
      const subject = s.subject ? bindExpr(cx, s.subject) : undefined;
      return {
        kind: "case", range, ...(subject ? { subject } : {}),
        whens: s.whens.map((w) => ({
          when: subject ? bindExpr(cx, w.when) : bindCondition(cx, w.when),
          body: cx.inBlock(() => bindStatements(cx, w.body)),
        })),
        ...(s.otherwise ? { else: cx.inBlock(() => bindStatements(cx, s.otherwise!)) } : {}),
      };
    }
    case "While": {
      const cond = bindCondition(cx, s.condition);
      const limit = s.limit ? bindExpecting(cx, s.limit, T.INT) : undefined;
      const body = inLoop(cx, () => bindStatements(cx, s.body));
      return { kind: "while", cond, body, range, ...(limit ? { limit } : {}) };
    }
    case "Foreach":
      return bindForeach(cx, s);
    case "Break":
    case "Continue":
      if (cx.loops === 0) cx.error("GSQL3025", range, { statement: s.kind.toUpperCase() });
      return { kind: s.kind === "Break" ? "break" : "continue", range };
    case "Print":
      if (dml) return notAllowedHere(cx, "PRINT", range), undefined;
      return bindPrint(cx, s);
    case "Log": {
      if (s.args.length === 0) {
        cx.error("GSQL3006", range, { name: "LOG", expected: "at least 1", actual: 0 });
        return undefined;
      }
      return { kind: "log", cond: bindCondition(cx, s.args[0]!), args: s.args.slice(1).map((a) => bindExpr(cx, a)), range };
    }
    case "Return":
      return bindReturn(cx, s.value, range);
    case "Raise": {
      if (dml) cx.error("GSQL3019", range, { clause: LEVEL_NAMES[cx.level] });
      const exception = cx.exceptions.get(s.name.name);
      if (!exception) cx.error("GSQL2014", s.name.range, { name: s.name.name });
      const message = s.args[0] ? bindExpecting(cx, s.args[0], T.STRING) : undefined;
      if (!exception) return undefined;
      return { kind: "raise", exception, range, ...(message ? { message } : {}) };
    }
    case "Try": {
      if (dml) notAllowedHere(cx, "TRY", range);
      const body = cx.inBlock(() => bindStatements(cx, s.body));
      const handlers = s.handlers.flatMap((h) => {
        const exception = cx.exceptions.get(h.name.name);
        if (!exception) cx.error("GSQL2014", h.name.range, { name: h.name.name });
        const hb = cx.inBlock(() => bindStatements(cx, h.body));
        return exception ? [{ exception, body: hb }] : [];
      });
      return { kind: "try", body, handlers, range, ...(s.otherwise ? { else: cx.inBlock(() => bindStatements(cx, s.otherwise!)) } : {}) };
    }
    case "Update": {
      if (dml) return notAllowedHere(cx, "UPDATE", range), undefined;
      const { select, set } = bindSelect(cx, { range, selected: s.alias, from: s.from, postAccum: [], orderBy: [], ...(s.where ? { where: s.where } : {}) }, s.set, true);
      return { kind: "update", select, set, range };
    }
    case "DeleteFrom": {
      if (dml) return notAllowedHere(cx, "DELETE ... FROM", range), undefined;
      const { select } = bindSelect(cx, { range, selected: s.alias, from: s.from, postAccum: [], orderBy: [], ...(s.where ? { where: s.where } : {}) }, undefined, true);
      return { kind: "deleteSelect", select, range };
    }
    case "Delete": {
      const target = bindExpr(cx, s.target);
      if (target.type.kind !== "vertex" && target.type.kind !== "edge" && target.type.kind !== "error") {
        cx.error("GSQL3001", s.target.range, { expected: "a vertex or an edge", actual: typeToString(target.type) });
      }
      return { kind: "deleteValue", target, range };
    }
    case "Insert":
      return bindInsert(cx, s);
    case "SqlSelect":
      return bindSqlSelect(cx, s);
  }
}

function inLoop<T>(cx: QueryContext, fn: () => T): T {
  cx.loops++;
  if (cx.level === "query") cx.queryLoops++;
  try {
    return cx.inBlock(fn);
  } finally {
    cx.loops--;
    if (cx.level === "query") cx.queryLoops--;
  }
}

// ---------------------------------------------------------------- declarations

function bindTypedef(cx: QueryContext, s: Extract<AstStatement, { kind: "TypedefTuple" }>): void {
  if (cx.tuples.has(s.name.name) && !cx.catalog.schema.tuples.some((t) => t.name === s.name.name)) {
    cx.error("GSQL2011", s.name.range, { name: s.name.name });
    return;
  }
  const fields = s.fields.map((f, i) => ({ name: f.name?.name ?? `field${i}`, type: bindType(cx, f.type) }));
  cx.tuples.set(s.name.name, { kind: "tuple", name: s.name.name, fields });
}

function bindAccumDecl(cx: QueryContext, s: AstAccumDecl): BoundStmt[] {
  if (isDml(cx.level)) {
    notAllowedHere(cx, "an accumulator declaration", s.range);
    return [];
  }
  const type = bindAccumType(cx, s.type);
  const out: BoundStmt[] = [];
  for (const v of s.vars) {
    if (v.scope === "vertex" && cx.queryLoops > 0) cx.error("GSQL3015", v.range, { name: `@${v.name}`, construct: "WHILE or FOREACH" });
    let t = type;
    if (t && s.type.name === "ArrayAccum") t = { ...t, dims: Math.max(1, v.dims.length) } as typeof t;
    const decl: AccumDecl = {
      declKind: "accum", id: cx.newId(), name: v.name, range: v.range, scope: v.scope,
      type: t ?? { kind: "accum", accum: "SumAccum", element: T.ERROR }, isStatic: s.static,
    };
    cx.declare(v.scope === "global" ? `@@${v.name}` : `@${v.name}`, decl, v.range);
    cx.accums.push(decl);
    const stmt: Extract<BoundStmt, { kind: "declAccum" }> = { kind: "declAccum", decl, range: v.range };
    if (v.init) {
      const init = bindExpr(cx, v.init);
      if (t && !accumAcceptsAssign(t, init.type)) cx.error("GSQL3004", v.init.range, { target: typeToString(t), actual: typeToString(init.type) });
      stmt.init = t ? convertTo(init, accumOutputType(t)) : init;
    }
    if (s.type.heap?.capacity) stmt.heapCapacity = bindExpecting(cx, s.type.heap.capacity, T.INT);
    if (v.dims.length > 0) {
      if (s.type.name !== "ArrayAccum") cx.error("GSQL3029", v.range, { what: typeToString(decl.type) });
      stmt.arraySizes = v.dims.flatMap((d) => (d ? [bindExpecting(cx, d, T.INT)] : []));
    } else if (s.type.name === "ArrayAccum") {
      cx.error("GSQL3021", v.range, { reason: `the ArrayAccum ${v.name} needs its dimensions, as ${v.scope === "global" ? "@@" : "@"}${v.name}[n]` });
    }
    out.push(stmt);
  }
  return out;
}

function bindVarDecl(cx: QueryContext, s: AstVarDecl): BoundStmt[] {
  const type = bindType(cx, s.type);
  const level = isDml(cx.level) ? "dml" : "query";
  if (type.kind === "accum") cx.error("GSQL3039", s.type.range, { type: typeToString(type), use: "a variable (declare it as an accumulator with @ or @@)" });
  if (type.kind === "file") cx.error("GSQL3039", s.type.range, { type: "FILE", use: "a variable (use FILE f (path))" });
  return s.vars.map((v) => {
    const decl: VarDecl = { declKind: "var", id: cx.newId(), name: v.name.name, range: v.name.range, type, level };
    let init: BoundExpr | undefined;
    if (v.init) {
      init = bindExpr(cx, v.init);
      if (!isAssignable(type, init.type)) cx.error("GSQL3001", v.init.range, { expected: typeToString(type), actual: typeToString(init.type) });
      init = convertTo(init, type);
    } else if (level === "dml") {
      cx.error("GSQL3035", v.range, { what: "a DML-level local without an initial value", where: LEVEL_NAMES[cx.level] });
    }
    cx.declare(v.name.name, decl, v.name.range);
    return { kind: "declVar", decl, range: v.range, ...(init ? { init } : {}) };
  });
}

/** A vertex-set variable: declared on first assignment, its type fixed then (or by `S (T) = ...`). */
function declareVertexSet(cx: QueryContext, name: string, range: SourceRange, types: string[] | undefined): VertexSetDecl {
  const decl: VertexSetDecl = { declKind: "vset", id: cx.newId(), name, range };
  if (types) decl.vertexTypes = types;
  cx.vertexSets.set(name, decl);
  cx.scope.names.set(name, decl);
  return decl;
}

function bindVertexSetDecl(cx: QueryContext, s: AstVertexSetDecl): BoundStmt | undefined {
  if (isDml(cx.level)) return notAllowedHere(cx, "a vertex-set variable", s.range), undefined;
  let types: string[] | undefined = [];
  for (const t of s.types) {
    if (t.kind === "AnyType" || (t.kind === "Ident" && (t.name === "ANY" || t.name === "_"))) types = undefined;
    else if (t.kind === "Ident" && cx.view.vertexType(t.name)) types?.push(t.name);
    else cx.error("GSQL2002", t.range, { name: t.kind === "Ident" ? t.name : "@@" + t.name, graph: cx.graphName });
  }
  const existing = cx.vertexSets.get(s.name.name);
  if (existing) cx.error("GSQL2011", s.name.range, { name: s.name.name });
  const decl = existing ?? declareVertexSet(cx, s.name.name, s.name.range, types);
  return assignVertexSet(cx, decl, s.value, s.range);
}

function assignVertexSet(cx: QueryContext, decl: VertexSetDecl, valueAst: AstExpr, range: SourceRange): BoundStmt {
  if (valueAst.kind === "Select") {
    const { select } = bindSelect(cx, valueAst);
    const types = select.selected.anyType ? undefined : select.selected.types;
    checkVertexSetFits(cx, decl, types, valueAst.range);
    return { kind: "select", decl, select, range };
  }
  const value = bindExpr(cx, valueAst);
  if (value.type.kind !== "vertexSet") {
    if (value.type.kind !== "error") cx.error("GSQL3001", valueAst.range, { expected: "a vertex set", actual: typeToString(value.type) });
  } else checkVertexSetFits(cx, decl, value.type.vertexTypes, valueAst.range);
  return { kind: "vsetAssign", decl, value, range };
}

/** Later assignments must fit the type the first one fixed (ANY takes everything). */
function checkVertexSetFits(cx: QueryContext, decl: VertexSetDecl, types: string[] | undefined, range: SourceRange): void {
  if (!decl.vertexTypes) return;
  if (types === undefined || types.some((t) => !decl.vertexTypes!.includes(t))) {
    cx.error("GSQL3022", range, {
      name: decl.name, held: decl.vertexTypes.length === 0 ? "no vertex type" : decl.vertexTypes.join("|"),
      actual: types === undefined ? "vertices of any type" : types.join("|"),
    });
  }
}

// ---------------------------------------------------------------- assignment

function bindAssign(cx: QueryContext, s: AstAssign): BoundStmt | undefined {
  const range = s.range;
  const t = s.target;
  // `S = SELECT ...` / `S = {P.*}`: vertex-set variables, declared by their first assignment.
  if (t.kind === "Ident" && s.op === "=") {
    const d = cx.scope.lookup(t.name);
    const vs = d?.declKind === "vset" ? d : d ? undefined : cx.vertexSets.get(t.name);
    if (vs) return assignVertexSet(cx, vs, s.value, range);
    if (!d) {
      // An unknown name on the left of `=`: a new vertex-set variable if the value is a vertex set.
      if (s.value.kind === "Select") {
        if (isDml(cx.level)) return notAllowedHere(cx, "a vertex-set assignment", range), undefined;
        const { select } = bindSelect(cx, s.value);
        const decl = declareVertexSet(cx, t.name, t.range, select.selected.anyType ? undefined : select.selected.types);
        return { kind: "select", decl, select, range };
      }
      const value = bindExpr(cx, s.value);
      const vt = vertexSetTypesOf(value.type);
      if (vt === null || isDml(cx.level)) {
        if (value.type.kind !== "error") {
          if (looksLikeVertexSet(s.value) && isDml(cx.level)) notAllowedHere(cx, "a vertex-set assignment", range);
          else cx.error("GSQL2005", t.range, { name: t.name });
        }
        return undefined;
      }
      const decl = declareVertexSet(cx, t.name, t.range, vt);
      return { kind: "vsetAssign", decl, value, range };
    }
  }
  const target = bindTarget(cx, t, s.op);
  if (!target) {
    bindExpr(cx, s.value);
    return undefined;
  }
  const value = bindExpr(cx, s.value);
  if (s.op === "+=") return bindAccumulate(cx, target, value, s);
  const dstType = targetType(target);
  if (dstType.kind === "accum") {
    if (!accumAcceptsAssign(dstType, value.type)) cx.error("GSQL3004", s.value.range, { target: typeToString(dstType), actual: typeToString(value.type) });
    return { kind: "assign", target, value: convertTo(value, accumOutputType(dstType)), range };
  }
  if (!isAssignable(dstType, value.type)) cx.error("GSQL3001", s.value.range, { expected: typeToString(dstType), actual: typeToString(value.type) });
  return { kind: "assign", target, value: convertTo(value, dstType), range };
}

/** The vertex types a value can seed a vertex set with (undefined: any); null when it holds no vertices. */
function vertexSetTypesOf(t: GType): string[] | undefined | null {
  if (t.kind === "vertexSet") return t.vertexTypes;
  const el = t.kind === "collection" || (t.kind === "accum" && ["SetAccum", "BagAccum", "ListAccum"].includes(t.accum)) ? elementTypeOf(t) : undefined;
  if (el?.kind === "vertex") return el.vertexType ? [el.vertexType] : undefined;
  return null;
}

function looksLikeVertexSet(e: AstExpr): boolean {
  if (e.kind === "Select" || e.kind === "SeedSet" || e.kind === "TypeStar") return true;
  if (e.kind === "Binary") return ["UNION", "INTERSECT", "MINUS"].includes(e.op) && (looksLikeVertexSet(e.left) || looksLikeVertexSet(e.right));
  if (e.kind === "Call") return ["to_vertex_set", "selectvertex"].includes(e.callee.name.toLowerCase());
  return false;
}

function targetType(t: AssignTarget): GType {
  switch (t.kind) {
    case "var": return t.decl.type;
    case "globalAccum":
    case "vertexAccum":
      if (t.indices && t.decl.type.accum === "ArrayAccum") return t.decl.type.element;
      return t.decl.type;
    case "attr": return t.type;
  }
}

function bindAccumulate(cx: QueryContext, target: AssignTarget, value: BoundExpr, s: AstAssign): BoundStmt {
  const dst = targetType(target);
  if (dst.kind === "accum") {
    if (!accumAcceptsAccumulate(dst, value.type)) cx.error("GSQL3003", s.value.range, { accum: typeToString(dst), actual: typeToString(value.type) });
    return { kind: "accumulate", target, value, range: s.range };
  }
  // `x += v` on a variable or attribute: numbers add, strings append, collections merge.
  if (target.kind === "var" && isDml(cx.level) && target.decl.level === "query") {
    cx.error("GSQL3035", s.range, { what: "'+=' on a global variable", where: LEVEL_NAMES[cx.level] + " (use an accumulator)" });
  }
  const ok = (isAssignable(dst, value.type) && (isPrimitive(dst, "INT", "UINT", "FLOAT", "DOUBLE", "STRING") || dst.kind === "collection")) ||
    (dst.kind === "collection" && elementTypeOf(dst) !== undefined && isAssignable(elementTypeOf(dst)!, value.type));
  if (!ok && dst.kind !== "error" && value.type.kind !== "error") {
    cx.error("GSQL3003", s.value.range, { accum: typeToString(dst), actual: typeToString(value.type) });
  }
  return { kind: "accumulate", target, value: convertTo(value, dst), range: s.range };
}

/** The place an assignment writes, with the placement rules of §2.3. */
function bindTarget(cx: QueryContext, t: AstExpr, op: "=" | "+="): AssignTarget | undefined {
  const where = LEVEL_NAMES[cx.level];
  switch (t.kind) {
    case "Ident": {
      const d = cx.scope.lookup(t.name);
      if (!d) {
        bindName(cx, t);
        return undefined;
      }
      if (d.declKind === "param") {
        cx.error("GSQL3013", t.range, { name: t.name });
        return undefined;
      }
      if (d.declKind === "var") {
        if (d.type.kind === "file") {
          cx.error("GSQL3035", t.range, { what: "assigning a FILE", where });
          return undefined;
        }
        return { kind: "var", decl: d };
      }
      if (d.declKind === "loopvar") {
        cx.error("GSQL3035", t.range, { what: `assigning the loop variable '${t.name}'`, where });
        return undefined;
      }
      cx.error("GSQL3035", t.range, { what: `assigning the ${d.declKind === "alias" ? "alias" : "name"} '${t.name}'`, where });
      return undefined;
    }
    case "AccumRef": {
      if (t.scope === "vertex") {
        lookupAccum(cx, "vertex", t.name, t.range);
        cx.error("GSQL3028", t.range, { what: `the vertex-attached accumulator '@${t.name}'`, where: `through a vertex, as v.@${t.name}` });
        return undefined;
      }
      const decl = lookupAccum(cx, "global", t.name, t.range);
      if (decl && op === "=" && isDml(cx.level)) cx.error("GSQL3014", t.range, { name: `@@${t.name}`, clause: clauseName(cx) });
      return decl && { kind: "globalAccum", decl };
    }
    case "AccumAccess": {
      const e = bindExpr(cx, t);
      if (e.kind !== "vertexAccum") return undefined;
      if (e.prime) cx.error("GSQL3035", t.range, { what: `writing '@${t.name}''`, where });
      if (cx.level === "query") {
        cx.error("GSQL3031", t.range, { name: `@${t.name}` });
        return undefined;
      }
      return { kind: "vertexAccum", target: e.target, decl: e.decl };
    }
    case "Index": {
      const e = bindIndex(cx, t.object, [t.index], t.range);
      if (e.kind !== "index") return undefined;
      if (e.target.kind === "globalAccum") {
        if (op === "=" && isDml(cx.level)) cx.error("GSQL3014", t.range, { name: `@@${e.target.decl.name}`, clause: clauseName(cx) });
        return { kind: "globalAccum", decl: e.target.decl, indices: e.indices };
      }
      if (e.target.kind === "vertexAccum") return { kind: "vertexAccum", target: e.target.target, decl: e.target.decl, indices: e.indices };
      cx.error("GSQL3029", t.range, { what: typeToString(e.target.type) });
      return undefined;
    }
    case "FieldAccess": {
      const e = bindExpr(cx, t);
      if (e.kind !== "attr") {
        if (e.type.kind !== "error") cx.error("GSQL3035", t.range, { what: "assigning this field", where });
        return undefined;
      }
      const isVertex = e.target.type.kind === "vertex";
      if (isVertex && cx.level === "accum") {
        cx.error("GSQL3026", t.range);
        return undefined;
      }
      if (e.attr.isPrimaryId) {
        cx.error("GSQL4008", t.range, { what: "Primary keys", name: e.attr.name, owner: "its vertex" });
        return undefined;
      }
      if (cx.level === "query" && e.target.kind === "ref" && e.target.decl.declKind === "alias") {
        cx.error("GSQL3035", t.range, { what: "assigning an attribute of an alias", where });
        return undefined;
      }
      return { kind: "attr", target: e.target, attr: e.attr, type: e.type };
    }
    default:
      cx.error("GSQL3035", t.range, { what: "assigning this expression", where });
      return undefined;
  }
}

function clauseName(cx: QueryContext): string {
  return cx.level === "accum" ? "ACCUM" : cx.level === "postAccum" ? "POST-ACCUM" : "UPDATE ... SET";
}

// ---------------------------------------------------------------- FOREACH, PRINT, RETURN

function bindForeach(cx: QueryContext, s: AstForeach): BoundStmt | undefined {
  const range = s.range;
  if (s.iterable.kind === "Range") {
    const r = s.iterable;
    const low = bindExpecting(cx, r.from, T.INT);
    const high = bindExpecting(cx, r.to, T.INT);
    const step = r.step ? bindExpecting(cx, r.step, T.INT) : undefined;
    if (r.step?.kind === "IntLiteral" && BigInt(r.step.text) === 0n) cx.error("GSQL3046", r.step.range);
    if (s.vars.length !== 1) cx.error("GSQL3006", range, { name: "FOREACH over RANGE", expected: "1 loop variable", actual: s.vars.length });
    return inLoop(cx, () => {
      const loopVar = declareLoopVar(cx, s.vars[0]!.name, s.vars[0]!.range, T.INT);
      const body = bindStatements(cx, s.body);
      return { kind: "foreachRange", loopVar, low, high, body, range, ...(step ? { step } : {}) };
    });
  }
  const collection = bindExpr(cx, s.iterable);
  const ct = collection.type;
  let varTypes: GType[];
  if (ct.kind === "error") varTypes = s.vars.map(() => T.ERROR);
  else if ((ct.kind === "accum" && ct.accum === "MapAccum") || ct.kind === "map") {
    const value = ct.kind === "map" ? ct.value : ct.value.kind === "accum" ? accumOutputType(ct.value) : ct.value;
    varTypes = s.vars.length === 2 ? [ct.key, value] : [{ kind: "tuple", fields: [{ name: "key", type: ct.key }, { name: "value", type: value }] }];
  } else if (ct.kind === "accum" && ct.accum === "GroupByAccum") {
    const fields = [...ct.keys, ...ct.values.map((v) => ({ name: v.name, type: accumOutputType(v.type) }))];
    varTypes = s.vars.length === 1 ? [{ kind: "tuple", fields }] : fields.map((f) => f.type);
    if (s.vars.length !== 1 && s.vars.length !== fields.length) {
      cx.error("GSQL3006", range, { name: "FOREACH over a GroupByAccum", expected: `1 or ${fields.length} loop variables`, actual: s.vars.length });
    }
  } else {
    const el = elementTypeOf(ct);
    if (el === undefined) {
      cx.error("GSQL3001", s.iterable.range, { expected: "a collection, map, vertex set or RANGE", actual: typeToString(ct) });
      varTypes = s.vars.map(() => T.ERROR);
    } else varTypes = [el];
    if (s.vars.length !== 1 && el !== undefined) cx.error("GSQL3006", range, { name: "FOREACH", expected: "1 loop variable", actual: s.vars.length });
  }
  if (ct.kind === "collection" && s.iterable.kind === "ParenList" && cx.level === "query") {
    cx.error("GSQL3035", s.iterable.range, { what: "FOREACH over a literal (a, b, ...)", where: "at query-body level" });
  }
  return inLoop(cx, () => {
    const loopVars = s.vars.map((v, i) => declareLoopVar(cx, v.name, v.range, varTypes[i] ?? T.ERROR));
    const body = bindStatements(cx, s.body);
    return { kind: "foreach", loopVars, collection, body, range };
  });
}

function declareLoopVar(cx: QueryContext, name: string, range: SourceRange, type: GType): LoopVarDecl {
  const d: LoopVarDecl = { declKind: "loopvar", id: cx.newId(), name, range, type };
  cx.declare(name, d, range);
  return d;
}

function bindPrint(cx: QueryContext, s: AstPrint): BoundStmt {
  cx.inPrint = true;
  try {
    const items = s.items.map((i) => bindPrintItem(cx, i));
    const out: Extract<BoundStmt, { kind: "print" }> = { kind: "print", items, range: s.range };
    if (s.where) out.where = cx.inWhereClause(true, () => bindCondition(cx, s.where!));
    if (s.toCsv) {
      const f = bindExpr(cx, s.toCsv);
      if (f.kind === "ref" && (f.decl.declKind === "var" || f.decl.declKind === "param") && f.type.kind === "file") out.toCsv = f.decl;
      else if (f.type.kind !== "error") cx.error("GSQL3001", s.toCsv.range, { expected: "FILE", actual: typeToString(f.type) });
    }
    return out;
  } finally {
    cx.inPrint = false;
  }
}

/** Lower-case the keyword functions in a key (`COALESCE(p,1)` prints as `coalesce(p,1)`). */
function keyOf(item: AstPrintItem): string {
  if (item.alias) return item.alias.name;
  const e = item.expr;
  if (e.kind === "Ident") return e.name;
  if (e.kind === "AccumRef") return (e.scope === "global" ? "@@" : "@") + e.name;
  if (e.kind === "VertexSetProjection") return e.set.name;
  return item.keyText.replace(/\b(COALESCE|COUNT|SUM|MIN|MAX|AVG|ISEMPTY)\s*\(/gi, (_, n: string) => `${n.toLowerCase()}(`);
}

function bindPrintItem(cx: QueryContext, item: AstPrintItem): PrintItem {
  const key = keyOf(item);
  const e = item.expr;
  if (e.kind === "VertexSetProjection") {
    const set = bindName(cx, e.set);
    if (set.type.kind !== "vertexSet" && set.type.kind !== "error") {
      cx.error("GSQL2019", e.set.range, { name: e.set.name });
    }
    return { key, expr: set, projection: e.items.map((p) => ({ key: keyOf(p), expr: bindPrintValue(cx, p) })) };
  }
  return { key, expr: bindPrintValue(cx, item) };
}

function bindPrintValue(cx: QueryContext, item: AstPrintItem): BoundExpr {
  if (item.expr.kind === "VertexSetProjection") {
    cx.error("GSQL3035", item.range, { what: "a nested projection", where: "in PRINT" });
    return errorExpr(item.range);
  }
  return bindExpr(cx, item.expr);
}

function bindReturn(cx: QueryContext, valueAst: AstExpr | undefined, range: SourceRange): BoundStmt | undefined {
  if (isDml(cx.level)) {
    notAllowedHere(cx, "RETURN", range);
    return undefined;
  }
  const expected = cx.self.returns;
  if (!valueAst) {
    if (expected) cx.error("GSQL3024", range, { reason: `needs a value of type ${typeToString(expected)}` });
    return { kind: "return", range };
  }
  const value = bindExpr(cx, valueAst);
  if (!expected) {
    cx.error("GSQL3024", range, { reason: "with a value needs RETURNS (type) in the query header" });
    return { kind: "return", value, range };
  }
  if (!returnFits(expected, value.type)) cx.error("GSQL3010", valueAst.range, { actual: typeToString(value.type), expected: typeToString(expected) });
  return { kind: "return", value: convertTo(value, expected), range };
}

/** RETURN's value must have the RETURNS type; numbers convert, a vertex set fits SET<VERTEX>. */
function returnFits(expected: GType, actual: GType): boolean {
  if (actual.kind === "error") return true;
  if (actual.kind === "vertexSet") return (expected.kind === "collection" && expected.element.kind === "vertex") ||
    (expected.kind === "accum" && expected.accum === "SetAccum" && expected.element.kind === "vertex");
  if (expected.kind === "accum") return (actual.kind === "accum" && sameType(expected, actual)) || sameType(accumOutputType(expected), actual);
  if (isInteger(expected) && !isInteger(actual)) return false;
  return isAssignable(expected, actual);
}

export { vertexTypesOf };

/** The accumulators reset_collection_accum empties. */
const RESETTABLE = new Set(["ListAccum", "SetAccum", "BagAccum", "MapAccum", "HeapAccum", "GroupByAccum"]);

/** `reset_collection_accum(@x)` (or `@@x`): a statement of the query body. */
function bindResetAccum(cx: QueryContext, args: AstExpr[], range: SourceRange): BoundStmt | undefined {
  const name = "reset_collection_accum";
  if (cx.level !== "query") {
    cx.error("GSQL3035", range, { what: `${name}()`, where: `in ${LEVEL_NAMES[cx.level]}` });
    return undefined;
  }
  const arg = args[0];
  if (args.length !== 1 || arg === undefined) {
    cx.error("GSQL3006", range, { name, expected: 1, actual: args.length });
    return undefined;
  }
  if (arg.kind !== "AccumRef") {
    cx.error("GSQL3007", arg.range, { index: 1, name, expected: "an accumulator name (@x or @@x)", actual: "an expression" });
    return undefined;
  }
  const decl = lookupAccum(cx, arg.scope, arg.name, arg.range);
  if (!decl) return undefined;
  if (!RESETTABLE.has(decl.type.accum)) {
    cx.error("GSQL3007", arg.range, { index: 1, name, expected: "a List, Set, Bag, Map, Heap or GroupBy accumulator", actual: decl.type.accum });
    return undefined;
  }
  return { kind: "resetAccum", decl, range };
}
