// Who may use the GSQL-server endpoints. Authentication is off by default (every command
// runs as the superuser); the auth part of the server replaces this object to check the
// login body, basic auth, `__GSQL__secret` logins and Bearer tokens.
import type { Context } from "koa";

export type AuthDecision = { ok: true; user: string } | { ok: false; status: number; message: string };

export interface GsqlAuth {
  /** POST /gsqlserver/gsql/login with the decoded `user` and `password`. */
  login(user: string, password: string): AuthDecision;
  /** Every other GSQL-server request. */
  authorize(ctx: Context): AuthDecision;
  /** Whether the login answer recommends changing the default password (bit 1 of securityRecommendations). */
  recommendPasswordChange?(user: string): boolean;
}

export const DEFAULT_USER = "tigergraph";

/** Authentication off: every request acts as the default superuser. */
export const authOff: GsqlAuth = {
  login: () => ({ ok: true, user: DEFAULT_USER }),
  authorize: () => ({ ok: true, user: DEFAULT_USER }),
};
