// The durable state of authentication and authorisation, as plain JSON-serialisable data:
// users (password hashes, never passwords), user-defined roles, role grants, secrets and
// tokens (SHA-256 digests, never their values), query ACLs and graph owners. It changes
// only through `AuthStore.apply(changes)`, which the engine calls for an "auth" command, so
// every change is logged and replayed like any other; applying is deterministic (times
// travel in the changes) and a change naming a missing item is a no-op.

/** A scrypt hash of a password with its own salt and cost, all base64 where binary. */
export interface PasswordHash {
  scheme: "scrypt";
  N: number;
  r: number;
  p: number;
  salt: string;
  hash: string;
}

export interface AuthUser {
  name: string;
  password: PasswordHash;
  /** The built-in superuser still has its default password (refused from other machines). */
  defaultPassword?: boolean;
  /** Unix milliseconds. */
  createdAt: number;
  /** The ACL password guarding the ACLs of the user's queries (none by default). */
  aclPassword?: PasswordHash;
}

/** Privileges of a user-defined role on one graph, or (graph absent) globally. */
export interface RolePrivileges {
  graph?: string;
  names: string[];
}

export interface AuthRole {
  name: string;
  /** A local role belongs to this graph; absent for a global role. */
  graph?: string;
  privileges: RolePrivileges[];
}

/** A role held by a user on one graph, or (graph absent) globally. */
export interface RoleGrant {
  user: string;
  role: string;
  graph?: string;
}

export interface AuthSecret {
  /** SHA-256 of the secret, hex. */
  digest: string;
  user: string;
  graph: string;
  alias: string;
  /** First and last three characters around `****`, as SHOW SECRET prints it. */
  mask: string;
  createdAt: number;
}

export interface AuthToken {
  /** SHA-256 of the token, hex. */
  digest: string;
  user: string;
  /** The graph the token acts on; absent for a token obtained with a password and no graph. */
  graph?: string;
  /** Digest of the secret it was made from, if any (dropping the secret drops the token). */
  secret?: string;
  /** Unix seconds. */
  expiresAt: number;
}

/** An ACL entry: the roles allowed, or nobody. An absent entry leaves the decision to the roles. */
export type AclEntry = { roles: string[] } | { nobody: true };

export interface QueryAcl {
  graph: string;
  query: string;
  owner: string;
  read?: AclEntry;
  execute?: AclEntry;
}

export interface AuthState {
  users: AuthUser[];
  roles: AuthRole[];
  grants: RoleGrant[];
  secrets: AuthSecret[];
  tokens: AuthToken[];
  queryAcls: QueryAcl[];
  /** Who created each graph (a globaldesigner may drop the graphs it created). */
  graphOwners: { graph: string; user: string }[];
}

export type AuthChange =
  | { kind: "put-user"; user: AuthUser }
  /** Sets (or, with no password, clears) a user's ACL password. */
  | { kind: "set-acl-password"; user: string; password?: PasswordHash }
  /** Also drops the user's grants, secrets, tokens and graph ownerships. */
  | { kind: "drop-user"; name: string }
  | { kind: "put-role"; role: AuthRole }
  /** Also drops its grants and its mentions in query ACLs. */
  | { kind: "drop-role"; name: string }
  | { kind: "grant-role"; grant: RoleGrant }
  /** A user left with no role on a graph loses the secrets and tokens of that graph. */
  | { kind: "revoke-role"; grant: RoleGrant }
  | { kind: "put-secret"; secret: AuthSecret }
  /** Also drops the tokens made from it. */
  | { kind: "drop-secret"; digest: string }
  /** Adds or replaces (refresh) a token; tokens expired at `now` (unix seconds) go. */
  | { kind: "put-token"; token: AuthToken; now: number }
  | { kind: "drop-token"; digest: string }
  | { kind: "put-query-acl"; acl: QueryAcl }
  /** ACLs of the named queries of a graph, or of all its queries. */
  | { kind: "drop-query-acls"; graph: string; queries?: string[] }
  | { kind: "put-graph-owner"; graph: string; user: string }
  | { kind: "drop-graph-owner"; graph: string };

export function emptyAuthState(): AuthState {
  return { users: [], roles: [], grants: [], secrets: [], tokens: [], queryAcls: [], graphOwners: [] };
}

const aclKey = (graph: string, query: string) => `${graph}\u0000${query}`;

/** The auth state with the indexes requests need (by name, by digest). */
export class AuthStore {
  private users = new Map<string, AuthUser>();
  private roles = new Map<string, AuthRole>();
  private grantList: RoleGrant[] = [];
  private secrets = new Map<string, AuthSecret>();
  private tokens = new Map<string, AuthToken>();
  private acls = new Map<string, QueryAcl>();
  private graphOwners = new Map<string, string>();

  constructor(state: AuthState = emptyAuthState()) {
    this.restore(state);
  }

  /** Applies changes in order (live and on replay). */
  apply(changes: readonly AuthChange[]): void {
    for (const change of changes) this.applyOne(change);
  }

  /** The whole state as plain data, for snapshots. */
  snapshot(): AuthState {
    return structuredClone({
      users: [...this.users.values()],
      roles: [...this.roles.values()],
      grants: this.grantList,
      secrets: [...this.secrets.values()],
      tokens: [...this.tokens.values()],
      queryAcls: [...this.acls.values()],
      graphOwners: [...this.graphOwners].map(([graph, user]) => ({ graph, user })),
    });
  }

  /** Replaces the whole state (recovery from a snapshot). */
  restore(state: AuthState): void {
    const s = structuredClone(state);
    this.users = new Map(s.users.map((u) => [u.name, u]));
    this.roles = new Map(s.roles.map((r) => [r.name, r]));
    this.grantList = s.grants;
    this.secrets = new Map(s.secrets.map((x) => [x.digest, x]));
    this.tokens = new Map(s.tokens.map((t) => [t.digest, t]));
    this.acls = new Map(s.queryAcls.map((a) => [aclKey(a.graph, a.query), a]));
    this.graphOwners = new Map(s.graphOwners.map((o) => [o.graph, o.user]));
  }

  // --- reads (callers must not modify what they get) ---------------------------------------

  user(name: string): AuthUser | undefined {
    return this.users.get(name);
  }

  userList(): AuthUser[] {
    return [...this.users.values()];
  }

  role(name: string): AuthRole | undefined {
    return this.roles.get(name);
  }

  roleList(): AuthRole[] {
    return [...this.roles.values()];
  }

  grants(): readonly RoleGrant[] {
    return this.grantList;
  }

  grantsOf(user: string): RoleGrant[] {
    return this.grantList.filter((g) => g.user === user);
  }

  secretByDigest(digest: string): AuthSecret | undefined {
    return this.secrets.get(digest);
  }

  secretsOf(user: string): AuthSecret[] {
    return [...this.secrets.values()].filter((s) => s.user === user);
  }

  tokenByDigest(digest: string): AuthToken | undefined {
    return this.tokens.get(digest);
  }

  tokenCount(): number {
    return this.tokens.size;
  }

  tokenList(): AuthToken[] {
    return [...this.tokens.values()];
  }

  secretList(): AuthSecret[] {
    return [...this.secrets.values()];
  }

  queryAcl(graph: string, query: string): QueryAcl | undefined {
    return this.acls.get(aclKey(graph, query));
  }

  queryAcls(): QueryAcl[] {
    return [...this.acls.values()];
  }

  graphOwner(graph: string): string | undefined {
    return this.graphOwners.get(graph);
  }

  graphOwnerList(): { graph: string; user: string }[] {
    return [...this.graphOwners].map(([graph, user]) => ({ graph, user }));
  }

  // --- changes --------------------------------------------------------------------------------

  private applyOne(change: AuthChange): void {
    switch (change.kind) {
      case "put-user":
        this.users.set(change.user.name, structuredClone(change.user));
        return;
      case "set-acl-password": {
        const user = this.users.get(change.user);
        if (!user) return;
        const { aclPassword: _old, ...rest } = user;
        this.users.set(change.user, change.password ? { ...rest, aclPassword: structuredClone(change.password) } : rest);
        return;
      }
      case "drop-user": {
        if (!this.users.delete(change.name)) return;
        this.grantList = this.grantList.filter((g) => g.user !== change.name);
        for (const [d, s] of this.secrets) if (s.user === change.name) this.secrets.delete(d);
        for (const [d, t] of this.tokens) if (t.user === change.name) this.tokens.delete(d);
        for (const [g, u] of this.graphOwners) if (u === change.name) this.graphOwners.delete(g);
        return;
      }
      case "put-role":
        this.roles.set(change.role.name, structuredClone(change.role));
        return;
      case "drop-role": {
        if (!this.roles.delete(change.name)) return;
        this.grantList = this.grantList.filter((g) => g.role !== change.name);
        for (const acl of this.acls.values()) {
          for (const key of ["read", "execute"] as const) {
            const entry = acl[key];
            if (entry && "roles" in entry) entry.roles = entry.roles.filter((r) => r !== change.name);
          }
        }
        this.dropOrphanedCredentials();
        return;
      }
      case "grant-role": {
        const g = change.grant;
        if (!this.grantList.some((x) => sameGrant(x, g))) this.grantList.push({ ...g });
        return;
      }
      case "revoke-role":
        this.grantList = this.grantList.filter((x) => !sameGrant(x, change.grant));
        this.dropOrphanedCredentials();
        return;
      case "put-secret":
        this.secrets.set(change.secret.digest, structuredClone(change.secret));
        return;
      case "drop-secret":
        if (!this.secrets.delete(change.digest)) return;
        for (const [d, t] of this.tokens) if (t.secret === change.digest) this.tokens.delete(d);
        return;
      case "put-token":
        for (const [d, t] of this.tokens) if (t.expiresAt <= change.now) this.tokens.delete(d);
        this.tokens.set(change.token.digest, structuredClone(change.token));
        return;
      case "drop-token":
        this.tokens.delete(change.digest);
        return;
      case "put-query-acl":
        this.acls.set(aclKey(change.acl.graph, change.acl.query), structuredClone(change.acl));
        return;
      case "drop-query-acls":
        for (const [k, a] of this.acls) {
          if (a.graph === change.graph && (change.queries === undefined || change.queries.includes(a.query))) this.acls.delete(k);
        }
        return;
      case "put-graph-owner":
        this.graphOwners.set(change.graph, change.user);
        return;
      case "drop-graph-owner":
        this.graphOwners.delete(change.graph);
        return;
    }
  }

  /**
   * A secret belongs to a user and a graph; once the user holds no role that reaches that
   * graph, the secret and every token for that graph stop working (§11: revoking the role
   * invalidates the secret).
   */
  private dropOrphanedCredentials(): void {
    const reaches = (user: string, graph: string) => this.grantList.some((g) => g.user === user && (g.graph === undefined || g.graph === graph));
    for (const [d, s] of this.secrets) {
      if (!reaches(s.user, s.graph)) this.secrets.delete(d);
    }
    for (const [d, t] of this.tokens) {
      const orphanedSecret = t.secret !== undefined && !this.secrets.has(t.secret);
      if (orphanedSecret || (t.graph !== undefined && !reaches(t.user, t.graph))) this.tokens.delete(d);
    }
  }
}

function sameGrant(a: RoleGrant, b: RoleGrant): boolean {
  return a.user === b.user && a.role === b.role && a.graph === b.graph;
}
