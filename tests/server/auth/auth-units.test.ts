// The pieces of server/auth on their own: reading Authorization headers, making and checking
// credentials, token lifetimes, the login back-off, the state's cascades, privileges through
// roles (against a reference built from the role table), query ACLs, and whether a query
// writes data.
import { expect } from "chai";
import { parseAuthorization } from "../../../server/auth/authorization-header.js";
import {
  checkScryptCost, credentialDigest, generatedAlias, hashPassword, maskCredential, randomCredential, verifyPassword,
} from "../../../server/auth/credentials.js";
import { AuthService, isLoopback, parseLifetime } from "../../../server/auth/auth-service.js";
import { Engine } from "../../../server/engine/engine.js";
import { LoginTracker } from "../../../server/auth/login-tracker.js";
import { AuthStore, type AuthChange } from "../../../server/auth/auth-state.js";
import { aclAllows, allows, privilegesOn, type Principal } from "../../../server/auth/access.js";
import { ALL_PRIVILEGES, BUILT_IN_ROLES, builtInRole, privilegesNamed } from "../../../server/auth/privileges.js";
import { pathParams } from "../../../server/auth/rest-auth.js";
import { scriptWritesData } from "../../../server/auth/query-writes.js";
import { analyzeSource } from "../../../compiler/front-end.js";
import { TEST_SCRYPT } from "./auth-fixture.js";

describe("auth units", () => {
  describe("Authorization header", () => {
    const cases: [string | undefined, unknown][] = [
      [undefined, { scheme: "none" }],
      ["   ", { scheme: "none" }],
      ["Bearer abc", { scheme: "bearer", token: "abc" }],
      ["bearer   abc  ", { scheme: "bearer", token: "abc" }],
      ["Bearer", { scheme: "bearer", token: "" }],
      ["Basic " + Buffer.from("u%20x:p:q").toString("base64"), { scheme: "basic", user: "u x", password: "p:q" }],
      ["Basic " + Buffer.from("100%:p").toString("base64"), { scheme: "basic", user: "100%", password: "p" }],
      ["Basic " + Buffer.from(":p").toString("base64"), { scheme: "malformed" }],
      ["Basic not*base64", { scheme: "malformed" }],
      ["Token abc", { scheme: "malformed" }],
      ["abc", { scheme: "malformed" }],
      ["Bearer " + "a".repeat(9000), { scheme: "malformed" }],
    ];
    for (const [header, expected] of cases) {
      it(`reads ${JSON.stringify(header?.slice(0, 30))}`, () => expect(parseAuthorization(header)).to.deep.equal(expected));
    }
  });

  describe("credentials", () => {
    it("makes 32-character secrets and tokens of lower-case letters and digits, starting with a letter, every character used", () => {
      const seen = new Set<string>();
      const values = Array.from({ length: 400 }, () => randomCredential());
      for (const v of values) {
        expect(v).to.match(/^[a-z][a-z0-9]{31}$/);
        for (const c of v) seen.add(c);
      }
      expect(seen.size).to.equal(36);
      expect(new Set(values).size).to.equal(values.length);
      expect(generatedAlias()).to.match(/^AUTO_GENERATED_ALIAS_[a-z][a-z0-9]{6}$/);
    });

    it("masks to the first and last three characters and digests with SHA-256", () => {
      expect(maskCredential("abcdefghijklmnopqrstuvwxyz012345")).to.equal("abc****345");
      expect(maskCredential("short")).to.equal("****");
      expect(credentialDigest("abc")).to.equal("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    });

    it("hashes passwords with a fresh salt and checks them; a changed hash, salt or cost fails", async () => {
      const hash = await hashPassword("correct horse", TEST_SCRYPT);
      expect(hash).to.include({ scheme: "scrypt", N: 1024, r: 8, p: 1 });
      expect(await verifyPassword("correct horse", hash)).to.equal(true);
      expect(await verifyPassword("correct hors", hash)).to.equal(false);
      expect(await verifyPassword("", hash)).to.equal(false);
      expect(await verifyPassword("correct horse", { ...hash, N: 2048 })).to.equal(false);
      expect(await verifyPassword("correct horse", { ...hash, salt: Buffer.alloc(16).toString("base64") })).to.equal(false);
      expect(await verifyPassword("correct horse", { ...hash, N: 2 ** 30 })).to.equal(false);
      expect(await verifyPassword("correct horse", { ...hash, hash: "AAAA" })).to.equal(false);
      expect((await hashPassword("correct horse", TEST_SCRYPT)).salt).to.not.equal(hash.salt);
    });

    it("bounds scrypt costs", () => {
      expect(checkScryptCost({ N: 2 ** 15, r: 8, p: 3 })).to.equal(undefined);
      expect(checkScryptCost({ N: 1000, r: 8, p: 1 })).to.match(/power of two/);
      expect(checkScryptCost({ N: 2 ** 21, r: 8, p: 1 })).to.match(/power of two/);
      expect(checkScryptCost({ N: 1024, r: 0, p: 1 })).to.match(/r must/);
      expect(checkScryptCost({ N: 1024, r: 8, p: 17 })).to.match(/p must/);
    });
  });

  it("reads token lifetimes", () => {
    expect(parseLifetime(undefined)).to.deep.equal({ ok: true });
    expect(parseLifetime("")).to.deep.equal({ ok: true });
    expect(parseLifetime("3600")).to.deep.equal({ ok: true, seconds: 3600 });
    expect(parseLifetime(" 60 ")).to.deep.equal({ ok: true, seconds: 60 });
    expect(parseLifetime(315360000)).to.deep.equal({ ok: true, seconds: 315360000 });
    for (const bad of [0, -1, 1.5, "1e3", "abc", 315360001, true, [], {}, "9".repeat(13)]) expect(parseLifetime(bad).ok, JSON.stringify(bad)).to.equal(false);
  });

  it("tells loopback addresses", () => {
    for (const a of ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"]) expect(isLoopback(a), a).to.equal(true);
    for (const a of ["10.0.0.1", "::ffff:10.0.0.1", "128.0.0.1", "::2", "localhost"]) expect(isLoopback(a), a).to.equal(false);
  });

  it("makes logins wait after repeated failures, doubling up to the limit, and a success resets", () => {
    let now = 0;
    const t = new LoginTracker(() => now, { threshold: 3, maxDelayMs: 5000 });
    t.failed("a");
    t.failed("a");
    expect(t.lockedUntil("a")).to.equal(undefined);
    t.failed("a");
    expect(t.lockedUntil("a")).to.equal(1000);
    t.failed("a");
    expect(t.lockedUntil("a")).to.equal(2000);
    for (let i = 0; i < 10; i++) t.failed("a");
    expect(t.lockedUntil("a")).to.equal(5000);
    expect(t.lockedUntil("b")).to.equal(undefined);
    now = 5000;
    expect(t.lockedUntil("a")).to.equal(undefined);
    t.succeeded("a");
    expect(t.get("a")).to.deep.equal({ failedAttempts: 0, lastSuccess: 5000 });
    const off = new LoginTracker(() => now, undefined);
    for (let i = 0; i < 20; i++) off.failed("x");
    expect(off.lockedUntil("x")).to.equal(undefined);
  });

  it("after repeated failures a user name waits, even with the right password, then logs in again", async () => {
    let now = 1_000_000;
    const auth = new AuthService(new Engine(), { enabled: true, scryptCost: TEST_SCRYPT, now: () => now, lockout: { threshold: 2, maxDelayMs: 60_000 } });
    await auth.ensureSuperuser();
    expect((await auth.authenticatePassword("tigergraph", "nope")).ok).to.equal(false);
    expect((await auth.authenticatePassword("tigergraph", "nope")).ok).to.equal(false);
    const locked = await auth.authenticatePassword("tigergraph", "tigergraph");
    expect(locked).to.deep.equal({ ok: false, status: 401, message: "Too many failed logins for this user name: try again after 1970-01-01T00:16:41.000Z." });
    now += 1000;
    expect(await auth.authenticatePassword("tigergraph", "tigergraph")).to.deep.include({ ok: true });
    expect(auth.logins.get("tigergraph")).to.deep.equal({ failedAttempts: 0, lastSuccess: now });
    // Names that do not exist are counted the same way, so the answers do not tell them apart.
    await auth.authenticatePassword("ghost", "x");
    expect(auth.logins.get("ghost").failedAttempts).to.equal(1);
  });

  describe("state", () => {
    const hash = { scheme: "scrypt" as const, N: 2, r: 1, p: 1, salt: "", hash: "" };
    const user = (name: string): AuthChange => ({ kind: "put-user", user: { name, password: hash, createdAt: 0 } });

    it("dropping a user drops its grants, secrets, tokens and graph ownerships", () => {
      const store = new AuthStore();
      store.apply([user("a"), user("b"),
        { kind: "grant-role", grant: { user: "a", role: "observer", graph: "G" } },
        { kind: "grant-role", grant: { user: "b", role: "observer", graph: "G" } },
        { kind: "put-secret", secret: { digest: "s1", user: "a", graph: "G", alias: "x", mask: "", createdAt: 0 } },
        { kind: "put-token", token: { digest: "t1", user: "a", graph: "G", secret: "s1", expiresAt: 100 }, now: 0 },
        { kind: "put-token", token: { digest: "t2", user: "b", expiresAt: 100 }, now: 0 },
        { kind: "put-graph-owner", graph: "G", user: "a" },
        { kind: "drop-user", name: "a" }]);
      const state = store.snapshot();
      expect(state.users.map((u) => u.name)).to.deep.equal(["b"]);
      expect(state.grants).to.deep.equal([{ user: "b", role: "observer", graph: "G" }]);
      expect(state.secrets).to.deep.equal([]);
      expect(state.tokens.map((t) => t.digest)).to.deep.equal(["t2"]);
      expect(state.graphOwners).to.deep.equal([]);
    });

    it("a user left without a role reaching a graph loses that graph's secrets and tokens; a global role keeps them", () => {
      const store = new AuthStore();
      store.apply([user("a"),
        { kind: "grant-role", grant: { user: "a", role: "observer", graph: "G" } },
        { kind: "grant-role", grant: { user: "a", role: "observer", graph: "H" } },
        { kind: "put-secret", secret: { digest: "sG", user: "a", graph: "G", alias: "g", mask: "", createdAt: 0 } },
        { kind: "put-secret", secret: { digest: "sH", user: "a", graph: "H", alias: "h", mask: "", createdAt: 0 } },
        { kind: "put-token", token: { digest: "tG", user: "a", graph: "G", expiresAt: 100 }, now: 0 },
        { kind: "put-token", token: { digest: "tAny", user: "a", expiresAt: 100 }, now: 0 },
        { kind: "revoke-role", grant: { user: "a", role: "observer", graph: "G" } }]);
      expect(store.secretList().map((x) => x.digest)).to.deep.equal(["sH"]);
      expect(store.tokenList().map((x) => x.digest)).to.deep.equal(["tAny"]);
      store.apply([{ kind: "grant-role", grant: { user: "a", role: "superuser" } }, { kind: "revoke-role", grant: { user: "a", role: "observer", graph: "H" } }]);
      expect(store.secretList().map((x) => x.digest)).to.deep.equal(["sH"]);
    });

    it("a new token clears the expired ones; dropping a secret drops its tokens", () => {
      const store = new AuthStore();
      store.apply([user("a"),
        { kind: "put-token", token: { digest: "old", user: "a", expiresAt: 10 }, now: 0 },
        { kind: "put-secret", secret: { digest: "s", user: "a", graph: "G", alias: "x", mask: "", createdAt: 0 } },
        { kind: "put-token", token: { digest: "fromS", user: "a", secret: "s", expiresAt: 100 }, now: 10 }]);
      expect(store.tokenList().map((t) => t.digest)).to.deep.equal(["fromS"]);
      store.apply([{ kind: "drop-secret", digest: "s" }]);
      expect(store.tokenCount()).to.equal(0);
    });
  });

  describe("privileges", () => {
    const hash = { scheme: "scrypt" as const, N: 2, r: 1, p: 1, salt: "", hash: "" };
    const storeWith = (...grants: { role: string; graph?: string }[]) => {
      const store = new AuthStore();
      store.apply([{ kind: "put-user", user: { name: "u", password: hash, createdAt: 0 } }, ...grants.map((g): AuthChange => ({ kind: "grant-role", grant: { user: "u", ...g } }))]);
      return store;
    };
    const u: Principal = { user: "u", via: "password" };

    // The §11 table, written out: each role's privileges are its own plus those of the roles above it.
    const OWN: Record<string, string[]> = {
      observer: ["READ_SCHEMA", "READ_LOADINGJOB", "READ_QUERY"],
      queryreader: ["EXECUTE_LOADINGJOB", "READ_DATA"],
      querywriter: ["WRITE_QUERY", "CREATE_DATA", "UPDATE_DATA", "DELETE_DATA"],
      designer: ["WRITE_SCHEMA", "WRITE_LOADINGJOB", "ACCESS_TAG"],
      admin: ["WRITE_ROLE", "WRITE_DATASOURCE", "READ_ROLE", "READ_USER", "READ_PROXYGROUP"],
    };
    const ORDER = ["observer", "queryreader", "querywriter", "designer", "admin"];
    const reference = (role: string) => ORDER.slice(0, ORDER.indexOf(role) + 1).flatMap((r) => OWN[r]!).sort();

    for (const role of ORDER) {
      it(`${role} on G holds the table's privileges on G, nothing on H or globally`, () => {
        const store = storeWith({ role, graph: "G" });
        expect([...privilegesOn(store, "u", "G")].sort()).to.deep.equal(reference(role));
        expect([...privilegesOn(store, "u", "H")]).to.deep.equal([]);
        expect([...privilegesOn(store, "u", undefined)]).to.deep.equal([]);
      });
    }

    it("superuser holds everything everywhere; globaldesigner holds designer everywhere and DROP_GRAPH only on graphs it created", () => {
      const su = storeWith({ role: "superuser" });
      expect([...privilegesOn(su, "u", "G")].sort()).to.deep.equal([...ALL_PRIVILEGES].sort());
      expect([...privilegesOn(su, "u", undefined)].sort()).to.deep.equal([...ALL_PRIVILEGES].sort());
      const gd = storeWith({ role: "globaldesigner" });
      gd.apply([{ kind: "put-graph-owner", graph: "Mine", user: "u" }]);
      expect([...privilegesOn(gd, "u", "G")].sort()).to.deep.equal(reference("designer"));
      expect(privilegesOn(gd, "u", "Mine").has("DROP_GRAPH")).to.equal(true);
      expect(privilegesOn(gd, "u", "G").has("DROP_GRAPH")).to.equal(false);
      expect(privilegesOn(gd, "u", undefined).has("WRITE_SCHEMA")).to.equal(true);
    });

    it("reads role names in any case and architect as designer; WRITE_DATA names the three data writes", () => {
      expect(builtInRole("ARCHITECT")?.name).to.equal("designer");
      expect(builtInRole("QueryReader")?.name).to.equal("queryreader");
      expect(privilegesNamed("write_data")).to.deep.equal(["CREATE_DATA", "UPDATE_DATA", "DELETE_DATA"]);
      expect(privilegesNamed("read_data")).to.deep.equal(["READ_DATA"]);
      expect(privilegesNamed("nope")).to.equal(undefined);
      expect(BUILT_IN_ROLES.map((r) => r.name)).to.deep.equal(["observer", "queryreader", "querywriter", "designer", "admin", "globaldesigner", "superuser"]);
    });

    it("user-defined roles: global entries reach every graph, graph entries their graph", () => {
      const store = storeWith({ role: "mixed" });
      store.apply([{ kind: "put-role", role: { name: "mixed", privileges: [{ names: ["READ_SCHEMA"] }, { graph: "G", names: ["READ_DATA"] }] } }]);
      expect([...privilegesOn(store, "u", "G")].sort()).to.deep.equal(["READ_DATA", "READ_SCHEMA"]);
      expect([...privilegesOn(store, "u", "H")]).to.deep.equal(["READ_SCHEMA"]);
      expect([...privilegesOn(store, "u", undefined)]).to.deep.equal(["READ_SCHEMA"]);
    });

    it("a credential bound to a graph acts on that graph only, whatever the user's roles", () => {
      const store = storeWith({ role: "superuser" });
      expect(allows(store, { user: "u", graph: "G", via: "token" }, ["READ_DATA"], "G")).to.equal(true);
      expect(allows(store, { user: "u", graph: "G", via: "token" }, ["READ_DATA"], "H")).to.equal(false);
      expect(allows(store, { user: "u", graph: "G", via: "secret" }, ["WRITE_USER"], undefined)).to.equal(false);
      expect(allows(store, u, ["WRITE_USER"], undefined)).to.equal(true);
      expect(allows(store, { user: "ghost", via: "token" }, [], "G")).to.equal(false);
    });

    it("query ACLs: an entry decides alone; the owner and superusers pass a role list, nobody passes NOBODY", () => {
      const store = storeWith({ role: "querywriter", graph: "G" });
      store.apply([
        { kind: "put-user", user: { name: "o", password: hash, createdAt: 0 } },
        { kind: "put-query-acl", acl: { graph: "G", query: "q", owner: "o", execute: { roles: ["admin"] }, read: { nobody: true } } },
      ]);
      expect(aclAllows(store, u, "G", "q", "execute")).to.equal(false);
      expect(aclAllows(store, u, "G", "q", "read")).to.equal(false);
      expect(aclAllows(store, u, "G", "other", "execute")).to.equal(true);
      expect(aclAllows(store, { user: "o", via: "password" }, "G", "q", "execute")).to.equal(true);
      expect(aclAllows(store, { user: "o", via: "password" }, "G", "q", "read")).to.equal(false);
      expect(aclAllows(store, { user: "tigergraph", via: "auth-off" }, "G", "q", "read")).to.equal(true);
      store.apply([{ kind: "grant-role", grant: { user: "u", role: "admin", graph: "G" } }]);
      expect(aclAllows(store, u, "G", "q", "execute")).to.equal(true);
      expect(aclAllows(store, u, "G", "q", "read")).to.equal(false);
    });
  });

  it("reads path parameters segment by segment", () => {
    expect({ ...pathParams("/graph/:graph_name/vertices/:vertex_type", "/graph/My%20G/vertices/P/") }).to.deep.equal({ graph_name: "My G", vertex_type: "P" });
    expect({ ...pathParams("/query/:graph_name/:query_name", "/query/G") }).to.deep.equal({});
    expect({ ...pathParams("/query/:graph_name/:query_name", "/query/%E0%A4%A/q") }).to.deep.equal({ graph_name: "%E0%A4%A", query_name: "q" });
  });

  describe("queries that write data", () => {
    const writes = (body: string) => scriptWritesData(analyzeSource(`CREATE QUERY q() FOR GRAPH G { ${body} }`, "q.gsql", { astOnly: true }).ast);
    it("finds INSERT, UPDATE, DELETE and attribute assignments", () => {
      expect(writes('INSERT INTO P VALUES ("x", 1);')).to.equal(true);
      expect(writes("S = {P.*}; UPDATE s FROM S:s SET s.age = 1;")).to.equal(true);
      expect(writes("S = {P.*}; DELETE s FROM S:s;")).to.equal(true);
      expect(writes("S = {P.*}; T = SELECT s FROM S:s ACCUM s.age = 3;")).to.equal(true);
      expect(writes("S = {P.*}; T = SELECT s FROM S:s ACCUM DELETE (s);")).to.equal(true);
    });
    it("leaves read-only queries alone, accumulator writes included", () => {
      expect(writes("PRINT 1;")).to.equal(false);
      expect(writes("SumAccum<INT> @@n; S = {P.*}; T = SELECT s FROM S:s ACCUM @@n += s.age, s.@c = 1; PRINT @@n;")).to.equal(false);
    });
  });
});
