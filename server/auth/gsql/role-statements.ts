// Roles at the shell (gsql-ddl-loading-shell §11): CREATE ROLE, DROP ROLE, SHOW ROLE,
// GRANT/REVOKE ROLE to users, GRANT/REVOKE PRIVILEGE to user-defined roles, SHOW PRIVILEGE ON
// ROLE. Built-in graph roles are granted on one graph; superuser and globaldesigner, and
// user-defined global roles, globally. A local role belongs to one graph.
import type { AstCreateRole, AstDrop, AstPrivilegeGrant, AstRoleGrant, AstShow } from "../../../compiler/ast/index.js";
import type { Outcome, StatementContext } from "../../gsql/exec/context.js";
import type { AuthService } from "../auth-service.js";
import type { AuthChange, AuthRole, RoleGrant } from "../auth-state.js";
import { BUILT_IN_ROLES, builtInRole, isGlobalOnly, isReservedRoleName, privilegesNamed, type Privilege } from "../privileges.js";
import { nameProblem, principalOf, requirePrivileges, fail } from "./statement-kit.js";
import { decidePrivileges } from "../decide.js";

/** CREATE ROLE r[, r2] [ON GRAPH g | ON GLOBAL]: local to the working graph unless ON GLOBAL, or global in global scope. */
export function runCreateRole(auth: AuthService, s: AstCreateRole, ctx: StatementContext): Outcome {
  const graph = s.global ? undefined : s.graph?.name ?? ctx.session.graph;
  if (graph !== undefined && !graphExists(ctx, graph)) return fail(ctx, `Graph '${graph}' does not exist.`);
  if (!requirePrivileges(auth, ctx, ["WRITE_ROLE"], graph)) return "error";
  const names = s.names.map((n) => n.name);
  for (const name of names) {
    const problem = nameProblem(name, "role");
    if (problem) return fail(ctx, problem);
    if (isReservedRoleName(name)) return fail(ctx, `The role name "${name}" is reserved for a built-in role.`);
    if (auth.store.role(name)) return fail(ctx, `The role "${name}" already exists.`);
  }
  if (new Set(names).size !== names.length) return fail(ctx, "A role name appears twice in the command.");
  auth.submit(names.map((name): AuthChange => ({ kind: "put-role", role: graph === undefined ? { name, privileges: [] } : { name, graph, privileges: [] } })));
  ctx.out.line(graph === undefined ? `Successfully created global roles: [${names.join(", ")}].` : `Successfully created local roles for graph '${graph}': [${names.join(", ")}].`);
  return "ok";
}

export function runDropRole(auth: AuthService, s: AstDrop, ctx: StatementContext): Outcome {
  const names = [...new Set(s.names.map((n) => n.name))];
  for (const name of names) {
    if (builtInRole(name)) return fail(ctx, `The role "${name}" is built in and cannot be dropped.`);
    const role = auth.store.role(name);
    if (!role) return fail(ctx, `The role "${name}" does not exist.`);
    if (!requirePrivileges(auth, ctx, ["WRITE_ROLE"], role.graph)) return "error";
  }
  auth.submit(names.map((name): AuthChange => ({ kind: "drop-role", name })));
  ctx.out.line(`Successfully dropped roles: [${names.join(", ")}].`);
  return "ok";
}

/** SHOW ROLE: the built-in roles, the global roles and the local roles of the working graph. */
export function runShowRole(auth: AuthService, _s: AstShow, ctx: StatementContext): Outcome {
  const graph = ctx.session.graph;
  if (!requirePrivileges(auth, ctx, ["READ_ROLE"], graph)) return "error";
  ctx.out.line("Built-in roles:");
  for (const r of BUILT_IN_ROLES) ctx.out.line(`  - ${r.name} (${r.scope === "global" ? "global" : "graph"})`);
  const roles = auth.store.roleList();
  const global = roles.filter((r) => r.graph === undefined);
  if (global.length > 0) {
    ctx.out.line("Global roles:");
    for (const r of global) ctx.out.line(`  - ${r.name}`);
  }
  const graphs = graph === undefined ? [...new Set(roles.filter((r) => r.graph !== undefined).map((r) => r.graph!))] : [graph];
  for (const g of graphs) {
    const local = roles.filter((r) => r.graph === g);
    if (local.length === 0) continue;
    ctx.out.line(`Local roles of graph '${g}':`);
    for (const r of local) ctx.out.line(`  - ${r.name}`);
  }
  return "ok";
}

/** GRANT ROLE r[, r2] [ON GRAPH g] TO u[, u2] / REVOKE ROLE ... FROM u. */
export function runRoleGrant(auth: AuthService, s: AstRoleGrant, ctx: StatementContext): Outcome {
  const grant = s.kind === "GrantRole";
  const users = [...new Set(s.users.map((u) => u.name))];
  for (const user of users) if (!auth.store.user(user)) return fail(ctx, `The user "${user}" does not exist.`);
  const planned: { role: string; grants: RoleGrant[] }[] = [];
  for (const ident of s.roles) {
    const target = grantTarget(auth, ident.name, s.graph?.name, ctx);
    if ("problem" in target) return fail(ctx, target.problem);
    if (!requirePrivileges(auth, ctx, ["WRITE_ROLE"], target.graph)) return "error";
    planned.push({ role: target.role, grants: users.map((user) => (target.graph === undefined ? { user, role: target.role } : { user, role: target.role, graph: target.graph })) });
  }
  const grants = planned.flatMap((p) => p.grants);
  if (!grant && grants.some((g) => g.role === "superuser" && g.graph === undefined)) {
    const remaining = auth.store.grants().filter((g) => g.role === "superuser" && g.graph === undefined && !users.includes(g.user));
    if (remaining.length === 0) return fail(ctx, "This would leave no superuser: at least one must remain.");
  }
  auth.submit(grants.map((g): AuthChange => (grant ? { kind: "grant-role", grant: g } : { kind: "revoke-role", grant: g })));
  for (const p of planned) {
    const shown = s.roles.find((r) => (builtInRole(r.name)?.name ?? r.name) === p.role)?.name ?? p.role;
    ctx.out.line(grant ? `Role "${shown}" is successfully granted to user(s): ${users.join(", ")}` : `Role "${shown}" is successfully revoked from user(s): ${users.join(", ")}`);
  }
  return "ok";
}

/** Where a role is granted: the graph of a graph role or local role, nothing for a global role. */
function grantTarget(auth: AuthService, name: string, onGraph: string | undefined, ctx: StatementContext): { role: string; graph?: string } | { problem: string } {
  const builtIn = builtInRole(name);
  const custom = builtIn ? undefined : auth.store.role(name);
  if (!builtIn && !custom) return { problem: `The role "${name}" does not exist.` };
  const role = builtIn?.name ?? name;
  const global = builtIn ? builtIn.scope === "global" : custom!.graph === undefined;
  if (global) {
    if (onGraph !== undefined) return { problem: `The role "${name}" is a global role: grant it without ON GRAPH.` };
    return { role };
  }
  const graph = custom?.graph ?? onGraph ?? ctx.session.graph;
  if (graph === undefined) return { problem: `The role "${name}" is granted on a graph: add ON GRAPH <graph>, or USE GRAPH first.` };
  if (custom?.graph !== undefined && onGraph !== undefined && onGraph !== custom.graph) {
    return { problem: `The role "${name}" is local to graph '${custom.graph}'.` };
  }
  if (!graphExists(ctx, graph)) return { problem: `Graph '${graph}' does not exist.` };
  return { role, graph };
}

/** GRANT PRIVILEGE p[, p2] [ON GRAPH g | ON GLOBAL] TO r[, r2] / REVOKE PRIVILEGE ... FROM r. */
export function runPrivilegeGrant(auth: AuthService, s: AstPrivilegeGrant, ctx: StatementContext): Outcome {
  const grant = s.kind === "GrantPrivilege";
  const privileges: Privilege[] = [];
  for (const p of s.privileges) {
    const named = privilegesNamed(p.name);
    if (!named) return fail(ctx, `"${p.name}" is not a privilege.`);
    for (const x of named) if (!privileges.includes(x)) privileges.push(x);
  }
  const changes: AuthChange[] = [];
  const roleNames = [...new Set(s.roles.map((r) => r.name))];
  let scopeText = "";
  for (const name of roleNames) {
    if (builtInRole(name)) return fail(ctx, `The built-in role "${name}" cannot be changed.`);
    const role = auth.store.role(name);
    if (!role) return fail(ctx, `The role "${name}" does not exist.`);
    const graph = s.global ? undefined : s.graph?.name ?? role.graph ?? ctx.session.graph;
    if (role.graph !== undefined && graph !== role.graph) return fail(ctx, `The role "${name}" is local to graph '${role.graph}': its privileges are on that graph.`);
    if (graph !== undefined) {
      if (!graphExists(ctx, graph)) return fail(ctx, `Graph '${graph}' does not exist.`);
      const global = privileges.find(isGlobalOnly);
      if (global) return fail(ctx, `${global} is a global privilege: grant it ON GLOBAL to a global role.`);
    }
    if (!requirePrivileges(auth, ctx, ["WRITE_ROLE"], graph)) return "error";
    changes.push({ kind: "put-role", role: withPrivileges(role, graph, privileges, grant) });
    scopeText = graph === undefined ? "globally" : `on graph '${graph}'`;
  }
  auth.submit(changes);
  const list = `[${privileges.join(", ")}]`;
  ctx.out.line(grant
    ? `Successfully granted privileges ${list} ${scopeText} to roles: [${roleNames.join(", ")}].`
    : `Successfully revoked privileges ${list} ${scopeText} from roles: [${roleNames.join(", ")}].`);
  return "ok";
}

function withPrivileges(role: AuthRole, graph: string | undefined, privileges: Privilege[], add: boolean): AuthRole {
  const sets = role.privileges.map((set) => ({ ...set, names: [...set.names] }));
  let set = sets.find((x) => x.graph === graph);
  if (!set) {
    set = graph === undefined ? { names: [] } : { graph, names: [] };
    sets.push(set);
  }
  set.names = add ? [...new Set([...set.names, ...privileges])] : set.names.filter((n) => !privileges.includes(n as Privilege));
  const next: AuthRole = { name: role.name, privileges: sets.filter((x) => x.names.length > 0) };
  if (role.graph !== undefined) next.graph = role.graph;
  return next;
}

/** SHOW PRIVILEGE ON ROLE r. */
export function runShowRolePrivileges(auth: AuthService, s: AstShow, ctx: StatementContext): Outcome {
  const name = s.on!.name.name;
  const builtIn = builtInRole(name);
  const custom = builtIn ? undefined : auth.store.role(name);
  if (!builtIn && !custom) return fail(ctx, `The role "${name}" does not exist.`);
  if (!decidePrivileges(auth.store, principalOf(ctx), ["READ_ROLE"], custom?.graph ?? ctx.session.graph).ok
    && !requirePrivileges(auth, ctx, ["READ_ROLE"], undefined)) return "error";
  ctx.out.line(`Role: "${builtIn?.name ?? name}"`);
  if (builtIn) {
    ctx.out.line(`  - ${builtIn.scope === "global" ? "Global" : "Graph"} Privileges: ${[...builtIn.privileges].join(", ")}`);
    return "ok";
  }
  for (const set of custom!.privileges) {
    ctx.out.line(set.graph === undefined ? `  - Global Privileges: ${set.names.join(", ")}` : `  - Graph '${set.graph}' Privileges: ${set.names.join(", ")}`);
  }
  return "ok";
}

function graphExists(ctx: StatementContext, graph: string): boolean {
  return ctx.services.engine.schema.graphs.some((g) => g.name === graph);
}
