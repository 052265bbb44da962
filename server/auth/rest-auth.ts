// The REST endpoints' guard, in front of the router when authentication is on: who the
// request is (Authorization header), which route will answer it (the dispatch table the app routes by,
// so the check and the handler always agree on the endpoint), and whether the access table
// lets that principal call it on that graph. Refusals are 401 (no valid credentials) or 403
// (valid credentials, not allowed) in the interface's envelope; nothing runs before them.
import type Router from "@koa/router";
import type { Context, Next } from "koa";
import { RestError } from "../http/rest-error.js";
import type { AuthService } from "./auth-service.js";
import { REST_ACCESS, restRule, type AccessRule } from "./access-table.js";
import { decidePrivileges, decideRunQuery, type Decision } from "./decide.js";
import { allows, isSuperuser, type Principal } from "./access.js";
import { authenticateHeader } from "./request-credentials.js";
import { isTokenPath } from "./token-routes.js";
import { routeTableFor } from "../http/route-table.js";

export function restAuthMiddleware(auth: AuthService, router: Router) {
  return async function guardRest(ctx: Context, next: Next): Promise<void> {
    // /requesttoken is how a client gets credentials in the first place.
    if (isTokenPath(ctx.path)) return next();
    const who = await authenticateHeader(auth, ctx.get("Authorization") || undefined, ctx.req.socket.remoteAddress);
    if (!who.ok) throw new RestError(401, who.code, who.message);
    ctx.state.principal = who.principal;
    // Listings that span graphs (GET /endpoints, GET /statistics) show only what the caller could ask for graph by graph.
    ctx.state.graphVisible = (graph: string) => allows(auth.store, who.principal, ["READ_SCHEMA"], graph);
    const decision = decideRoute(auth, who.principal, router, ctx);
    if (!decision.ok) throw new RestError(403, "REST-10016", `Access Denied because ${decision.reason}.`);
    return next();
  };
}

/** The decision for the route the router will run for this request. */
function decideRoute(auth: AuthService, principal: Principal, router: Router, ctx: Context): Decision {
  const route = routeTableFor(router).matchRequest(ctx);
  // No route: the app answers 404 (REST-1000) and nothing runs.
  if (!route) return { ok: true };
  const method = ctx.method === "HEAD" ? "GET" : ctx.method;
  const key = `${method} ${route.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}")}`;
  const rule = restRule(key);
  if (!rule) {
    return isSuperuser(auth.store, principal) ? { ok: true } : { ok: false, reason: `the endpoint ${key} is open to superusers only` };
  }
  const params = pathParams(route.path, ctx.path);
  // The graph-less form of a `/{graph_name}` endpoint addresses the only graph, as its handler does.
  const graphlessForm = REST_ACCESS[key] === undefined;
  return decideRule(auth, principal, rule, requestGraph(auth, params, ctx, !graphlessForm), params.query_name);
}

function decideRule(auth: AuthService, principal: Principal, rule: AccessRule, graph: string | undefined, query: string | undefined): Decision {
  switch (rule.kind) {
    case "open":
    case "authenticated":
      return { ok: true };
    case "global":
      return decidePrivileges(auth.store, principal, rule.privileges, undefined);
    case "graph":
      // A request whose graph cannot be told (several graphs, none named) fails in its
      // handler before touching anything; only a superuser gets that far.
      if (graph === undefined) return isSuperuser(auth.store, principal) ? { ok: true } : { ok: false, reason: "the request names no graph" };
      return decidePrivileges(auth.store, principal, rule.privileges, graph);
    case "run-query":
      if (graph === undefined || query === undefined) return { ok: false, reason: "the request names no graph and query" };
      return decideRunQuery(auth.store, principal, graph, query, auth.queryWritesData(graph, query));
  }
}

/**
 * The graph a request addresses: its path, its graph_name parameter (for endpoints that take
 * it there), or the only graph there is.
 */
function requestGraph(auth: AuthService, params: Record<string, string>, ctx: Context, queryNamesGraph: boolean): string | undefined {
  if (params.graph_name !== undefined) return params.graph_name;
  const fromQuery = ctx.query.graph_name;
  if (queryNamesGraph && typeof fromQuery === "string") return fromQuery;
  const names = auth.engine.graphNames();
  return names.length === 1 ? names[0] : undefined;
}

/** Path parameters by name, read segment by segment against the route's `:name` pattern. */
export function pathParams(pattern: string, path: string): Record<string, string> {
  const split = (p: string) => p.split("/").filter((s, i, all) => !(s === "" && (i === 0 || i === all.length - 1)));
  const names = split(pattern);
  const values = split(path);
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  if (names.length !== values.length) return out;
  names.forEach((name, i) => {
    if (!name.startsWith(":")) return;
    const raw = values[i]!;
    try {
      out[name.slice(1)] = decodeURIComponent(raw);
    } catch {
      out[name.slice(1)] = raw;
    }
  });
  return out;
}
