// Query ACLs at the shell (gsql-ddl-loading-shell §11, the "privilege groups" of
// interface.md): GRANT ACL PRIVILEGE READ|EXECUTE ON QUERY q TO roles | NOBODY, REVOKE ...
// FROM roles | ALL, SHOW ACL PRIVILEGE ON QUERY q. An entry, once set, decides alone who may
// read the query's text (READ) or run it (EXECUTE); the owner and superusers always may.
// Only the owner (or a superuser) changes a query's ACL.
import type { AstAclGrant, AstShow } from "../../../compiler/ast/index.js";
import { workingGraph, type Outcome, type StatementContext } from "../../gsql/exec/context.js";
import type { AuthService } from "../auth-service.js";
import type { AclEntry, QueryAcl } from "../auth-state.js";
import { DEFAULT_SUPERUSER, isSuperuser } from "../access.js";
import { builtInRole } from "../privileges.js";
import { permitted, principalOf, requirePrivileges, fail } from "./statement-kit.js";

type AclKind = "READ" | "EXECUTE";

export function runAclGrant(auth: AuthService, s: AstAclGrant, ctx: StatementContext): Outcome {
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
  const names = s.roles.map((r) => r.name);
  const grant = s.kind === "GrantAcl";
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
  const next: QueryAcl = structuredClone(current);
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

/** GRANT adds roles (NOBODY replaces them); REVOKE removes them (ALL clears the entry, so the roles decide again). */
function changedEntry(entry: AclEntry | undefined, grant: boolean, nobody: boolean, all: boolean, roles: string[]): AclEntry | undefined {
  if (grant) {
    if (nobody) return { nobody: true };
    const before = entry && "roles" in entry ? entry.roles : [];
    return { roles: [...new Set([...before, ...roles])] };
  }
  if (all || !entry) return undefined;
  if ("nobody" in entry) return entry;
  return { roles: entry.roles.filter((r) => !roles.includes(r)) };
}

/** SHOW ACL PRIVILEGE ON QUERY q: its owner and entries. */
export function runShowAcl(auth: AuthService, s: AstShow, ctx: StatementContext): Outcome {
  const where = workingGraph(ctx);
  if (!where.graph) return where.outcome!;
  const graph = where.graph;
  if (!requirePrivileges(auth, ctx, ["READ_QUERY"], graph)) return "error";
  const query = s.on!.name.name;
  if (!ctx.services.catalog.query(graph, query)) return fail(ctx, `The query ${query} does not exist on the graph '${graph}'.`);
  const acl = auth.store.queryAcl(graph, query);
  ctx.out.line(`Query ${query} on the graph ${graph}:`);
  ctx.out.line(`  - Owner: ${acl?.owner ?? DEFAULT_SUPERUSER}`);
  ctx.out.line(`  - READ: ${entryText(acl?.read)}`);
  ctx.out.line(`  - EXECUTE: ${entryText(acl?.execute)}`);
  return "ok";
}

function entryText(entry: AclEntry | undefined): string {
  if (!entry) return "(not set: the roles decide)";
  if ("nobody" in entry) return "NOBODY";
  return entry.roles.length === 0 ? "(no role)" : entry.roles.join(", ");
}
