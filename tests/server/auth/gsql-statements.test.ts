// The user, role, secret and ACL commands at the shell with authentication on: their exact
// messages (gsql-ddl-loading-shell §10.5/§11), their refusals, and their effect on what each
// user may then do.
import { expect } from "chai";
import { ROOT, basic, bearer, createSecret, createUser, member, startAuthServer, type AuthServer } from "./auth-fixture.js";
import { NO_GRAPH_MESSAGE } from "../../../server/gsql/exec/context.js";

const SCHEMA = `CREATE VERTEX P (PRIMARY_ID id STRING, age INT)
CREATE GRAPH G (P)
CREATE VERTEX Q (PRIMARY_ID id STRING)
CREATE GRAPH H (Q)
`;

function login(s: AuthServer, user: string, password: string) {
  return s.gsqlHttp("POST", "/gsqlserver/gsql/login", undefined, Buffer.from(`${encodeURIComponent(user)}:${password}`).toString("base64"));
}

describe("auth: GSQL user, role, secret and ACL commands", function () {
  this.timeout(60_000);
  let s: AuthServer;

  before(async () => {
    s = await startAuthServer();
    expect((await s.gsql(SCHEMA, ROOT)).returnCode).to.equal(0);
  });
  after(() => s.close());

  describe("users", () => {
    it("CREATE USER asks for the name and password in the CreateUserQb dialog and prints the created line", async () => {
      const answer = await createUser(s, "frank", "Fr@nk:pass");
      expect(answer.raw).to.match(/^__GSQL__INTERACT__,CreateUserQb,[0-9a-f]{24}\n/);
      expect(answer.lines).to.deep.equal(['The user "frank" is created.']);
      expect(answer.returnCode).to.equal(0);
      const ok = await login(s, "frank", "Fr@nk:pass");
      expect(ok.status).to.equal(200);
      expect(ok.json).to.include({ error: false, securityRecommendations: 0 });
      const bad = await login(s, "frank", "Fr@nk");
      expect(bad.status).to.equal(401);
      expect(bad.json).to.include({ error: true, message: "Invalid username or password!" });
    });

    it("CREATE USER refuses a taken name, names breaking the rules and empty passwords, creating nothing", async () => {
      expect((await createUser(s, "frank", "x")).lines).to.deep.equal(['The user "frank" already exists.']);
      for (const name of ["has space", "a:b", "a@b", "a,b", "a;b", "a(b", "a[b]", "a<b>", "a\\b", "..x", "x..y", ".x", "tab\there", "__GSQL__secret", ""]) {
        const answer = await createUser(s, name, "pw");
        expect(answer.returnCode, name).to.equal(212);
        expect(s.server.services.engine.auth.user(name), name).to.equal(undefined);
      }
      expect((await createUser(s, "nopass", "")).lines).to.deep.equal(["The password cannot be empty."]);
      expect((await createUser(s, "Zoë", "pw")).lines).to.deep.equal(['The user "Zoë" is created.']);
    });

    it("CREATE USER with the name in the command checks it before the dialog", async () => {
      const taken = await s.gsql("CREATE USER frank", ROOT);
      expect(taken.lines).to.deep.equal(['The user "frank" already exists.']);
      expect(taken.raw).to.not.include("__GSQL__INTERACT__");
      const named = await s.gsql("CREATE USER gina", ROOT, { answers: ["gina:pw-gina"] });
      expect(named.lines).to.deep.equal(['The user "gina" is created.']);
      const differs = await s.gsql("CREATE USER hank", ROOT, { answers: ["other:pw"] });
      expect(differs.lines).to.deep.equal(['The user name typed ("other") differs from the one in the command ("hank").']);
    });

    it("only WRITE_USER (a superuser) creates and drops users", async () => {
      const admin = await member(s, "gadmin", "admin", "G", "G");
      const answer = await s.gsql("CREATE USER", basic(admin.user, admin.password), { answers: ["never:pw"] });
      expect(answer.lines).to.deep.equal(["Access denied: user 'gadmin' does not have the privilege WRITE_USER at the global scope."]);
      expect(answer.raw).to.not.include("__GSQL__INTERACT__");
      expect((await s.gsql("DROP USER frank", basic(admin.user, admin.password))).returnCode).to.equal(212);
      expect(s.server.services.engine.auth.user("frank")).to.not.equal(undefined);
    });

    it("ALTER PASSWORD changes the caller's password; another user's needs WRITE_USER", async () => {
      const changed = await s.gsql("ALTER PASSWORD", basic("frank", "Fr@nk:pass"), { answers: ["n3w"] });
      expect(changed.raw).to.match(/^__GSQL__INTERACT__,AlterPasswordQb,/);
      expect(changed.lines).to.deep.equal(["Password has been changed."]);
      expect((await login(s, "frank", "n3w")).status).to.equal(200);
      expect((await login(s, "frank", "Fr@nk:pass")).status).to.equal(401);
      // The old password no longer opens a command either, even right after a successful use.
      expect((await s.gsql("SHOW USER", basic("frank", "Fr@nk:pass"))).status).to.equal(401);

      const denied = await s.gsql("ALTER PASSWORD gina", basic("frank", "n3w"), { answers: ["hacked"] });
      expect(denied.lines).to.deep.equal(["Access denied: user 'frank' does not have the privilege WRITE_USER at the global scope."]);
      expect((await login(s, "gina", "pw-gina")).status).to.equal(200);
      const byRoot = await s.gsql("ALTER PASSWORD gina", ROOT, { answers: ["pw-gina-2"] });
      expect(byRoot.lines).to.deep.equal(["Password has been changed."]);
      expect((await login(s, "gina", "pw-gina-2")).status).to.equal(200);
      expect((await s.gsql("ALTER PASSWORD nobody_here", ROOT)).lines).to.deep.equal(['The user "nobody_here" does not exist.']);
      // A secret (or a token made from one) cannot change the password of the account it belongs to.
      const secret = await createSecret(s, ROOT, "G", "pwsecret");
      const bySecret = await s.gsql("ALTER PASSWORD", basic("__GSQL__secret", secret), { answers: ["taken-over"] });
      expect(bySecret.lines).to.deep.equal(["Access denied: the secret of user 'tigergraph' acts on graph 'G' only; log in with the password to change it."]);
      expect(bySecret.raw).to.not.include("__GSQL__INTERACT__");
    });

    it("SHOW USER prints each visible user with its roles", async () => {
      await member(s, "shown", "querywriter", "G", "G");
      expect((await s.gsql("GRANT ROLE observer ON GRAPH H TO shown", ROOT)).returnCode).to.equal(0);
      const all = await s.gsql("SHOW USER", ROOT);
      const block = all.lines.slice(all.lines.indexOf("  - Name: shown"), all.lines.indexOf("  - Name: shown") + 6);
      expect(block[0]).to.equal("  - Name: shown");
      expect(block[1]).to.equal("    - Graph 'G' Roles: querywriter");
      expect(block[2]).to.equal("    - Graph 'H' Roles: observer");
      expect(block[3]).to.match(/^ {4}- LastSuccessLogin: (Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d UTC \d{4}$/);
      expect(block.slice(4)).to.deep.equal(["    - NextValidLogin: Sat Jun 01 12:00:00 UTC 2024", "    - FailedAttempts: 0"]);
      expect(all.lines.slice(0, 2)).to.deep.equal(["  - Name: tigergraph", "    - Global Roles: superuser"]);
      // Without READ_USER a user sees itself only.
      const self = await s.gsql("SHOW USER", basic("shown", "pw-shown-1"));
      expect(self.lines.filter((l) => l.startsWith("  - Name: "))).to.deep.equal(["  - Name: shown"]);
    });

    it("DROP USER prints a line per user, and refuses unknown users, the caller itself and owners of queries", async () => {
      await createUser(s, "d1", "pw");
      await createUser(s, "d2", "pw");
      expect((await s.gsql("DROP USER d1, d2", ROOT)).lines).to.deep.equal(['The user "d1" is dropped.', 'The user "d2" is dropped.']);
      expect((await s.gsql("DROP USER d1", ROOT)).lines).to.deep.equal(['The user "d1" does not exist.']);
      expect((await s.gsql("DROP USER tigergraph", ROOT)).lines).to.deep.equal(['The user "tigergraph" is the one running this command and cannot drop itself.']);
      const owner = await member(s, "owner1", "querywriter", "G", "G");
      expect((await s.gsql("CREATE QUERY owned() FOR GRAPH G { PRINT 1; }", basic(owner.user, owner.password))).returnCode).to.equal(0);
      expect((await s.gsql("DROP USER owner1", ROOT)).lines).to.deep.equal([
        'The user "owner1" owns queries and cannot be dropped: G: [owned]. Drop them, or give them another owner with CHANGE OWNER OF QUERY, first.',
      ]);
      expect((await s.gsql("DROP QUERY owned", ROOT, { graph: "G" })).returnCode).to.equal(0);
      expect((await s.gsql("DROP USER owner1", ROOT)).lines).to.deep.equal(['The user "owner1" is dropped.']);
    });
  });

  describe("the default superuser", () => {
    it("logs in with tigergraph/tigergraph and is told to change it until ALTER PASSWORD", async () => {
      const fresh = await startAuthServer();
      try {
        const first = await login(fresh, "tigergraph", "tigergraph");
        expect(first.status).to.equal(200);
        expect(first.json.securityRecommendations).to.equal(1);
        expect(first.json.welcomeMessage).to.include("still has its default password");
        const show = await fresh.gsql("SHOW USER", ROOT);
        expect(show.lines).to.include("    - ShowAlterPasswordWarning: true");
        // Not from another machine while it is the default.
        const remote = await fresh.server.auth.authenticatePassword("tigergraph", "tigergraph", "10.1.2.3");
        expect(remote.ok).to.equal(false);
        expect(await fresh.server.auth.authenticatePassword("tigergraph", "tigergraph", "::ffff:127.0.0.1")).to.include({ ok: true });

        expect((await fresh.gsql("ALTER PASSWORD", ROOT, { answers: ["s3cret!"] })).lines).to.deep.equal(["Password has been changed."]);
        const after = await login(fresh, "tigergraph", "s3cret!");
        expect(after.json.securityRecommendations).to.equal(0);
        expect(after.json.welcomeMessage).to.not.include("default password");
        expect((await fresh.server.auth.authenticatePassword("tigergraph", "s3cret!", "10.1.2.3")).ok).to.equal(true);
        expect((await login(fresh, "tigergraph", "tigergraph")).status).to.equal(401);
      } finally {
        await fresh.close();
      }
    });
  });

  describe("roles", () => {
    it("GRANT ROLE / REVOKE ROLE print the role and users, and change what the user may do", async () => {
      const m = await member(s, "rolly", "observer", "G", "G");
      const read = () => s.rest("GET", "/graph/G/vertices/P", bearer(m.token));
      expect((await read()).status).to.equal(403);
      const granted = await s.gsql("GRANT ROLE queryreader ON GRAPH G TO rolly, frank", ROOT);
      expect(granted.lines).to.deep.equal(['Role "queryreader" is successfully granted to user(s): rolly, frank']);
      expect((await read()).status).to.equal(200);
      const revoked = await s.gsql("REVOKE ROLE queryreader ON GRAPH G FROM rolly", ROOT);
      expect(revoked.lines).to.deep.equal(['Role "queryreader" is successfully revoked from user(s): rolly']);
      expect((await read()).status).to.equal(403);
    });

    it("takes the working graph when ON GRAPH is absent, reads architect as designer, and refuses what does not fit", async () => {
      expect((await s.gsql("GRANT ROLE architect TO frank", ROOT, { graph: "H" })).lines).to.deep.equal(['Role "architect" is successfully granted to user(s): frank']);
      expect(s.server.services.engine.auth.grantsOf("frank")).to.deep.include({ user: "frank", role: "designer", graph: "H" });
      const cases: [string, string][] = [
        ["GRANT ROLE observer TO frank", 'The role "observer" is granted on a graph: add ON GRAPH <graph>, or USE GRAPH first.'],
        ["GRANT ROLE superuser ON GRAPH G TO frank", 'The role "superuser" is a global role: grant it without ON GRAPH.'],
        ["GRANT ROLE nosuch ON GRAPH G TO frank", 'The role "nosuch" does not exist.'],
        ["GRANT ROLE observer ON GRAPH G TO ghost", 'The user "ghost" does not exist.'],
        ["GRANT ROLE observer ON GRAPH Nope TO frank", "Graph 'Nope' does not exist."],
        ["REVOKE ROLE superuser FROM tigergraph", "This would leave no superuser: at least one must remain."],
      ];
      for (const [text, line] of cases) {
        const answer = await s.gsql(text, ROOT);
        expect(answer.lines, text).to.deep.equal([line]);
        expect(answer.returnCode, text).to.equal(212);
      }
    });

    it("an admin grants roles on its graph only", async () => {
      const admin = await member(s, "hadmin", "admin", "H", "H");
      expect((await s.gsql("GRANT ROLE observer ON GRAPH H TO gina", basic(admin.user, admin.password))).returnCode).to.equal(0);
      const onG = await s.gsql("GRANT ROLE observer ON GRAPH G TO gina", basic(admin.user, admin.password));
      expect(onG.lines).to.deep.equal(["Access denied: user 'hadmin' does not have the privilege WRITE_ROLE on graph 'G'."]);
      const superuser = await s.gsql("GRANT ROLE superuser TO hadmin", basic(admin.user, admin.password));
      expect(superuser.lines).to.deep.equal(["Access denied: user 'hadmin' does not have the privilege WRITE_ROLE at the global scope."]);
    });

    it("user-defined roles: CREATE ROLE, GRANT/REVOKE PRIVILEGE, SHOW, DROP ROLE", async () => {
      expect((await s.gsql("CREATE ROLE readers", ROOT, { graph: "G" })).lines).to.deep.equal(["Successfully created local roles for graph 'G': [readers]."]);
      expect((await s.gsql("CREATE ROLE auditors ON GLOBAL", ROOT)).lines).to.deep.equal(["Successfully created global roles: [auditors]."]);
      expect((await s.gsql("CREATE ROLE readers", ROOT, { graph: "G" })).lines).to.deep.equal(['The role "readers" already exists.']);
      expect((await s.gsql("CREATE ROLE observer ON GLOBAL", ROOT)).lines).to.deep.equal(['The role name "observer" is reserved for a built-in role.']);

      const m = await member(s, "custom", undefined, undefined, "G").catch(() => undefined);
      expect(m).to.equal(undefined); // no role yet: no secret is possible
      expect((await s.gsql("GRANT ROLE readers TO custom", ROOT)).lines).to.deep.equal(['Role "readers" is successfully granted to user(s): custom']);
      const token = (await s.rest("POST", "/requesttoken", basic("custom", "pw-custom-1"), '{"graph":"G"}')).json.token as string;
      const read = () => s.rest("GET", "/graph/G/vertices/P", bearer(token));
      expect((await read()).status).to.equal(403);
      expect((await s.gsql("GRANT PRIVILEGE READ_DATA ON GRAPH G TO readers", ROOT)).lines).to.deep.equal(["Successfully granted privileges [READ_DATA] on graph 'G' to roles: [readers]."]);
      expect((await read()).status).to.equal(200);
      expect((await s.gsql("SHOW PRIVILEGE ON ROLE readers", ROOT)).lines).to.deep.equal(['Role: "readers"', "  - Graph 'G' Privileges: READ_DATA"]);
      expect((await s.gsql("GRANT PRIVILEGE WRITE_USER ON GRAPH G TO readers", ROOT)).lines).to.deep.equal(["WRITE_USER is a global privilege: grant it ON GLOBAL to a global role."]);
      expect((await s.gsql("GRANT PRIVILEGE READ_DATA ON GRAPH H TO readers", ROOT)).lines).to.deep.equal(["The role \"readers\" is local to graph 'G': its privileges are on that graph."]);
      expect((await s.gsql("GRANT PRIVILEGE FLY ON GRAPH G TO readers", ROOT)).lines).to.deep.equal(['"FLY" is not a privilege.']);
      expect((await s.gsql("GRANT PRIVILEGE READ_DATA ON GRAPH G TO observer", ROOT)).lines).to.deep.equal(['The built-in role "observer" cannot be changed.']);
      expect((await s.gsql("REVOKE PRIVILEGE READ_DATA ON GRAPH G FROM readers", ROOT)).lines).to.deep.equal(["Successfully revoked privileges [READ_DATA] on graph 'G' from roles: [readers]."]);
      expect((await read()).status).to.equal(403);

      // WRITE_DATA stands for the three data-writing privileges.
      expect((await s.gsql("GRANT PRIVILEGE WRITE_DATA, READ_DATA TO readers", ROOT, { graph: "G" })).lines).to.deep.equal([
        "Successfully granted privileges [CREATE_DATA, UPDATE_DATA, DELETE_DATA, READ_DATA] on graph 'G' to roles: [readers].",
      ]);
      expect((await s.rest("POST", "/graph/G", bearer(token), '{"vertices":{"P":{"byrole":{}}}}')).status).to.equal(200);

      const show = await s.gsql("SHOW ROLE", ROOT, { graph: "G" });
      expect(show.lines).to.deep.equal([
        "Built-in roles:", "  - observer (graph)", "  - queryreader (graph)", "  - querywriter (graph)", "  - designer (graph)", "  - admin (graph)",
        "  - globaldesigner (global)", "  - superuser (global)", "Global roles:", "  - auditors", "Local roles of graph 'G':", "  - readers",
      ]);
      expect((await s.gsql("DROP ROLE admin", ROOT)).lines).to.deep.equal(['The role "admin" is built in and cannot be dropped.']);
      expect((await s.gsql("DROP ROLE readers, auditors", ROOT)).lines).to.deep.equal(["Successfully dropped roles: [readers, auditors]."]);
      // The user holds no role on G any more: its token for G ends with the role.
      expect((await read()).json).to.include({ error: true, code: "REST-3300" });
      expect(s.server.services.engine.auth.grantsOf("custom")).to.deep.equal([]);
    });

    it("a globaldesigner creates graphs and drops the ones it created, not others", async () => {
      await member(s, "gdes", "globaldesigner", undefined, "G");
      const as = basic("gdes", "pw-gdes-1");
      expect((await s.gsql("CREATE VERTEX GV (PRIMARY_ID id STRING)\nCREATE GRAPH Own (GV)", as)).returnCode).to.equal(0);
      expect(s.server.services.engine.auth.graphOwner("Own")).to.equal("gdes");
      const other = await s.gsql("DROP GRAPH H", as);
      expect(other.lines).to.deep.equal(["Access denied: user 'gdes' does not have the privilege DROP_GRAPH on graph 'H'."]);
      expect((await s.gsql("DROP GRAPH Own", as)).returnCode).to.equal(0);
      expect(s.server.services.engine.graphNames()).to.not.include("Own");
      expect(s.server.services.engine.auth.graphOwner("Own")).to.equal(undefined);
    });

    it("CREATE GRAPH ... WITH ADMIN makes that user the graph's admin; DROP GRAPH takes grants and secrets with it", async () => {
      const created = await s.gsql("CREATE VERTEX Z (PRIMARY_ID id STRING)\nCREATE GRAPH Tmp (Z) WITH ADMIN gina", ROOT);
      expect(created.returnCode, created.text).to.equal(0);
      expect(s.server.services.engine.auth.grantsOf("gina")).to.deep.include({ user: "gina", role: "admin", graph: "Tmp" });
      const secret = await createSecret(s, basic("gina", "pw-gina-2"), "Tmp");
      expect((await s.gsql("DROP GRAPH Tmp", ROOT)).returnCode).to.equal(0);
      expect(s.server.services.engine.auth.grantsOf("gina").some((g) => g.graph === "Tmp")).to.equal(false);
      expect(s.server.auth.authenticateSecret(secret)).to.equal(undefined);
    });
  });

  describe("secrets", () => {
    it("CREATE SECRET needs a graph; prints the secret once; SHOW SECRET masks it; aliases are unique per user", async () => {
      const none = await s.gsql("CREATE SECRET", ROOT);
      expect(none.lines).to.deep.equal([NO_GRAPH_MESSAGE]);
      expect(none.returnCode).to.equal(213);
      const m = await member(s, "sec", "observer", "G", "G");
      const auth = basic(m.user, m.password);
      const named = await s.gsql("CREATE SECRET mine", auth, { graph: "G" });
      const value = /^The secret: ([a-z0-9]{32}) has been created for user "sec"\.$/.exec(named.lines[0]!)?.[1];
      expect(value, named.text).to.be.a("string");
      expect((await s.gsql("CREATE SECRET mine", auth, { graph: "G" })).lines).to.deep.equal(["The secret with alias mine already exists."]);
      const show = await s.gsql("SHOW SECRET", auth, { graph: "G" });
      expect(show.lines.slice(-3)).to.deep.equal([`    - Secret: ${value!.slice(0, 3)}****${value!.slice(-3)}`, "      - Alias: mine", "      - GraphName: G"]);
      expect(show.lines[1]).to.match(/^ {6}- Alias: AUTO_GENERATED_ALIAS_[a-z0-9]{7}$/);
      expect(show.text).to.not.include(value!);
      expect(show.text).to.not.include(m.secret);
      expect((await s.gsql("DROP SECRET mine", auth, { graph: "G" })).lines).to.deep.equal(["Successfully dropped secrets: [mine]."]);
      expect((await s.gsql("DROP SECRET mine", auth, { graph: "G" })).lines).to.deep.equal(["Failed to drop secrets: [mine]."]);
      expect(s.server.auth.authenticateSecret(value!)).to.equal(undefined);
    });

    it("a user needs a role on the graph to make a secret there, and cannot drop another user's secret", async () => {
      const m = await member(s, "sec2", "observer", "G", "G");
      const onH = await s.gsql("CREATE SECRET", basic(m.user, m.password), { graph: "H" });
      expect(onH.lines).to.deep.equal(["Access denied: user 'sec2' has no role on graph 'H'."]);
      const other = await s.gsql(`DROP SECRET ${m.secret}`, basic("frank", "n3w"), { graph: "G" });
      expect(other.returnCode).to.equal(212);
      expect(s.server.auth.authenticateSecret(m.secret)).to.not.equal(undefined);
    });
  });

  describe("query ACLs", () => {
    it("GRANT ACL PRIVILEGE READ ... TO NOBODY hides the text from everyone, the owner and superusers included", async () => {
      const owner = await member(s, "qowner", "querywriter", "G", "G");
      const peer = await member(s, "qpeer", "querywriter", "G", "G");
      const asOwner = basic(owner.user, owner.password);
      const asPeer = basic(peer.user, peer.password);
      expect((await s.gsql("CREATE QUERY secretq() FOR GRAPH G { PRINT 42; }", asOwner)).returnCode).to.equal(0);
      expect((await s.gsql("SHOW QUERY secretq", asPeer, { graph: "G" })).lines).to.deep.equal(["CREATE QUERY secretq() FOR GRAPH G { PRINT 42; }"]);

      const denied = await s.gsql("GRANT ACL PRIVILEGE READ ON QUERY secretq TO NOBODY", asPeer, { graph: "G" });
      expect(denied.lines).to.deep.equal(["Access denied: only the owner of query 'secretq' ('qowner') or a superuser changes its ACL."]);
      const granted = await s.gsql("GRANT ACL PRIVILEGE READ ON QUERY secretq TO NOBODY", asOwner, { graph: "G" });
      expect(granted.lines).to.deep.equal(["Successfully granted READ on query secretq in the graph G to roles: [NOBODY]."]);
      expect((await s.gsql("SHOW QUERY secretq", asPeer, { graph: "G" })).lines).to.deep.equal(["/******* Query Content is Hidden. Require ACL privilege READ *******/"]);
      expect((await s.gsql("SHOW QUERY secretq", asOwner, { graph: "G" })).lines).to.deep.equal(["/******* Query Content is Hidden. Require ACL privilege READ *******/"]);
      expect((await s.gsql("SHOW QUERY secretq", ROOT, { graph: "G" })).lines).to.deep.equal(["/******* Query Content is Hidden. Require ACL privilege READ *******/"]);

      const toRole = await s.gsql("GRANT ACL PRIVILEGE READ, EXECUTE ON QUERY secretq TO querywriter, admin", asOwner, { graph: "G" });
      expect(toRole.lines).to.deep.equal([
        "Successfully granted READ on query secretq in the graph G to roles: [querywriter, admin].",
        "Successfully granted EXECUTE on query secretq in the graph G to roles: [querywriter, admin].",
      ]);
      expect((await s.gsql("SHOW QUERY secretq", asPeer, { graph: "G" })).lines).to.deep.equal(["CREATE QUERY secretq() FOR GRAPH G { PRINT 42; }"]);
      expect((await s.gsql("SHOW ACL PRIVILEGE ON QUERY secretq", asPeer, { graph: "G" })).lines).to.deep.equal([
        "Query secretq on the graph G:", "  - Owner: qowner", "  - READ: querywriter, admin", "  - EXECUTE: querywriter, admin",
      ]);
      const revoked = await s.gsql("REVOKE ACL PRIVILEGE READ ON QUERY secretq FROM ALL", asOwner, { graph: "G" });
      expect(revoked.lines).to.deep.equal(["Successfully revoked READ on query secretq in the graph G from roles: [ALL]."]);
      expect(s.server.services.engine.auth.queryAcl("G", "secretq")).to.deep.equal({
        graph: "G", query: "secretq", owner: "qowner", execute: { roles: ["querywriter", "admin"] },
      });
      expect((await s.gsql("GRANT ACL PRIVILEGE WRITE ON QUERY secretq TO admin", asOwner, { graph: "G" })).lines).to.deep.equal(['"WRITE" is not an ACL privilege: use READ or EXECUTE.']);
      expect((await s.gsql("GRANT ACL PRIVILEGE READ ON QUERY nosuch TO admin", asOwner, { graph: "G" })).lines).to.deep.equal(["The query nosuch does not exist on the graph 'G'."]);
    });

    it("only the owner or a superuser replaces a query", async () => {
      const peer = basic("qpeer", "pw-qpeer-1");
      const replaced = await s.gsql("CREATE OR REPLACE QUERY secretq() FOR GRAPH G { PRINT 0; }", peer);
      expect(replaced.lines).to.deep.equal([
        "Access denied: the query 'secretq' on graph 'G' belongs to user 'qowner'; only its owner or a superuser may replace it.",
      ]);
      expect(s.server.gsql!.catalog.query("G", "secretq")!.text).to.include("PRINT 42");
      expect((await s.gsql("CREATE OR REPLACE QUERY secretq() FOR GRAPH G { PRINT 43; }", basic("qowner", "pw-qowner-1"))).returnCode).to.equal(0);
      expect(s.server.services.engine.auth.queryAcl("G", "secretq")!.owner).to.equal("qowner");
    });
  });
});
