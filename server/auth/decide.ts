// Access decisions with their reasons, shared by the REST middleware, the GSQL-server
// endpoints and the statement gate. A refusal carries a reason phrase each server frames in
// its own style ("Access Denied because <reason>." over REST, "Access denied: <reason>." at
// the shell).
import type { AuthStore } from "./auth-state.js";
import { aclAllows, allows, isUnchecked, privilegesOn, reachesGraph, type Principal } from "./access.js";
import { WRITE_DATA, type Privilege } from "./privileges.js";

export type Decision = { ok: true } | { ok: false; reason: string };

const OK: Decision = { ok: true };

const where = (graph: string | undefined) => (graph === undefined ? "at the global scope" : `on graph '${graph}'`);

/** Every privilege in `needed` on `graph` (undefined: the global scope). */
export function decidePrivileges(store: AuthStore, principal: Principal, needed: readonly Privilege[], graph: string | undefined): Decision {
  if (allows(store, principal, needed, graph)) return OK;
  if (!store.user(principal.user)) return { ok: false, reason: `the user '${principal.user}' no longer exists` };
  if (principal.graph !== undefined && principal.graph !== graph) {
    return { ok: false, reason: `the ${principal.via} of user '${principal.user}' acts on graph '${principal.graph}' only, not ${where(graph)}` };
  }
  const held = privilegesOn(store, principal.user, graph);
  const missing = needed.find((p) => !held.has(p)) ?? needed[0];
  return { ok: false, reason: `user '${principal.user}' does not have the privilege ${missing} ${where(graph)}` };
}

/** Any role at all on `graph` (USE GRAPH, CREATE SECRET). */
export function decideReach(store: AuthStore, principal: Principal, graph: string): Decision {
  if (reachesGraph(store, principal, graph)) return OK;
  if (principal.graph !== undefined && principal.graph !== graph) {
    return { ok: false, reason: `the ${principal.via} of user '${principal.user}' acts on graph '${principal.graph}' only, not on graph '${graph}'` };
  }
  return { ok: false, reason: `user '${principal.user}' has no role on graph '${graph}'` };
}

/**
 * Running a query: READ_DATA on its graph, the data-writing privileges too when it writes
 * data, and its EXECUTE ACL when it has one.
 */
export function decideRunQuery(store: AuthStore, principal: Principal, graph: string, query: string, writesData: boolean): Decision {
  const needed: Privilege[] = ["READ_DATA", ...(writesData ? WRITE_DATA : [])];
  const rbac = decidePrivileges(store, principal, needed, graph);
  if (!rbac.ok) return rbac;
  if (!aclAllows(store, principal, graph, query, "execute")) {
    return { ok: false, reason: `the ACL of query '${query}' on graph '${graph}' does not let user '${principal.user}' run it` };
  }
  return OK;
}

/** Whether SHOW QUERY shows the text of `query` to `principal` (its READ ACL). */
export function mayReadQueryText(store: AuthStore, principal: Principal, graph: string, query: string): boolean {
  return isUnchecked(principal) || aclAllows(store, principal, graph, query, "read");
}
