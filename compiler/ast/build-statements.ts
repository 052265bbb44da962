// Builds statement nodes at both levels: query-body statements (ended by `;`) and DML-level
// statements (inside ACCUM / POST-ACCUM / UPDATE SET, separated by `,`). Both levels share
// node kinds; the helpers below take the body of a branch as a list of parse-tree children
// so IF / CASE / WHILE / FOREACH are built once for both.
import { TerminalNode, type ParseTree } from "antlr4ng";
import * as P from "../parse/generated/GSQLParser.js";
import { GSQLParserVisitor } from "../parse/generated/GSQLParserVisitor.js";
import type { AstBuilder } from "./build-ast.js";
import type { AstExpr } from "./expressions.js";
import type { AstIdent } from "./node.js";
import type { AstPatternTypeName } from "./select.js";
import type {
  AstAccumDeclVar, AstCaseWhen, AstExceptionHandler, AstIfBranch, AstInsert, AstPrintItem, AstStatement,
} from "./statements.js";

const { GSQLParser: T } = P;

function isToken(node: ParseTree | undefined, type: number): node is TerminalNode {
  return node instanceof TerminalNode && node.symbol.type === type;
}

export class StatementBuilder extends GSQLParserVisitor<AstStatement | null> {
  constructor(private readonly b: AstBuilder) {
    super();
  }

  /** Query-body statements, dropping those that could not be built (already reported). */
  queryStatements(ctxs: P.QueryStatementContext[]): AstStatement[] {
    const out: AstStatement[] = [];
    for (const ctx of ctxs) {
      const built = ctx.accept(this);
      if (built) out.push(built);
    }
    return out;
  }

  dmlList(ctx: P.DmlListContext): AstStatement[] {
    const out: AstStatement[] = [];
    for (const stmt of ctx.dmlStatement()) {
      const built = stmt.accept(this);
      if (built) out.push(built);
    }
    return out;
  }

  /** The statements among `nodes`, whichever level they are (statement contexts or a dmlList). */
  private body(nodes: ParseTree[]): AstStatement[] {
    const out: AstStatement[] = [];
    for (const node of nodes) {
      if (node instanceof P.QueryStatementContext) {
        const built = node.accept(this);
        if (built) out.push(built);
      } else if (node instanceof P.DmlListContext) {
        out.push(...this.dmlList(node));
      }
    }
    return out;
  }

  // --- declarations ---------------------------------------------------------------------

  override visitTypedefStatement = (ctx: P.TypedefStatementContext): AstStatement => ({
    kind: "TypedefTuple", name: this.b.ident(ctx.identifier()),
    fields: ctx.tupleField().map((f) => this.b.types.tupleField(f)), range: this.b.range(ctx),
  });

  override visitAccumDeclStatement = (ctx: P.AccumDeclStatementContext): AstStatement => ({
    kind: "AccumDecl", static: ctx.STATIC() !== null, type: this.b.types.accumType(ctx.accumType()),
    vars: ctx.accumDeclVar().map((v) => this.accumDeclVar(v)), range: this.b.range(ctx),
  });

  private accumDeclVar(ctx: P.AccumDeclVarContext): AstAccumDeclVar {
    const global = ctx.GLOBAL_ACCUM();
    const token = this.b.word((global ?? ctx.LOCAL_ACCUM())!);
    const node: AstAccumDeclVar = {
      kind: "AccumDeclVar", scope: global ? "global" : "vertex", name: token.slice(global ? 2 : 1),
      dims: ctx.arrayDim().map((d) => (d.expr() === null ? null : this.b.exprs.expr(d.expr()!))), range: this.b.range(ctx),
    };
    const init = ctx.expr();
    if (init !== null) node.init = this.b.exprs.expr(init);
    return node;
  }

  override visitFileDeclStatement = (ctx: P.FileDeclStatementContext): AstStatement =>
    ({ kind: "FileDecl", name: this.b.ident(ctx.identifier()), path: this.b.exprs.expr(ctx.expr()), range: this.b.range(ctx) });

  override visitExceptionDeclStatement = (ctx: P.ExceptionDeclStatementContext): AstStatement =>
    ({ kind: "ExceptionDecl", name: this.b.ident(ctx.identifier()), code: this.b.exprs.expr(ctx.expr()), range: this.b.range(ctx) });

  override visitVarDeclStatement = (ctx: P.VarDeclStatementContext): AstStatement => ({
    kind: "VarDecl", type: this.b.types.declType(ctx.declType()),
    vars: ctx.varDeclItem().map((item) => {
      const init = item.expr();
      const node = { kind: "VarDeclItem" as const, name: this.b.ident(item.identifier()), range: this.b.range(item) };
      return init === null ? node : { ...node, init: this.b.exprs.expr(init) };
    }),
    range: this.b.range(ctx),
  });

  override visitDmlVarDecl = (ctx: P.DmlVarDeclContext): AstStatement => {
    const name = this.b.ident(ctx.identifier());
    const init = this.b.exprs.expr(ctx.expr());
    return {
      kind: "VarDecl", type: this.b.types.declType(ctx.declType()),
      vars: [{ kind: "VarDeclItem", name, init, range: { ...name.range, end: init.range.end } }], range: this.b.range(ctx),
    };
  };

  // --- assignments and calls ------------------------------------------------------------

  override visitChainStatement = (ctx: P.ChainStatementContext): AstStatement | null =>
    this.chainStatement(ctx, ctx.chain(), ctx.assignOp(), ctx.selectBlock() ?? ctx.expr());

  override visitDmlChain = (ctx: P.DmlChainContext): AstStatement | null =>
    this.chainStatement(ctx, ctx.chain(), ctx.assignOp(), ctx.expr());

  private chainStatement(ctx: P.QueryStatementContext | P.DmlStatementContext, chainCtx: P.ChainContext,
    opCtx: P.AssignOpContext | null, valueCtx: P.ExprContext | P.SelectBlockContext | null): AstStatement | null {
    const target = this.b.exprs.chain(chainCtx);
    const range = this.b.range(ctx);
    if (opCtx === null || valueCtx === null) {
      if (target.kind === "Call" && target.callee.name.toUpperCase() === "LOG") return { kind: "Log", args: target.args, range };
      if (target.kind !== "Call" && target.kind !== "MethodCall") {
        this.b.report("GSQL1014", chainCtx);
        return null;
      }
      return { kind: "ExprStatement", expr: target, range };
    }
    const op = this.b.word(opCtx) === "+=" ? "+=" : "=";
    const value = valueCtx instanceof P.SelectBlockContext ? this.b.selects.select(valueCtx) : this.b.exprs.expr(valueCtx);
    if (target.kind === "Call" && op === "=") {
      // `S (T) = ...` reads like an assignment to a call: it declares vertex-set variable S of type T.
      const types = vertexSetTypes(target.args);
      if (types !== undefined) return { kind: "VertexSetDecl", name: target.callee, types, value, range };
    }
    const assignable = target.kind === "Ident" || target.kind === "AccumRef" || target.kind === "FieldAccess"
      || target.kind === "Index" || (target.kind === "AccumAccess" && !target.prime);
    if (!assignable) {
      this.b.report("GSQL1016", chainCtx);
      return null;
    }
    return { kind: "Assign", target, op, value, range };
  }

  // --- control flow ---------------------------------------------------------------------

  override visitIfStatement = (ctx: P.IfStatementContext): AstStatement => this.ifStatement(ctx);
  override visitDmlIf = (ctx: P.DmlIfContext): AstStatement => this.ifStatement(ctx);

  /** IF c THEN body (ELSE IF c THEN body)* (ELSE body)? END, at either level (chained IFs are CHAIN_IF tokens). */
  private ifStatement(ctx: P.QueryStatementContext | P.DmlStatementContext): AstStatement {
    const children = ctx.children;
    const branches: AstIfBranch[] = [];
    let otherwise: ParseTree[] | undefined;
    let current: { start: ParseTree; cond: P.ExprContext; nodes: ParseTree[] } | undefined;
    const close = (end: ParseTree) => {
      if (current) {
        branches.push({
          kind: "IfBranch", condition: this.b.exprs.expr(current.cond), body: this.body(current.nodes),
          range: this.b.span(current.start, end),
        });
      }
      current = undefined;
    };
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (isToken(child, T.IF) || isToken(child, T.CHAIN_IF)) {
        close(children[i - 1] ?? child);
        const start = isToken(children[i - 1], T.ELSE) ? children[i - 1]! : child;
        current = { start, cond: children[i + 1] as P.ExprContext, nodes: [] };
        i += 2; // condition and THEN
      } else if (isToken(child, T.ELSE) && !isToken(children[i + 1], T.CHAIN_IF)) {
        close(children[i - 1]!);
        otherwise = [];
      } else if (isToken(child, T.END)) {
        close(children[i - 1]!);
        break;
      } else if (otherwise !== undefined) {
        otherwise.push(child);
      } else if (current !== undefined) {
        current.nodes.push(child);
      }
    }
    const node: AstStatement = { kind: "If", branches, range: this.b.range(ctx) };
    if (otherwise !== undefined) node.otherwise = this.body(otherwise);
    return node;
  }

  override visitCaseStatement = (ctx: P.CaseStatementContext): AstStatement => this.caseStatement(ctx);
  override visitDmlCase = (ctx: P.DmlCaseContext): AstStatement => this.caseStatement(ctx);

  private caseStatement(ctx: P.QueryStatementContext | P.DmlStatementContext): AstStatement {
    const children = ctx.children;
    const whens: AstCaseWhen[] = [];
    let subject: AstExpr | undefined;
    let otherwise: ParseTree[] | undefined;
    let current: { start: ParseTree; when: P.ExprContext; nodes: ParseTree[] } | undefined;
    const close = (end: ParseTree) => {
      if (current) {
        whens.push({
          kind: "CaseWhen", when: this.b.exprs.expr(current.when), body: this.body(current.nodes),
          range: this.b.span(current.start, end),
        });
      }
      current = undefined;
    };
    for (let i = 1; i < children.length; i++) {
      const child = children[i]!;
      if (i === 1 && child instanceof P.ExprContext) {
        subject = this.b.exprs.expr(child);
      } else if (isToken(child, T.WHEN)) {
        close(children[i - 1]!);
        current = { start: child, when: children[i + 1] as P.ExprContext, nodes: [] };
        i += 2;
      } else if (isToken(child, T.ELSE)) {
        close(children[i - 1]!);
        otherwise = [];
      } else if (isToken(child, T.END)) {
        close(children[i - 1]!);
        break;
      } else if (otherwise !== undefined) {
        otherwise.push(child);
      } else if (current !== undefined) {
        current.nodes.push(child);
      }
    }
    const node: AstStatement = { kind: "CaseStatement", whens, range: this.b.range(ctx) };
    if (subject !== undefined) node.subject = subject;
    if (otherwise !== undefined) node.otherwise = this.body(otherwise);
    return node;
  }

  override visitWhileStatement = (ctx: P.WhileStatementContext): AstStatement =>
    this.whileStatement(ctx, ctx.expr(), ctx.queryStatement());

  override visitDmlWhile = (ctx: P.DmlWhileContext): AstStatement => this.whileStatement(ctx, ctx.expr(), [ctx.dmlList()]);

  private whileStatement(ctx: P.QueryStatementContext | P.DmlStatementContext, exprs: P.ExprContext[], body: ParseTree[]): AstStatement {
    const node: AstStatement = { kind: "While", condition: this.b.exprs.expr(exprs[0]!), body: this.body(body), range: this.b.range(ctx) };
    if (exprs[1] !== undefined) node.limit = this.b.exprs.expr(exprs[1]);
    return node;
  }

  override visitForeachStatement = (ctx: P.ForeachStatementContext): AstStatement =>
    this.foreach(ctx, ctx.foreachHead(), ctx.queryStatement());

  override visitDmlForeach = (ctx: P.DmlForeachContext): AstStatement => this.foreach(ctx, ctx.foreachHead(), [ctx.dmlList()]);

  private foreach(ctx: P.QueryStatementContext | P.DmlStatementContext, head: P.ForeachHeadContext, body: ParseTree[]): AstStatement {
    return {
      kind: "Foreach", vars: head.identifier().map((id) => this.b.ident(id)), parenthesized: head.LPAREN() !== null,
      iterable: this.b.exprs.expr(head.expr()), body: this.body(body), range: this.b.range(ctx),
    };
  }

  override visitBreakStatement = (ctx: P.BreakStatementContext): AstStatement => ({ kind: "Break", range: this.b.range(ctx) });
  override visitDmlBreak = (ctx: P.DmlBreakContext): AstStatement => ({ kind: "Break", range: this.b.range(ctx) });
  override visitContinueStatement = (ctx: P.ContinueStatementContext): AstStatement => ({ kind: "Continue", range: this.b.range(ctx) });
  override visitDmlContinue = (ctx: P.DmlContinueContext): AstStatement => ({ kind: "Continue", range: this.b.range(ctx) });

  // --- data modification ----------------------------------------------------------------

  override visitUpdateStatement = (ctx: P.UpdateStatementContext): AstStatement => {
    const node: AstStatement = {
      kind: "Update", alias: this.b.ident(ctx.identifier()), from: this.b.selects.fromClause(ctx.fromClause()),
      set: this.dmlList(ctx.dmlList()), range: this.b.range(ctx),
    };
    const where = ctx.expr();
    if (where !== null) node.where = this.b.exprs.expr(where);
    return node;
  };

  override visitDeleteFromStatement = (ctx: P.DeleteFromStatementContext): AstStatement => {
    const node: AstStatement = {
      kind: "DeleteFrom", alias: this.b.ident(ctx.identifier()), from: this.b.selects.fromClause(ctx.fromClause()),
      range: this.b.range(ctx),
    };
    const where = ctx.expr();
    if (where !== null) node.where = this.b.exprs.expr(where);
    return node;
  };

  override visitDmlDelete = (ctx: P.DmlDeleteContext): AstStatement =>
    ({ kind: "Delete", target: this.b.exprs.expr(ctx.expr()), range: this.b.range(ctx) });

  override visitInsertQueryStatement = (ctx: P.InsertQueryStatementContext): AstStatement =>
    this.insert(ctx.insertStatement(), ctx);

  override visitDmlInsert = (ctx: P.DmlInsertContext): AstStatement => this.insert(ctx.insertStatement(), ctx);

  private insert(ctx: P.InsertStatementContext, whole: P.QueryStatementContext | P.DmlStatementContext): AstInsert {
    const node: AstInsert = {
      kind: "Insert", target: this.b.ident(ctx.identifier()), values: ctx.typedValue().map((v) => this.b.typedValue(v)),
      range: this.b.range(whole),
    };
    const kindToken = ctx.VERTEX() ?? ctx.EDGE();
    if (kindToken !== null) node.targetKind = this.b.word(kindToken).toUpperCase() as "VERTEX" | "EDGE";
    const columns = ctx.insertColumn();
    if (columns.length > 0) {
      node.columns = columns.map((c): AstIdent => {
        const id = c.identifier();
        return id !== null ? this.b.ident(id) : { kind: "Ident", name: this.b.word(c).toUpperCase(), range: this.b.range(c) };
      });
    }
    return node;
  }

  // --- output, exceptions, SELECT --------------------------------------------------------

  override visitPrintStatement = (ctx: P.PrintStatementContext): AstStatement => this.print(ctx);

  override visitDmlPrint = (ctx: P.DmlPrintContext): AstStatement => this.print(ctx);

  private print(ctx: P.PrintStatementContext | P.DmlPrintContext): AstStatement {
    const node: AstStatement = { kind: "Print", items: ctx.printItem().map((i) => this.printItem(i)), range: this.b.range(ctx) };
    const exprs = ctx.expr();
    let next = 0;
    if (ctx.WHERE() !== null) node.where = this.b.exprs.expr(exprs[next++]!);
    if (ctx.TO_CSV() !== null) node.toCsv = this.b.exprs.expr(exprs[next]!);
    return node;
  }

  printItem(ctx: P.PrintItemContext): AstPrintItem {
    const range = this.b.range(ctx);
    if (ctx instanceof P.VertexSetProjectionContext) {
      const set = ctx.identifier(0)!;
      const alias = ctx.identifier(1);
      const close = ctx.RBRACK();
      const exprRange = this.b.span(set, close);
      const item: AstPrintItem = {
        kind: "PrintItem",
        expr: { kind: "VertexSetProjection", set: this.b.ident(set), items: ctx.printItem().map((i) => this.printItem(i)), range: exprRange },
        text: this.b.source.slice(exprRange.start.offset, exprRange.end.offset),
        keyText: compactUpTo(ctx, close),
        range,
      };
      if (alias !== null) item.alias = this.b.ident(alias);
      return item;
    }
    const printExpr = ctx as P.PrintExprContext;
    const exprCtx = printExpr.expr();
    const item: AstPrintItem = {
      kind: "PrintItem", expr: this.b.exprs.expr(exprCtx), text: this.b.text(exprCtx), keyText: this.b.compactText(exprCtx), range,
    };
    const alias = printExpr.identifier();
    if (alias !== null) item.alias = this.b.ident(alias);
    return item;
  }

  override visitReturnStatement = (ctx: P.ReturnStatementContext): AstStatement => this.returnStatement(ctx);

  override visitDmlReturn = (ctx: P.DmlReturnContext): AstStatement => this.returnStatement(ctx);

  private returnStatement(ctx: P.ReturnStatementContext | P.DmlReturnContext): AstStatement {
    const value = ctx.expr();
    return value === null ? { kind: "Return", range: this.b.range(ctx) }
      : { kind: "Return", value: this.b.exprs.expr(value), range: this.b.range(ctx) };
  }

  override visitRaiseStatement = (ctx: P.RaiseStatementContext): AstStatement => this.raise(ctx);

  override visitDmlRaise = (ctx: P.DmlRaiseContext): AstStatement => this.raise(ctx);

  private raise(ctx: P.RaiseStatementContext | P.DmlRaiseContext): AstStatement {
    return { kind: "Raise", name: this.b.ident(ctx.identifier()), args: this.b.exprs.args(ctx.args()), range: this.b.range(ctx) };
  }

  override visitTryStatement = (ctx: P.TryStatementContext): AstStatement => {
    const children = ctx.children;
    const body: ParseTree[] = [];
    const otherwise: ParseTree[] = [];
    let inElse = false;
    for (const child of children) {
      if (isToken(child, T.ELSE)) inElse = true;
      else if (child instanceof P.QueryStatementContext) (inElse ? otherwise : body).push(child);
    }
    const handlers: AstExceptionHandler[] = ctx.exceptionHandler().map((h) => ({
      kind: "ExceptionHandler", name: this.b.ident(h.identifier()), body: this.queryStatements(h.queryStatement()), range: this.b.range(h),
    }));
    const node: AstStatement = { kind: "Try", body: this.body(body), handlers, range: this.b.range(ctx) };
    if (inElse) node.otherwise = this.body(otherwise);
    return node;
  };

  override visitSqlSelectStatement = (ctx: P.SqlSelectStatementContext): AstStatement => this.b.selects.sqlSelect(ctx.sqlSelectBlock());

  override visitSelectStatement = (ctx: P.SelectStatementContext): AstStatement =>
    ({ kind: "ExprStatement", expr: this.b.selects.select(ctx.selectBlock()), range: this.b.range(ctx) });
}

/** The tokens of `ctx` up to and including `end`, joined: a projection's text without its AS part. */
function compactUpTo(ctx: P.VertexSetProjectionContext, end: TerminalNode): string {
  const parts: string[] = [];
  const collect = (node: ParseTree): boolean => {
    if (node instanceof TerminalNode) {
      parts.push(node.getText());
      return node === end;
    }
    for (let i = 0; i < node.getChildCount(); i++) if (collect(node.getChild(i)!)) return true;
    return false;
  };
  collect(ctx);
  return parts.join("");
}

/** The types of `S (T) = ...` / `S (ANY) = ...` / `S (A|B) = ...` when the arguments read as types. */
function vertexSetTypes(args: AstExpr[]): AstPatternTypeName[] | undefined {
  if (args.length !== 1) return undefined;
  const out: AstPatternTypeName[] = [];
  const collect = (e: AstExpr): boolean => {
    if (e.kind === "Ident" || e.kind === "AnyType") {
      out.push(e);
      return true;
    }
    if (e.kind === "Underscore") {
      out.push({ kind: "AnyType", spelling: "_", range: e.range });
      return true;
    }
    if (e.kind === "Binary" && e.op === "|") return collect(e.left) && collect(e.right);
    return false;
  };
  return collect(args[0]!) ? out : undefined;
}
