// One query: graph, SYNTAX version (header, or detected), parameters with their defaults,
// RETURNS, then the body. Produces the BoundQuery and its callable signature.
import type { AstCreateQuery, AstExpr, AstInterpretAnonymousQuery, AstParam, AstStatement } from "../ast/index.js";
import { walkAst } from "../ast/walk.js";
import type { DiagnosticLog } from "../diagnostics/index.js";
import type { BoundQuery, ParamDecl } from "./bound.js";
import type { BindCatalog, QuerySignature } from "./catalog.js";
import { bindExpr, convertTo } from "./bind-expr.js";
import { bindStatements } from "./bind-stmt.js";
import { bindType } from "./bind-type.js";
import { QueryContext } from "./context.js";
import { T, isAssignable, isNumeric, isPrimitive, typeToString, type GType } from "./types.js";

export interface BindQueryOptions {
  /** The session's working graph (USE GRAPH), used when the query has no FOR GRAPH. */
  workingGraph?: string;
  /** The session's syntax_version, used when the header has no SYNTAX. */
  defaultSyntax?: "v1" | "v2";
}

/** Bind one CREATE QUERY / INTERPRET QUERY; undefined when its graph is missing or unknown. */
export function bindQuery(ast: AstCreateQuery | AstInterpretAnonymousQuery, catalog: BindCatalog, log: DiagnosticLog,
  opts: BindQueryOptions = {}): BoundQuery | undefined {
  const graph = ast.graph?.name ?? opts.workingGraph;
  if (!graph) {
    log.report("GSQL2017", ast.name?.range ?? ast.range);
    return undefined;
  }
  if (!catalog.schema.graphs.some((g) => g.name === graph)) {
    log.report("GSQL2001", ast.graph?.range ?? ast.range, { name: graph });
    return undefined;
  }
  let syntax: "v1" | "v2";
  let syntaxSource: BoundQuery["syntaxSource"] = "header";
  if (ast.syntax) {
    const v = ast.syntax.version.toUpperCase();
    if (v !== "V1" && v !== "V2") log.report("GSQL1011", ast.syntax.range, { version: ast.syntax.version });
    syntax = v === "V1" ? "v1" : "v2";
  } else {
    syntaxSource = "detected";
    syntax = detectSyntax(ast.body) ?? opts.defaultSyntax ?? "v2";
  }
  const name = ast.name?.name ?? "";
  const self: QuerySignature = { name, graph, params: [], distributed: ast.distributed };
  const cx = new QueryContext(catalog, graph, log, syntax, self);
  const params = ast.params.map((p, i) => bindParam(cx, p, i));
  self.params = params.map((p) => ({ name: p.name, type: p.type, hasDefault: p.default !== undefined }));
  let returns: GType | undefined;
  if (ast.returns) {
    returns = bindType(cx, ast.returns);
    checkReturnType(cx, returns, ast.returns.range);
    self.returns = returns;
  }
  const body = bindStatements(cx, ast.body);
  const out: BoundQuery = {
    kind: "query", range: ast.range, name, graph, syntax, syntaxSource, distributed: ast.distributed,
    orReplace: ast.kind === "CreateQuery" ? ast.orReplace : false, params, typedefs: [...cx.tuples.values()].filter((t) =>
      !catalog.schema.tuples.some((c) => c.name === t.name)),
    accums: cx.accums, vertexSets: [...cx.vertexSets.values()], body, calls: cx.calls, signature: self,
  };
  if (ast.api) out.apiVersion = ast.api.value;
  if (returns) out.returns = returns;
  return out;
}

/**
 * Our rule for files without SYNTAX (gsql-semantics §11): V1-only notation (an arrowhead
 * outside the parentheses, or SAMPLE) makes a query V1; otherwise the session default.
 */
function detectSyntax(body: AstStatement[]): "v1" | "v2" | undefined {
  let v1 = false;
  for (const s of body) {
    walkAst(s, (n) => {
      if ((n.kind === "PatternEdge" && n.arrow !== "none") || (n.kind === "Select" && n.sample)) v1 = true;
      return !v1;
    });
  }
  return v1 ? "v1" : undefined;
}

const PARAM_BASES = ["INT", "UINT", "FLOAT", "DOUBLE", "STRING", "BOOL", "DATETIME"];

function bindParam(cx: QueryContext, p: AstParam, index: number): ParamDecl {
  const type = bindType(cx, p.type);
  const decl: ParamDecl = { declKind: "param", id: cx.newId(), name: p.name.name, range: p.name.range, type, index };
  const mentionsEdge = (t: GType): boolean => t.kind === "edge" || (t.kind === "collection" && mentionsEdge(t.element));
  if (mentionsEdge(type)) cx.error("GSQL3009", p.type.range, { name: p.name.name });
  else if (!paramTypeAllowed(type)) cx.error("GSQL3039", p.type.range, { type: typeToString(type), use: "a query parameter" });
  cx.declare(p.name.name, decl, p.name.range);
  if (p.default) decl.default = bindParamDefault(cx, p, type, p.default);
  return decl;
}

function paramTypeAllowed(t: GType): boolean {
  if (t.kind === "error" || t.kind === "vertex" || t.kind === "file" || t.kind === "json") return true;
  if (t.kind === "primitive") return PARAM_BASES.includes(t.name);
  if (t.kind === "collection") return t.collection !== "LIST" && (t.element.kind === "vertex" || (t.element.kind === "primitive" && PARAM_BASES.includes(t.element.name)));
  return false;
}

/** Only primitive parameters take defaults: a literal of the type, or to_datetime("...") for DATETIME. */
function bindParamDefault(cx: QueryContext, p: AstParam, type: GType, d: AstExpr) {
  const bad = () => cx.error("GSQL3008", d.range, { name: p.name.name, type: typeToString(type) });
  const isConstant = d.kind === "IntLiteral" || d.kind === "RealLiteral" || d.kind === "StringLiteral" || d.kind === "BoolLiteral" ||
    d.kind === "NamedConstant" || (d.kind === "Unary" && d.op === "-" && (d.operand.kind === "IntLiteral" || d.operand.kind === "RealLiteral"));
  const isDatetimeCall = d.kind === "Call" && d.callee.name.toLowerCase() === "to_datetime" && d.args.length === 1 && d.args[0]!.kind === "StringLiteral";
  const value = bindExpr(cx, d);
  if (type.kind !== "primitive") {
    if (type.kind !== "error") bad();
    return value;
  }
  if (isPrimitive(type, "DATETIME") ? !isDatetimeCall : !isConstant) {
    bad();
    return value;
  }
  const fits = isNumeric(type) ? isNumeric(value.type) && !(isPrimitive(type, "INT", "UINT") && !isPrimitive(value.type, "INT", "UINT"))
    : isAssignable(type, value.type);
  if (!fits) bad();
  if (isPrimitive(type, "UINT") && value.kind === "unary") bad();
  return convertTo(value, type);
}

/** RETURNS: base types, EDGE, vertex/base collections, and accumulators except GroupByAccum. */
function checkReturnType(cx: QueryContext, t: GType, range: AstExpr["range"]): void {
  const ok = t.kind === "error" || t.kind === "primitive" || t.kind === "vertex" || t.kind === "edge" || t.kind === "json" ||
    t.kind === "collection" || t.kind === "tuple" || (t.kind === "accum" && t.accum !== "GroupByAccum");
  if (!ok) cx.error("GSQL3039", range, { type: typeToString(t), use: "RETURNS" });
  void T;
}
