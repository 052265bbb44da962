// Builds SELECT blocks and FROM patterns. Edge patterns keep both spellings apart: the
// arrowhead outside the parentheses (`-(E)->`, V1) and direction marks inside (`E>`, `<E`, V2).
import * as P from "../parse/generated/GSQLParser.js";
import type { AstBuilder } from "./build-ast.js";
import type {
  AstEdgeSegment, AstEdgeTypeRef, AstLimit, AstPattern, AstPatternEdge, AstPatternTypeName, AstPatternVertex,
  AstOrderKey, AstPostAccumClause, AstRepeat, AstSample, AstSelect, AstSqlColumn, AstSqlSelect,
} from "./select.js";

export class SelectBuilder {
  constructor(private readonly b: AstBuilder) {}

  select(ctx: P.SelectBlockContext): AstSelect {
    const node: AstSelect = {
      kind: "Select", selected: this.b.ident(ctx.identifier()), distinct: ctx.DISTINCT() !== null,
      from: this.fromClause(ctx.fromClause()), postAccum: ctx.postAccumClause().map((c) => this.postAccum(c)),
      orderBy: [], range: this.b.range(ctx),
    };
    const exprs = ctx.expr();
    let next = 0;
    const sample = ctx.sampleClause();
    if (sample !== null) node.sample = this.sample(sample);
    if (ctx.WHERE() !== null) node.where = this.b.exprs.expr(exprs[next++]!);
    const accum = ctx.accumClause();
    if (accum !== null) {
      node.accum = {
        kind: "AccumClause", per: accum.nameList()?.identifier().map((id) => this.b.ident(id)) ?? [],
        body: this.b.statements.dmlList(accum.dmlList()), range: this.b.range(accum),
      };
    }
    if (ctx.HAVING() !== null) node.having = this.b.exprs.expr(exprs[next]!);
    const order = ctx.orderClause();
    if (order !== null) node.orderBy = this.orderKeys(order);
    const limit = ctx.limitClause();
    if (limit !== null) node.limit = this.limit(limit);
    return node;
  }

  sqlSelect(ctx: P.SqlSelectBlockContext): AstSqlSelect {
    const node: AstSqlSelect = {
      kind: "SqlSelect", distinct: ctx.DISTINCT() !== null,
      columns: ctx.sqlColumn().map((c) => {
        const column: AstSqlColumn = {
          kind: "SqlColumn", expr: this.b.exprs.expr(c.expr()), keyText: this.b.compactText(c.expr()), range: this.b.range(c),
        };
        const alias = c.identifier();
        if (alias !== null) column.alias = this.b.ident(alias);
        return column;
      }),
      into: this.b.ident(ctx.identifier()), from: this.fromClause(ctx.fromClause()),
      groupBy: this.b.exprs.args(ctx.args()), orderBy: [], range: this.b.range(ctx),
    };
    const exprs = ctx.expr();
    let next = 0;
    if (ctx.WHERE() !== null) node.where = this.b.exprs.expr(exprs[next++]!);
    if (ctx.HAVING() !== null) node.having = this.b.exprs.expr(exprs[next]!);
    const order = ctx.orderClause();
    if (order !== null) node.orderBy = this.orderKeys(order);
    const limit = ctx.limitClause();
    if (limit !== null) node.limit = this.limit(limit);
    return node;
  }

  private orderKeys(ctx: P.OrderClauseContext): AstOrderKey[] {
    return ctx.orderKey().map((key) => ({
      kind: "OrderKey", expr: this.b.exprs.expr(key.expr()), order: key.DESC() !== null ? "DESC" : "ASC",
      explicitOrder: key.ASC() !== null || key.DESC() !== null, range: this.b.range(key),
    }));
  }

  fromClause(ctx: P.FromClauseContext): AstPattern[] {
    return ctx.pattern().map((p) => this.pattern(p));
  }

  private pattern(ctx: P.PatternContext): AstPattern {
    return {
      kind: "Pattern", vertices: ctx.patternVertex().map((v) => this.vertex(v)), edges: ctx.patternEdge().map((e) => this.edge(e)),
      range: this.b.range(ctx),
    };
  }

  private vertex(ctx: P.PatternVertexContext): AstPatternVertex {
    const types = ctx.patternTypes();
    const node: AstPatternVertex = {
      kind: "PatternVertex", types: types === null ? [] : types.patternName().map((n) => this.patternName(n)), range: this.b.range(ctx),
    };
    const alias = ctx.identifier();
    if (alias !== null) node.alias = this.b.ident(alias);
    return node;
  }

  private patternName(ctx: P.PatternNameContext): AstPatternTypeName {
    const range = this.b.range(ctx);
    const id = ctx.identifier();
    if (id !== null) return this.b.ident(id);
    if (ctx.GLOBAL_ACCUM() !== null) return { kind: "AccumRef", scope: "global", name: this.b.word(ctx).slice(2), range };
    return { kind: "AnyType", spelling: ctx.ANY() !== null ? "ANY" : "_", range };
  }

  private edge(ctx: P.PatternEdgeContext): AstPatternEdge {
    const node: AstPatternEdge = {
      kind: "PatternEdge", arrow: ctx.ARROW() !== null ? "right" : "none",
      segments: ctx.edgeSegment().map((s) => this.segment(s)), range: this.b.range(ctx),
    };
    const alias = ctx.identifier();
    if (alias !== null) node.alias = this.b.ident(alias);
    return node;
  }

  private segment(ctx: P.EdgeSegmentContext): AstEdgeSegment {
    const node: AstEdgeSegment = {
      kind: "EdgeSegment", alternatives: ctx.edgeAtom().map((a) => this.edgeAtom(a)), parenthesized: ctx.LPAREN() !== null,
      range: this.b.range(ctx),
    };
    const repeat = ctx.repeat();
    if (repeat !== null) node.repeat = this.repeat(repeat);
    return node;
  }

  private edgeAtom(ctx: P.EdgeAtomContext): AstEdgeTypeRef {
    const name = this.patternName(ctx.patternName());
    const backward = ctx.LT() !== null;
    const forward = ctx.GT() !== null;
    if (backward && forward) {
      this.b.report("GSQL1019", ctx, { name: this.b.word(ctx.patternName()) });
    }
    return { kind: "EdgeTypeRef", name, direction: forward ? "forward" : backward ? "backward" : "none", range: this.b.range(ctx) };
  }

  private repeat(ctx: P.RepeatContext): AstRepeat {
    const node: AstRepeat = { kind: "Repeat", text: this.b.compactText(ctx), range: this.b.range(ctx) };
    const bounds = ctx.INT_LIT().map((t) => this.b.word(t));
    if (ctx.DOTDOT() === null) {
      if (bounds[0] !== undefined) node.lower = node.upper = bounds[0];
      return node;
    }
    // `*a..b`, `*..b`, `*a..`: which bound is present depends on the side of `..` it is on.
    const dots = ctx.DOTDOT()!.symbol.tokenIndex;
    for (const bound of ctx.INT_LIT()) {
      if (bound.symbol.tokenIndex < dots) node.lower = this.b.word(bound);
      else node.upper = this.b.word(bound);
    }
    return node;
  }

  private sample(ctx: P.SampleClauseContext): AstSample {
    const node: AstSample = {
      kind: "Sample", count: this.b.exprs.arith(ctx.arith()), percent: ctx.PERCENT() !== null,
      unit: ctx.EDGE() !== null ? "EDGE" : "TARGET", pinned: ctx.PINNED() !== null, range: this.b.range(ctx),
    };
    const when = ctx.expr();
    if (when !== null) node.when = this.b.exprs.expr(when);
    return node;
  }

  private postAccum(ctx: P.PostAccumClauseContext): AstPostAccumClause {
    const spelling = this.b.word(ctx.POST_ACCUM()).toUpperCase() === "POST_ACCUM" ? "POST_ACCUM" : "POST-ACCUM";
    const node: AstPostAccumClause = {
      kind: "PostAccumClause", spelling, body: this.b.statements.dmlList(ctx.dmlList()), range: this.b.range(ctx),
    };
    const alias = ctx.identifier();
    if (alias !== null) node.alias = this.b.ident(alias);
    return node;
  }

  private limit(ctx: P.LimitClauseContext): AstLimit {
    const [first, second] = ctx.expr().map((e) => this.b.exprs.expr(e));
    const range = this.b.range(ctx);
    if (second === undefined) return { kind: "Limit", count: first!, form: "count", range };
    if (ctx.OFFSET() !== null) return { kind: "Limit", count: first!, offset: second, form: "count-offset", range };
    return { kind: "Limit", count: second, offset: first!, form: "offset-comma-count", range };
  }
}
