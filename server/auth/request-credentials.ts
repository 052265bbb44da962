// The principal behind a request's Authorization header, or why there is none, with the
// error codes of the compat notes: REST-10016 for a missing, empty, short or malformed
// credential, REST-3300 for a token that does not exist or has expired.
import type { AuthService } from "./auth-service.js";
import { parseAuthorization } from "./authorization-header.js";
import { maskCredential } from "./credentials.js";
import type { Principal } from "./access.js";

export type RequestAuth = { ok: true; principal: Principal } | { ok: false; code: "REST-10016" | "REST-3300"; message: string };

export async function authenticateHeader(auth: AuthService, header: string | undefined, remoteAddress: string | undefined): Promise<RequestAuth> {
  const parsed = parseAuthorization(header);
  switch (parsed.scheme) {
    case "none":
      return shortToken("");
    case "malformed":
      return {
        ok: false,
        code: "REST-10016",
        message: "Access Denied because the Authorization header is neither 'Bearer <token>' nor HTTP basic authentication.",
      };
    case "basic": {
      const outcome = await auth.authenticatePassword(parsed.user, parsed.password, remoteAddress);
      return outcome.ok ? outcome : { ok: false, code: "REST-10016", message: outcome.message };
    }
    case "bearer": {
      const check = auth.checkToken(parsed.token);
      if (check.ok) return { ok: true, principal: check.principal };
      if (check.reason === "short") return shortToken(parsed.token);
      const shown = maskCredential(parsed.token.slice(0, 64));
      return {
        ok: false,
        code: "REST-3300",
        message: check.reason === "expired"
          ? `Access Denied because the input token = '${shown}' has expired.`
          : `Access Denied because the input token = '${shown}' does not exist.`,
      };
    }
  }
}

function shortToken(token: string): RequestAuth {
  return { ok: false, code: "REST-10016", message: `Access Denied because the input token = '${token}' is empty or too short` };
}
