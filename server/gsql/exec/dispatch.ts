// One statement to its handler, by AST kind. Statements another part of the server owns
// (users, roles, secrets, privileges, loading-job control) go to the handlers it registered
// in `extraHandlers`; without one they are refused with a clear message.
import type { AstTopStatement } from "../../../compiler/ast/index.js";
import { runAbortLoadingJob, runResumeLoadingJob } from "./loading-runs.js";
import type { Outcome, StatementContext } from "./context.js";
import { runClearGraphStore, runCreateType, runDropSchema, runUseGlobal, runUseGraph } from "./ddl-statements.js";
import { runCreateLoadingJob, runDropJob, runRunLoadingJob } from "./loading-statements.js";
import { runCreateQuery } from "./query-create.js";
import { runInstallQuery } from "./query-install.js";
import { runInterpretAnonymous, runInterpretQuery, runRunQuery } from "./query-run.js";
import { runDropQuery } from "./query-show-drop.js";
import { runCreateSchemaChangeJob, runRunSchemaChangeJob } from "./schema-change-statements.js";
import { runSet } from "./session-statements.js";
import { runHelp, runLs, runShow } from "./show-statements.js";

export async function dispatchStatement(s: AstTopStatement, ctx: StatementContext): Promise<Outcome> {
  const extra = ctx.services.extraHandlers.get(extraKey(s));
  if (extra) return extra(s, ctx);
  switch (s.kind) {
    case "CreateVertex":
    case "CreateEdge":
    case "CreateGraph":
    case "TypedefTuple":
      return runCreateType(s, ctx);
    case "Drop":
      switch (s.target) {
        case "QUERY":
          return runDropQuery(s, ctx);
        case "JOB":
          return runDropJob(s, ctx);
        case "VERTEX":
        case "EDGE":
        case "TUPLE":
        case "GRAPH":
        case "ALL":
          return runDropSchema(s, ctx);
        default:
          return notAvailable(`DROP ${s.target}`, ctx);
      }
    case "UseGraph":
      return runUseGraph(s, ctx);
    case "UseGlobal":
      return runUseGlobal(ctx);
    case "ClearGraphStore":
      return runClearGraphStore(s, ctx);
    case "CreateSchemaChangeJob":
      return runCreateSchemaChangeJob(s, ctx);
    case "RunSchemaChangeJob":
      return runRunSchemaChangeJob(s, ctx);
    case "CreateLoadingJob":
      return runCreateLoadingJob(s, ctx);
    case "RunLoadingJob":
      return runRunLoadingJob(s, ctx);
    case "CreateQuery":
      return runCreateQuery(s, ctx);
    case "InstallQuery":
      return runInstallQuery(s, ctx);
    case "RunQuery":
      return runRunQuery(s, ctx);
    case "InterpretQuery":
      return runInterpretQuery(s, ctx);
    case "InterpretAnonymousQuery":
      return runInterpretAnonymous(s, ctx);
    case "Show":
      return runShow(s, ctx);
    case "Ls":
      return runLs(ctx);
    case "Set":
      return runSet(s, ctx);
    case "Help":
      return runHelp(ctx);
    case "ShellBlock":
      // Blocks are flattened by the script runner.
      return "ok";
    case "AbortLoadingJob":
      return runAbortLoadingJob(s, ctx);
    case "ResumeLoadingJob":
      return runResumeLoadingJob(s, ctx);
    default:
      return notAvailable(commandName(s), ctx);
  }
}

/**
 * The key extra handlers register under: the AST kind, `Drop:<TARGET>` for DROP USER/ROLE/SECRET,
 * `Show:<TARGET>` for SHOW USER/SECRET/ROLE/PRIVILEGE/ACL PRIVILEGE.
 */
export function extraKey(s: AstTopStatement): string {
  if (s.kind === "Drop") return `Drop:${s.target}`;
  if (s.kind === "Show") return `Show:${s.target}`;
  return s.kind;
}

function commandName(s: AstTopStatement): string {
  return s.kind.replace(/([a-z])([A-Z])/g, "$1 $2").toUpperCase();
}

function notAvailable(what: string, ctx: StatementContext): Outcome {
  ctx.out.line(`${what} is not available in this server.`);
  return "error";
}
