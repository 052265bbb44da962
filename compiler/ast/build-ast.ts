// The AST stage's entry point: buildAst(parsed, log) turns the parse tree of a whole text
// into our AST. Construct families are built by their own builders (expressions, types,
// statements, SELECT, DDL, loading, queries, shell); this file dispatches top-level
// statements. A statement that holds a syntax error (already reported by the parser) is
// left out, so later stages only ever see complete statements.
import type { ParserRuleContext } from "antlr4ng";
import * as P from "../parse/generated/GSQLParser.js";
import type { ParsedScript } from "../parse/parse.js";
import type { DiagnosticLog } from "../diagnostics/diagnostic-log.js";
import { BuildContext, containsSyntaxError } from "./build-context.js";
import { ExpressionBuilder } from "./build-expressions.js";
import { TypeBuilder } from "./build-types.js";
import { StatementBuilder } from "./build-statements.js";
import { SelectBuilder } from "./build-select.js";
import { DdlBuilder } from "./build-ddl.js";
import { LoadingBuilder } from "./build-loading.js";
import { QueryBuilder } from "./build-query.js";
import { ShellBuilder } from "./build-shell.js";
import type { AstExpr } from "./expressions.js";
import type { AstScript, AstTopStatement } from "./script.js";

export class AstBuilder extends BuildContext {
  readonly exprs = new ExpressionBuilder(this);
  readonly types = new TypeBuilder(this);
  readonly statements = new StatementBuilder(this);
  readonly selects = new SelectBuilder(this);
  readonly ddl = new DdlBuilder(this);
  readonly loading = new LoadingBuilder(this);
  readonly queries = new QueryBuilder(this);
  readonly shell = new ShellBuilder(this);

  /** `value [VertexType]`: an INSERT / LOAD value with an optional endpoint type. */
  typedValue(ctx: P.TypedValueContext): AstExpr {
    const value = this.exprs.expr(ctx.expr());
    const type = ctx.identifier();
    if (type === null) return value;
    return { kind: "TypedValue", value, vertexType: this.ident(type), range: this.range(ctx) };
  }

  constructor(parsed: ParsedScript, log: DiagnosticLog) {
    super(parsed.source, log);
    this.errorContexts = parsed.hasSyntaxErrors ? parsed.errorContexts : undefined;
  }

  private readonly errorContexts: ReadonlySet<ParserRuleContext> | undefined;

  topStatements(ctxs: P.TopStatementContext[]): AstTopStatement[] {
    const out: AstTopStatement[] = [];
    for (const ctx of ctxs) {
      const body = ctx.topStatementBody();
      if (body === null) continue;
      if (this.errorContexts !== undefined && containsSyntaxError(ctx, this.errorContexts)) continue;
      try {
        out.push(this.topStatement(body));
      } catch (error) {
        if (error instanceof RangeError) this.report("GSQL1010", body);
        else this.report("GSQL1099", body, { detail: error instanceof Error ? error.message : String(error) });
      }
    }
    return out;
  }

  private topStatement(ctx: P.TopStatementBodyContext): AstTopStatement {
    const child = ctx.getChild(0) as ParserRuleContext;
    if (child instanceof P.CreateQueryContext) return this.queries.createQuery(child);
    if (child instanceof P.InterpretAnonymousQueryContext) return this.queries.interpretAnonymous(child);
    if (child instanceof P.CreateVertexContext) return this.ddl.createVertex(child);
    if (child instanceof P.CreateEdgeContext) return this.ddl.createEdge(child);
    if (child instanceof P.CreateGraphContext) return this.ddl.createGraph(child);
    if (child instanceof P.TypedefTupleContext) return this.ddl.typedefTuple(child);
    if (child instanceof P.CreateSchemaChangeJobContext) return this.ddl.createSchemaChangeJob(child);
    if (child instanceof P.CreateLoadingJobContext) return this.loading.createLoadingJob(child);
    if (child instanceof P.DropStatementContext) return this.ddl.drop(child);
    if (child instanceof P.UseGraphContext) return { kind: "UseGraph", name: this.ident(child.identifier()), range: this.range(child) };
    if (child instanceof P.UseGlobalContext) return { kind: "UseGlobal", range: this.range(child) };
    if (child instanceof P.RunSchemaChangeJobContext) return this.ddl.runSchemaChangeJob(child);
    if (child instanceof P.RunLoadingJobContext) return this.loading.runLoadingJob(child);
    if (child instanceof P.InstallQueryContext) return this.shell.installQuery(child);
    if (child instanceof P.RunQueryContext || child instanceof P.InterpretQueryContext) return this.shell.runQuery(child);
    if (child instanceof P.ShowStatementContext) return this.shell.show(child);
    if (child instanceof P.LsStatementContext) return { kind: "Ls", range: this.range(child) };
    if (child instanceof P.SetStatementContext) return this.shell.set(child);
    if (child instanceof P.CreateSecretContext) return this.shell.createSecret(child);
    if (child instanceof P.CreateUserContext) return this.shell.createUser(child);
    if (child instanceof P.AlterPasswordContext) return this.shell.alterPassword(child);
    if (child instanceof P.AlterAclPasswordContext) return this.shell.alterAclPassword(child);
    if (child instanceof P.ChangeOwnerContext) return this.shell.changeOwner(child);
    if (child instanceof P.CreateRoleContext) return this.shell.createRole(child);
    if (child instanceof P.RoleGrantContext) return this.shell.roleGrant(child);
    if (child instanceof P.PrivilegeGrantContext) return this.shell.privilegeGrant(child);
    if (child instanceof P.AclGrantContext) return this.shell.aclGrant(child);
    if (child instanceof P.ClearGraphStoreContext) return this.shell.clearGraphStore(child);
    if (child instanceof P.LoadingJobControlContext) return this.shell.loadingJobControl(child);
    if (child instanceof P.HelpStatementContext) return this.shell.help(child);
    if (child instanceof P.ShellBlockContext) {
      return {
        kind: "ShellBlock", statements: this.topStatements(child.topStatement()), aborted: child.ABORT() !== null,
        range: this.range(child),
      };
    }
    throw new Error(`no AST for ${child.constructor.name}`);
  }
}

/** Builds the AST of a parsed text. Never throws; problems go to `log`. */
export function buildAst(parsed: ParsedScript, log: DiagnosticLog): AstScript {
  const builder = new AstBuilder(parsed, log);
  const statements = builder.topStatements(parsed.tree.topStatement());
  return { kind: "Script", statements, range: parsed.source.range(0, parsed.source.text.length) };
}
