// Query ACLs at the shell (gsql-ddl-loading-shell §11, the "privilege groups" of
// interface.md): GRANT ACL PRIVILEGE READ|EXECUTE ON QUERY q TO roles | NOBODY, REVOKE ...
// FROM roles | ALL, CHANGE OWNER OF QUERY q TO user, each with `SECURED BY` the owner's ACL
// password when the owner has one. An entry, once set, decides alone who may read the
// query's text (READ) or run it (EXECUTE) (`aclAllows` in access.ts). Only the
// owner (or a superuser) changes a query's ACL; the owner or a holder of WRITE_ROLE changes
// its owner.
import type { AstAclGrant, AstChangeOwner } from "../../../compiler/ast/index.js";
import { workingGraph, type Outcome, type StatementContext } from "../../gsql/exec/context.js";
import type { AuthService } from "../auth-service.js";
import type { AclEntry, QueryAcl } from "../auth-state.js";
import { DEFAULT_SUPERUSER, isSuperuser } from "../access.js";
import { WRITE_DATA, builtInRole, type Privilege } from "../privileges.js";
import { ownerAclPasswordGiven } from "./acl-password.js";
import { permitted, principalOf, requirePrivileges, fail } from "./statement-kit.js";

type AclKind = "READ" | "EXECUTE";

export async function runAclGrant(auth: AuthService, s: AstAclGrant, ctx: StatementContext): Promise<Outcome> {
  const where = workingGraph(ctx);
  if (!where.graph) return where.outcome!;
  const graph = where.graph;
  const query = s.query.name;
  if (!ctx.services.catalog.query(graph, query)) return fail(ctx, `The query ${query} does not exist on the graph '${graph}'.`);
  const kinds: AclKind[] = [];
  for (const p of s.privileges) {
    const upper = p.name.toUpperCase();
    if (upper !== "READ" && upper !== "EXECUTE") return fail(ctx, `"${p.name}" is not an ACL privilege: use READ or EXECUTE.`);
    if (!kinds.includes(upper)) kinds.push(upper);
  }
  const principal = principalOf(ctx);
  const current = auth.store.queryAcl(graph, query) ?? { graph, query, owner: DEFAULT_SUPERUSER };
  if (current.owner !== principal.user && !isSuperuser(auth.store, principal)) {
    permitted(ctx, { ok: false, reason: `only the owner of query '${query}' ('${current.owner}') or a superuser changes its ACL` });
    return "error";
  }
  const grant = s.kind === "GrantAcl";
  // The owner grants only what it could do itself (READ_QUERY to read; READ_DATA, and the data
  // writes the query makes, to run). Revoking needs nothing beyond ownership.
  if (grant && !requirePrivileges(auth, ctx, grantedNeeds(auth, kinds, graph, query), graph)) return "error";
  const names = s.roles.map((r) => r.name);
  const nobody = grant && names.length === 1 && names[0]!.toUpperCase() === "NOBODY";
  const all = !grant && names.length === 1 && names[0]!.toUpperCase() === "ALL";
  const roles: string[] = [];
  if (!nobody && !all) {
    for (const name of names) {
      const role = builtInRole(name)?.name ?? (auth.store.role(name) ? name : undefined);
      if (!role) return fail(ctx, `The role "${name}" does not exist.`);
      const local = auth.store.role(role)?.graph;
      if (local !== undefined && local !== graph) return fail(ctx, `The role "${name}" is local to graph '${local}'.`);
      if (!roles.includes(role)) roles.push(role);
    }
  }
  const command = grant ? "GRANT ACL PRIVILEGE" : "REVOKE ACL PRIVILEGE";
  if (!(await ownerAclPasswordGiven(auth, ctx, current.owner, s.securedBy, command))) return "error";
  // The dialog may have taken a while: the ACL is read again so no change made meanwhile is lost.
  if (!ctx.services.catalog.query(graph, query)) return fail(ctx, `The query ${query} does not exist on the graph '${graph}'.`);
  const latest = auth.store.queryAcl(graph, query) ?? current;
  if (latest.owner !== current.owner) return fail(ctx, `The owner of query ${query} changed meanwhile; run the command again.`);
  const next: QueryAcl = structuredClone(latest);
  for (const kind of kinds) {
    const key = kind === "READ" ? "read" : "execute";
    const entry = changedEntry(next[key], grant, nobody, all, roles);
    if (entry === undefined) delete next[key];
    else next[key] = entry;
  }
  auth.submit([{ kind: "put-query-acl", acl: next }]);
  const shown = nobody ? ["NOBODY"] : all ? ["ALL"] : roles;
  for (const kind of kinds) {
    ctx.out.line(grant
      ? `Successfully granted ${kind} on query ${query} in the graph ${graph} to roles: [${shown.join(", ")}].`
      : `Successfully revoked ${kind} on query ${query} in the graph ${graph} from roles: [${shown.join(", ")}].`);
  }
  return "ok";
}

/** The RBAC privileges granting `kinds` on `query` needs. */
function grantedNeeds(auth: AuthService, kinds: AclKind[], graph: string, query: string): Privilege[] {
  const needs: Privilege[] = [];
  if (kinds.includes("READ")) needs.push("READ_QUERY");
  if (kinds.includes("EXECUTE")) needs.push("READ_DATA", ...(auth.queryWritesData(graph, query) ? WRITE_DATA : []));
  return needs;
}

/**
 * GRANT adds roles (NOBODY replaces them); REVOKE removes them, and an entry left with no
 * role becomes NOBODY; REVOKE ... FROM ALL clears the entry, so the roles decide again.
 */
function changedEntry(entry: AclEntry | undefined, grant: boolean, nobody: boolean, all: boolean, roles: string[]): AclEntry | undefined {
  if (grant) {
    if (nobody) return { nobody: true };
    const before = entry && "roles" in entry ? entry.roles : [];
    return { roles: [...new Set([...before, ...roles])] };
  }
  if (all || !entry) return undefined;
  if ("nobody" in entry) return entry;
  const left = entry.roles.filter((r) => !roles.includes(r));
  return left.length === 0 ? { nobody: true } : { roles: left };
}

/**
 * CHANGE OWNER OF QUERY q TO u [SECURED BY pw]: the owner, or a holder of WRITE_ROLE on the
 * query's graph, with the current owner's ACL password when it has one. The ACL entries stay.
 */
export async function runChangeOwner(auth: AuthService, s: AstChangeOwner, ctx: StatementContext): Promise<Outcome> {
  const where = workingGraph(ctx);
  if (!where.graph) return where.outcome!;
  const graph = where.graph;
  const query = s.query.name;
  const principal = principalOf(ctx);
  const current = auth.store.queryAcl(graph, query) ?? { graph, query, owner: DEFAULT_SUPERUSER };
  if (current.owner !== principal.user && !requirePrivileges(auth, ctx, ["WRITE_ROLE"], graph)) return "error";
  if (!ctx.services.catalog.query(graph, query)) return fail(ctx, `The query ${query} does not exist on the graph '${graph}'.`);
  const owner = s.user.name;
  if (!auth.store.user(owner)) return fail(ctx, `The user "${owner}" does not exist.`);
  if (!(await ownerAclPasswordGiven(auth, ctx, current.owner, s.securedBy, "CHANGE OWNER"))) return "error";
  const latest = auth.store.queryAcl(graph, query) ?? current;
  if (latest.owner !== current.owner) return fail(ctx, `The owner of query ${query} changed meanwhile; run the command again.`);
  if (!ctx.services.catalog.query(graph, query)) return fail(ctx, `The query ${query} does not exist on the graph '${graph}'.`);
  if (!auth.store.user(owner)) return fail(ctx, `The user "${owner}" does not exist.`);
  auth.submit([{ kind: "put-query-acl", acl: { ...structuredClone(latest), owner } }]);
  ctx.out.line(`Successfully changed the owner of query ${query} in the graph ${graph} from ${current.owner} to ${owner}.`);
  return "ok";
}
