// Builds shell-command nodes: INSTALL / RUN / INTERPRET / SHOW QUERY, ls, SET, users, roles,
// secrets, privileges, CLEAR GRAPH STORE, loading-job control, HELP.
import * as P from "../parse/generated/GSQLParser.js";
import type { AstBuilder } from "./build-ast.js";
import type { AstIdent } from "./node.js";
import type {
  AstAclGrant, AstAlterAclPassword, AstAlterPassword, AstChangeOwner, AstClearGraphStore, AstCreateRole, AstCreateSecret, AstCreateUser, AstHelp, AstInstallQuery,
  AstInterpretQuery, AstLoadingJobControl, AstPrivilegeGrant, AstRoleGrant, AstRunQuery, AstSet, AstShow, AstShowTarget,
} from "./shell.js";

export class ShellBuilder {
  constructor(private readonly b: AstBuilder) {}

  installQuery(ctx: P.InstallQueryContext): AstInstallQuery {
    const node: AstInstallQuery = {
      kind: "InstallQuery", flags: ctx.flag().map((f) => this.b.flag(f)), names: this.b.ddl.names(ctx.nameList()),
      range: this.b.range(ctx),
    };
    const all = ctx.allNames();
    if (all !== null) node.all = this.b.allNames(all);
    return node;
  }

  runQuery(ctx: P.RunQueryContext | P.InterpretQueryContext): AstRunQuery | AstInterpretQuery {
    return {
      kind: ctx instanceof P.RunQueryContext ? "RunQuery" : "InterpretQuery", flags: ctx.flag().map((f) => this.b.flag(f)),
      name: this.b.ident(ctx.identifier()), args: this.b.exprs.args(ctx.args()), range: this.b.range(ctx),
    };
  }

  show(ctx: P.ShowStatementContext): AstShow {
    const range = this.b.range(ctx);
    const word = this.b.word(ctx.getChild(1)!).toUpperCase();
    if (ctx instanceof P.ShowObjectsContext) {
      const node: AstShow = { kind: "Show", target: word as AstShowTarget, range };
      const glob = ctx.globPattern();
      if (glob !== null) node.pattern = this.b.joinedWords(glob);
      const regex = ctx.STRING_LIT();
      if (regex !== null) node.regex = this.b.stringLiteral(regex);
      return node;
    }
    if (ctx instanceof P.ShowLoadingStatusContext) {
      const words = ctx.wordSequence();
      return { kind: "Show", target: "LOADING STATUS", pattern: words === null ? "ALL" : this.b.joinedWords(words), range };
    }
    if (ctx instanceof P.ShowAclPrivilegeContext) {
      const names = this.b.ddl.names(ctx.nameList());
      const target = ctx.USER() !== null ? "USER" : ctx.ROLE() !== null ? "ROLE" : "QUERY";
      return { kind: "Show", target: "ACL PRIVILEGE", range, on: { target, name: names[0]!, names } };
    }
    if (ctx instanceof P.ShowPrivilegeContext) {
      return {
        kind: "Show", target: "PRIVILEGE", range,
        on: { target: ctx.USER() !== null ? "USER" : "ROLE", name: this.b.ident(ctx.identifier()) },
      };
    }
    return { kind: "Show", target: word as AstShowTarget, range };
  }

  set(ctx: P.SetStatementContext): AstSet {
    return {
      kind: "Set", name: ctx.identifier().map((id) => this.b.word(id)).join("."), value: this.b.ddl.optionValue(ctx.optionValue()),
      range: this.b.range(ctx),
    };
  }

  createSecret(ctx: P.CreateSecretContext): AstCreateSecret {
    const alias = ctx.plainName();
    return alias === null ? { kind: "CreateSecret", range: this.b.range(ctx) }
      : { kind: "CreateSecret", alias: this.b.ident(alias), range: this.b.range(ctx) };
  }

  createUser(ctx: P.CreateUserContext): AstCreateUser {
    const name = ctx.plainName();
    return name === null ? { kind: "CreateUser", range: this.b.range(ctx) }
      : { kind: "CreateUser", name: this.b.ident(name), range: this.b.range(ctx) };
  }

  alterPassword(ctx: P.AlterPasswordContext): AstAlterPassword {
    const user = ctx.plainName();
    return user === null ? { kind: "AlterPassword", range: this.b.range(ctx) }
      : { kind: "AlterPassword", user: this.b.ident(user), range: this.b.range(ctx) };
  }

  alterAclPassword(ctx: P.AlterAclPasswordContext): AstAlterAclPassword {
    const texts = ctx.aclPasswordText().map((t) => this.aclPasswordText(t));
    const action = ctx.SET() !== null ? "set" : ctx.CLEAR() !== null ? "clear" : "prompt";
    const node: AstAlterAclPassword = { kind: "AlterAclPassword", action, range: this.b.range(ctx) };
    const user = ctx.identifier();
    if (user !== null) node.user = this.b.ident(user);
    if (action === "set") {
      node.password = texts[0]!;
      if (texts.length > 1) node.current = texts[1]!;
    } else if (action === "clear") {
      node.current = texts[0]!;
    }
    return node;
  }

  changeOwner(ctx: P.ChangeOwnerContext): AstChangeOwner {
    const [query, user] = ctx.identifier();
    const node: AstChangeOwner = { kind: "ChangeOwner", query: this.b.ident(query!), user: this.b.ident(user!), range: this.b.range(ctx) };
    const secured = ctx.securedBy();
    if (secured !== null) node.securedBy = this.aclPasswordText(secured.aclPasswordText());
    return node;
  }

  /** A password as written: a string's value, or a bare word or number's text. */
  private aclPasswordText(ctx: P.AclPasswordTextContext): string {
    const str = ctx.STRING_LIT();
    return str !== null ? this.b.stringLiteral(str).value : ctx.getText();
  }

  createRole(ctx: P.CreateRoleContext): AstCreateRole {
    const node: AstCreateRole = {
      kind: "CreateRole", names: this.b.ddl.names(ctx.nameList()), global: ctx.GLOBAL() !== null, range: this.b.range(ctx),
    };
    const graph = ctx.identifier();
    if (graph !== null) node.graph = this.b.ident(graph);
    return node;
  }

  roleGrant(ctx: P.RoleGrantContext): AstRoleGrant {
    const c = ctx as P.GrantRoleContext | P.RevokeRoleContext;
    const [roles, users] = c.nameList();
    const node: AstRoleGrant = {
      kind: ctx instanceof P.GrantRoleContext ? "GrantRole" : "RevokeRole", roles: this.b.ddl.names(roles!),
      users: this.b.ddl.names(users!), range: this.b.range(ctx),
    };
    const graph = c.identifier();
    if (graph !== null) node.graph = this.b.ident(graph);
    return node;
  }

  privilegeGrant(ctx: P.PrivilegeGrantContext): AstPrivilegeGrant {
    const c = ctx as P.GrantPrivilegeContext | P.RevokePrivilegeContext;
    const [privileges, roles] = c.nameList();
    const node: AstPrivilegeGrant = {
      kind: ctx instanceof P.GrantPrivilegeContext ? "GrantPrivilege" : "RevokePrivilege",
      privileges: this.b.ddl.names(privileges!), global: c.GLOBAL() !== null, roles: this.b.ddl.names(roles!), range: this.b.range(ctx),
    };
    const graph = c.identifier();
    if (graph !== null) node.graph = this.b.ident(graph);
    return node;
  }

  aclGrant(ctx: P.AclGrantContext): AstAclGrant {
    const c = ctx as P.GrantAclContext | P.RevokeAclContext;
    const [privileges, roles] = c.nameList();
    const node: AstAclGrant = {
      kind: ctx instanceof P.GrantAclContext ? "GrantAcl" : "RevokeAcl", privileges: this.b.ddl.names(privileges!),
      query: this.b.ident(c.identifier()), roles: this.b.ddl.names(roles!), range: this.b.range(ctx),
    };
    const secured = c.securedBy();
    if (secured !== null) node.securedBy = this.aclPasswordText(secured.aclPasswordText());
    return node;
  }

  clearGraphStore(ctx: P.ClearGraphStoreContext): AstClearGraphStore {
    return { kind: "ClearGraphStore", flags: ctx.flag().map((f) => this.b.flag(f)), range: this.b.range(ctx) };
  }

  loadingJobControl(ctx: P.LoadingJobControlContext): AstLoadingJobControl {
    const words = (ctx as P.AbortLoadingJobContext).wordSequence();
    const node: AstLoadingJobControl = {
      kind: ctx instanceof P.AbortLoadingJobContext ? "AbortLoadingJob" : "ResumeLoadingJob", all: words === null,
      range: this.b.range(ctx),
    };
    if (words !== null) node.jobId = this.b.joinedWords(words);
    return node;
  }

  help(ctx: P.HelpStatementContext): AstHelp {
    const topic = ctx.plainName() ?? ctx.QUERY();
    const node: AstHelp = { kind: "Help", range: this.b.range(ctx) };
    if (topic !== null) node.topic = this.b.ident(topic) as AstIdent;
    return node;
  }
}
