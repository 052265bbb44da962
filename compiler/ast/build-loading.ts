// Builds loading-job nodes: DEFINE statements, LOAD with destinations and USING options,
// DELETE statements, and RUN LOADING JOB.
import * as P from "../parse/generated/GSQLParser.js";
import { GSQLParserVisitor } from "../parse/generated/GSQLParserVisitor.js";
import type { AstBuilder } from "./build-ast.js";
import type {
  AstCreateLoadingJob, AstLoadDeleteKey, AstLoadDestination, AstLoadingStatement, AstLoadSource, AstRunLoadingJob,
} from "./loading.js";
import type { AstOption } from "./ddl.js";

export class LoadingBuilder extends GSQLParserVisitor<AstLoadingStatement> {
  constructor(private readonly b: AstBuilder) {
    super();
  }

  createLoadingJob(ctx: P.CreateLoadingJobContext): AstCreateLoadingJob {
    const [name, graph] = ctx.identifier();
    const node: AstCreateLoadingJob = {
      kind: "CreateLoadingJob", name: this.b.ident(name!), statements: ctx.loadingStatement().map((s) => s.accept(this)!),
      range: this.b.range(ctx),
    };
    if (graph !== undefined) node.graph = this.b.ident(graph);
    return node;
  }

  override visitDefineFilename = (ctx: P.DefineFilenameContext): AstLoadingStatement => {
    const node: AstLoadingStatement = { kind: "DefineFilename", name: this.b.ident(ctx.identifier()), range: this.b.range(ctx) };
    const path = ctx.STRING_LIT();
    if (path !== null) node.path = this.b.stringLiteral(path);
    return node;
  };

  override visitDefineHeader = (ctx: P.DefineHeaderContext): AstLoadingStatement => ({
    kind: "DefineHeader", name: this.b.ident(ctx.identifier()), columns: ctx.STRING_LIT().map((s) => this.b.stringLiteral(s)),
    range: this.b.range(ctx),
  });

  override visitDefineInputLineFilter = (ctx: P.DefineInputLineFilterContext): AstLoadingStatement => ({
    kind: "DefineInputLineFilter", name: this.b.ident(ctx.identifier()), condition: this.b.exprs.expr(ctx.expr()),
    range: this.b.range(ctx),
  });

  override visitLoad = (ctx: P.LoadContext): AstLoadingStatement => ({
    kind: "Load", source: this.source(ctx.loadSource()), destinations: ctx.loadDestination().map((d) => this.destination(d)),
    using: this.using(ctx.usingClause()), range: this.b.range(ctx),
  });

  override visitLoadDelete = (ctx: P.LoadDeleteContext): AstLoadingStatement => {
    const typeName = ctx.identifier();
    const node: AstLoadingStatement = {
      kind: "LoadDelete", target: ctx.VERTEX() !== null ? "VERTEX" : "EDGE",
      typeName: typeName !== null ? this.b.ident(typeName) : { kind: "AllNames", spelling: "*", range: this.b.range(ctx.STAR()!) },
      keys: ctx.loadDeleteKey().map((k) => this.deleteKey(k)), source: this.source(ctx.loadSource()), range: this.b.range(ctx),
    };
    const where = ctx.expr();
    if (where !== null) node.where = this.b.exprs.expr(where);
    return node;
  };

  private deleteKey(ctx: P.LoadDeleteKeyContext): AstLoadDeleteKey {
    const key = this.b.word(ctx.getChild(0)!).toUpperCase() as AstLoadDeleteKey["key"];
    const range = this.b.range(ctx);
    const expr = ctx.expr();
    if (expr !== null) return { kind: "LoadDeleteKey", key, values: [this.b.exprs.expr(expr)], range };
    const typed = ctx.typedValue();
    if (typed !== null) return { kind: "LoadDeleteKey", key, values: [this.b.typedValue(typed)], range };
    return { kind: "LoadDeleteKey", key, values: this.b.exprs.args(ctx.args()), range };
  }

  private source(ctx: P.LoadSourceContext): AstLoadSource {
    const str = ctx.STRING_LIT();
    if (str !== null) return this.b.stringLiteral(str);
    const name = this.b.ident(ctx.identifier()!);
    return ctx.TEMP_TABLE() !== null ? { kind: "TempTableSource", name, range: this.b.range(ctx) } : name;
  }

  private destination(ctx: P.LoadDestinationContext): AstLoadDestination {
    const range = this.b.range(ctx);
    let node: AstLoadDestination;
    if (ctx instanceof P.LoadToTempTableContext) {
      node = {
        kind: "LoadToTempTable", name: this.b.ident(ctx.identifier()), columns: this.b.ddl.names(ctx.nameList()),
        values: this.values(ctx.loadValues()), range,
      };
    } else {
      const c = ctx as P.LoadToVertexContext | P.LoadToEdgeContext;
      node = {
        kind: ctx instanceof P.LoadToVertexContext ? "LoadToVertex" : "LoadToEdge", typeName: this.b.ident(c.identifier()),
        values: this.values(c.loadValues()), range,
      };
    }
    const where = (ctx as P.LoadToVertexContext).expr();
    if (where !== null) node.where = this.b.exprs.expr(where);
    return node;
  }

  private values(ctx: P.LoadValuesContext) {
    return ctx.typedValue().map((v) => this.b.typedValue(v));
  }

  using(ctx: P.UsingClauseContext | null): AstOption[] {
    return ctx === null ? [] : ctx.option().map((o) => this.b.ddl.option(o));
  }

  runLoadingJob(ctx: P.RunLoadingJobContext): AstRunLoadingJob {
    return {
      kind: "RunLoadingJob", flags: ctx.flag().map((f) => this.b.flag(f)), name: this.b.ident(ctx.identifier()),
      using: this.using(ctx.usingClause()), range: this.b.range(ctx),
    };
  }
}
