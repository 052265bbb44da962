// The GSQL-server endpoints' side of authentication: the login body, HTTP basic auth (a
// user's password, or user `__GSQL__secret` with a secret), Bearer tokens, and which
// endpoints a principal may call (the access table). Statements are checked one by one as
// they run (exec-access.ts). With authentication off every request is the superuser.
import type { Context } from "koa";
import type { AuthDecision, GsqlAuth } from "../gsql/gsql-auth.js";
import type { AuthService } from "./auth-service.js";
import { AUTH_OFF_PRINCIPAL, isSuperuser, type Principal } from "./access.js";
import { GSQL_HTTP_ACCESS } from "./access-table.js";
import { decidePrivileges, type Decision } from "./decide.js";
import { authenticateHeader } from "./request-credentials.js";

const NO_CREDENTIALS =
  "The request has no credentials: send HTTP basic authentication (user and password, or user __GSQL__secret and a secret) or a Bearer token.";

export function createGsqlServerAuth(auth: AuthService): GsqlAuth {
  const off: AuthDecision = { ok: true, user: AUTH_OFF_PRINCIPAL.user, principal: AUTH_OFF_PRINCIPAL };
  return {
    async login(user: string, password: string, ctx: Context): Promise<AuthDecision> {
      if (!auth.enabled) return off;
      const outcome = await auth.authenticatePassword(user, password, ctx.req.socket.remoteAddress);
      return outcome.ok ? granted(outcome.principal) : { ok: false, status: 401, message: outcome.message };
    },

    async authorize(ctx: Context, routed: boolean): Promise<AuthDecision> {
      if (!auth.enabled) return off;
      const key = `${ctx.method === "HEAD" ? "GET" : ctx.method} ${ctx.path.length > 1 ? ctx.path.replace(/\/+$/, "") : ctx.path}`;
      const rule = GSQL_HTTP_ACCESS[key];
      // Unknown paths answer 404 without asking for credentials (clients probe for endpoints).
      if (rule?.kind === "open" || !routed) return { ok: true, user: "" };
      if (!ctx.get("Authorization")) return { ok: false, status: 401, message: NO_CREDENTIALS };
      const who = await authenticateHeader(auth, ctx.get("Authorization"), ctx.req.socket.remoteAddress);
      if (!who.ok) return { ok: false, status: 401, message: who.message };
      const decision = decideEndpoint(auth, who.principal, key, rule, ctx);
      if (!decision.ok) return { ok: false, status: 403, message: `Access denied: ${decision.reason}.` };
      return granted(who.principal);
    },

    recommendPasswordChange: (user: string) => auth.enabled && auth.mustChangePassword(user),
  };
}

function granted(principal: Principal): AuthDecision {
  return { ok: true, user: principal.user, principal };
}

function decideEndpoint(auth: AuthService, principal: Principal, key: string, rule: (typeof GSQL_HTTP_ACCESS)[string] | undefined, ctx: Context): Decision {
  if (!rule) return isSuperuser(auth.store, principal) ? { ok: true } : { ok: false, reason: `the endpoint ${key} is open to superusers only` };
  switch (rule.kind) {
    case "open":
    case "authenticated":
      return { ok: true };
    case "global":
      return decidePrivileges(auth.store, principal, rule.privileges, undefined);
    case "graph": {
      const graph = ctx.query.graph;
      // Without a graph the route answers 400 and reads nothing (udtlist lists the global tuple types).
      if (graph === undefined || graph === "") return { ok: true };
      if (typeof graph !== "string") return { ok: false, reason: "the graph parameter is given more than once" };
      return decidePrivileges(auth.store, principal, rule.privileges, graph);
    }
    case "run-query":
      return { ok: false, reason: "queries run over the REST endpoints" };
  }
}
