// SET at the shell: `json_api` (the output API of query and built-in results, permanent:
// an engine command), `exit_on_error` (how a file reacts to errors), and the session
// parameters, which travel back to the client in its cookie.
import type { AstExpr, AstSet } from "../../../compiler/ast/index.js";
import { SESSION_PARAMETERS } from "../session.js";
import type { Outcome, StatementContext } from "./context.js";

export function runSet(s: AstSet, ctx: StatementContext): Outcome {
  const name = s.name.toLowerCase();
  const value = valueText(s.value);
  if (value === undefined) {
    ctx.out.line(`SET ${s.name} needs a literal value.`);
    return "error";
  }
  if (name === "json_api") {
    const api = value.toLowerCase();
    if (api !== "v1" && api !== "v2") {
      ctx.out.line(`json_api must be v1 or v2, not '${value}'.`);
      return "error";
    }
    ctx.services.engine.apply({ kind: "set-output-api", api });
    ctx.out.line(`Successfully set json_api to ${api}.`);
    return "ok";
  }
  if (name === "exit_on_error") {
    const v = value.toLowerCase();
    if (v !== "true" && v !== "false") {
      ctx.out.line(`exit_on_error must be true or false, not '${value}'.`);
      return "error";
    }
    ctx.exitOnError = v === "true";
    return "ok";
  }
  const parameter = Object.prototype.hasOwnProperty.call(SESSION_PARAMETERS, name) ? SESSION_PARAMETERS[name] : undefined;
  if (!parameter) {
    ctx.out.line(`Unknown session parameter '${s.name}'. Known: json_api, exit_on_error, ${Object.keys(SESSION_PARAMETERS).join(", ")}.`);
    return "error";
  }
  const problem = parameter.check(value);
  if (problem) {
    ctx.out.line(problem + ".");
    return "error";
  }
  ctx.session.parameters[name] = name === "syntax_version" ? value.toLowerCase() : value;
  ctx.sessionChanged();
  return "ok";
}

function valueText(e: AstExpr): string | undefined {
  switch (e.kind) {
    case "StringLiteral":
      return e.value;
    case "IntLiteral":
    case "RealLiteral":
      return e.text;
    case "BoolLiteral":
      return String(e.value);
    case "Ident":
      return e.name;
    default:
      return undefined;
  }
}
