// Plugs authentication into the GSQL executor: the access check every statement passes, and
// the handlers of the user, role, secret and ACL statements.
import type { AstAclGrant, AstAlterAclPassword, AstAlterPassword, AstChangeOwner, AstCreateRole, AstCreateSecret, AstCreateUser, AstDrop, AstPrivilegeGrant, AstRoleGrant, AstShow } from "../../../compiler/ast/index.js";
import type { ExecServices, StatementHandler } from "../../gsql/exec/context.js";
import type { AuthService } from "../auth-service.js";
import { createExecAccess } from "../exec-access.js";
import { runAlterAclPassword } from "./acl-password.js";
import { runShowAcl } from "./acl-show.js";
import { runAclGrant, runChangeOwner } from "./acl-statements.js";
import { runCreateRole, runDropRole, runPrivilegeGrant, runRoleGrant, runShowRole, runShowRolePrivileges } from "./role-statements.js";
import { runCreateSecret, runDropSecret, runShowSecret } from "./secret-statements.js";
import { runAlterPassword, runCreateUser, runDropUser, runShowUser, runShowUserPrivileges } from "./user-statements.js";

export function registerAuthStatements(exec: ExecServices, auth: AuthService): void {
  exec.access = createExecAccess(auth, exec.catalog);
  const handlers: Record<string, StatementHandler> = {
    CreateUser: (s, ctx) => runCreateUser(auth, s as AstCreateUser, ctx),
    "Drop:USER": (s, ctx) => runDropUser(auth, s as AstDrop, ctx),
    AlterPassword: (s, ctx) => runAlterPassword(auth, s as AstAlterPassword, ctx),
    "Show:USER": (s, ctx) => runShowUser(auth, s as AstShow, ctx),
    "Show:PRIVILEGE": (s, ctx) => ((s as AstShow).on?.target === "ROLE" ? runShowRolePrivileges(auth, s as AstShow, ctx) : runShowUserPrivileges(auth, s as AstShow, ctx)),
    CreateRole: (s, ctx) => runCreateRole(auth, s as AstCreateRole, ctx),
    "Drop:ROLE": (s, ctx) => runDropRole(auth, s as AstDrop, ctx),
    "Show:ROLE": (s, ctx) => runShowRole(auth, s as AstShow, ctx),
    GrantRole: (s, ctx) => runRoleGrant(auth, s as AstRoleGrant, ctx),
    RevokeRole: (s, ctx) => runRoleGrant(auth, s as AstRoleGrant, ctx),
    GrantPrivilege: (s, ctx) => runPrivilegeGrant(auth, s as AstPrivilegeGrant, ctx),
    RevokePrivilege: (s, ctx) => runPrivilegeGrant(auth, s as AstPrivilegeGrant, ctx),
    CreateSecret: (s, ctx) => runCreateSecret(auth, s as AstCreateSecret, ctx),
    "Show:SECRET": (s, ctx) => runShowSecret(auth, s as AstShow, ctx),
    "Drop:SECRET": (s, ctx) => runDropSecret(auth, s as AstDrop, ctx),
    GrantAcl: (s, ctx) => runAclGrant(auth, s as AstAclGrant, ctx),
    RevokeAcl: (s, ctx) => runAclGrant(auth, s as AstAclGrant, ctx),
    "Show:ACL PRIVILEGE": (s, ctx) => runShowAcl(auth, s as AstShow, ctx),
    ChangeOwner: (s, ctx) => runChangeOwner(auth, s as AstChangeOwner, ctx),
    AlterAclPassword: (s, ctx) => runAlterAclPassword(auth, s as AstAlterAclPassword, ctx),
  };
  for (const [key, handler] of Object.entries(handlers)) exec.extraHandlers.set(key, handler);
}
