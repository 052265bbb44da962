import { expect } from "chai";
import { startTestServer, type TestServer } from "../helpers/http.js";

describe("REST diagnostics: /echo, /version, unknown paths", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it("GET and POST /echo answer exactly the greeting", async () => {
    for (const [method, path] of [["GET", "/echo"], ["POST", "/echo"], ["GET", "/echo/"]]) {
      const r = await t.request(method!, path!);
      expect(r.status).to.equal(200);
      expect(r.json).to.deep.equal({ error: false, message: "Hello GSQL" });
    }
  });

  it("/echo?sleep=1 waits about a second first", async () => {
    const start = Date.now();
    const r = await t.get("/echo?sleep=1");
    expect(r.json).to.deep.equal({ error: false, message: "Hello GSQL" });
    expect(Date.now() - start).to.be.at.least(900);
  });

  it("/echo rejects a non-integer sleep with the envelope and status 400", async () => {
    const r = await t.get("/echo?sleep=abc");
    expect(r.status).to.equal(400);
    expect(r.json).to.deep.equal({
      error: true,
      code: "REST-30000",
      message: "Values of parameter sleep must be INT32 type, invalid value [abc] provided.",
      results: [],
    });
  });

  it("/version gives error as a string and the parsable component lines", async () => {
    const r = await t.get("/version");
    expect(r.json.error).to.equal("false");
    const lines: string[] = r.json.message.split("\n");
    expect(lines[1]).to.equal(" --- Version ---");
    expect(lines.at(-1)).to.equal("");
    const components = lines.slice(3, -1);
    expect(components.length).to.be.greaterThan(0);
    for (const line of components) {
      const tag = line.split(/\s+/)[1]!;
      expect(tag.slice(tag.indexOf("_") + 1, tag.lastIndexOf("_"))).to.match(/^3\.\d+\.\d+$/);
    }
  });

  it("an unknown path answers 404 with REST-1000", async () => {
    const r = await t.get("/nope");
    expect(r.status).to.equal(404);
    expect(r.json).to.deep.equal({
      error: true,
      code: "REST-1000",
      message: "Endpoint is not found from url = /nope, please use GET /endpoints to list all valid endpoints.",
      results: [],
    });
  });
});
