// The query-ACL commands beyond GRANT/REVOKE: ACL passwords (ALTER [USER u] ACL PASSWORD ...),
// SECURED BY and its dialog, CHANGE OWNER OF QUERY, SHOW ACL PRIVILEGE ON QUERY|USER|ROLE
// lists: exact lines, refusals that change nothing, and the state surviving a restart with
// the ACL password never stored or logged in clear.
import { expect } from "chai";
import { promises as fsp } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, basic, createUser, member, startAuthServer, type AuthServer } from "./auth-fixture.js";
import { NO_GRAPH_MESSAGE } from "../../../server/gsql/exec/context.js";

const SCHEMA = "CREATE VERTEX P (PRIMARY_ID id STRING, age INT)\nCREATE GRAPH G (P)\nCREATE VERTEX Q (PRIMARY_ID id STRING)\nCREATE GRAPH H (Q)\n";
const G = { graph: "G" };

describe("auth: ACL passwords, SECURED BY, CHANGE OWNER and SHOW ACL PRIVILEGE", function () {
  this.timeout(60_000);
  let s: AuthServer;
  const owner = basic("aowner", "pw-aowner-1");
  const peer = basic("apeer", "pw-apeer-1");
  const gadmin = basic("aadmin", "pw-aadmin-1");
  const reader = basic("areader", "pw-areader-1");

  const acl = (query: string) => s.server.services.engine.auth.queryAcl("G", query);
  const showAcl = async (what: string, as = ROOT) => (await s.gsql(`SHOW ACL PRIVILEGE ON ${what}`, as, G)).lines;

  before(async () => {
    s = await startAuthServer();
    expect((await s.gsql(SCHEMA, ROOT)).returnCode).to.equal(0);
    await member(s, "aowner", "querywriter", "G", "G");
    await member(s, "apeer", "querywriter", "G", "G");
    await member(s, "aadmin", "admin", "G", "G");
    await member(s, "areader", "queryreader", "G", "G");
    for (const q of ["q1", "q2"]) expect((await s.gsql(`CREATE QUERY ${q}() FOR GRAPH G { PRINT 1; }`, owner)).returnCode).to.equal(0);
    expect((await s.gsql("CREATE QUERY w1() FOR GRAPH G { INSERT INTO P VALUES (\"x\", 1); }", owner)).returnCode).to.equal(0);
  });
  after(() => s.close());

  describe("ALTER [USER u] ACL PASSWORD", () => {
    it("sets the caller's ACL password once; changing it needs REPLACE with the current one", async () => {
      expect(s.server.services.engine.auth.user("aowner")!.aclPassword).to.equal(undefined);
      expect((await s.gsql('ALTER ACL PASSWORD SET "first pw"', owner)).lines).to.deep.equal(['ACL password of user "aowner" has been set.']);
      const stored = s.server.services.engine.auth.user("aowner")!.aclPassword!;
      expect(stored.scheme).to.equal("scrypt");
      expect(JSON.stringify(stored)).to.not.include("first pw");

      const again = await s.gsql('ALTER ACL PASSWORD SET "second"', owner);
      expect(again.lines).to.deep.equal(['The user "aowner" already has an ACL password: give it with REPLACE <current ACL password> to change it.']);
      expect(again.returnCode).to.equal(212);
      const wrong = await s.gsql('ALTER ACL PASSWORD SET "second" REPLACE "first"', owner);
      expect(wrong.lines).to.deep.equal(["Access denied: the current ACL password of user 'aowner' does not match."]);
      expect(s.server.services.engine.auth.user("aowner")!.aclPassword).to.deep.equal(stored);

      const changed = await s.gsql('ALTER ACL PASSWORD SET ownerPw2 REPLACE "first pw"', owner);
      expect(changed.lines).to.deep.equal(['ACL password of user "aowner" has been changed.']);
      expect(s.server.services.engine.auth.user("aowner")!.aclPassword).to.not.deep.equal(stored);
      // The login password is untouched, and ALTER PASSWORD later keeps the ACL password.
      expect((await s.gsql("ls", owner, G)).returnCode).to.equal(0);
    });

    it("another user's ACL password needs WRITE_USER; CLEAR needs the current one", async () => {
      const denied = await s.gsql("ALTER USER apeer ACL PASSWORD SET x1", gadmin);
      expect(denied.lines).to.deep.equal(["Access denied: user 'aadmin' does not have the privilege WRITE_USER at the global scope."]);
      expect(s.server.services.engine.auth.user("apeer")!.aclPassword).to.equal(undefined);
      expect((await s.gsql("ALTER USER nosuch ACL PASSWORD SET x1", ROOT)).lines).to.deep.equal(['The user "nosuch" does not exist.']);

      expect((await s.gsql("ALTER USER apeer ACL PASSWORD CLEAR REPLACE x1", ROOT)).lines).to.deep.equal(['The user "apeer" has no ACL password to clear.']);
      expect((await s.gsql("ALTER USER apeer ACL PASSWORD SET x1 REPLACE x0", ROOT)).lines).to.deep.equal(['The user "apeer" has no ACL password to replace: set one without REPLACE.']);
      expect((await s.gsql("ALTER USER apeer ACL PASSWORD SET x1", ROOT)).lines).to.deep.equal(['ACL password of user "apeer" has been set.']);
      expect((await s.gsql("ALTER USER apeer ACL PASSWORD CLEAR REPLACE x2", ROOT)).lines).to.deep.equal(["Access denied: the current ACL password of user 'apeer' does not match."]);
      expect(s.server.services.engine.auth.user("apeer")!.aclPassword).to.not.equal(undefined);
      expect((await s.gsql("ALTER USER apeer ACL PASSWORD CLEAR REPLACE x1", peer)).lines).to.deep.equal(['ACL password of user "apeer" has been cleared.']);
      expect(s.server.services.engine.auth.user("apeer")!.aclPassword).to.equal(undefined);
      expect((await s.gsql('ALTER ACL PASSWORD SET ""', peer)).lines).to.deep.equal(["The ACL password cannot be empty."]);
    });

    it("without SET or CLEAR asks in dialogs: the current one first when there is one", async () => {
      const first = await s.gsql("ALTER ACL PASSWORD", reader, { answers: ["dialog-pw"] });
      expect(first.raw).to.match(/^__GSQL__INTERACT__,AlterAclPasswordQb,[0-9a-f]{24}\n/);
      expect(first.lines).to.deep.equal(['ACL password of user "areader" has been set.']);
      const wrong = await s.gsql("ALTER ACL PASSWORD", reader, { answers: ["not-it"] });
      expect(wrong.raw).to.match(/^__GSQL__INTERACT__,AclPasswordQb,[0-9a-f]{24},Current ACL Password\n/);
      expect(wrong.lines).to.deep.equal(["Access denied: the current ACL password of user 'areader' does not match."]);
      const changed = await s.gsql("ALTER ACL PASSWORD", reader, { answers: ["dialog-pw", "dialog-pw-2"] });
      expect(changed.raw).to.match(/AclPasswordQb,[0-9a-f]{24},Current ACL Password\n__GSQL__INTERACT__,AlterAclPasswordQb,/);
      expect(changed.lines).to.deep.equal(['ACL password of user "areader" has been changed.']);
      expect((await s.gsql('ALTER ACL PASSWORD CLEAR REPLACE "dialog-pw-2"', reader)).lines).to.deep.equal(['ACL password of user "areader" has been cleared.']);
    });

    it("a secret acts on its graph only: it cannot change the account's ACL password", async () => {
      const m = await member(s, "asecret", "observer", "G", "G");
      const answer = await s.gsql("ALTER ACL PASSWORD SET sneaky", basic("__GSQL__secret", m.secret), G);
      expect(answer.lines).to.deep.equal(["Access denied: the secret of user 'asecret' acts on graph 'G' only; log in with the password to change an ACL password."]);
      expect(s.server.services.engine.auth.user("asecret")!.aclPassword).to.equal(undefined);
    });

    it("ALTER PASSWORD keeps the ACL password", async () => {
      const before = s.server.services.engine.auth.user("aowner")!.aclPassword;
      expect((await s.gsql("ALTER PASSWORD", owner, { answers: ["pw-aowner-1"] })).lines).to.deep.equal(["Password has been changed."]);
      expect(s.server.services.engine.auth.user("aowner")!.aclPassword).to.deep.equal(before);
    });
  });

  describe("SECURED BY", () => {
    it("changing the ACL of a query whose owner has an ACL password needs it, from everyone", async () => {
      const before = acl("q1");
      const wrong = await s.gsql('GRANT ACL PRIVILEGE READ ON QUERY q1 TO admin SECURED BY "nope"', owner, G);
      expect(wrong.lines).to.deep.equal(["Access denied: the ACL password of user 'aowner' does not match."]);
      expect(wrong.returnCode).to.equal(212);
      const rootWrong = await s.gsql("GRANT ACL PRIVILEGE READ ON QUERY q1 TO admin SECURED BY nope", ROOT, G);
      expect(rootWrong.lines).to.deep.equal(["Access denied: the ACL password of user 'aowner' does not match."]);
      // Without SECURED BY the shell is asked.
      const asked = await s.gsql("GRANT ACL PRIVILEGE READ ON QUERY q1 TO admin", owner, { graph: "G", answers: ["wrong-again"] });
      expect(asked.raw).to.match(/^__GSQL__INTERACT__,AclPasswordQb,[0-9a-f]{24},ACL Password of user aowner\n/);
      expect(asked.lines).to.deep.equal(["Access denied: the ACL password of user 'aowner' does not match."]);
      expect(acl("q1")).to.deep.equal(before);

      const granted = await s.gsql("GRANT ACL PRIVILEGE READ, EXECUTE ON QUERY q1 TO admin, querywriter SECURED BY ownerPw2", owner, G);
      expect(granted.lines).to.deep.equal([
        "Successfully granted READ on query q1 in the graph G to roles: [admin, querywriter].",
        "Successfully granted EXECUTE on query q1 in the graph G to roles: [admin, querywriter].",
      ]);
      const dialog = await s.gsql("GRANT ACL PRIVILEGE READ ON QUERY q2 TO admin", owner, { graph: "G", answers: ["ownerPw2"] });
      expect(dialog.lines).to.deep.equal(["Successfully granted READ on query q2 in the graph G to roles: [admin]."]);
    });

    it("a query dropped while its owner types the ACL password gets no ACL", async () => {
      expect((await s.gsql("CREATE QUERY gone() FOR GRAPH G { PRINT 5; }", owner)).returnCode).to.equal(0);
      const headers = { "Content-Type": "application/x-www-form-urlencoded", Authorization: owner, "GSQL-Cookie": JSON.stringify({ graph: "G" }) };
      const res = await fetch(`${s.gsqlUrl}/gsqlserver/gsql/file`, { method: "POST", body: encodeURIComponent("GRANT ACL PRIVILEGE READ ON QUERY gone TO admin"), headers });
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      let raw = "";
      while (!raw.includes("\n")) raw += new TextDecoder().decode((await reader.read()).value);
      const id = /^__GSQL__INTERACT__,AclPasswordQb,([0-9a-f]+),/.exec(raw)![1]!;
      expect((await s.gsql("DROP QUERY gone", owner, G)).returnCode).to.equal(0);
      await (await fetch(`${s.gsqlUrl}/gsqlserver/gsql/dialog`, { method: "POST", body: encodeURIComponent(`${id},ownerPw2`), headers })).text();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) raw += new TextDecoder().decode(chunk.value);
      expect(raw).to.include("The query gone does not exist on the graph 'G'.");
      expect(acl("gone")).to.equal(undefined);
    });

    it("revoking the last role leaves the entry NOBODY; FROM ALL hands the query back to the roles", async () => {
      const revoked = await s.gsql("REVOKE ACL PRIVILEGE READ ON QUERY q1 FROM admin, querywriter SECURED BY ownerPw2", owner, G);
      expect(revoked.lines).to.deep.equal(["Successfully revoked READ on query q1 in the graph G from roles: [admin, querywriter]."]);
      expect(acl("q1")!.read).to.deep.equal({ nobody: true });
      // NOBODY holds for everyone, the owner and superusers included.
      for (const as of [peer, owner, ROOT]) {
        expect((await s.gsql("SHOW QUERY q1", as, G)).lines).to.deep.equal(["/******* Query Content is Hidden. Require ACL privilege READ *******/"]);
      }
      expect((await s.gsql("GRANT ACL PRIVILEGE EXECUTE ON QUERY q2 TO NOBODY SECURED BY ownerPw2", owner, G)).returnCode).to.equal(0);
      for (const [as, user] of [[owner, "aowner"], [ROOT, "tigergraph"]] as const) {
        expect((await s.gsql("RUN QUERY q2()", as, G)).lines).to.deep.equal([`Access denied: the ACL of query 'q2' on graph 'G' does not let user '${user}' run it.`]);
      }
      expect((await s.gsql("REVOKE ACL PRIVILEGE EXECUTE ON QUERY q2 FROM ALL SECURED BY ownerPw2", owner, G)).returnCode).to.equal(0);
      expect((await s.gsql("REVOKE ACL PRIVILEGE READ ON QUERY q1 FROM ALL SECURED BY ownerPw2", owner, G)).returnCode).to.equal(0);
      expect(acl("q1")!.read).to.equal(undefined);
    });

    it("GRANT hands out only what the owner holds: EXECUTE on a data-writing query needs the data-writing privileges", async () => {
      expect((await s.gsql("CREATE QUERY r1() FOR GRAPH G { PRINT 2; }", peer)).returnCode).to.equal(0);
      expect((await s.gsql("REVOKE ROLE querywriter ON GRAPH G FROM apeer", ROOT)).returnCode).to.equal(0);
      expect((await s.gsql("GRANT ROLE observer ON GRAPH G TO apeer", ROOT)).returnCode).to.equal(0);
      const denied = await s.gsql("GRANT ACL PRIVILEGE EXECUTE ON QUERY r1 TO admin", peer, G);
      expect(denied.lines).to.deep.equal(["Access denied: user 'apeer' does not have the privilege READ_DATA on graph 'G'."]);
      expect(acl("r1")!.execute).to.equal(undefined);
      expect((await s.gsql("GRANT ACL PRIVILEGE READ ON QUERY r1 TO admin", peer, G)).lines).to.deep.equal(["Successfully granted READ on query r1 in the graph G to roles: [admin]."]);
      expect((await s.gsql("GRANT ROLE querywriter ON GRAPH G TO apeer", ROOT)).returnCode).to.equal(0);
      expect((await s.gsql("REVOKE ROLE observer ON GRAPH G FROM apeer", ROOT)).returnCode).to.equal(0);
      expect((await s.gsql("GRANT ACL PRIVILEGE EXECUTE ON QUERY w1 TO queryreader SECURED BY ownerPw2", owner, G)).returnCode).to.equal(0);
      expect((await s.gsql("GRANT ACL PRIVILEGE READ ON QUERY q1 TO nosuchrole SECURED BY ownerPw2", owner, G)).lines).to.deep.equal(['The role "nosuchrole" does not exist.']);
    });
  });

  describe("CHANGE OWNER OF QUERY", () => {
    it("needs ownership or WRITE_ROLE, and the current owner's ACL password", async () => {
      const notAllowed = await s.gsql("CHANGE OWNER OF QUERY q2 TO apeer", peer, G);
      expect(notAllowed.lines).to.deep.equal(["Access denied: user 'apeer' does not have the privilege WRITE_ROLE on graph 'G'."]);
      const wrong = await s.gsql('CHANGE OWNER OF QUERY q2 TO apeer SECURED BY "bad"', gadmin, G);
      expect(wrong.lines).to.deep.equal(["Access denied: the ACL password of user 'aowner' does not match."]);
      expect(acl("q2")!.owner).to.equal("aowner");
      expect((await s.gsql("CHANGE OWNER OF QUERY nosuch TO apeer", gadmin, G)).lines).to.deep.equal(["The query nosuch does not exist on the graph 'G'."]);
      expect((await s.gsql("CHANGE OWNER OF QUERY q2 TO nobodyhere SECURED BY ownerPw2", gadmin, G)).lines).to.deep.equal(['The user "nobodyhere" does not exist.']);
      expect((await s.gsql("CHANGE OWNER OF QUERY q2 TO apeer", gadmin)).lines).to.deep.equal([NO_GRAPH_MESSAGE]);

      const moved = await s.gsql("CHANGE OWNER OF QUERY q2 TO apeer SECURED BY ownerPw2", gadmin, G);
      expect(moved.lines).to.deep.equal(["Successfully changed the owner of query q2 in the graph G from aowner to apeer."]);
      // The entries stay; the new owner (no ACL password) changes them without one, the old one no longer can.
      expect(acl("q2")).to.deep.equal({ graph: "G", query: "q2", owner: "apeer", read: { roles: ["admin"] } });
      const oldOwner = await s.gsql("GRANT ACL PRIVILEGE READ ON QUERY q2 TO NOBODY SECURED BY ownerPw2", owner, G);
      expect(oldOwner.lines).to.deep.equal(["Access denied: only the owner of query 'q2' ('apeer') or a superuser changes its ACL."]);
      expect((await s.gsql("GRANT ACL PRIVILEGE READ ON QUERY q2 TO querywriter", peer, G)).lines).to.deep.equal([
        "Successfully granted READ on query q2 in the graph G to roles: [querywriter].",
      ]);
      // The owner itself hands it back without WRITE_ROLE.
      expect((await s.gsql("CHANGE OWNER OF QUERY q2 TO aowner", peer, G)).lines).to.deep.equal([
        "Successfully changed the owner of query q2 in the graph G from apeer to aowner.",
      ]);
    });
  });

  describe("SHOW ACL PRIVILEGE", () => {
    it("ON QUERY lists each query's owner and entries", async () => {
      expect(await showAcl("QUERY q1, q2", reader)).to.deep.equal([
        "Query q1 on the graph G:", "  - Owner: aowner", "  - READ: (not set: the roles decide)", "  - EXECUTE: admin, querywriter",
        "Query q2 on the graph G:", "  - Owner: aowner", "  - READ: admin, querywriter", "  - EXECUTE: (not set: the roles decide)",
      ]);
      expect(await showAcl("QUERY q1, nosuch")).to.deep.equal(["The query nosuch does not exist on the graph 'G'."]);
    });

    it("ON USER lists owned queries and those whose entries name the user's roles", async () => {
      expect(await showAcl("USER aowner, areader")).to.deep.equal([
        'User "aowner":',
        "  - Graph 'G':",
        "    - Owner of: [q1, q2, w1]",
        "    - READ: [q2]",
        "    - EXECUTE: [q1]",
        'User "areader":',
        "  - Graph 'G':",
        "    - Owner of: []",
        "    - READ: []",
        "    - EXECUTE: [w1]",
      ]);
      // The caller's own needs nothing; another user's needs READ_USER.
      expect((await showAcl("USER areader", reader)).length).to.equal(5);
      expect(await showAcl("USER aowner", reader)).to.deep.equal(["Access denied: user 'areader' does not have the privilege READ_USER on graph 'G'."]);
      expect(await showAcl("USER aowner", gadmin)).to.deep.equal(await showAcl("USER aowner"));
      expect(await showAcl("USER ghost")).to.deep.equal(['The user "ghost" does not exist.']);
    });

    it("ON ROLE lists the queries whose entries name the role", async () => {
      expect(await showAcl("ROLE admin, queryreader, observer")).to.deep.equal([
        'Role "admin":', "  - Graph 'G':", "    - READ: [q2, r1]", "    - EXECUTE: [q1]",
        'Role "queryreader":', "  - Graph 'G':", "    - READ: []", "    - EXECUTE: [w1]",
        'Role "observer":', "  - (no query ACL names this role)",
      ]);
      expect(await showAcl("ROLE admin", reader)).to.deep.equal(["Access denied: user 'areader' does not have the privilege READ_ROLE on graph 'G'."]);
      expect(await showAcl("ROLE nosuchrole")).to.deep.equal(['The role "nosuchrole" does not exist.']);
    });
  });
});

describe("auth: ACL passwords and owners across a restart", function () {
  this.timeout(60_000);
  let root: string;
  before(async () => {
    root = await fsp.mkdtemp(path.join(os.tmpdir(), "wasmgraph-acl-"));
  });
  after(() => fsp.rm(root, { recursive: true, force: true }));

  async function filesBelow(dir: string): Promise<{ file: string; bytes: Buffer }[]> {
    const out: { file: string; bytes: Buffer }[] = [];
    for (const entry of await fsp.readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) out.push(...(await filesBelow(full)));
      else out.push({ file: full, bytes: await fsp.readFile(full) });
    }
    return out;
  }

  it("keeps the ACL password (hashed), the entries and the owner; the password is nowhere in clear", async () => {
    const dataDir = path.join(root, "data");
    const first = await startAuthServer({ dataDir });
    const keeper = basic("keeper", "Pa55-keeper");
    let shown: string[];
    try {
      expect((await first.gsql(SCHEMA, ROOT)).returnCode).to.equal(0);
      expect((await createUser(first, "keeper", "Pa55-keeper")).returnCode).to.equal(0);
      expect((await createUser(first, "heir", "Pa55-heir")).returnCode).to.equal(0);
      expect((await first.gsql("GRANT ROLE querywriter ON GRAPH G TO keeper, heir", ROOT)).returnCode).to.equal(0);
      expect((await first.gsql("CREATE QUERY kq() FOR GRAPH G { PRINT 3; }", keeper)).returnCode).to.equal(0);
      expect((await first.gsql("CREATE QUERY kq2() FOR GRAPH G { PRINT 4; }", keeper)).returnCode).to.equal(0);
      expect((await first.gsql('ALTER ACL PASSWORD SET "Acl-Secret-77"', keeper)).returnCode).to.equal(0);
      expect((await first.gsql('GRANT ACL PRIVILEGE EXECUTE ON QUERY kq TO admin SECURED BY "Acl-Secret-77"', keeper, G)).returnCode).to.equal(0);
      expect((await first.gsql('CHANGE OWNER OF QUERY kq2 TO heir SECURED BY "Acl-Secret-77"', keeper, G)).returnCode).to.equal(0);
      shown = (await first.gsql("SHOW ACL PRIVILEGE ON QUERY kq, kq2", ROOT, G)).lines;
      expect(shown).to.deep.equal([
        "Query kq on the graph G:", "  - Owner: keeper", "  - READ: (not set: the roles decide)", "  - EXECUTE: admin",
        "Query kq2 on the graph G:", "  - Owner: heir", "  - READ: (not set: the roles decide)", "  - EXECUTE: (not set: the roles decide)",
      ]);
      expect(first.logged.join("\n")).to.not.include("Acl-Secret-77");
    } finally {
      await first.close();
    }
    for (const f of await filesBelow(dataDir)) expect(f.bytes.includes(Buffer.from("Acl-Secret-77", "utf8")), f.file).to.equal(false);

    const second = await startAuthServer({ dataDir });
    try {
      expect((await second.gsql("SHOW ACL PRIVILEGE ON QUERY kq, kq2", ROOT, G)).lines).to.deep.equal(shown);
      expect(second.server.services.engine.auth.user("keeper")!.aclPassword?.scheme).to.equal("scrypt");
      const wrong = await second.gsql("GRANT ACL PRIVILEGE READ ON QUERY kq TO NOBODY SECURED BY guess", keeper, G);
      expect(wrong.lines).to.deep.equal(["Access denied: the ACL password of user 'keeper' does not match."]);
      const right = await second.gsql('GRANT ACL PRIVILEGE READ ON QUERY kq TO NOBODY SECURED BY "Acl-Secret-77"', keeper, G);
      expect(right.lines).to.deep.equal(["Successfully granted READ on query kq in the graph G to roles: [NOBODY]."]);
      expect((await second.gsql('ALTER ACL PASSWORD CLEAR REPLACE "Acl-Secret-77"', keeper)).returnCode).to.equal(0);
    } finally {
      await second.close();
    }
    const third = await startAuthServer({ dataDir });
    try {
      expect(third.server.services.engine.auth.user("keeper")!.aclPassword).to.equal(undefined);
      expect(third.server.services.engine.auth.queryAcl("G", "kq")!.read).to.deep.equal({ nobody: true });
    } finally {
      await third.close();
    }
  });
});

describe("auth: wrong ACL passwords back off", function () {
  this.timeout(60_000);
  let s: AuthServer;
  before(async () => {
    s = await startAuthServer({ auth: { enabled: true, lockout: { threshold: 2, maxDelayMs: 60_000 } } });
    expect((await s.gsql(SCHEMA, ROOT)).returnCode).to.equal(0);
    await member(s, "lkowner", "querywriter", "G", "G");
  });
  after(() => s.close());

  it("after two wrong tries even the right password waits a second, then works", async () => {
    const owner = basic("lkowner", "pw-lkowner-1");
    expect((await s.gsql("CREATE QUERY lq() FOR GRAPH G { PRINT 1; }", owner)).returnCode).to.equal(0);
    expect((await s.gsql("ALTER ACL PASSWORD SET lockPw1", owner)).returnCode).to.equal(0);
    for (let i = 0; i < 2; i++) {
      expect((await s.gsql("GRANT ACL PRIVILEGE READ ON QUERY lq TO admin SECURED BY guess", owner, G)).lines).to.deep.equal([
        "Access denied: the ACL password of user 'lkowner' does not match.",
      ]);
    }
    const until = new Date(s.clock.now + 1000).toISOString();
    const waiting = await s.gsql("GRANT ACL PRIVILEGE READ ON QUERY lq TO admin SECURED BY lockPw1", owner, G);
    expect(waiting.lines).to.deep.equal([`Access denied: too many wrong ACL passwords for user 'lkowner': try again after ${until}.`]);
    expect((await s.gsql("ALTER ACL PASSWORD CLEAR REPLACE lockPw1", owner)).lines).to.deep.equal([
      `Access denied: too many wrong ACL passwords for user 'lkowner': try again after ${until}.`,
    ]);
    s.clock.now += 1000;
    expect((await s.gsql("GRANT ACL PRIVILEGE READ ON QUERY lq TO admin SECURED BY lockPw1", owner, G)).lines).to.deep.equal([
      "Successfully granted READ on query lq in the graph G to roles: [admin].",
    ]);
  });
});
