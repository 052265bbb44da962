// The GSQL-server HTTP protocol as the shell client uses it: login, streamed plain-text
// answers ending with the return-code line, session cookies, dialogs, REST forwarding, and
// refusals of bad input that leave the server working.
import { expect } from "chai";
import { splitAnswer, startGsqlServer, SOCIAL_SCHEMA, type GsqlTestServer } from "./gsql-helpers.js";

describe("GSQL server: protocol", () => {
  let s: GsqlTestServer;
  before(async () => {
    s = await startGsqlServer();
    const setup = await s.file(SOCIAL_SCHEMA);
    expect(setup.returnCode).to.equal(0);
  });
  after(() => s.close());

  describe("login", () => {
    it("answers a base64 user:password body with the greeting the client checks", async () => {
      const body = Buffer.from("tigergraph:tigergraph").toString("base64");
      const res = await s.post("/gsqlserver/gsql/login", body, { "Content-Type": "application/x-www-form-urlencoded" });
      expect(res.status).to.equal(200);
      const json = JSON.parse(res.text);
      expect(json).to.include({ error: false, message: "", isClientCompatible: true, shellPrompt: "GSQL > ", securityRecommendations: 0 });
      expect(json.welcomeMessage).to.be.a("string").and.match(/wasmgraph/);
    });

    for (const [what, body] of [["empty", ""], ["not base64", "%%%not-base64"], ["no colon", Buffer.from("justauser").toString("base64")]] as const) {
      it(`refuses a login body that is ${what}`, async () => {
        const res = await s.post("/gsqlserver/gsql/login", body);
        expect(res.status).to.equal(400);
        expect(JSON.parse(res.text)).to.include({ error: true, message: "The login body must be base64 of 'user:password'." });
      });
    }
  });

  describe("file and command", () => {
    it("streams plain text and ends with the return-code line", async () => {
      const res = await fetch(`${s.gsqlUrl}/gsqlserver/gsql/file`, { method: "POST", body: encodeURIComponent("USE GRAPH Social"), headers: { "Content-Type": "application/x-www-form-urlencoded" } });
      expect(res.headers.get("content-type")).to.equal("text/plain; charset=utf-8");
      const text = await res.text();
      expect(text).to.equal(`__GSQL__COOKIES__,{"graph":"Social"}\nUsing graph 'Social'\n__GSQL__RETURN__CODE__,0\n`);
    });

    it("decodes '+' as a space, as form encoding does", async () => {
      const res = await s.post("/gsqlserver/gsql/command", "USE+GRAPH+Social", { "Content-Type": "application/x-www-form-urlencoded" });
      expect(splitAnswer(res.status, res.text).lines).to.deep.equal(["Using graph 'Social'"]);
    });

    it("keeps the client's cookie fields and replaces only the graph", async () => {
      const answer = await s.command("USE GRAPH Social", { clientPath: "/home/u", terminalWidth: 120, fromGsqlClient: true });
      expect(JSON.parse(answer.cookie!)).to.deep.equal({ clientPath: "/home/u", terminalWidth: 120, fromGsqlClient: true, graph: "Social" });
    });

    it("runs in the cookie's graph, and a malformed cookie means global scope", async () => {
      const inGraph = await s.command("ls", { graph: "Social" });
      expect(inGraph.lines[0]).to.equal("---- Graph Social");
      for (const cookie of ["{not json", "[1,2]", "\"Social\"", "x".repeat(10_000)]) {
        const global = await s.command("ls", cookie);
        expect(global.lines[0], cookie.slice(0, 20)).to.equal("---- Global vertices, edges, and all graphs");
      }
    });

    it("-g with a graph that does not exist: each graph command says so", async () => {
      const answer = await s.command("ls", { graph: "Nope" });
      expect(answer.lines).to.deep.equal(["Graph 'Nope' does not exist."]);
      expect(answer.returnCode).to.equal(212);
    });

    it("POST /gsql/v1/statements takes text/plain and answers the same stream", async () => {
      const res = await s.post("/gsql/v1/statements", "USE GRAPH Social\nSHOW VERTEX Person", { "Content-Type": "text/plain" });
      const answer = splitAnswer(res.status, res.text);
      expect(answer.lines).to.deep.equal([
        "Using graph 'Social'",
        "  - VERTEX Person(PRIMARY_ID name STRING, name STRING, age INT) WITH STATS=\"OUTDEGREE_BY_EDGETYPE\"",
      ]);
      expect(answer.returnCode).to.equal(0);
    });
  });

  describe("bad input", () => {
    it("malformed URL encoding: 400 with the reason, nothing run", async () => {
      const res = await s.post("/gsqlserver/gsql/file", "DROP%ZZALL", { "Content-Type": "application/x-www-form-urlencoded" });
      expect(res.status).to.equal(400);
      expect(res.text).to.equal("The request body is not URL-encoded GSQL text: a '%' escape is malformed or does not encode UTF-8.\n__GSQL__RETURN__CODE__,201\n");
    });

    it("binary garbage: 400, invalid UTF-8 named", async () => {
      const garbage = new Uint8Array(4096).map((_, i) => (i * 131 + 7) % 256);
      const res = await s.post("/gsqlserver/gsql/file", garbage);
      expect(res.status).to.equal(400);
      expect(res.text.split("\n")[0]).to.equal("The request body is not valid UTF-8 text.");
    });

    it("control characters in the text: 400", async () => {
      const res = await s.post("/gsqlserver/gsql/command", encodeURIComponent("ls\u0000\u0007"));
      expect(res.status).to.equal(400);
      expect(res.text.split("\n")[0]).to.equal("The request body holds control characters; GSQL text is plain text.");
    });

    it("a body over the limit: 413", async () => {
      const res = await s.post("/gsqlserver/gsql/file", "x".repeat(33 * 1024 * 1024));
      expect(res.status).to.equal(413);
      expect(res.text.split("\n")[0]).to.equal("The request body is larger than the limit of 33554432 bytes.");
    });

    it("hostile GSQL text gets syntax errors, never a crash", async () => {
      const texts = [
        "}}}}{{{{", "CREATE QUERY q() FOR GRAPH Social { " + "(".repeat(5000), "\u202eDROP ALL", "'; DROP ALL; --",
        "CREATE VERTEX (PRIMARY_ID id STRING)", "@@@@@@", "USE GRAPH \"Social\"", "CREATE QUERY q(" + "INT a, ".repeat(3000) + ") {}",
      ];
      for (const text of texts) {
        const answer = await s.file(text);
        expect(answer.status, text.slice(0, 30)).to.equal(200);
        expect(answer.returnCode, text.slice(0, 30)).to.be.oneOf([211, 212]);
      }
      const check = await s.command("ls", { graph: "Social" });
      expect(check.lines[0]).to.equal("---- Graph Social");
    });

    it("generated random texts: always a return code, and the server stays up", async () => {
      let seed = 12345;
      const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
      const alphabet = "CREATE VERTEX EDGE GRAPH QUERY DROP ALL INSTALL RUN ls USE ( ) { } ; , < > = \" ' @ # / * \n \t - _ 0 1 x y";
      const words = alphabet.split(" ");
      for (let i = 0; i < 40; i++) {
        const n = 1 + (next() % 30);
        const text = Array.from({ length: n }, () => words[next() % words.length]).join(" ");
        const answer = await s.file(text.replace(/DROP ALL/g, "DROP QUERY x"));
        expect(answer.returnCode, text).to.be.a("number");
      }
      const echo = await fetch(`${s.restUrl}/echo`);
      expect(await echo.json()).to.deep.equal({ error: false, message: "Hello GSQL" });
    });

    it("an unknown path is a 404 with a plain-text answer", async () => {
      const res = await s.get("/gsqlserver/gsql/nothing");
      expect(res.status).to.equal(404);
      expect(res.text).to.equal("No GSQL-server endpoint at GET /gsqlserver/gsql/nothing.\n");
    });
  });

  describe("dialogs and REST forwarding", () => {
    it("an answer for no waiting dialog is a 404", async () => {
      const res = await s.post("/gsqlserver/gsql/dialog", encodeURIComponent("abc123,y"));
      expect(res.status).to.equal(404);
    });

    it("CLEAR GRAPH STORE asks through a dialog and waits for the answer", async () => {
      const res = await fetch(`${s.gsqlUrl}/gsqlserver/gsql/command`, { method: "POST", body: encodeURIComponent("CLEAR GRAPH STORE") });
      const reader = res.body!.getReader();
      let text = "";
      while (!text.includes("\n")) text += new TextDecoder().decode((await reader.read()).value);
      const [kind, id] = text.split("\n")[0]!.split(",").slice(1);
      expect(kind).to.equal("ClearStoreQb");
      const answered = await s.post("/gsqlserver/gsql/dialog", encodeURIComponent(`${id},n`));
      expect(answered.status).to.equal(200);
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        text += new TextDecoder().decode(chunk.value);
      }
      expect(text.split("\n").slice(1)).to.deep.equal(["Clearing the graph store was cancelled.", "__GSQL__RETURN__CODE__,0", ""]);
    });

    it("/restpp/* reaches the REST endpoints", async () => {
      const echo = await s.get("/restpp/echo");
      expect(echo.json).to.deep.equal({ error: false, message: "Hello GSQL" });
      const missing = await s.get("/restpp/nowhere?x=1");
      expect(missing.status).to.equal(404);
      expect(missing.json.message).to.equal("Endpoint is not found from url = /nowhere, please use GET /endpoints to list all valid endpoints.");
    });
  });
});
