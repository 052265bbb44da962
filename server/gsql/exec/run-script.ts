// The executor's entry: runs GSQL text against the catalog and engine with the shell's
// output. A file (or `gsql 'text'`) is parsed whole and its statements run in order with
// output streamed; a syntax error stops it after the statements before it have run; a
// semantic or runtime error stops it while `exit_on_error` is true. An interactive command
// is one request of the same form. The result is the return code and the session after it.
import type { AstTopStatement } from "../../../compiler/ast/index.js";
import type { Diagnostic } from "../../../compiler/diagnostics/index.js";
import { cookieOfSession, copySession, type Session } from "../session.js";
import type { ShellOutput } from "../shell-output.js";
import { RETURN_CODES, type ExecServices, type Outcome, type StatementContext } from "./context.js";
import { dispatchStatement } from "./dispatch.js";
import { printSyntaxErrors } from "./diagnostic-text.js";
import type { Principal } from "../../auth/access.js";

export interface GsqlRequest {
  text: string;
  mode: "file" | "interactive";
  session: Session;
  /** Name of the text in messages ("file.gsql"; default "gsql"). */
  file?: string;
  /** Who sends the text (server/auth); absent for the server's own scripts. */
  principal?: Principal;
}

export interface GsqlResult {
  returnCode: number;
  session: Session;
}

export async function runGsql(request: GsqlRequest, services: ExecServices, out: ShellOutput): Promise<GsqlResult> {
  const session = copySession(request.session);
  const ctx: StatementContext = {
    services,
    out,
    session,
    sessionChanged: () => out.cookie(cookieOfSession(session)),
    source: request.text,
    mode: request.mode,
    exitOnError: true,
  };
  if (request.principal) ctx.principal = request.principal;
  const parsed = services.parse(request.text, request.file ?? "gsql");
  const syntaxErrors = parsed.diagnostics.filter((d) => d.severity === "error");
  const firstError = syntaxErrors.reduce<Diagnostic | undefined>((a, d) => (a === undefined || d.range.start.offset < a.range.start.offset ? d : a), undefined);
  const stopAt = firstError?.range.start.offset ?? Infinity;

  let returnCode: number = RETURN_CODES.ok;
  for (const statement of flatten(parsed.script.statements)) {
    if (statement.range.end.offset > stopAt) break;
    if (firstError && SECRET_BEARING.has(statement.kind) && statement.range.end.line === firstError.range.start.line) break;
    const outcome = await runOne(statement, ctx);
    if (outcome !== "ok") {
      returnCode = RETURN_CODES[outcome];
      if (request.mode === "interactive" || ctx.exitOnError) return { returnCode, session };
    }
    if (out.closed) return { returnCode, session };
  }
  if (syntaxErrors.length > 0) {
    printSyntaxErrors(syntaxErrors as Diagnostic[], parsed.script.statements, request.text, out);
    returnCode = RETURN_CODES.syntax;
  }
  return { returnCode, session };
}

/**
 * Statements that take or ask for a password: one cut short by a syntax error on the line it
 * ends on does not run (`ALTER ACL PASSWORD SET a-b` must not set "a", nor `ALTER ACL
 * PASSWORD SET |x` open the password dialog).
 */
const SECRET_BEARING = new Set(["AlterAclPassword", "ChangeOwner", "GrantAcl", "RevokeAcl", "AlterPassword", "CreateUser"]);

/** BEGIN ... END blocks run their statements; aborted blocks run nothing. */
function flatten(statements: readonly AstTopStatement[]): AstTopStatement[] {
  const out: AstTopStatement[] = [];
  for (const s of statements) {
    if (s.kind === "ShellBlock") {
      if (!s.aborted) out.push(...flatten(s.statements));
    } else {
      out.push(s);
    }
  }
  return out;
}

/**
 * Statements that only read or run, or change users, roles, secrets and ACLs rather than the
 * catalog (CREATE USER may wait minutes for its dialog): they do not take the catalog lock.
 */
const LOCK_FREE = new Set([
  "Ls", "Show", "Help", "RunQuery", "InterpretQuery", "InterpretAnonymousQuery", "RunLoadingJob", "AbortLoadingJob", "ResumeLoadingJob", "UseGraph", "UseGlobal", "Set",
  "CreateUser", "AlterPassword", "CreateSecret", "CreateRole", "GrantRole", "RevokeRole", "GrantPrivilege", "RevokePrivilege", "GrantAcl", "RevokeAcl",
  "AlterAclPassword", "ChangeOwner",
]);

/** The statement after its access check (server/auth), with the check's follow-up once it ran. */
async function checkedRun(statement: AstTopStatement, ctx: StatementContext): Promise<Outcome> {
  const check = ctx.services.access?.check(statement, ctx);
  if (check && !check.ok) {
    ctx.out.line(check.message);
    return "error";
  }
  const outcome = await dispatchStatement(statement, ctx);
  if (check) check.after?.(outcome);
  return outcome;
}

async function runOne(statement: AstTopStatement, ctx: StatementContext): Promise<Outcome> {
  try {
    if (LOCK_FREE.has(statement.kind)) return await checkedRun(statement, ctx);
    return await ctx.services.catalogLock.run(() => checkedRun(statement, ctx));
  } catch (err) {
    // An engine refusal carries a user-facing message; anything else is a bug whose details
    // stay out of the client's output.
    const message = err instanceof Error && err.name === "EngineError" ? err.message : undefined;
    ctx.out.line(message ?? "The command failed because of an internal error; the server log has the details.");
    if (!message) ctx.services.log(`gsql statement ${statement.kind} failed: ${err instanceof Error ? err.stack : String(err)}`);
    return "error";
  }
}
