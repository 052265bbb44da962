// The GSQL executor's access hook: every statement is looked up in the access table and
// checked for the principal running it before its handler runs; some leave work for after
// (a new query gets its owner, a created graph its creator, dropped graphs and queries take
// their grants, secrets and ACLs with them). With authentication off the principal is the
// superuser and every check passes, but the bookkeeping still happens.
import type { AstTopStatement } from "../../compiler/ast/index.js";
import type { Catalog } from "../catalog/catalog.js";
import type { ExecAccess, Outcome, StatementCheck, StatementContext } from "../gsql/exec/context.js";
import type { AuthService } from "./auth-service.js";
import type { AuthChange } from "./auth-state.js";
import { INTERNAL_PRINCIPAL, isSuperuser, isUnchecked, type Principal } from "./access.js";
import { statementAccess } from "./access-table.js";
import { scriptWritesData } from "./query-writes.js";
import { WRITE_DATA, type Privilege } from "./privileges.js";
import { decidePrivileges, decideReach, decideRunQuery, mayReadQueryText, type Decision } from "./decide.js";

export function createExecAccess(auth: AuthService, catalog: Catalog): ExecAccess {
  return {
    enabled: auth.enabled,
    check: (statement, ctx) => checkStatement(auth, catalog, statement, ctx),
    checkInterpret: (principal, definition, graph) => {
      const who = principal ?? INTERNAL_PRINCIPAL;
      const needed: Privilege[] = ["READ_DATA", ...(scriptWritesData({ kind: "Script", statements: [definition as AstTopStatement], range: definition.range }) ? WRITE_DATA : [])];
      const decision = decidePrivileges(auth.store, who, needed, graph);
      return decision.ok ? { ok: true } : { ok: false, message: deniedLine(decision.reason) };
    },
    mayReadQueryText: (ctx, graph, query) => mayReadQueryText(auth.store, principalOf(ctx), graph, query),
    restAuthorization: (ctx) => (auth.enabled ? auth.ephemeralAuthorization(principalOf(ctx)) : undefined),
  };
}

export function principalOf(ctx: StatementContext): Principal {
  return ctx.principal ?? INTERNAL_PRINCIPAL;
}

/** How a refusal reads at the shell. */
export function deniedLine(reason: string): string {
  return `Access denied: ${reason}.`;
}

function checkStatement(auth: AuthService, catalog: Catalog, s: AstTopStatement, ctx: StatementContext): StatementCheck {
  const principal = principalOf(ctx);
  const decision = decide(auth, catalog, s, ctx, principal);
  if (!decision.ok) return { ok: false, message: deniedLine(decision.reason) };
  const after = afterwards(auth, catalog, s, ctx, principal);
  return after ? { ok: true, after } : { ok: true };
}

function decide(auth: AuthService, catalog: Catalog, s: AstTopStatement, ctx: StatementContext, principal: Principal): Decision {
  if (isUnchecked(principal)) return { ok: true };
  const store = auth.store;
  const need = statementAccess(s, ctx.session.graph);
  switch (need.kind) {
    case "none":
    case "handler":
    case "missing-graph":
      return { ok: true };
    case "reach":
      // USE GRAPH of a graph that does not exist: its handler says so.
      if (!graphExists(ctx, need.graph)) return { ok: true };
      return decideReach(store, principal, need.graph);
    case "run-query": {
      const text = catalog.query(need.graph, need.query)?.text;
      return decideRunQuery(store, principal, need.graph, need.query, text !== undefined && auth.queryWritesData(need.graph, need.query));
    }
    case "privileges": {
      const graph = need.scope === "graph" ? need.graph : undefined;
      const rbac = decidePrivileges(store, principal, need.privileges, graph);
      if (!rbac.ok || s.kind !== "CreateQuery" || graph === undefined) return rbac;
      // Only a query's owner (or a superuser) replaces it.
      const owner = store.queryAcl(graph, s.name.name)?.owner;
      if (catalog.query(graph, s.name.name) && owner !== undefined && owner !== principal.user && !isSuperuser(store, principal)) {
        return { ok: false, reason: `the query '${s.name.name}' on graph '${graph}' belongs to user '${owner}'; only its owner or a superuser may replace it` };
      }
      return rbac;
    }
  }
}

/** Bookkeeping once a statement ran: owners of new queries and graphs, and what dropped items leave behind. */
function afterwards(auth: AuthService, catalog: Catalog, s: AstTopStatement, ctx: StatementContext, principal: Principal): ((outcome: Outcome) => void) | undefined {
  switch (s.kind) {
    case "CreateQuery": {
      const graph = s.graph?.name ?? ctx.session.graph;
      if (graph === undefined) return undefined;
      const existed = catalog.query(graph, s.name.name) !== undefined;
      return () => {
        // A new query (drafts included) belongs to its creator; a replaced one keeps its owner and ACL.
        if (existed || !catalog.query(graph, s.name.name)) return;
        auth.submit([{ kind: "put-query-acl", acl: { graph, query: s.name.name, owner: principal.user } }]);
      };
    }
    case "CreateGraph":
      return () => {
        const graph = s.name.name;
        if (!graphExists(ctx, graph)) return;
        const changes: AuthChange[] = [{ kind: "put-graph-owner", graph, user: principal.user }];
        // CREATE GRAPH g (...) WITH ADMIN u: u becomes the graph's admin.
        if (s.admin && auth.store.user(s.admin.name)) changes.push({ kind: "grant-role", grant: { user: s.admin.name, role: "admin", graph } });
        auth.submit(changes);
      };
    case "Drop":
      if (s.target !== "QUERY" && s.target !== "GRAPH" && s.target !== "ALL") return undefined;
      return () => auth.submit(leftovers(auth, catalog, ctx));
    default:
      return undefined;
  }
}

/**
 * What the auth state still holds about graphs or queries that no longer exist: grants,
 * local roles, owners, secrets and tokens of dropped graphs, ACLs of dropped queries.
 */
export function leftovers(auth: AuthService, catalog: Catalog, ctx: StatementContext): AuthChange[] {
  const store = auth.store;
  const exists = (g: string) => graphExists(ctx, g);
  const changes: AuthChange[] = [];
  for (const grant of store.grants()) if (grant.graph !== undefined && !exists(grant.graph)) changes.push({ kind: "revoke-role", grant });
  for (const role of store.roleList()) if (role.graph !== undefined && !exists(role.graph)) changes.push({ kind: "drop-role", name: role.name });
  for (const acl of store.queryAcls()) {
    if (!catalog.query(acl.graph, acl.query)) changes.push({ kind: "drop-query-acls", graph: acl.graph, queries: [acl.query] });
  }
  for (const o of store.graphOwnerList()) if (!exists(o.graph)) changes.push({ kind: "drop-graph-owner", graph: o.graph });
  // Secrets and tokens of a dropped graph stop working even for holders of global roles.
  for (const secret of store.secretList()) if (!exists(secret.graph)) changes.push({ kind: "drop-secret", digest: secret.digest });
  for (const token of store.tokenList()) if (token.graph !== undefined && !exists(token.graph)) changes.push({ kind: "drop-token", digest: token.digest });
  return changes;
}

function graphExists(ctx: StatementContext, graph: string): boolean {
  return ctx.services.engine.schema.graphs.some((g) => g.name === graph);
}
