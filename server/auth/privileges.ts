// The privilege vocabulary and the built-in roles (gsql-ddl-loading-shell §11). A privilege
// is held on one graph or globally; a role is a named set of privileges. Each built-in graph
// role includes the one before it. "architect", the older name, reads as designer.

/** Privileges that can be held on a single graph (or globally, which means on every graph). */
export const GRAPH_PRIVILEGES = [
  "READ_SCHEMA", "WRITE_SCHEMA",
  "READ_LOADINGJOB", "EXECUTE_LOADINGJOB", "WRITE_LOADINGJOB",
  "READ_QUERY", "WRITE_QUERY",
  "READ_DATA", "CREATE_DATA", "UPDATE_DATA", "DELETE_DATA",
  "ACCESS_TAG",
  "READ_ROLE", "WRITE_ROLE", "READ_USER", "WRITE_DATASOURCE", "READ_PROXYGROUP",
] as const;

/** Privileges that exist only at the global scope. */
export const GLOBAL_ONLY_PRIVILEGES = [
  "WRITE_USER", "DROP_GRAPH", "DROP_ALL", "CLEAR_GRAPHSTORE", "EXPORT_GRAPH", "IMPORT_GRAPH",
  "READ_FILE", "WRITE_FILE", "WRITE_PROXYGROUP",
] as const;

export type GraphPrivilege = (typeof GRAPH_PRIVILEGES)[number];
export type GlobalOnlyPrivilege = (typeof GLOBAL_ONLY_PRIVILEGES)[number];
export type Privilege = GraphPrivilege | GlobalOnlyPrivilege;

export const ALL_PRIVILEGES: readonly Privilege[] = [...GRAPH_PRIVILEGES, ...GLOBAL_ONLY_PRIVILEGES];

/** Names accepted in GRANT PRIVILEGE that stand for several privileges (the 3.2 spelling of data writes). */
const PRIVILEGE_GROUPS: Record<string, readonly Privilege[]> = {
  WRITE_DATA: ["CREATE_DATA", "UPDATE_DATA", "DELETE_DATA"],
};

/** The data-writing privileges an upsert or a data-modifying query needs. */
export const WRITE_DATA: readonly Privilege[] = PRIVILEGE_GROUPS.WRITE_DATA!;

export function isGlobalOnly(p: Privilege): boolean {
  return (GLOBAL_ONLY_PRIVILEGES as readonly string[]).includes(p);
}

/** The privileges a name written in GRANT/REVOKE PRIVILEGE stands for (any case); undefined when unknown. */
export function privilegesNamed(name: string): readonly Privilege[] | undefined {
  const upper = name.toUpperCase();
  if (PRIVILEGE_GROUPS[upper]) return PRIVILEGE_GROUPS[upper];
  return (ALL_PRIVILEGES as readonly string[]).includes(upper) ? [upper as Privilege] : undefined;
}

export type BuiltInRoleName = "observer" | "queryreader" | "querywriter" | "designer" | "admin" | "globaldesigner" | "superuser";

export interface BuiltInRole {
  name: BuiltInRoleName;
  /** Graph roles are granted on one graph; global roles apply to every graph and the global scope. */
  scope: "graph" | "global";
  privileges: ReadonlySet<Privilege>;
}

const observer: Privilege[] = ["READ_SCHEMA", "READ_LOADINGJOB", "READ_QUERY"];
const queryreader: Privilege[] = [...observer, "EXECUTE_LOADINGJOB", "READ_DATA"];
const querywriter: Privilege[] = [...queryreader, "WRITE_QUERY", ...WRITE_DATA];
const designer: Privilege[] = [...querywriter, "WRITE_SCHEMA", "WRITE_LOADINGJOB", "ACCESS_TAG"];
const admin: Privilege[] = [...designer, "WRITE_ROLE", "WRITE_DATASOURCE", "READ_ROLE", "READ_USER", "READ_PROXYGROUP"];

/** In the order `SHOW ROLE` lists them. */
export const BUILT_IN_ROLES: readonly BuiltInRole[] = [
  { name: "observer", scope: "graph", privileges: new Set(observer) },
  { name: "queryreader", scope: "graph", privileges: new Set(queryreader) },
  { name: "querywriter", scope: "graph", privileges: new Set(querywriter) },
  { name: "designer", scope: "graph", privileges: new Set(designer) },
  { name: "admin", scope: "graph", privileges: new Set(admin) },
  // Designer rights everywhere; DROP_GRAPH only on the graphs it created (access.ts).
  { name: "globaldesigner", scope: "global", privileges: new Set(designer) },
  { name: "superuser", scope: "global", privileges: new Set(ALL_PRIVILEGES) },
];

const ROLE_ALIASES: Record<string, BuiltInRoleName> = { architect: "designer" };

/** The built-in role a name means (any case; "architect" is designer). */
export function builtInRole(name: string): BuiltInRole | undefined {
  const lower = name.toLowerCase();
  const canonical = ROLE_ALIASES[lower] ?? lower;
  return BUILT_IN_ROLES.find((r) => r.name === canonical);
}

/** True for every name a user-defined role may not take. */
export function isReservedRoleName(name: string): boolean {
  return builtInRole(name) !== undefined || name.toLowerCase() === "nobody" || name.toLowerCase() === "all";
}
