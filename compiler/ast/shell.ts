// Shell commands: query lifecycle (INSTALL/RUN/INTERPRET/SHOW), listing, session settings,
// users, roles, secrets, store maintenance and BEGIN ... END blocks.
import type { AstAllNames, AstFlag, AstIdent, AstNodeBase, AstStringLiteral } from "./node.js";
import type { AstExpr } from "./expressions.js";
import type { AstTopStatement } from "./script.js";

/** `INSTALL QUERY [-force] [-OPTIMIZE] [-DISTRIBUTED] (names | * | ALL)`; names may be empty with -OPTIMIZE. */
export interface AstInstallQuery extends AstNodeBase {
  kind: "InstallQuery";
  flags: AstFlag[];
  names: AstIdent[];
  all?: AstAllNames;
}

/** `RUN QUERY [-av] [-d] name(args)`: args are literals, `_`, `[...]` lists and `("id", "Type")` pairs. */
export interface AstRunQuery extends AstNodeBase {
  kind: "RunQuery";
  flags: AstFlag[];
  name: AstIdent;
  args: AstExpr[];
}

/** `INTERPRET QUERY name(args)`: interpret a created query. */
export interface AstInterpretQuery extends AstNodeBase {
  kind: "InterpretQuery";
  flags: AstFlag[];
  name: AstIdent;
  args: AstExpr[];
}

export type AstShowTarget =
  | "QUERY" | "VERTEX" | "EDGE" | "GRAPH" | "JOB" | "PACKAGE" | "USER" | "SECRET" | "ROLE"
  | "LOADING STATUS" | "PRIVILEGE" | "ACL PRIVILEGE";

/**
 * `SHOW QUERY|VERTEX|EDGE|GRAPH|JOB|PACKAGE [name | glob | -r "regex"]`, `SHOW USER`,
 * `SHOW SECRET`, `SHOW ROLE`, `SHOW LOADING STATUS jobid|ALL`, `SHOW PRIVILEGE ON USER|ROLE x`,
 * `SHOW ACL PRIVILEGE ON QUERY|USER|ROLE x[, y]`.
 * `pattern` is the name or glob exactly as written (`*` and `?` kept).
 */
export interface AstShow extends AstNodeBase {
  kind: "Show";
  target: AstShowTarget;
  pattern?: string;
  regex?: AstStringLiteral;
  /** SHOW PRIVILEGE ON USER u / ON ROLE r; SHOW ACL PRIVILEGE ON QUERY|USER|ROLE x[, y] (`name` is the first of `names`). */
  on?: { target: "USER" | "ROLE" | "QUERY"; name: AstIdent; names?: AstIdent[] };
}

export interface AstLs extends AstNodeBase {
  kind: "Ls";
}

/** `SET name = value` (json_api, exit_on_error, syntax_version, sys.data_root, ...). `name` is as written, dotted. */
export interface AstSet extends AstNodeBase {
  kind: "Set";
  name: string;
  value: AstExpr;
}

/** `CREATE SECRET [alias]` */
export interface AstCreateSecret extends AstNodeBase {
  kind: "CreateSecret";
  alias?: AstIdent;
}

/** `CREATE USER` (the password dialog follows) */
export interface AstCreateUser extends AstNodeBase {
  kind: "CreateUser";
  name?: AstIdent;
}

/** `ALTER PASSWORD [user]` */
export interface AstAlterPassword extends AstNodeBase {
  kind: "AlterPassword";
  user?: AstIdent;
}

/**
 * `ALTER [USER u] ACL PASSWORD` (`prompt`: a dialog asks), `... SET new [REPLACE current]`
 * (`set`), `... CLEAR REPLACE current` (`clear`). Passwords as written, quotes removed.
 */
export interface AstAlterAclPassword extends AstNodeBase {
  kind: "AlterAclPassword";
  user?: AstIdent;
  action: "prompt" | "set" | "clear";
  password?: string;
  current?: string;
}

/** `CHANGE OWNER OF QUERY q TO user [SECURED BY "pw"]` */
export interface AstChangeOwner extends AstNodeBase {
  kind: "ChangeOwner";
  query: AstIdent;
  user: AstIdent;
  /** The current owner's ACL password, quotes removed. */
  securedBy?: string;
}

/** `CREATE ROLE r [, r2] [ON GRAPH g | ON GLOBAL]` */
export interface AstCreateRole extends AstNodeBase {
  kind: "CreateRole";
  names: AstIdent[];
  graph?: AstIdent;
  global: boolean;
}

/** `GRANT ROLE r [, r2] [ON GRAPH g] TO u [, u2]` / `REVOKE ROLE ... FROM u` */
export interface AstRoleGrant extends AstNodeBase {
  kind: "GrantRole" | "RevokeRole";
  roles: AstIdent[];
  graph?: AstIdent;
  users: AstIdent[];
}

/** `GRANT PRIVILEGE P [, P2] [ON GRAPH g | ON GLOBAL] TO r` / `REVOKE PRIVILEGE ... FROM r` */
export interface AstPrivilegeGrant extends AstNodeBase {
  kind: "GrantPrivilege" | "RevokePrivilege";
  privileges: AstIdent[];
  graph?: AstIdent;
  global: boolean;
  roles: AstIdent[];
}

/**
 * `GRANT ACL PRIVILEGE READ|EXECUTE[, ...] ON QUERY q TO r1[, r2] | NOBODY` /
 * `REVOKE ACL PRIVILEGE ... ON QUERY q FROM r1[, r2] | ALL`, each `[SECURED BY "pw"]`: names as
 * written (NOBODY and ALL arrive as names).
 */
export interface AstAclGrant extends AstNodeBase {
  kind: "GrantAcl" | "RevokeAcl";
  privileges: AstIdent[];
  query: AstIdent;
  roles: AstIdent[];
  /** The owner's ACL password, quotes removed. */
  securedBy?: string;
}

/** `CLEAR GRAPH STORE [-HARD]` */
export interface AstClearGraphStore extends AstNodeBase {
  kind: "ClearGraphStore";
  flags: AstFlag[];
}

/** `ABORT LOADING JOB jobid|ALL` / `RESUME LOADING JOB jobid` (`jobId` as written). */
export interface AstLoadingJobControl extends AstNodeBase {
  kind: "AbortLoadingJob" | "ResumeLoadingJob";
  jobId?: string;
  all: boolean;
}

/** `HELP [topic]` */
export interface AstHelp extends AstNodeBase {
  kind: "Help";
  topic?: AstIdent;
}

/** A shell `BEGIN ... END` block (sent as one unit), or `BEGIN ... ABORT` (discarded). */
export interface AstShellBlock extends AstNodeBase {
  kind: "ShellBlock";
  statements: AstTopStatement[];
  aborted: boolean;
}
