// CREATE USER, DROP USER, ALTER PASSWORD, SHOW USER and SHOW PRIVILEGE ON USER at the shell
// (gsql-ddl-loading-shell §11). Passwords arrive through dialogs, are hashed before they
// reach the engine, and are never printed or logged.
import type { AstAlterPassword, AstCreateUser, AstDrop, AstShow } from "../../../compiler/ast/index.js";
import type { Outcome, StatementContext } from "../../gsql/exec/context.js";
import type { AuthService } from "../auth-service.js";
import type { AuthChange } from "../auth-state.js";
import { hashPassword } from "../credentials.js";
import { DEFAULT_SUPERUSER, isUnchecked, privilegesOn, rolesOn } from "../access.js";
import { builtInRole, ALL_PRIVILEGES } from "../privileges.js";
import { askShell, nameProblem, passwordProblem, permitted, principalOf, printable, requirePrivileges, shellDate, fail } from "./statement-kit.js";
import { decidePrivileges } from "../decide.js";

export async function runCreateUser(auth: AuthService, s: AstCreateUser, ctx: StatementContext): Promise<Outcome> {
  if (!requirePrivileges(auth, ctx, ["WRITE_USER"], undefined)) return "error";
  if (s.name) {
    const problem = nameProblem(s.name.name, "user");
    if (problem) return fail(ctx, problem);
    if (auth.store.user(s.name.name)) return fail(ctx, `The user "${s.name.name}" already exists.`);
  }
  const answer = await askShell(ctx, "CreateUserQb", "CREATE USER");
  if (answer === undefined) return "error";
  // The answer is urlencode(name):password; the password may hold colons.
  const colon = answer.indexOf(":");
  const typedName = colon < 0 ? "" : decodeName(answer.slice(0, colon));
  const password = colon < 0 ? answer : answer.slice(colon + 1);
  if (s.name && typedName !== "" && typedName !== s.name.name) {
    return fail(ctx, `The user name typed ("${printable(typedName)}") differs from the one in the command ("${s.name.name}").`);
  }
  const name = s.name?.name ?? typedName;
  const problem = nameProblem(name, "user") ?? passwordProblem(password);
  if (problem) return fail(ctx, problem);
  const hash = await hashPassword(password, auth.scryptCost);
  // Checked again after the dialog: another session may have taken the name meanwhile.
  if (auth.store.user(name)) return fail(ctx, `The user "${name}" already exists.`);
  auth.submit([{ kind: "put-user", user: { name, password: hash, createdAt: auth.now() } }]);
  ctx.out.line(`The user "${name}" is created.`);
  return "ok";
}

export function runDropUser(auth: AuthService, s: AstDrop, ctx: StatementContext): Outcome {
  if (!requirePrivileges(auth, ctx, ["WRITE_USER"], undefined)) return "error";
  const principal = principalOf(ctx);
  const names = [...new Set(s.names.map((n) => n.name))];
  const superusers = auth.store.grants().filter((g) => g.graph === undefined && g.role === "superuser").map((g) => g.user);
  for (const name of names) {
    if (!auth.store.user(name)) return fail(ctx, `The user "${name}" does not exist.`);
    if (!isUnchecked(principal) && name === principal.user) return fail(ctx, `The user "${name}" is the one running this command and cannot drop itself.`);
    const owned = ownedQueries(auth, ctx, name);
    if (owned.length > 0) {
      return fail(ctx, `The user "${name}" owns queries and cannot be dropped: ${owned.join("; ")}. Drop them, or give them another owner with CHANGE OWNER OF QUERY, first.`);
    }
  }
  if (superusers.length > 0 && superusers.every((u) => names.includes(u))) {
    return fail(ctx, "These are the last superusers: at least one must remain.");
  }
  auth.submit(names.map((name): AuthChange => ({ kind: "drop-user", name })));
  for (const name of names) ctx.out.line(`The user "${name}" is dropped.`);
  return "ok";
}

/** `graph: [q1, q2]` for each graph where `user` owns queries that still exist. */
function ownedQueries(auth: AuthService, ctx: StatementContext, user: string): string[] {
  const byGraph = new Map<string, string[]>();
  for (const acl of auth.store.queryAcls()) {
    if (acl.owner !== user || !ctx.services.catalog.query(acl.graph, acl.query)) continue;
    byGraph.set(acl.graph, [...(byGraph.get(acl.graph) ?? []), acl.query]);
  }
  return [...byGraph].map(([g, qs]) => `${g}: [${qs.join(", ")}]`);
}

export async function runAlterPassword(auth: AuthService, s: AstAlterPassword, ctx: StatementContext): Promise<Outcome> {
  const principal = principalOf(ctx);
  const target = s.user?.name ?? principal.user;
  // A secret or a token acts on its graph only: it cannot take over the account it belongs to.
  if (principal.graph !== undefined) {
    return fail(ctx, `Access denied: the ${principal.via} of user '${principal.user}' acts on graph '${principal.graph}' only; log in with the password to change it.`);
  }
  if (target !== principal.user && !requirePrivileges(auth, ctx, ["WRITE_USER"], undefined)) return "error";
  const existing = auth.store.user(target);
  if (!existing) return fail(ctx, `The user "${target}" does not exist.`);
  const password = await askShell(ctx, "AlterPasswordQb", "ALTER PASSWORD");
  if (password === undefined) return "error";
  const problem = passwordProblem(password);
  if (problem) return fail(ctx, problem);
  const hash = await hashPassword(password, auth.scryptCost);
  const current = auth.store.user(target);
  if (!current) return fail(ctx, `The user "${target}" does not exist.`);
  // The rest of the record (its ACL password) stays; the default-password mark goes.
  const { defaultPassword: _was, ...kept } = current;
  auth.submit([{ kind: "put-user", user: { ...kept, password: hash } }]);
  ctx.out.line("Password has been changed.");
  return "ok";
}

/**
 * SHOW USER: every user for holders of READ_USER globally, the users of their graphs for
 * holders of READ_USER on a graph, else the caller alone.
 */
export function runShowUser(auth: AuthService, _s: AstShow, ctx: StatementContext): Outcome {
  const principal = principalOf(ctx);
  const store = auth.store;
  let users = store.userList().map((u) => u.name);
  if (!decidePrivileges(store, principal, ["READ_USER"], undefined).ok) {
    const graphs = ctx.services.engine.graphNames().filter((g) => decidePrivileges(store, principal, ["READ_USER"], g).ok);
    users = users.filter((u) => u === principal.user || store.grantsOf(u).some((g) => g.graph !== undefined && graphs.includes(g.graph)));
  }
  if (isUnchecked(principal) && !store.user(DEFAULT_SUPERUSER)) {
    // Authentication off, the default superuser never stored: every command runs as it all the same.
    printUser(ctx, DEFAULT_SUPERUSER, ["superuser"], [], auth, false);
  }
  for (const name of users) {
    const grants = store.grantsOf(name);
    const global = grants.filter((g) => g.graph === undefined).map((g) => builtInRole(g.role)?.name ?? g.role);
    const graphs = [...new Set(grants.filter((g) => g.graph !== undefined).map((g) => g.graph!))];
    const perGraph = graphs.map((g) => ({ graph: g, roles: grants.filter((x) => x.graph === g).map((x) => builtInRole(x.role)?.name ?? x.role) }));
    printUser(ctx, name, global, perGraph, auth, store.user(name)?.defaultPassword === true);
  }
  return "ok";
}

function printUser(ctx: StatementContext, name: string, global: string[], perGraph: { graph: string; roles: string[] }[], auth: AuthService, defaultPassword: boolean): void {
  ctx.out.line(`  - Name: ${name}`);
  if (global.length > 0) ctx.out.line(`    - Global Roles: ${global.join(", ")}`);
  for (const { graph, roles } of perGraph) ctx.out.line(`    - Graph '${graph}' Roles: ${roles.join(", ")}`);
  const login = auth.logins.get(name);
  if (login.lastSuccess !== undefined) ctx.out.line(`    - LastSuccessLogin: ${shellDate(login.lastSuccess)}`);
  const locked = auth.logins.lockedUntil(name);
  ctx.out.line(`    - NextValidLogin: ${shellDate(locked ?? auth.now())}`);
  ctx.out.line(`    - FailedAttempts: ${login.failedAttempts}`);
  ctx.out.line(`    - ShowAlterPasswordWarning: ${defaultPassword}`);
}

/** SHOW PRIVILEGE ON USER u: the caller's own, or anyone's with READ_USER. */
export function runShowUserPrivileges(auth: AuthService, s: AstShow, ctx: StatementContext): Outcome {
  const principal = principalOf(ctx);
  const name = s.on!.name.name;
  if (name !== principal.user && !permitted(ctx, decidePrivileges(auth.store, principal, ["READ_USER"], undefined))) return "error";
  if (!auth.store.user(name)) return fail(ctx, `The user "${name}" does not exist.`);
  ctx.out.line(`User: "${name}"`);
  const order = (set: Set<string>) => ALL_PRIVILEGES.filter((p) => set.has(p));
  const global = order(privilegesOn(auth.store, name, undefined));
  if (global.length > 0) ctx.out.line(`  - Global Privileges: ${global.join(", ")}`);
  for (const graph of ctx.services.engine.graphNames()) {
    if (rolesOn(auth.store, name, graph).length === 0) continue;
    ctx.out.line(`  - Graph '${graph}' Privileges: ${order(privilegesOn(auth.store, name, graph)).join(", ")}`);
  }
  return "ok";
}

function decodeName(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
