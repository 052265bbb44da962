// Who may do what: the principal a request acts as, the privileges a user holds on a graph
// or globally (through built-in and user-defined roles), and the query ACLs on top of them.
// `allows` is the one check every REST endpoint and GSQL command goes through.
import type { AuthStore, RoleGrant } from "./auth-state.js";
import { builtInRole, type Privilege } from "./privileges.js";

/** The user a request acts as, and how it proved it. */
export interface Principal {
  user: string;
  /** A secret or token belongs to one graph: a request made with it acts on that graph only. */
  graph?: string;
  via: "password" | "secret" | "token" | "auth-off" | "internal";
}

/** The name every request acts under while authentication is off (and the default superuser). */
export const DEFAULT_SUPERUSER = "tigergraph";

/** Authentication off: every request is the superuser and nothing is checked. */
export const AUTH_OFF_PRINCIPAL: Principal = Object.freeze({ user: DEFAULT_SUPERUSER, via: "auth-off" });

/** The server acting on its own behalf (the demo graph at start-up). */
export const INTERNAL_PRINCIPAL: Principal = Object.freeze({ user: DEFAULT_SUPERUSER, via: "internal" });

export function isUnchecked(p: Principal): boolean {
  return p.via === "auth-off" || p.via === "internal";
}

/** The grants of `user` that reach `graph` (undefined: the global scope, which only global grants reach). */
function grantsReaching(store: AuthStore, user: string, graph: string | undefined): RoleGrant[] {
  return store.grantsOf(user).filter((g) => g.graph === undefined || (graph !== undefined && g.graph === graph));
}

/**
 * The privileges `user` holds on `graph`, or at the global scope when `graph` is undefined.
 * Global-only privileges (WRITE_USER, DROP_ALL, ...) arrive only through global grants:
 * GRANT PRIVILEGE refuses them on a graph.
 */
export function privilegesOn(store: AuthStore, user: string, graph: string | undefined): Set<Privilege> {
  const held = new Set<Privilege>();
  for (const grant of grantsReaching(store, user, graph)) {
    const builtIn = builtInRole(grant.role);
    if (builtIn) {
      for (const p of builtIn.privileges) held.add(p);
      continue;
    }
    const role = store.role(grant.role);
    if (!role) continue;
    for (const set of role.privileges) {
      // A global role's graph-less privileges reach everywhere; the others reach their graph.
      if (set.graph !== undefined && set.graph !== graph) continue;
      for (const name of set.names) held.add(name as Privilege);
    }
  }
  // A globaldesigner may drop the graphs it created.
  if (graph !== undefined && store.graphOwner(graph) === user && grantsReaching(store, user, undefined).some((g) => builtInRole(g.role)?.name === "globaldesigner")) {
    held.add("DROP_GRAPH");
  }
  return held;
}

/** Whether the principal may act on `graph` (undefined: the global scope) with every privilege in `needed`. */
export function allows(store: AuthStore, principal: Principal, needed: readonly Privilege[], graph: string | undefined): boolean {
  if (isUnchecked(principal)) return true;
  if (!store.user(principal.user)) return false;
  if (principal.graph !== undefined && graph !== principal.graph) return false;
  if (needed.length === 0) return true;
  const held = privilegesOn(store, principal.user, graph);
  return needed.every((p) => held.has(p));
}

/** Whether the principal holds any role at all that reaches `graph` (USE GRAPH, CREATE SECRET). */
export function reachesGraph(store: AuthStore, principal: Principal, graph: string): boolean {
  if (isUnchecked(principal)) return true;
  if (principal.graph !== undefined && principal.graph !== graph) return false;
  return grantsReaching(store, principal.user, graph).length > 0;
}

export function isSuperuser(store: AuthStore, principal: Principal): boolean {
  if (isUnchecked(principal)) return true;
  if (principal.graph !== undefined) return false;
  return grantsReaching(store, principal.user, undefined).some((g) => builtInRole(g.role)?.name === "superuser");
}

/** Canonical names of the roles `user` holds that reach `graph` (built-in names in lower case). */
export function rolesOn(store: AuthStore, user: string, graph: string | undefined): string[] {
  return [...new Set(grantsReaching(store, user, graph).map((g) => builtInRole(g.role)?.name ?? g.role))];
}

/**
 * The query ACL check (§11): an ACL entry, when present, decides alone. NOBODY lets no one
 * through, the owner and superusers included (the established server's documented rule:
 * the owner undoes it with REVOKE ... FROM ALL); past a role list the owner and superusers
 * always pass. Without an entry the roles decide (the caller checks those).
 */
export function aclAllows(store: AuthStore, principal: Principal, graph: string, query: string, what: "read" | "execute"): boolean {
  if (isUnchecked(principal)) return true;
  const acl = store.queryAcl(graph, query);
  const entry = acl?.[what];
  if (!acl || !entry) return true;
  if ("nobody" in entry) return false;
  if (isSuperuser(store, principal)) return true;
  if (acl.owner === principal.user) return true;
  const held = rolesOn(store, principal.user, graph);
  return entry.roles.some((r) => held.includes(builtInRole(r)?.name ?? r));
}
