// Builds CREATE QUERY and the anonymous INTERPRET QUERY: parameters, header clauses (in any
// order, each at most once), the body, and the statement's exact text for SHOW QUERY.
import * as P from "../parse/generated/GSQLParser.js";
import type { AstBuilder } from "./build-ast.js";
import type { AstCreateQuery, AstInterpretAnonymousQuery, AstParam, AstQueryDefinition } from "./query.js";

type Header = Omit<AstQueryDefinition, "kind" | "name" | "params" | "body" | "bodyRange" | "text" | "distributed" | "range">;

export class QueryBuilder {
  constructor(private readonly b: AstBuilder) {}

  createQuery(ctx: P.CreateQueryContext): AstCreateQuery {
    const body = ctx.queryBody();
    return {
      kind: "CreateQuery", orReplace: ctx.OR() !== null, name: this.b.ident(ctx.identifier()),
      params: ctx.paramList()?.param().map((p) => this.param(p)) ?? [], distributed: ctx.DISTRIBUTED() !== null,
      ...this.header(ctx.queryHeaderClause()),
      body: this.b.statements.queryStatements(body.queryStatement()), bodyRange: this.b.range(body),
      text: this.b.text(ctx), range: this.b.range(ctx),
    };
  }

  interpretAnonymous(ctx: P.InterpretAnonymousQueryContext): AstInterpretAnonymousQuery {
    const body = ctx.queryBody();
    return {
      kind: "InterpretAnonymousQuery", params: [], distributed: false, ...this.header(ctx.queryHeaderClause()),
      body: this.b.statements.queryStatements(body.queryStatement()), bodyRange: this.b.range(body),
      text: this.b.text(ctx), range: this.b.range(ctx),
    };
  }

  private param(ctx: P.ParamContext): AstParam {
    const node: AstParam = { kind: "Param", type: this.b.types.type(ctx.dataType()), name: this.b.ident(ctx.identifier()), range: this.b.range(ctx) };
    const value = ctx.expr();
    if (value !== null) node.default = this.b.exprs.expr(value);
    return node;
  }

  private header(clauses: P.QueryHeaderClauseContext[]): Header {
    const header: Header = {};
    const seen = new Set<string>();
    for (const clause of clauses) {
      const keyword = this.b.word(clause.getChild(0)!).toUpperCase();
      if (seen.has(keyword)) {
        this.b.report("GSQL1015", clause, { clause: keyword === "FOR" ? "FOR GRAPH" : keyword });
        continue;
      }
      seen.add(keyword);
      if (clause instanceof P.ForGraphClauseContext) {
        header.graph = this.b.ident(clause.identifier());
      } else if (clause instanceof P.ReturnsClauseContext) {
        header.returns = this.b.types.type(clause.dataType());
      } else if (clause instanceof P.ApiClauseContext) {
        header.api = this.b.stringLiteral(clause.STRING_LIT());
      } else if (clause instanceof P.SyntaxClauseContext) {
        const str = clause.STRING_LIT();
        const written = str !== null ? this.b.stringLiteral(str).value : this.b.word(clause.identifier()!);
        const version = written.toUpperCase();
        const node = clause.identifier() ?? clause.STRING_LIT()!;
        if (version !== "V1" && version !== "V2") this.b.report("GSQL1011", node, { version: written });
        header.syntax = { kind: "SyntaxVersion", version, range: this.b.range(node) };
      }
    }
    return header;
  }
}
