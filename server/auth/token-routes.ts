// /requesttoken (compat-notes "Authentication"), served only while authentication is on
// (otherwise the path is an unknown endpoint, REST-1000, which clients read as "auth off"):
//   POST   {"secret","graph","lifetime"}      a new token (or basic auth user:password and "graph")
//   GET    ?secret=&lifetime=                   the older form of the same
//   PUT    {"secret","token","lifetime"}       a new expiry for a token (now + lifetime)
//   DELETE {"secret","token"}                  drops a token
// Fields may also come as query parameters. Answers:
// {"code":"REST-0000","expiration":<unix s>,"error":false,"message":...,"token":t}.
import type Router from "@koa/router";
import type { Context } from "koa";
import { RestError } from "../http/rest-error.js";
import { readBodyText } from "../http/read-body.js";
import { parseLifetime, type AuthService } from "./auth-service.js";
import { parseAuthorization } from "./authorization-header.js";
import { credentialDigest } from "./credentials.js";
import { decideReach } from "./decide.js";
import type { Principal } from "./access.js";
import type { AuthToken } from "./auth-state.js";

const TOKEN_PATH = "/requesttoken";
const MAX_BODY_BYTES = 64 * 1024;

export function isTokenPath(path: string): boolean {
  return path === TOKEN_PATH || path === TOKEN_PATH + "/";
}

interface TokenRequest {
  secret?: string;
  graph?: string;
  lifetime?: unknown;
  token?: string;
}

export function registerTokenRoutes(router: Router, auth: AuthService): void {
  router.get(TOKEN_PATH, async (ctx) => {
    ctx.state.endpointKey = "GET /requesttoken";
    await createToken(ctx, auth, fromQuery(ctx));
  });
  router.post(TOKEN_PATH, async (ctx) => {
    ctx.state.endpointKey = "POST /requesttoken";
    await createToken(ctx, auth, await readRequest(ctx));
  });
  router.put(TOKEN_PATH, async (ctx) => {
    ctx.state.endpointKey = "PUT /requesttoken";
    const request = await readRequest(ctx);
    const existing = await ownedToken(ctx, auth, request);
    const lifetime = lifetimeOf(auth, request);
    const expiration = auth.refreshToken(existing, lifetime);
    answer(ctx, { code: "REST-0000", expiration, error: false, message: `The token's expiration is updated to ${isoSeconds(expiration)}.`, token: request.token! });
  });
  router.delete(TOKEN_PATH, async (ctx) => {
    ctx.state.endpointKey = "DELETE /requesttoken";
    const request = await readRequest(ctx);
    const existing = await ownedToken(ctx, auth, request);
    auth.dropToken(existing);
    answer(ctx, { code: "REST-0000", expiration: existing.expiresAt, error: false, message: "The token is dropped." });
  });
}

async function createToken(ctx: Context, auth: AuthService, request: TokenRequest): Promise<void> {
  const principal = await requester(ctx, auth, request);
  let graph = request.graph;
  if (principal.graph !== undefined) {
    // A secret makes tokens for its own graph.
    if (graph !== undefined && graph !== principal.graph) {
      throw new RestError(403, "REST-10016", `Access Denied because the secret belongs to graph '${principal.graph}', not '${graph}'.`);
    }
    graph = principal.graph;
  } else if (graph !== undefined) {
    if (!auth.engine.graphNames().includes(graph)) throw new RestError(400, "REST-1004", `Graph '${graph}' does not exist.`);
    const reach = decideReach(auth.store, principal, graph);
    if (!reach.ok) throw new RestError(403, "REST-10016", `Access Denied because ${reach.reason}.`);
  }
  const lifetime = lifetimeOf(auth, request);
  const secretDigest = principal.via === "secret" ? credentialDigest(request.secret!) : undefined;
  const issued = auth.issueToken(principal, graph, lifetime, secretDigest);
  answer(ctx, { code: "REST-0000", expiration: issued.expiration, error: false, message: "Generate new token successfully.", token: issued.token });
}

/** Who asks: the secret in the request, else HTTP basic authentication. */
async function requester(ctx: Context, auth: AuthService, request: TokenRequest): Promise<Principal> {
  if (request.secret !== undefined) {
    const principal = auth.authenticateSecret(request.secret);
    if (!principal) throw new RestError(401, "REST-10016", "Access Denied because the secret is not valid.");
    return principal;
  }
  const header = parseAuthorization(ctx.get("Authorization") || undefined);
  if (header.scheme === "basic") {
    const outcome = await auth.authenticatePassword(header.user, header.password, ctx.req.socket.remoteAddress);
    if (!outcome.ok) throw new RestError(401, "REST-10016", outcome.message);
    return outcome.principal;
  }
  throw new RestError(401, "REST-10016", "Access Denied because the request has no secret and no user name and password (HTTP basic authentication).");
}

/** The token a PUT or DELETE names, which must belong to the requester (else it is "not found"). */
async function ownedToken(ctx: Context, auth: AuthService, request: TokenRequest): Promise<AuthToken> {
  if (request.token === undefined || request.token === "") throw new RestError(400, "REST-30000", "The request names no token (the token field or parameter).");
  const principal = await requester(ctx, auth, request);
  const check = auth.checkToken(request.token);
  const owned = check.ok && check.token.digest !== "" && check.token.user === principal.user
    && (principal.graph === undefined || check.token.graph === principal.graph);
  if (!check.ok || !owned) {
    const expired = !check.ok && check.reason === "expired";
    throw new RestError(401, "REST-3300", expired ? "The token has expired." : "The token does not exist.");
  }
  return check.token;
}

function lifetimeOf(auth: AuthService, request: TokenRequest): number {
  const parsed = parseLifetime(request.lifetime);
  if (!parsed.ok) throw new RestError(400, "REST-30000", parsed.message);
  return parsed.seconds ?? auth.defaultTokenLifetimeSeconds;
}

/** The fields from a JSON body, or from the query string when the body is empty. */
async function readRequest(ctx: Context): Promise<TokenRequest> {
  const text = (await readBodyText(ctx, MAX_BODY_BYTES)).trim();
  if (text === "") return fromQuery(ctx);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Form encoding (secret=...&lifetime=...) is accepted too.
    if (/^[^{\[]/.test(text) && text.includes("=")) return fields(Object.fromEntries(new URLSearchParams(text)));
    throw new RestError(400, "REST-2001", "The request body is not valid JSON.");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new RestError(400, "REST-30000", "The request body must be a JSON object such as {\"secret\":\"...\",\"lifetime\":\"3600\"}.");
  }
  return fields(parsed as Record<string, unknown>);
}

function fromQuery(ctx: Context): TokenRequest {
  const out: Record<string, unknown> = {};
  for (const name of ["secret", "graph", "lifetime", "token"]) {
    const v = ctx.query[name];
    if (Array.isArray(v)) throw new RestError(400, "REST-30000", `Parameter ${name} may be given at most once.`);
    if (v !== undefined) out[name] = v;
  }
  return fields(out);
}

function fields(raw: Record<string, unknown>): TokenRequest {
  const out: TokenRequest = {};
  for (const name of ["secret", "graph", "token"] as const) {
    const v = Object.prototype.hasOwnProperty.call(raw, name) ? raw[name] : undefined;
    if (v === undefined || v === null) continue;
    if (typeof v !== "string") throw new RestError(400, "REST-30000", `The ${name} must be a string.`);
    out[name] = v;
  }
  if (Object.prototype.hasOwnProperty.call(raw, "lifetime")) out.lifetime = raw.lifetime;
  return out;
}

function answer(ctx: Context, body: Record<string, unknown>): void {
  ctx.type = "application/json";
  ctx.body = body;
}

function isoSeconds(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace(/\.000Z$/, "Z");
}
