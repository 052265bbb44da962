// Generated hostile query-ACL commands: wrong passwords (quoted, bare, numbers, stray
// characters), bad names, missing privileges. Every one is refused, changes nothing in the
// auth state, and the server keeps answering; a password cut short by a syntax error on its
// line is never taken.
import { expect } from "chai";
import { ROOT, basic, member, startAuthServer, type AuthServer } from "./auth-fixture.js";
import { mulberry32 } from "../../../tools/bench/rmat.js";

const SCHEMA = "CREATE VERTEX P (PRIMARY_ID id STRING)\nCREATE GRAPH G (P)\n";

describe("auth: generated hostile ACL commands", function () {
  this.timeout(120_000);
  let s: AuthServer;
  const SEED = 20261122;
  const random = mulberry32(SEED);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const int = (n: number) => Math.floor(random() * n);
  const REAL = "Real-Acl-Pw-1";
  const owner = basic("fzowner", "pw-fzowner-1");
  const peer = basic("fzpeer", "pw-fzpeer-1");
  const CHARS = 'abcXYZ019 _-.,;:"\\\'()[]{}<>@#$%^&*+=/?!~`|é漢\u{1F600}\t';

  before(async () => {
    s = await startAuthServer();
    expect((await s.gsql(SCHEMA, ROOT)).returnCode).to.equal(0);
    await member(s, "fzowner", "querywriter", "G", "G");
    await member(s, "fzpeer", "querywriter", "G", "G");
    expect((await s.gsql("CREATE QUERY fq() FOR GRAPH G { PRINT 1; }", owner)).returnCode).to.equal(0);
    expect((await s.gsql(`ALTER ACL PASSWORD SET "${REAL}"`, owner)).returnCode).to.equal(0);
  });
  after(() => s.close());

  /** Anything but the real password: quoted with escapes, a bare word, a number, or stray tokens. */
  function wrongPassword(): string {
    const text = Array.from({ length: int(40) }, () => pick([...CHARS])).join("");
    switch (int(4)) {
      case 0: return `"${text.replace(/[\\"]/g, (c) => "\\" + c)}"`;
      case 1: return (text.replace(/[^A-Za-z0-9]/g, "") || "x") + "q";
      case 2: return String(int(1e9));
      default: return text.length === 0 ? '""' : text;
    }
  }

  function name(): string {
    return pick(["fq", "nosuch", "fzowner", "fzpeer", "admin", "NOBODY", "ALL", "READ", "`x`", "a b", "漢字", "q\u0000", "x".repeat(300)]);
  }

  function command(): { text: string; as: string } {
    switch (int(6)) {
      case 0: return { text: `ALTER ACL PASSWORD SET ${wrongPassword()} REPLACE ${wrongPassword()}`, as: owner };
      case 1: return { text: `ALTER ACL PASSWORD CLEAR REPLACE ${wrongPassword()}`, as: owner };
      // Another user's (fzpeer lacks WRITE_USER).
      case 2: return { text: `ALTER USER ${pick(["fzowner", "admin", "nosuch", "漢字", "x".repeat(300)])} ACL PASSWORD SET ${wrongPassword()}`, as: peer };
      case 3: {
        const kinds = Array.from({ length: 1 + int(2) }, () => pick(["READ", "EXECUTE", "WRITE", "read"])).join(", ");
        return { text: `${pick(["GRANT", "REVOKE"])} ACL PRIVILEGE ${kinds} ON QUERY ${name()} ${pick(["TO", "FROM"])} ${name()} SECURED BY ${wrongPassword()}`, as: pick([owner, ROOT, peer]) };
      }
      case 4: return { text: `CHANGE OWNER OF QUERY ${name()} TO ${name()} SECURED BY ${wrongPassword()}`, as: pick([owner, ROOT, peer]) };
      default: return { text: `SHOW ACL PRIVILEGE ON ${pick(["QUERY", "USER", "ROLE"])} ${name()}, ${name()}`, as: peer };
    }
  }

  it("a password cut short by a syntax error on its line is not taken, and no dialog opens", async () => {
    const cut = await s.gsql("ALTER ACL PASSWORD SET a-b", peer);
    expect(cut.returnCode).to.equal(211);
    expect(cut.text).to.not.include("has been set");
    const stray = await s.gsql("ALTER ACL PASSWORD SET |x", peer);
    expect(stray.raw).to.not.include("__GSQL__INTERACT__");
    expect(s.server.services.engine.auth.user("fzpeer")!.aclPassword).to.equal(undefined);
    // On the next line the error no longer concerns it: the statement before runs.
    const next = await s.gsql("ALTER ACL PASSWORD SET ab1\n|x", peer);
    expect(next.lines[0]).to.equal('ACL password of user "fzpeer" has been set.');
    expect(next.returnCode).to.equal(211);
    expect((await s.gsql("ALTER ACL PASSWORD CLEAR REPLACE ab1", peer)).returnCode).to.equal(0);
  });

  it("refuses every generated command with a wrong password or bad names, changing nothing", async () => {
    const before = JSON.stringify(s.server.services.engine.auth.snapshot());
    for (let i = 0; i < 120; i++) {
      const { text, as } = command();
      if (text.includes(REAL)) continue;
      const answer = await s.gsql(text, as, { graph: "G", answers: [wrongPassword(), wrongPassword(), wrongPassword()] });
      // 400: the GSQL server refuses a body with a NUL before parsing it.
      expect(answer.status, text).to.be.oneOf([200, 400]);
      if (answer.status === 200) expect(answer.returnCode, `${text}\n${answer.text}`).to.be.a("number");
      expect(answer.text, text).to.not.match(/Successfully|has been (set|changed|cleared)/);
      expect(JSON.stringify(s.server.services.engine.auth.snapshot()), text).to.equal(before);
    }
    // Still serving, and the real password still works.
    const granted = await s.gsql(`GRANT ACL PRIVILEGE READ ON QUERY fq TO admin SECURED BY "${REAL}"`, owner, { graph: "G" });
    expect(granted.lines).to.deep.equal(["Successfully granted READ on query fq in the graph G to roles: [admin]."]);
  });
});
