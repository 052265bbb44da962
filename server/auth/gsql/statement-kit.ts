// What the user, role, secret and ACL statements share: the principal and its checks with
// the shell's refusal line, dialogs that ask the person at the shell, name rules (§11), and
// the date form SHOW USER prints.
import type { Outcome, StatementContext } from "../../gsql/exec/context.js";
import type { AuthService } from "../auth-service.js";
import { principalOf, deniedLine } from "../exec-access.js";
import { decidePrivileges, type Decision } from "../decide.js";
import type { Privilege } from "../privileges.js";

export { principalOf };

/** Prints the refusal and returns false when `decision` refuses. */
export function permitted(ctx: StatementContext, decision: Decision): boolean {
  if (decision.ok) return true;
  ctx.out.line(deniedLine(decision.reason));
  return false;
}

/** The principal holds `privileges` on `graph` (undefined: globally); prints the refusal otherwise. */
export function requirePrivileges(auth: AuthService, ctx: StatementContext, privileges: Privilege[], graph: string | undefined): boolean {
  return permitted(ctx, decidePrivileges(auth.store, principalOf(ctx), privileges, graph));
}

/**
 * Asks the person at the shell through a dialog of `kind` (CreateUserQb, AlterPasswordQb,
 * AclPasswordQb with its `prompt`, AlterAclPasswordQb); undefined, with the reason printed,
 * when there is no shell to ask or no answer came.
 */
export async function askShell(ctx: StatementContext, kind: string, command: string, prompt?: string): Promise<string | undefined> {
  const dialog = ctx.services.dialogs.open(ctx.principal);
  dialog.answer.catch(() => undefined);
  try {
    ctx.out.interact(kind, dialog.id, prompt);
  } catch {
    dialog.cancel();
    ctx.out.line(`${command} asks for a password in a dialog: run it from the gsql shell.`);
    return undefined;
  }
  try {
    return await dialog.answer;
  } catch (err) {
    ctx.out.line(err instanceof Error ? err.message : String(err));
    return undefined;
  }
}

const FORBIDDEN_NAME_CHARS = /[\s\\()[\]:<>;,@\u0000-\u001f\u007f]/u;
const MAX_NAME_LENGTH = 256;

/** Why `name` cannot name a user or role (§11 rules), or undefined when it can. */
export function nameProblem(name: string, what: "user" | "role"): string | undefined {
  if (name.length === 0) return `A ${what} name cannot be empty.`;
  if (name.length > MAX_NAME_LENGTH) return `A ${what} name has at most ${MAX_NAME_LENGTH} characters.`;
  if (FORBIDDEN_NAME_CHARS.test(name) || name.includes("..") || name.startsWith(".")) {
    return `The ${what} name "${printable(name)}" is not valid: it may not contain spaces, \\ ( ) [ ] : < > ; , @, control characters or "..", nor start with ".".`;
  }
  if (name.startsWith("__GSQL__")) return `The ${what} name "${name}" is reserved.`;
  return undefined;
}

export const MAX_PASSWORD_LENGTH = 1024;

export function passwordProblem(password: string): string | undefined {
  if (password.length === 0) return "The password cannot be empty.";
  if (password.length > MAX_PASSWORD_LENGTH) return `A password has at most ${MAX_PASSWORD_LENGTH} characters.`;
  return undefined;
}

/** A name as it may be echoed: control characters shown as escapes. */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).slice(0, MAX_NAME_LENGTH);
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** `Tue Apr 28 23:39:48 UTC 2020`, the form the established shell prints dates in. */
export function shellDate(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`;
}

/** Prints `message` and fails the statement. */
export function fail(ctx: StatementContext, message: string): Outcome {
  ctx.out.line(message);
  return "error";
}
