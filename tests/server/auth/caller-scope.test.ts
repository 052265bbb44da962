// What a caller sees and answers stays within its own reach: the graph-less GET /endpoints
// lists only the added endpoints of graphs the caller may read the schema of, and a GSQL
// dialog (CREATE USER's password prompt) takes its answer only from the user, acting in the
// same graph binding, that ran the command.
import { expect } from "chai";
import { DialogRegistry } from "../../../server/gsql/dialogs.js";
import { AUTH_OFF_PRINCIPAL, type Principal } from "../../../server/auth/access.js";
import { ROOT, basic, bearer, createSecret, member, requestToken, startAuthServer, type AuthServer } from "./auth-fixture.js";

const SCHEMA = `CREATE VERTEX P (PRIMARY_ID id STRING)
CREATE VERTEX Q (PRIMARY_ID id STRING)
CREATE GRAPH G (P)
CREATE GRAPH H (Q)
`;

describe("auth: a caller's reach (listings, dialogs)", function () {
  this.timeout(60_000);
  let s: AuthServer;

  before(async () => {
    s = await startAuthServer();
    const setup = await s.gsql(SCHEMA, ROOT);
    expect(setup.returnCode, setup.text).to.equal(0);
    // Endpoints added for one graph each (as installing a query adds them), and one for no graph.
    const descriptor = { parameters: {} };
    s.server.services.endpoints.register("GET /query/G/qg", "dynamic", descriptor, "G");
    s.server.services.endpoints.register("GET /query/H/qh", "dynamic", descriptor, "H");
    s.server.services.endpoints.register("GET /static_any", "static", descriptor);
  });
  after(() => s.close());

  describe("GET /endpoints", () => {
    const addedKeys = (json: Record<string, unknown>) => Object.keys(json).filter((k) => k.startsWith("GET /query/") || k === "GET /static_any").sort();

    it("lists every graph's endpoints to a superuser", async () => {
      const token = (await s.rest("POST", "/requesttoken", ROOT, "{}")).json.token as string;
      const res = await s.rest("GET", "/endpoints", bearer(token));
      expect(res.status, res.text).to.equal(200);
      expect(addedKeys(res.json)).to.deep.equal(["GET /query/G/qg", "GET /query/H/qh", "GET /static_any"]);
      expect(res.json).to.have.property("GET /echo");
    });

    it("lists only the endpoints of the caller's graphs (and the built-ins) to others", async () => {
      const g = await member(s, "obs_g", "observer", "G", "G");
      const res = await s.rest("GET", "/endpoints", bearer(g.token));
      expect(res.status, res.text).to.equal(200);
      expect(addedKeys(res.json)).to.deep.equal(["GET /query/G/qg", "GET /static_any"]);
      expect(res.json).to.have.property("GET /echo");
      // The same with ?dynamic=true, and with basic auth instead of a token.
      const dynamic = await s.rest("GET", "/endpoints?dynamic=true", basic(g.user, g.password));
      expect(Object.keys(dynamic.json).sort()).to.deep.equal(["GET /query/G/qg"]);
    });

    it("lists no graph's endpoints to a user with no role", async () => {
      const created = await s.gsql("CREATE USER", ROOT, { answers: ["nobody_here:pw-nobody"] });
      expect(created.returnCode, created.text).to.equal(0);
      const res = await s.rest("GET", "/endpoints?dynamic=true&static=true", basic("nobody_here", "pw-nobody"));
      expect(res.status, res.text).to.equal(200);
      expect(Object.keys(res.json)).to.deep.equal(["GET /static_any"]);
    });

    it("keeps a token made for one graph to that graph, whatever roles its user has elsewhere", async () => {
      const both = await member(s, "qw_both", "querywriter", "G", "G");
      const onH = await s.gsql("GRANT ROLE querywriter ON GRAPH H TO qw_both", ROOT);
      expect(onH.returnCode, onH.text).to.equal(0);
      const hToken = await requestToken(s, await createSecret(s, basic(both.user, both.password), "H"));
      const res = await s.rest("GET", "/endpoints?dynamic=true", bearer(hToken));
      expect(Object.keys(res.json)).to.deep.equal(["GET /query/H/qh"]);
      const password = await s.rest("GET", "/endpoints?dynamic=true", basic(both.user, both.password));
      expect(Object.keys(password.json).sort()).to.deep.equal(["GET /query/G/qg", "GET /query/H/qh"]);
    });

    it("lists installed queries only to callers who may read their graph's schema", async () => {
      const install = await s.gsql(`CREATE QUERY pg() FOR GRAPH G { PRINT 1; }
CREATE QUERY ph() FOR GRAPH H { PRINT 2; }
INSTALL QUERY pg
USE GRAPH H
INSTALL QUERY ph`, ROOT, { graph: "G" });
      expect(install.returnCode, install.text).to.equal(0);
      const h = await member(s, "obs_h", "observer", "H", "H");
      const res = await s.rest("GET", "/endpoints?dynamic=true", bearer(h.token));
      expect(Object.keys(res.json).filter((k) => k.startsWith("GET /query/H/p") || k.startsWith("GET /query/G/p")).sort()).to.deep.equal(["GET /query/H/ph"]);
      const root = await s.rest("GET", "/endpoints?dynamic=true", ROOT);
      expect(Object.keys(root.json)).to.include.members(["GET /query/G/pg", "GET /query/H/ph"]);
    });

    it("still refuses GET /endpoints/{graph} for a graph the caller has no role on", async () => {
      const g = await member(s, "obs_g2", "observer", "G", "G");
      const res = await s.rest("GET", "/endpoints/H", bearer(g.token));
      expect(res.status).to.equal(403);
      expect(res.json.code).to.equal("REST-10016");
    });
  });

  describe("dialogs", () => {
    /** Starts CREATE USER as `authorization` and returns the dialog id it asks under, and the rest of the answer. */
    async function startCreateUser(authorization: string): Promise<{ id: string; rest: Promise<string> }> {
      const res = await fetch(`${s.gsqlUrl}/gsqlserver/gsql/file`, {
        method: "POST",
        body: encodeURIComponent("CREATE USER"),
        headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: authorization },
      });
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let text = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the command ended without a dialog: ${text}`);
        text += decoder.decode(value, { stream: true });
        const match = /^__GSQL__INTERACT__,CreateUserQb,([0-9a-f]+)$/m.exec(text);
        if (!match) continue;
        const rest = (async () => {
          for (;;) {
            const next = await reader.read();
            if (next.done) return text;
            text += decoder.decode(next.value, { stream: true });
          }
        })();
        return { id: match[1]!, rest };
      }
    }
    const answer = (authorization: string | undefined, body: string) => s.gsqlHttp("POST", "/gsqlserver/gsql/dialog", authorization, encodeURIComponent(body));

    it("takes the answer only from the user who was asked", async () => {
      const admin = await member(s, "admin_g", "admin", "G", "G");
      const otherSuper = await member(s, "super_two", "superuser", undefined, "G");
      const asked = await startCreateUser(ROOT);
      // Another user, another superuser, and root itself through a token bound to graph G: all answer no dialog.
      for (const intruder of [basic(admin.user, admin.password), basic(otherSuper.user, otherSuper.password), bearer(await requestToken(s, await createSecret(s, ROOT, "G")))]) {
        const refused = await answer(intruder, `${asked.id},hijacked:pw-hijack`);
        expect(refused.status, refused.text).to.equal(404);
        expect(refused.text).to.equal("No dialog is waiting for this answer (it may have timed out).\n");
      }
      // Without credentials the guard refuses before the dialog is looked at.
      expect((await answer(undefined, `${asked.id},hijacked:pw-hijack`)).status).to.equal(401);
      expect(s.server.services.engine.auth.user("hijacked")).to.equal(undefined);
      // The dialog still waits for its owner.
      const owned = await answer(ROOT, `${asked.id},rightful:pw-rightful`);
      expect(owned.status, owned.text).to.equal(200);
      const text = await asked.rest;
      expect(text).to.match(/__GSQL__RETURN__CODE__,0\s*$/);
      expect(s.server.services.engine.auth.user("rightful")).to.not.equal(undefined);
      expect(s.server.services.engine.auth.user("hijacked")).to.equal(undefined);
      // The owner's answer was used: the new user logs in with it.
      const login = await s.gsqlHttp("POST", "/gsqlserver/gsql/login", undefined, Buffer.from("rightful:pw-rightful").toString("base64"));
      expect(login.status, login.text).to.equal(200);
      expect(login.json.error).to.equal(false);
    });
  });
});

describe("DialogRegistry ownership", () => {
  const alice: Principal = { user: "alice", via: "password" };
  const aliceOnG: Principal = { user: "alice", graph: "G", via: "token" };
  const bob: Principal = { user: "bob", via: "password" };

  it("delivers an owned dialog's answer only to the same user in the same graph binding", async () => {
    const dialogs = new DialogRegistry();
    const d = dialogs.open(alice);
    expect(dialogs.answer(`${d.id},from bob`, bob)).to.equal(false);
    expect(dialogs.answer(`${d.id},from alice on G`, aliceOnG)).to.equal(false);
    expect(dialogs.answer(`${d.id},anonymous`)).to.equal(false);
    expect(dialogs.waiting).to.equal(1);
    expect(dialogs.answer(`${d.id},from alice, with, commas`, { user: "alice", via: "token" })).to.equal(true);
    expect(await d.answer).to.equal("from alice, with, commas");
    expect(dialogs.waiting).to.equal(0);
    expect(dialogs.answer(`${d.id},again`, alice)).to.equal(false);
  });

  it("lets anyone answer a dialog the server itself opened, and matches auth-off requests to each other", async () => {
    const dialogs = new DialogRegistry();
    const serverOwned = dialogs.open();
    expect(dialogs.answer(`${serverOwned.id},y`, bob)).to.equal(true);
    expect(await serverOwned.answer).to.equal("y");
    const off = dialogs.open(AUTH_OFF_PRINCIPAL);
    expect(dialogs.answer(`${off.id},n`, AUTH_OFF_PRINCIPAL)).to.equal(true);
    expect(await off.answer).to.equal("n");
  });
});
