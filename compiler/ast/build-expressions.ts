// Builds expression nodes from the `expr` / `predicate` / `arith` / `primary` rules, and the
// statement-level `chain` (targets and calls). Literals keep their source text; a minus
// written directly before a number becomes part of the literal, as GSQL reads it.
import { TerminalNode } from "antlr4ng";
import * as P from "../parse/generated/GSQLParser.js";
import { GSQLParserVisitor } from "../parse/generated/GSQLParserVisitor.js";
import type { AstBuilder } from "./build-ast.js";
import type {
  AstBinaryOp, AstCall, AstCaseExprWhen, AstExpr, AstIntLiteral, AstRealLiteral,
} from "./expressions.js";
import type { SourceRange } from "./node.js";
import { spanRanges } from "../diagnostics/source-range.js";
import { unescapeString } from "./build-context.js";

const COMPARE_OPS: Record<string, AstBinaryOp> = { "==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">=" };

export class ExpressionBuilder extends GSQLParserVisitor<AstExpr> {
  constructor(private readonly b: AstBuilder) {
    super();
  }

  expr(ctx: P.ExprContext): AstExpr {
    return ctx.accept(this)!;
  }

  args(ctx: P.ArgsContext | null): AstExpr[] {
    return ctx === null ? [] : ctx.expr().map((e) => this.expr(e));
  }

  arith(ctx: P.ArithContext): AstExpr {
    return ctx.accept(this)!;
  }

  // --- expr -------------------------------------------------------------------------------

  override visitNotExpr = (ctx: P.NotExprContext): AstExpr =>
    ({ kind: "Unary", op: "NOT", operand: this.expr(ctx.expr()), range: this.b.range(ctx) });

  override visitAndExpr = (ctx: P.AndExprContext): AstExpr => this.binary(ctx, "AND", this.expr(ctx.expr(0)!), this.expr(ctx.expr(1)!));

  override visitOrExpr = (ctx: P.OrExprContext): AstExpr => this.binary(ctx, "OR", this.expr(ctx.expr(0)!), this.expr(ctx.expr(1)!));

  /** `arith` optionally followed by a comparison, IN, BETWEEN, LIKE or IS test. */
  override visitPredicateExpr = (ctx: P.PredicateExprContext): AstExpr => {
    const operands = ctx.arith().map((a) => this.arith(a));
    const value = operands[0]!;
    if (operands.length === 1 && ctx.IS() === null) return value;
    const range = this.b.range(ctx);
    const negated = ctx.NOT() !== null;
    const compare = ctx.compareOp();
    if (compare !== null) return { kind: "Binary", op: COMPARE_OPS[this.b.word(compare)]!, left: value, right: operands[1]!, range };
    if (ctx.IN() !== null) return { kind: "In", value, set: operands[1]!, negated, range };
    if (ctx.BETWEEN() !== null) return { kind: "Between", value, low: operands[1]!, high: operands[2]!, negated, range };
    if (ctx.LIKE() !== null) {
      const like: AstExpr = { kind: "Like", value, pattern: operands[1]!, negated, range };
      if (operands[2] !== undefined) like.escape = operands[2];
      return like;
    }
    const check = ctx.NULL() !== null ? "NULL" : ctx.NUMERIC() !== null ? "NUMERIC" : "EMPTY";
    return { kind: "IsCheck", value, check, negated, range };
  };

  // --- arith ------------------------------------------------------------------------------

  override visitMethodCallArith = (ctx: P.MethodCallArithContext): AstExpr => {
    const object = this.arith(ctx.arith());
    const method = this.b.ident(ctx.memberName());
    const args = this.args(ctx.args());
    const range = this.b.range(ctx);
    // RANGE[a, b].STEP(c) is one construct, not a method call on a range.
    if (object.kind === "Range" && object.step === undefined && method.name.toUpperCase() === "STEP" && args.length === 1) {
      return { ...object, step: args[0]!, range };
    }
    return { kind: "MethodCall", object, method, args, range };
  };

  override visitFieldArith = (ctx: P.FieldArithContext): AstExpr =>
    ({ kind: "FieldAccess", object: this.arith(ctx.arith()), field: this.b.ident(ctx.memberName()), range: this.b.range(ctx) });

  override visitAccumAccessArith = (ctx: P.AccumAccessArithContext): AstExpr => ({
    kind: "AccumAccess", object: this.arith(ctx.arith()), name: this.b.word(ctx.LOCAL_ACCUM()).slice(1),
    prime: ctx.PRIME() !== null, range: this.b.range(ctx),
  });

  override visitIndexArith = (ctx: P.IndexArithContext): AstExpr =>
    ({ kind: "Index", object: this.arith(ctx.arith()), index: this.expr(ctx.expr()), range: this.b.range(ctx) });

  override visitNegateArith = (ctx: P.NegateArithContext): AstExpr => {
    const operand = this.arith(ctx.arith());
    const range = this.b.range(ctx);
    return negateLiteral(operand, range) ?? { kind: "Unary", op: "-", operand, range };
  };

  override visitPowerArith = (ctx: P.PowerArithContext): AstExpr => this.arithBinary(ctx, "^");
  override visitMulArith = (ctx: P.MulArithContext): AstExpr => this.arithBinary(ctx, this.b.word(ctx.getChild(1)!) as AstBinaryOp);
  override visitAddArith = (ctx: P.AddArithContext): AstExpr => this.arithBinary(ctx, this.b.word(ctx.getChild(1)!) as AstBinaryOp);
  override visitBitAndArith = (ctx: P.BitAndArithContext): AstExpr => this.arithBinary(ctx, "&");
  override visitBitOrArith = (ctx: P.BitOrArithContext): AstExpr => this.arithBinary(ctx, "|");
  override visitSetArith = (ctx: P.SetArithContext): AstExpr =>
    this.arithBinary(ctx, this.b.word(ctx.getChild(1)!).toUpperCase() as AstBinaryOp);

  override visitShiftArith = (ctx: P.ShiftArithContext): AstExpr => {
    if (ctx.SHL() !== null) return this.arithBinary(ctx, "<<");
    const [first, second] = ctx.GT();
    if (first && second && second.symbol.start !== first.symbol.stop + 1) {
      this.b.report("GSQL1012", this.b.span(first, second), { operator: ">>" });
    }
    return this.arithBinary(ctx, ">>");
  };

  private arithBinary(ctx: P.ArithContext & { arith(): P.ArithContext[] }, op: AstBinaryOp): AstExpr {
    const [left, right] = ctx.arith();
    return this.binary(ctx, op, this.arith(left!), this.arith(right!));
  }

  private binary(ctx: P.ArithContext | P.ExprContext, op: AstBinaryOp, left: AstExpr, right: AstExpr): AstExpr {
    return { kind: "Binary", op, left, right, range: this.b.range(ctx) };
  }

  // --- leaves -------------------------------------------------------------------------------

  override visitIntLiteral = (ctx: P.IntLiteralContext): AstExpr => ({ kind: "IntLiteral", text: this.b.word(ctx), range: this.b.range(ctx) });
  override visitRealLiteral = (ctx: P.RealLiteralContext): AstExpr => ({ kind: "RealLiteral", text: this.b.word(ctx), range: this.b.range(ctx) });
  override visitStringLiteral = (ctx: P.StringLiteralContext): AstExpr => this.b.stringLiteral(ctx.STRING_LIT());
  override visitBoolLiteral = (ctx: P.BoolLiteralContext): AstExpr =>
    ({ kind: "BoolLiteral", value: ctx.TRUE() !== null, range: this.b.range(ctx) });
  override visitNamedConstant = (ctx: P.NamedConstantContext): AstExpr => ({
    kind: "NamedConstant", name: this.b.word(ctx).toUpperCase() as "GSQL_INT_MAX" | "GSQL_INT_MIN" | "GSQL_UINT_MAX",
    range: this.b.range(ctx),
  });
  override visitUnderscore = (ctx: P.UnderscoreContext): AstExpr => ({ kind: "Underscore", range: this.b.range(ctx) });
  override visitAnyType = (ctx: P.AnyTypeContext): AstExpr => ({ kind: "AnyType", spelling: "ANY", range: this.b.range(ctx) });
  override visitGlobalAccum = (ctx: P.GlobalAccumContext): AstExpr =>
    ({ kind: "AccumRef", scope: "global", name: this.b.word(ctx).slice(2), range: this.b.range(ctx) });
  override visitLocalAccum = (ctx: P.LocalAccumContext): AstExpr =>
    ({ kind: "AccumRef", scope: "vertex", name: this.b.word(ctx).slice(1), range: this.b.range(ctx) });
  override visitTypeStar = (ctx: P.TypeStarContext): AstExpr =>
    ({ kind: "TypeStar", typeName: this.b.ident(ctx.identifier()), range: this.b.range(ctx) });
  override visitName = (ctx: P.NameContext): AstExpr => this.b.ident(ctx.identifier());

  override visitCall = (ctx: P.CallContext): AstExpr => {
    const name = ctx.functionName();
    const call: AstCall = {
      kind: "Call", callee: this.b.ident(name), args: this.args(ctx.args()),
      keyword: name.identifier() === null, distinct: ctx.DISTINCT() !== null, range: this.b.range(ctx),
      ...(ctx.STAR() !== null ? { star: true } : {}),
    };
    return reduceFromCall(call) ?? call;
  };

  override visitTrim = (ctx: P.TrimContext): AstExpr => {
    const operands = ctx.arith().map((a) => this.arith(a));
    const side = ctx.LEADING() ? "LEADING" : ctx.TRAILING() ? "TRAILING" : ctx.BOTH() ? "BOTH" : undefined;
    const trim: AstExpr = { kind: "Trim", value: operands[operands.length - 1]!, range: this.b.range(ctx) };
    if (side !== undefined) trim.side = side;
    if (operands.length === 2) trim.chars = operands[0]!;
    return trim;
  };

  override visitRange = (ctx: P.RangeContext): AstExpr =>
    ({ kind: "Range", from: this.expr(ctx.expr(0)!), to: this.expr(ctx.expr(1)!), range: this.b.range(ctx) });

  override visitInterval = (ctx: P.IntervalContext): AstExpr => ({
    kind: "Interval", value: this.arith(ctx.arith()), unit: this.b.word(ctx.identifier()).toUpperCase(), range: this.b.range(ctx),
  });

  override visitParenthesized = (ctx: P.ParenthesizedContext): AstExpr => {
    const [first, second] = ctx.args();
    const keys = this.args(first!);
    const range = this.b.range(ctx);
    if (ctx.ARROW() !== null) return { kind: "KeyValue", keys, values: this.args(second!), range };
    if (keys.length === 1) return keys[0]!;
    return { kind: "ParenList", items: keys, range };
  };

  override visitListLiteral = (ctx: P.ListLiteralContext): AstExpr =>
    ({ kind: "ListLiteral", items: this.args(ctx.args()), range: this.b.range(ctx) });

  override visitSeedSet = (ctx: P.SeedSetContext): AstExpr => {
    // In a seed `_` means every vertex, like ANY.
    const items = this.args(ctx.args()).map((item): AstExpr =>
      item.kind === "Underscore" ? { kind: "AnyType", spelling: "_", range: item.range } : item);
    return { kind: "SeedSet", items, range: this.b.range(ctx) };
  };

  override visitCaseExpr = (ctx: P.CaseExprContext): AstExpr => {
    const whens: AstCaseExprWhen[] = [];
    let subject: AstExpr | undefined;
    let otherwise: AstExpr | undefined;
    const children = ctx.children;
    for (let i = 1; i < children.length; i++) {
      const child = children[i]!;
      if (child instanceof P.ExprContext && i === 1) {
        subject = this.expr(child);
      } else if (child instanceof TerminalNode && child.symbol.type === P.GSQLParser.WHEN) {
        const when = children[i + 1] as P.ExprContext;
        const then = children[i + 3] as P.ExprContext;
        whens.push({ kind: "CaseExprWhen", when: this.expr(when), then: this.expr(then), range: this.b.span(child, then) });
        i += 3;
      } else if (child instanceof TerminalNode && child.symbol.type === P.GSQLParser.ELSE) {
        otherwise = this.expr(children[i + 1] as P.ExprContext);
        i += 1;
      }
    }
    const node: AstExpr = { kind: "CaseExpr", whens, range: this.b.range(ctx) };
    if (subject !== undefined) node.subject = subject;
    if (otherwise !== undefined) node.otherwise = otherwise;
    return node;
  };

  override visitColumnPosition = (ctx: P.ColumnPositionContext): AstExpr =>
    ({ kind: "ColumnRef", position: this.b.word(ctx).slice(1), range: this.b.range(ctx) });

  override visitColumnName = (ctx: P.ColumnNameContext): AstExpr => {
    const first = unescapeString(this.b.word(ctx.COLUMN_NAME()).slice(1));
    const path = [first, ...ctx.STRING_LIT().map((s) => this.b.stringLiteral(s).value)];
    return { kind: "ColumnRef", path, range: this.b.range(ctx) };
  };

  override visitColumnSys = (ctx: P.ColumnSysContext): AstExpr => {
    const [scope, name] = ctx.identifier();
    if (this.b.word(scope!) !== "sys") this.b.report("GSQL1020", ctx, { text: this.b.compactText(ctx) });
    return { kind: "ColumnRef", sys: this.b.word(name!), range: this.b.range(ctx) };
  };

  // --- chains (statement targets and call statements) --------------------------------------

  chain(ctx: P.ChainContext): AstExpr {
    const head = ctx.chainHead();
    let current: AstExpr;
    const headRange = this.b.range(head);
    const id = head.identifier();
    if (id !== null) {
      current = this.b.ident(id);
      if (head.LPAREN() !== null) {
        current = { kind: "Call", callee: current, args: this.args(head.args()), keyword: false, distinct: false, range: headRange };
      }
    } else if (head.GLOBAL_ACCUM() !== null) {
      current = { kind: "AccumRef", scope: "global", name: this.b.word(head).slice(2), range: headRange };
    } else {
      current = { kind: "AccumRef", scope: "vertex", name: this.b.word(head).slice(1), range: headRange };
    }
    for (const part of ctx.chainPart()) {
      const range = spanRanges(headRange, this.b.range(part));
      const member = part.memberName();
      if (member !== null) {
        const method = this.b.ident(member);
        current = part.LPAREN() !== null
          ? { kind: "MethodCall", object: current, method, args: this.args(part.args()), range }
          : { kind: "FieldAccess", object: current, field: method, range };
      } else if (part.LOCAL_ACCUM() !== null) {
        current = { kind: "AccumAccess", object: current, name: this.b.word(part.LOCAL_ACCUM()!).slice(1), prime: part.PRIME() !== null, range };
      } else {
        current = { kind: "Index", object: current, index: this.expr(part.expr()!), range };
      }
    }
    return current;
  }
}

/** `-5` → IntLiteral "-5" (GSQL reads a leading minus as part of the number). */
function negateLiteral(operand: AstExpr, range: SourceRange): AstIntLiteral | AstRealLiteral | undefined {
  if ((operand.kind === "IntLiteral" || operand.kind === "RealLiteral") && !operand.text.startsWith("-")) {
    return { kind: operand.kind, text: "-" + operand.text, range } as AstIntLiteral | AstRealLiteral;
  }
  return undefined;
}

/** `REDUCE(add($1))` in loading VALUES: a reducer applied to a value. */
function reduceFromCall(call: AstCall): AstExpr | undefined {
  if (call.keyword || call.callee.name.toUpperCase() !== "REDUCE" || call.args.length !== 1) return undefined;
  const inner = call.args[0]!;
  if (inner.kind !== "Call" || inner.args.length !== 1) return undefined;
  return { kind: "Reduce", reducer: inner.callee, value: inner.args[0]!, range: call.range };
}
