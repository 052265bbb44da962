// Who may use the GSQL-server endpoints. Authentication is off by default (every command
// runs as the superuser); server/auth replaces this object to check the login body, basic
// auth, `__GSQL__secret` logins and Bearer tokens, and which endpoints a principal may call.
import type { Context } from "koa";
import type { Principal } from "../auth/access.js";

export type AuthDecision = { ok: true; user: string; principal?: Principal } | { ok: false; status: number; message: string };

export interface GsqlAuth {
  /** POST /gsqlserver/gsql/login with the decoded `user` and `password`. */
  login(user: string, password: string, ctx: Context): AuthDecision | Promise<AuthDecision>;
  /** Every other GSQL-server request, before its route runs (`routed`: a route will answer it). */
  authorize(ctx: Context, routed: boolean): AuthDecision | Promise<AuthDecision>;
  /** Whether the login answer recommends changing the default password (bit 1 of securityRecommendations). */
  recommendPasswordChange?(user: string): boolean;
}

export const DEFAULT_USER = "tigergraph";

/** Authentication off: every request acts as the default superuser. */
export const authOff: GsqlAuth = {
  login: () => ({ ok: true, user: DEFAULT_USER }),
  authorize: () => ({ ok: true, user: DEFAULT_USER }),
};
