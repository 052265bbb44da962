// /requesttoken: the answer shape of the compat notes, the older GET form, refresh (PUT) and
// drop (DELETE), lifetimes and expiry, graph binding, basic-auth requests, and how dropping a
// secret or revoking a role ends its tokens. With authentication off the path is unknown.
import { expect } from "chai";
import { startServer } from "../../../server/serve.js";
import { ROOT, TEST_SCRYPT, basic, bearer, createSecret, member, requestToken, sendGsql, startAuthServer, type AuthServer } from "./auth-fixture.js";

const SCHEMA = `CREATE VERTEX P (PRIMARY_ID id STRING, age INT)
CREATE GRAPH G (P)
CREATE VERTEX Q (PRIMARY_ID id STRING)
CREATE GRAPH H (Q)
`;

describe("auth: tokens (/requesttoken)", function () {
  this.timeout(60_000);
  let s: AuthServer;
  let secret: string;

  before(async () => {
    s = await startAuthServer();
    expect((await s.gsql(SCHEMA, ROOT)).returnCode).to.equal(0);
    secret = (await member(s, "reader", "queryreader", "G", "G")).secret;
  });
  after(() => s.close());

  const readVertices = (token: string) => s.rest("GET", "/graph/G/vertices/P", bearer(token));

  it("POST with a secret answers code, expiration, error, message and token; the default lifetime is 30 days", async () => {
    const res = await s.rest("POST", "/requesttoken", undefined, JSON.stringify({ secret }));
    expect(res.status).to.equal(200);
    expect(Object.keys(res.json).sort()).to.deep.equal(["code", "error", "expiration", "message", "token"]);
    expect(res.json).to.include({ code: "REST-0000", error: false, message: "Generate new token successfully." });
    expect(res.json.token).to.match(/^[a-z][a-z0-9]{31}$/);
    expect(res.json.expiration).to.equal(Math.floor(s.clock.now / 1000) + 30 * 24 * 3600);
    expect((await readVertices(res.json.token)).status).to.equal(200);
  });

  it("takes the lifetime as a number or as digits, also from the older GET form", async () => {
    const now = Math.floor(s.clock.now / 1000);
    const asText = await s.rest("POST", "/requesttoken", undefined, JSON.stringify({ secret, graph: "G", lifetime: "3600" }));
    expect(asText.json.expiration).to.equal(now + 3600);
    const asNumber = await s.rest("POST", "/requesttoken", undefined, JSON.stringify({ secret, lifetime: 60 }));
    expect(asNumber.json.expiration).to.equal(now + 60);
    const older = await s.rest("GET", `/requesttoken?secret=${secret}&lifetime=120`);
    expect(older.status).to.equal(200);
    expect(older.json).to.include({ code: "REST-0000", error: false, expiration: now + 120 });
    expect((await readVertices(older.json.token)).status).to.equal(200);
  });

  it("a token expires at its expiration and then answers REST-3300", async () => {
    const token = await requestToken(s, secret, 10);
    expect((await readVertices(token)).status).to.equal(200);
    s.clock.now += 9_000;
    expect((await readVertices(token)).status).to.equal(200);
    s.clock.now += 1_000;
    const expired = await readVertices(token);
    expect(expired.status).to.equal(401);
    expect(expired.json).to.include({ error: true, code: "REST-3300" });
    expect(expired.json.message).to.match(/has expired\.$/);
  });

  it("PUT refreshes a token to now + lifetime; DELETE drops it (then REST-3300, also for a second DELETE)", async () => {
    const token = await requestToken(s, secret, 10);
    s.clock.now += 5_000;
    const refreshed = await s.rest("PUT", "/requesttoken", undefined, JSON.stringify({ secret, token, lifetime: "100" }));
    expect(refreshed.status, refreshed.text).to.equal(200);
    expect(refreshed.json).to.include({ code: "REST-0000", error: false, token, expiration: Math.floor(s.clock.now / 1000) + 100 });
    s.clock.now += 50_000;
    expect((await readVertices(token)).status).to.equal(200);
    const older = await s.rest("PUT", `/requesttoken?secret=${secret}&token=${token}&lifetime=30`);
    expect(older.json.expiration).to.equal(Math.floor(s.clock.now / 1000) + 30);

    const dropped = await s.rest("DELETE", "/requesttoken", undefined, JSON.stringify({ secret, token }));
    expect(dropped.status).to.equal(200);
    expect(dropped.json).to.include({ code: "REST-0000", error: false });
    expect((await readVertices(token)).json.code).to.equal("REST-3300");
    const again = await s.rest("DELETE", `/requesttoken?secret=${secret}&token=${token}`);
    expect(again.status).to.equal(401);
    expect(again.json).to.include({ error: true, code: "REST-3300" });
  });

  it("refresh and drop only reach the requester's own tokens", async () => {
    const mine = await requestToken(s, secret);
    const other = await member(s, "writer", "querywriter", "G", "G");
    for (const method of ["PUT", "DELETE"]) {
      const res = await s.rest(method, "/requesttoken", undefined, JSON.stringify({ secret: other.secret, token: mine }));
      expect(res.status, method).to.equal(401);
      expect(res.json.code).to.equal("REST-3300");
    }
    expect((await readVertices(mine)).status).to.equal(200);
  });

  it("a password (basic auth) gets a token for a graph it has a role on, or for no graph", async () => {
    const forG = await s.rest("POST", "/requesttoken", basic("reader", "pw-reader-1"), JSON.stringify({ graph: "G" }));
    expect(forG.status, forG.text).to.equal(200);
    expect((await readVertices(forG.json.token)).status).to.equal(200);
    const forH = await s.rest("POST", "/requesttoken", basic("reader", "pw-reader-1"), JSON.stringify({ graph: "H" }));
    expect(forH.status).to.equal(403);
    expect(forH.json).to.include({ error: true, code: "REST-10016" });
    const missing = await s.rest("POST", "/requesttoken", basic("reader", "pw-reader-1"), JSON.stringify({ graph: "Nope" }));
    expect(missing.status).to.equal(400);
    expect(missing.json.code).to.equal("REST-1004");
    const wrong = await s.rest("POST", "/requesttoken", basic("reader", "wrong"), "{}");
    expect(wrong.status).to.equal(401);
    expect(wrong.json).to.include({ error: true, code: "REST-10016", message: "Invalid username or password!" });
  });

  it("a secret makes tokens for its own graph only", async () => {
    const res = await s.rest("POST", "/requesttoken", undefined, JSON.stringify({ secret, graph: "H" }));
    expect(res.status).to.equal(403);
    expect(res.json.message).to.equal("Access Denied because the secret belongs to graph 'G', not 'H'.");
    const token = await requestToken(s, secret);
    const onH = await s.rest("GET", "/graph/H/vertices/Q", bearer(token));
    expect(onH.status).to.equal(403);
  });

  it("refuses bad requests with the envelope and changes nothing", async () => {
    const before = s.server.services.engine.auth.tokenCount();
    const cases: [string, string | undefined, number, string][] = [
      ["POST", JSON.stringify({ secret: "x".repeat(32) }), 401, "REST-10016"],
      ["POST", "{not json", 400, "REST-2001"],
      ["POST", "[1,2]", 400, "REST-30000"],
      ["POST", JSON.stringify({ secret: 42 }), 400, "REST-30000"],
      ["POST", JSON.stringify({ secret, lifetime: -5 }), 400, "REST-30000"],
      ["POST", JSON.stringify({ secret, lifetime: "1e3" }), 400, "REST-30000"],
      ["POST", JSON.stringify({ secret, lifetime: 10 * 365 * 24 * 3600 + 1 }), 400, "REST-30000"],
      ["POST", JSON.stringify({ secret, lifetime: 0 }), 400, "REST-30000"],
      ["POST", undefined, 401, "REST-10016"],
      ["PUT", JSON.stringify({ secret }), 400, "REST-30000"],
      ["DELETE", JSON.stringify({ secret, token: "" }), 400, "REST-30000"],
    ];
    for (const [method, body, status, code] of cases) {
      const res = await s.rest(method, "/requesttoken", undefined, body);
      expect(res.status, `${method} ${body}`).to.equal(status);
      expect(res.json, `${method} ${body}`).to.include({ error: true, code });
    }
    expect(s.server.services.engine.auth.tokenCount()).to.equal(before);
  });

  it("DROP SECRET ends the tokens made from it; revoking the user's role ends the secret and its tokens", async () => {
    const m = await member(s, "dropper", "queryreader", "G", "G");
    const second = await createSecret(s, basic(m.user, m.password), "G", "kept");
    const keptToken = await requestToken(s, second);
    const dropped = await s.gsql(`DROP SECRET ${m.secret}`, basic(m.user, m.password), { graph: "G" });
    expect(dropped.lines).to.deep.equal([`Successfully dropped secrets: [${m.secret.slice(0, 3)}****${m.secret.slice(-3)}].`]);
    expect((await readVertices(m.token)).json.code).to.equal("REST-3300");
    expect((await s.rest("POST", "/requesttoken", undefined, JSON.stringify({ secret: m.secret }))).status).to.equal(401);
    expect((await readVertices(keptToken)).status).to.equal(200);

    const revoked = await s.gsql("REVOKE ROLE queryreader ON GRAPH G FROM dropper", ROOT);
    expect(revoked.lines).to.deep.equal(['Role "queryreader" is successfully revoked from user(s): dropper']);
    expect((await readVertices(keptToken)).json.code).to.equal("REST-3300");
    expect((await s.rest("POST", "/requesttoken", undefined, JSON.stringify({ secret: second }))).status).to.equal(401);
  });

  it("a dropped user's tokens stop working", async () => {
    const m = await member(s, "leaver", "observer", "G", "G");
    expect((await s.rest("GET", "/echo", bearer(m.token))).status).to.equal(200);
    expect((await s.gsql("DROP USER leaver", ROOT)).lines).to.deep.equal(['The user "leaver" is dropped.']);
    expect((await s.rest("GET", "/echo", bearer(m.token))).json.code).to.equal("REST-3300");
  });

  it("a single-graph deployment checks the graph-less paths against its one graph", async () => {
    const single = await startAuthServer();
    try {
      expect((await single.gsql("CREATE VERTEX P (PRIMARY_ID id STRING)\nCREATE GRAPH G (P)", ROOT)).returnCode).to.equal(0);
      const observer = await member(single, "obs", "observer", "G", "G");
      const reader = await member(single, "rdr", "queryreader", "G", "G");
      expect((await single.rest("GET", "/graph/vertices/P", bearer(observer.token))).status).to.equal(403);
      expect((await single.rest("GET", "/graph/vertices/P", bearer(reader.token))).status).to.equal(200);
      expect((await single.rest("POST", "/graph", bearer(reader.token), '{"vertices":{"P":{"x":{}}}}')).status).to.equal(403);
    } finally {
      await single.close();
    }
  });
});

describe("auth: off by default", () => {
  it("answers /requesttoken as an unknown endpoint (REST-1000) and needs no token anywhere", async () => {
    const server = await startServer({ port: 0, gsqlPort: 0, log: () => undefined });
    try {
      expect(server.auth.enabled).to.equal(false);
      const base = `http://127.0.0.1:${server.restPort}`;
      for (const method of ["GET", "POST", "PUT", "DELETE"]) {
        const res = await fetch(base + "/requesttoken", { method });
        expect(res.status, method).to.equal(404);
        expect(await res.json()).to.deep.equal({
          error: true,
          message: "Endpoint is not found from url = /requesttoken, please use GET /endpoints to list all valid endpoints.",
          results: [],
          code: "REST-1000",
        });
      }
      expect((await fetch(base + "/echo")).status).to.equal(200);
      expect((await fetch(base + "/echo", { headers: { Authorization: "Bearer whatever" } })).status).to.equal(200);
    } finally {
      await server.close();
    }
  });

  it("runs every command as the superuser tigergraph; user commands still work", async () => {
    const server = await startServer({ port: 0, gsqlPort: 0, log: () => undefined, auth: { scryptCost: TEST_SCRYPT } });
    const url = `http://127.0.0.1:${server.gsqlPort}`;
    try {
      const shown = await sendGsql(url, "SHOW USER", undefined);
      expect(shown.lines.slice(0, 2)).to.deep.equal(["  - Name: tigergraph", "    - Global Roles: superuser"]);
      const created = await sendGsql(url, "CREATE VERTEX P (PRIMARY_ID id STRING)\nCREATE GRAPH G (P)\nCREATE USER\nGRANT ROLE observer ON GRAPH G TO alice", undefined, { answers: ["alice:pw"] });
      expect(created.returnCode, created.text).to.equal(0);
      const after = await sendGsql(url, "SHOW USER", "Basic " + Buffer.from("nobody:wrong").toString("base64"));
      expect(after.lines.filter((l) => l.startsWith("  - Name: "))).to.deep.equal(["  - Name: tigergraph", "  - Name: alice"]);
      // Credentials are not even looked at: a wrong password still runs as the superuser.
      expect((await sendGsql(url, "CREATE VERTEX Q (PRIMARY_ID id STRING)", "Basic " + Buffer.from("alice:wrong").toString("base64"))).returnCode).to.equal(0);
    } finally {
      await server.close();
    }
  });
});
