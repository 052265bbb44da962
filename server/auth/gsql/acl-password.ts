// ACL passwords (gsql-ddl-loading-shell §11, query ACLs): a user may set one; from then on
// changing the ACL or the owner of a query the user owns needs it, from everyone (the owner
// and superusers too). `ALTER [USER u] ACL PASSWORD SET new [REPLACE current]`,
// `... CLEAR REPLACE current`, or with neither a dialog asks. Setting another user's needs
// WRITE_USER; changing or clearing one needs the current password. Stored as a scrypt hash,
// like login passwords, and never printed; wrong tries back off like failed logins.
import type { AstAlterAclPassword } from "../../../compiler/ast/index.js";
import type { Outcome, StatementContext } from "../../gsql/exec/context.js";
import type { AuthService } from "../auth-service.js";
import type { PasswordHash } from "../auth-state.js";
import { hashPassword, verifyPassword } from "../credentials.js";
import { askShell, fail, MAX_PASSWORD_LENGTH, permitted, principalOf, requirePrivileges } from "./statement-kit.js";

export async function runAlterAclPassword(auth: AuthService, s: AstAlterAclPassword, ctx: StatementContext): Promise<Outcome> {
  const principal = principalOf(ctx);
  const target = s.user?.name ?? principal.user;
  // As with ALTER PASSWORD: a secret or token acts on its graph only, not on the account.
  if (principal.graph !== undefined) {
    return fail(ctx, `Access denied: the ${principal.via} of user '${principal.user}' acts on graph '${principal.graph}' only; log in with the password to change an ACL password.`);
  }
  if (target !== principal.user && !requirePrivileges(auth, ctx, ["WRITE_USER"], undefined)) return "error";
  const user = auth.store.user(target);
  if (!user) return fail(ctx, `The user "${target}" does not exist.`);
  const existing = user.aclPassword;

  if (s.action === "clear" && !existing) return fail(ctx, `The user "${target}" has no ACL password to clear.`);
  let current = s.current;
  if (existing) {
    // The current password is checked before a new one is asked for.
    if (s.action === "prompt") current = await askShell(ctx, "AclPasswordQb", "ALTER ACL PASSWORD", "Current ACL Password");
    else if (current === undefined) {
      return fail(ctx, `The user "${target}" already has an ACL password: give it with REPLACE <current ACL password> to change it.`);
    }
    if (current === undefined) return "error";
    if (!(await aclPasswordMatches(auth, ctx, target, current, existing, "the current ACL password"))) return "error";
  } else if (current !== undefined) {
    return fail(ctx, `The user "${target}" has no ACL password to replace: set one without REPLACE.`);
  }
  const next = s.action === "prompt" ? await askShell(ctx, "AlterAclPasswordQb", "ALTER ACL PASSWORD") : s.password;
  if (s.action === "prompt" && next === undefined) return "error";

  if (s.action === "clear") {
    auth.submit([{ kind: "set-acl-password", user: target }]);
    ctx.out.line(`ACL password of user "${target}" has been cleared.`);
    return "ok";
  }
  if (!next) return fail(ctx, "The ACL password cannot be empty.");
  if (next.length > MAX_PASSWORD_LENGTH) return fail(ctx, `An ACL password has at most ${MAX_PASSWORD_LENGTH} characters.`);
  const hash = await hashPassword(next!, auth.scryptCost);
  // Checked again after the dialogs and hashing: the user may have gone meanwhile.
  if (!auth.store.user(target)) return fail(ctx, `The user "${target}" does not exist.`);
  auth.submit([{ kind: "set-acl-password", user: target, password: hash }]);
  ctx.out.line(existing ? `ACL password of user "${target}" has been changed.` : `ACL password of user "${target}" has been set.`);
  return "ok";
}

/**
 * Whether the caller may change what `owner` owns: true when `owner` has no ACL password,
 * or `securedBy` (else the answer to a dialog) matches it; prints the refusal otherwise.
 */
export async function ownerAclPasswordGiven(auth: AuthService, ctx: StatementContext, owner: string, securedBy: string | undefined, command: string): Promise<boolean> {
  const stored = auth.store.user(owner)?.aclPassword;
  if (!stored) return true;
  const given = securedBy ?? (await askShell(ctx, "AclPasswordQb", command, `ACL Password of user ${owner}`));
  if (given === undefined) return false;
  return aclPasswordMatches(auth, ctx, owner, given, stored, "the ACL password");
}

/**
 * Checks `given` against `user`'s stored ACL password, printing the refusal. Wrong tries
 * back off as failed logins do (5 in a row, then 1 s doubling to 5 min, per user), so
 * whoever may attempt the command cannot guess the password at scrypt speed.
 */
async function aclPasswordMatches(auth: AuthService, ctx: StatementContext, user: string, given: string, stored: PasswordHash, what: string): Promise<boolean> {
  const waitUntil = auth.aclPasswordTries.lockedUntil(user);
  if (waitUntil !== undefined) {
    return permitted(ctx, { ok: false, reason: `too many wrong ACL passwords for user '${user}': try again after ${new Date(waitUntil).toISOString()}` });
  }
  if (await verifyPassword(given, stored)) {
    auth.aclPasswordTries.succeeded(user);
    return true;
  }
  auth.aclPasswordTries.failed(user);
  return permitted(ctx, { ok: false, reason: `${what} of user '${user}' does not match` });
}
