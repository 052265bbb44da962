// SHOW ACL PRIVILEGE ON QUERY q[, q2] | USER u[, u2] | ROLE r[, r2]: a query's owner and ACL
// entries (READ_QUERY on the working graph); the queries a user owns and those whose ACL
// entries name one of its roles (its own, or READ_USER on each graph shown); the queries
// whose ACL entries name a role (READ_ROLE on each graph shown). Queries whose entries are
// unset are governed by the roles alone and are not listed: SHOW PRIVILEGE shows those.
import type { AstShow } from "../../../compiler/ast/index.js";
import { workingGraph, type Outcome, type StatementContext } from "../../gsql/exec/context.js";
import type { AuthService } from "../auth-service.js";
import type { AclEntry, QueryAcl } from "../auth-state.js";
import { DEFAULT_SUPERUSER, rolesOn } from "../access.js";
import { decidePrivileges } from "../decide.js";
import { builtInRole } from "../privileges.js";
import { fail, principalOf, requirePrivileges } from "./statement-kit.js";

export function runShowAcl(auth: AuthService, s: AstShow, ctx: StatementContext): Outcome {
  const on = s.on!;
  const names = [...new Set((on.names ?? [on.name]).map((n) => n.name))];
  if (on.target === "USER") return showUsers(auth, names, ctx);
  if (on.target === "ROLE") return showRoles(auth, names, ctx);
  return showQueries(auth, names, ctx);
}

function showQueries(auth: AuthService, queries: string[], ctx: StatementContext): Outcome {
  const where = workingGraph(ctx);
  if (!where.graph) return where.outcome!;
  const graph = where.graph;
  if (!requirePrivileges(auth, ctx, ["READ_QUERY"], graph)) return "error";
  const missing = queries.find((q) => !ctx.services.catalog.query(graph, q));
  if (missing !== undefined) return fail(ctx, `The query ${missing} does not exist on the graph '${graph}'.`);
  for (const query of queries) {
    const acl = auth.store.queryAcl(graph, query);
    ctx.out.line(`Query ${query} on the graph ${graph}:`);
    ctx.out.line(`  - Owner: ${acl?.owner ?? DEFAULT_SUPERUSER}`);
    ctx.out.line(`  - READ: ${entryText(acl?.read)}`);
    ctx.out.line(`  - EXECUTE: ${entryText(acl?.execute)}`);
  }
  return "ok";
}

function entryText(entry: AclEntry | undefined): string {
  if (!entry) return "(not set: the roles decide)";
  if ("nobody" in entry) return "NOBODY";
  return entry.roles.length === 0 ? "(no role)" : entry.roles.join(", ");
}

function showUsers(auth: AuthService, users: string[], ctx: StatementContext): Outcome {
  const principal = principalOf(ctx);
  const missing = users.find((u) => !auth.store.user(u));
  if (missing !== undefined) return fail(ctx, `The user "${missing}" does not exist.`);
  const allGraphs = ctx.services.engine.graphNames();
  const readable = allGraphs.filter((g) => decidePrivileges(auth.store, principal, ["READ_USER"], g).ok);
  const own = allGraphs.filter((g) => principal.graph === undefined || principal.graph === g);
  for (const user of users) {
    const graphs = user === principal.user ? own : readable;
    if (graphs.length === 0 && !requirePrivileges(auth, ctx, ["READ_USER"], ctx.session.graph)) return "error";
  }
  for (const user of users) {
    ctx.out.line(`User "${user}":`);
    let shown = 0;
    for (const graph of user === principal.user ? own : readable) {
      const held = rolesOn(auth.store, user, graph);
      const acls = existingAcls(auth, ctx, graph);
      const owned = acls.filter((a) => a.owner === user).map((a) => a.query);
      if (held.length === 0 && owned.length === 0) continue;
      const naming = (key: "read" | "execute") => acls.filter((a) => entryNames(a[key], held)).map((a) => a.query);
      ctx.out.line(`  - Graph '${graph}':`);
      ctx.out.line(`    - Owner of: [${owned.join(", ")}]`);
      ctx.out.line(`    - READ: [${naming("read").join(", ")}]`);
      ctx.out.line(`    - EXECUTE: [${naming("execute").join(", ")}]`);
      shown += 1;
    }
    if (shown === 0) ctx.out.line("  - (no graph shown: the user has no role there)");
  }
  return "ok";
}

function showRoles(auth: AuthService, roles: string[], ctx: StatementContext): Outcome {
  const principal = principalOf(ctx);
  const canonical: string[] = [];
  for (const name of roles) {
    const role = builtInRole(name)?.name ?? (auth.store.role(name) ? name : undefined);
    if (!role) return fail(ctx, `The role "${name}" does not exist.`);
    if (!canonical.includes(role)) canonical.push(role);
  }
  const graphsOf = (role: string) => {
    const local = auth.store.role(role)?.graph;
    const candidates = local !== undefined ? [local] : ctx.services.engine.graphNames();
    return candidates.filter((g) => decidePrivileges(auth.store, principal, ["READ_ROLE"], g).ok);
  };
  for (const role of canonical) {
    if (graphsOf(role).length === 0 && !requirePrivileges(auth, ctx, ["READ_ROLE"], auth.store.role(role)?.graph ?? ctx.session.graph)) return "error";
  }
  for (const role of canonical) {
    ctx.out.line(`Role "${role}":`);
    let shown = 0;
    for (const graph of graphsOf(role)) {
      const acls = existingAcls(auth, ctx, graph);
      const naming = (key: "read" | "execute") => acls.filter((a) => entryNames(a[key], [role])).map((a) => a.query);
      const read = naming("read");
      const execute = naming("execute");
      if (read.length === 0 && execute.length === 0) continue;
      ctx.out.line(`  - Graph '${graph}':`);
      ctx.out.line(`    - READ: [${read.join(", ")}]`);
      ctx.out.line(`    - EXECUTE: [${execute.join(", ")}]`);
      shown += 1;
    }
    if (shown === 0) ctx.out.line("  - (no query ACL names this role)");
  }
  return "ok";
}

/** The ACLs of `graph`'s queries that still exist, by query name. */
function existingAcls(auth: AuthService, ctx: StatementContext, graph: string): QueryAcl[] {
  return auth.store.queryAcls()
    .filter((a) => a.graph === graph && ctx.services.catalog.query(graph, a.query) !== undefined)
    .sort((a, b) => (a.query < b.query ? -1 : a.query > b.query ? 1 : 0));
}

/** Whether `entry` lists one of `roles` (canonical names). */
function entryNames(entry: AclEntry | undefined, roles: string[]): boolean {
  if (!entry || "nobody" in entry) return false;
  return entry.roles.some((r) => roles.includes(builtInRole(r)?.name ?? r));
}
