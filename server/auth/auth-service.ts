// The authentication service both servers share: whether authentication is on, who a
// request is (password, secret or token), issuing and dropping tokens, and the one door
// through which the auth state changes (the engine's command method, so every change is
// logged). Passwords are checked with scrypt off the event loop; a successful check is
// remembered for a few minutes under an HMAC of the credentials, so a shell that sends its
// basic-auth header with every command does not pay for scrypt each time.
import { createHmac, randomBytes } from "node:crypto";
import type { Engine } from "../engine/engine.js";
import type { AuthChange, AuthStore, AuthToken, PasswordHash } from "./auth-state.js";
import { DEFAULT_SUPERUSER, type Principal } from "./access.js";
import {
  CREDENTIAL_LENGTH, DEFAULT_SCRYPT_COST, checkScryptCost, credentialDigest, hashPassword, randomCredential, verifyPassword,
  type ScryptCost,
} from "./credentials.js";
import { DEFAULT_LOCKOUT, LoginTracker, type LockoutPolicy } from "./login-tracker.js";
import { QueryWriteCache } from "./query-writes.js";
import { analyzeSource } from "../../compiler/front-end.js";

/** The user name under which a secret logs in to the GSQL server (`gsql -s`). */
export const SECRET_LOGIN_USER = "__GSQL__secret";

/** About one month, as the established server's default. */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 30 * 24 * 3600;
/** The longest lifetime a token may ask for: ten years. */
export const MAX_TOKEN_LIFETIME_SECONDS = 10 * 365 * 24 * 3600;

export interface AuthOptions {
  /** Authentication on (off by default: every request is the superuser, nothing is checked). */
  enabled?: boolean;
  /** scrypt cost of new password hashes (tests lower it; the default is strong). */
  scryptCost?: ScryptCost;
  /** Clock in milliseconds (token expiry, login bookkeeping). */
  now?: () => number;
  defaultTokenLifetimeSeconds?: number;
  /** Failed-login back-off; false turns it off. */
  lockout?: LockoutPolicy | false;
}

export type AuthOutcome = { ok: true; principal: Principal } | { ok: false; status: 401; message: string };

export type TokenCheck =
  | { ok: true; principal: Principal; token: AuthToken }
  | { ok: false; reason: "short" | "unknown" | "expired" };

const VERIFIED_TTL_MS = 5 * 60_000;
const VERIFIED_MAX = 10_000;
const EPHEMERAL_TTL_MS = 10 * 60_000;
export const INVALID_LOGIN = "Invalid username or password!";

export class AuthService {
  readonly enabled: boolean;
  readonly scryptCost: ScryptCost;
  readonly now: () => number;
  readonly defaultTokenLifetimeSeconds: number;
  readonly logins: LoginTracker;
  /** Wrong ACL passwords per user whose ACL password was tried: the same back-off as logins. */
  readonly aclPasswordTries: LoginTracker;
  /** HMAC(credentials) -> the hash they matched, so a later identical request skips scrypt. */
  private readonly verified = new Map<string, { user: string; hash: string; until: number }>();
  private readonly cacheKey = randomBytes(32);
  /** Short-lived tokens the server makes for its own in-process REST calls; never stored. */
  private readonly ephemeral = new Map<string, { principal: Principal; until: number }>();
  /** The text of a query by graph and name (the GSQL catalog), and whether texts write data. */
  private queries: { text(graph: string, name: string): string | undefined; writes: QueryWriteCache } | undefined;

  constructor(readonly engine: Engine, options: AuthOptions = {}) {
    this.enabled = options.enabled ?? false;
    this.scryptCost = options.scryptCost ?? DEFAULT_SCRYPT_COST;
    const problem = checkScryptCost(this.scryptCost);
    if (problem) throw new Error(problem);
    this.now = options.now ?? Date.now;
    this.defaultTokenLifetimeSeconds = options.defaultTokenLifetimeSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS;
    this.logins = new LoginTracker(this.now, options.lockout === false ? undefined : options.lockout ?? DEFAULT_LOCKOUT);
    this.aclPasswordTries = new LoginTracker(this.now, options.lockout === false ? undefined : options.lockout ?? DEFAULT_LOCKOUT);
  }

  get store(): AuthStore {
    return this.engine.auth;
  }

  /** Makes auth changes durable and current (one engine command). */
  submit(changes: AuthChange[]): void {
    if (changes.length > 0) this.engine.apply({ kind: "auth", changes });
  }

  /**
   * With authentication on, a database without a superuser gets the default one:
   * `tigergraph` with password `tigergraph`, which must be changed (ALTER PASSWORD) before it
   * is accepted from another machine.
   */
  async ensureSuperuser(): Promise<void> {
    const hasSuperuser = this.store.grants().some((g) => g.graph === undefined && g.role === "superuser" && this.store.user(g.user));
    if (hasSuperuser) return;
    const changes: AuthChange[] = [];
    if (!this.store.user(DEFAULT_SUPERUSER)) {
      const password = await hashPassword(DEFAULT_SUPERUSER, this.scryptCost);
      changes.push({ kind: "put-user", user: { name: DEFAULT_SUPERUSER, password, defaultPassword: true, createdAt: this.now() } });
    }
    changes.push({ kind: "grant-role", grant: { user: DEFAULT_SUPERUSER, role: "superuser" } });
    this.submit(changes);
  }

  /** Whether the login answer should ask for a password change. */
  mustChangePassword(user: string): boolean {
    return this.store.user(user)?.defaultPassword === true;
  }

  /** Connects the query catalog: running a query that writes data needs the data-writing privileges. */
  attachQueries(text: (graph: string, name: string) => string | undefined): void {
    this.queries = { text, writes: new QueryWriteCache((source) => analyzeSource(source, "query", { astOnly: true }).ast) };
  }

  /** Whether the query `name` of `graph` writes data (false for a query that does not exist). */
  queryWritesData(graph: string, name: string): boolean {
    const text = this.queries?.text(graph, name);
    return text === undefined ? false : this.queries!.writes.writesData(text);
  }

  // --- who is asking ----------------------------------------------------------------------

  /**
   * A user name and password (or `__GSQL__secret` and a secret). Failed attempts are counted
   * per name and slow down further attempts; the default password is refused from another
   * machine.
   */
  async authenticatePassword(user: string, password: string, remoteAddress?: string): Promise<AuthOutcome> {
    if (user === SECRET_LOGIN_USER) {
      const principal = this.authenticateSecret(password);
      return principal ? { ok: true, principal } : { ok: false, status: 401, message: INVALID_LOGIN };
    }
    const waitUntil = this.logins.lockedUntil(user);
    if (waitUntil !== undefined) {
      return { ok: false, status: 401, message: `Too many failed logins for this user name: try again after ${new Date(waitUntil).toISOString()}.` };
    }
    const record = this.store.user(user);
    const ok = record ? await this.checkPassword(user, password, record.password) : await this.burnTime(password);
    if (!ok || !record) {
      this.logins.failed(user);
      return { ok: false, status: 401, message: INVALID_LOGIN };
    }
    if (record.defaultPassword && remoteAddress !== undefined && !isLoopback(remoteAddress)) {
      return {
        ok: false,
        status: 401,
        message: `The user ${user} still has its default password, which is accepted only from this machine: change it with ALTER PASSWORD first.`,
      };
    }
    this.logins.succeeded(user);
    return { ok: true, principal: { user, via: "password" } };
  }

  /** A secret (CREATE SECRET): the principal is its owner, acting on the secret's graph. */
  authenticateSecret(secret: string): Principal | undefined {
    if (secret.length !== CREDENTIAL_LENGTH) return undefined;
    const found = this.store.secretByDigest(credentialDigest(secret));
    if (!found || !this.store.user(found.user)) return undefined;
    return { user: found.user, graph: found.graph, via: "secret" };
  }

  /** A Bearer token: too short, unknown, expired, or the principal it stands for. */
  checkToken(token: string): TokenCheck {
    if (token.length < CREDENTIAL_LENGTH) return { ok: false, reason: "short" };
    const ephemeral = this.ephemeral.get(credentialDigest(token));
    if (ephemeral) {
      if (ephemeral.until > this.now()) return { ok: true, principal: ephemeral.principal, token: { digest: "", user: ephemeral.principal.user, expiresAt: 0 } };
      this.ephemeral.delete(credentialDigest(token));
    }
    if (token.length !== CREDENTIAL_LENGTH) return { ok: false, reason: "unknown" };
    const found = this.store.tokenByDigest(credentialDigest(token));
    if (!found || !this.store.user(found.user)) return { ok: false, reason: "unknown" };
    if (found.expiresAt * 1000 <= this.now()) return { ok: false, reason: "expired" };
    const principal: Principal = { user: found.user, via: "token" };
    if (found.graph !== undefined) principal.graph = found.graph;
    return { ok: true, principal, token: found };
  }

  // --- tokens -------------------------------------------------------------------------------

  /** Issues a token for `principal` (its graph, or `graph`), valid `lifetimeSeconds`; returns the value once. */
  issueToken(principal: Principal, graph: string | undefined, lifetimeSeconds: number, secretDigest?: string): { token: string; expiration: number } {
    const token = randomCredential();
    const now = Math.floor(this.now() / 1000);
    const record: AuthToken = { digest: credentialDigest(token), user: principal.user, expiresAt: now + lifetimeSeconds };
    if (graph !== undefined) record.graph = graph;
    if (secretDigest !== undefined) record.secret = secretDigest;
    this.submit([{ kind: "put-token", token: record, now }]);
    return { token, expiration: record.expiresAt };
  }

  /** New expiry (now + lifetime) for an existing, unexpired token. */
  refreshToken(existing: AuthToken, lifetimeSeconds: number): number {
    const now = Math.floor(this.now() / 1000);
    this.submit([{ kind: "put-token", token: { ...existing, expiresAt: now + lifetimeSeconds }, now }]);
    return now + lifetimeSeconds;
  }

  dropToken(existing: AuthToken): void {
    this.submit([{ kind: "drop-token", digest: existing.digest }]);
  }

  /**
   * A token for the server's own in-process REST call on behalf of `principal` (RUN QUERY at
   * the shell goes through GET /query like any client). Kept in memory only.
   */
  ephemeralAuthorization(principal: Principal): string {
    const now = this.now();
    for (const [d, e] of this.ephemeral) if (e.until <= now) this.ephemeral.delete(d);
    const token = randomCredential(CREDENTIAL_LENGTH + 8);
    this.ephemeral.set(credentialDigest(token), { principal, until: now + EPHEMERAL_TTL_MS });
    return `Bearer ${token}`;
  }

  // --- internals ----------------------------------------------------------------------------

  private async checkPassword(user: string, password: string, stored: PasswordHash): Promise<boolean> {
    const key = createHmac("sha256", this.cacheKey).update(user).update("\u0000").update(password).digest("hex");
    const now = this.now();
    const hit = this.verified.get(key);
    if (hit && hit.until > now && hit.user === user && hit.hash === stored.hash) return true;
    const ok = await verifyPassword(password, stored);
    if (ok) {
      if (this.verified.size >= VERIFIED_MAX) this.verified.clear();
      this.verified.set(key, { user, hash: stored.hash, until: now + VERIFIED_TTL_MS });
    }
    return ok;
  }

  /** An unknown user costs as much time as a wrong password, so timing does not tell which names exist. */
  private async burnTime(password: string): Promise<false> {
    this.dummyHash ??= await hashPassword(randomCredential(), this.scryptCost);
    await verifyPassword(password, this.dummyHash);
    return false;
  }

  private dummyHash: PasswordHash | undefined;
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
export function isLoopback(address: string): boolean {
  const a = address.startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
  return a === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

/** A token lifetime from a request: seconds as a number or digits; undefined means the default. */
export function parseLifetime(value: unknown): { ok: true; seconds?: number } | { ok: false; message: string } {
  if (value === undefined || value === null || value === "") return { ok: true };
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : undefined;
  if (text === undefined || !/^[0-9]{1,12}$/.test(text)) {
    return { ok: false, message: `The lifetime must be a whole number of seconds between 1 and ${MAX_TOKEN_LIFETIME_SECONDS}.` };
  }
  const seconds = Number(text);
  if (seconds < 1 || seconds > MAX_TOKEN_LIFETIME_SECONDS) {
    return { ok: false, message: `The lifetime must be a whole number of seconds between 1 and ${MAX_TOKEN_LIFETIME_SECONDS}.` };
  }
  return { ok: true, seconds };
}
