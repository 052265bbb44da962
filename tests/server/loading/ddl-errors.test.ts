// POST /ddl/{g} over HTTP: parameter checks, unknown jobs and variables, header errors and
// oversized bodies answer with the interface's envelope and change nothing; the body is
// read raw even when sent as a form.
import { expect } from "chai";
import { Engine } from "../../../server/engine/engine.js";
import { startTestServer, type TestServer } from "../../helpers/http.js";
import { col, job, lit, named, skip, socialSchema } from "./fixtures.js";
import { mulberry32 } from "../../../tools/bench/rmat.js";

const FORM = { "content-type": "application/x-www-form-urlencoded" };

describe("POST /ddl: requests that load nothing", () => {
  let server: TestServer;
  before(async () => {
    const engine = new Engine();
    engine.apply({ kind: "define-schema", schema: socialSchema() });
    // WHERE never holds, so these loads produce no object and need no store write.
    const never = { kind: "compare" as const, op: "==" as const, left: { kind: "token" as const, value: col(0) }, right: { kind: "string" as const, text: "never" } };
    engine.apply({
      kind: "create-loading-job",
      plan: job([{ kind: "vertex", type: "City", values: [col(0), col(1)], where: never }], { rejectLineRule: "raw" }, {
        name: "filtered",
        lineFilters: [{ name: "raw", condition: { kind: "compare", op: "==", left: { kind: "token", value: col(1) }, right: { kind: "string", text: "+b%2C" } } }],
      }),
    });
    engine.apply({ kind: "create-loading-job", plan: job([{ kind: "vertex", type: "City", values: [named("id"), named("nope")] }], { header: true }, { name: "bad_header" }) });
    engine.apply({
      kind: "create-loading-job",
      plan: {
        ...job([]),
        name: "two_files",
        files: [{ name: "f1", defaultPath: "/data/a.csv" }, { name: "f2" }],
        statements: [
          { kind: "load", source: { kind: "file", variable: "f1" }, destinations: [{ kind: "vertex", type: "City", values: [col(0), lit("x")], where: never }], using: {} },
          { kind: "load", source: { kind: "file", variable: "f2" }, destinations: [{ kind: "vertex", type: "Person", values: [col(0), skip, skip, skip, skip, skip, skip], where: never }], using: {} },
        ],
      },
    });
    server = await startTestServer({ engine, limits: { bodyBytes: 1000 } });
  });
  after(() => server.close());

  it("answers the statistics shape with REST-0000; a form content type does not decode the body", async () => {
    const r = await server.request("POST", "/ddl/social?tag=filtered", "1,+b%2C\n2,c\n", FORM);
    expect(r.status).to.equal(200);
    expect(r.json.code).to.equal("REST-0000");
    expect(r.json.error).to.equal(false);
    expect(r.json.version).to.deep.equal({ edition: r.json.version.edition, api: "v2", schema: 0 });
    expect(r.json.results).to.deep.equal([
      {
        sourceFileName: "Online_POST",
        statistics: {
          validLine: 1,
          rejectLine: 1,
          failedConditionLine: 1,
          notEnoughToken: 0,
          invalidJson: 0,
          oversizeToken: 0,
          vertex: [{ typeName: "City", validObject: 0, noIdFound: 0, invalidAttribute: 0, invalidVertexType: 0, invalidPrimaryId: 0, invalidSecondaryId: 0, incorrectFixedBinaryLength: 0 }],
          edge: [],
          deleteVertex: [],
          deleteEdge: [],
        },
      },
    ]);
  });

  it("sep and eol of 1–4 characters (URL-encoded, CR LF included) override the job's USING", async () => {
    const r = await server.request("POST", `/ddl/social?tag=filtered&sep=${encodeURIComponent("||")}&eol=%0D%0A`, "1||+b%2C\r\n2||c\r\n3\r\n", FORM);
    expect(r.status).to.equal(200);
    const s = r.json.results[0].statistics;
    expect([s.validLine, s.rejectLine, s.failedConditionLine, s.notEnoughToken]).to.deep.equal([1, 1, 1, 1]);
  });

  it("concise=true keeps validLine and the non-zero counters", async () => {
    const r = await server.request("POST", "/ddl/social?tag=filtered&concise=true", "1,+b%2C\n2,c\n", FORM);
    expect(r.json.results[0].statistics).to.deep.equal({ validLine: 1, rejectLine: 1, failedConditionLine: 1, vertex: [{ typeName: "City", validObject: 0 }] });
  });

  it("a file variable is named by name or by its default path; ambiguity is an error", async () => {
    expect((await server.request("POST", "/ddl/social?tag=two_files&filename=f2", "a\n", FORM)).json.results[0].statistics.failedConditionLine).to.equal(1);
    expect((await server.request("POST", "/ddl/social?tag=two_files&filename=%2Fdata%2Fa.csv", "a\n", FORM)).json.results[0].statistics.vertex[0].typeName).to.equal("City");
    const r = await server.request("POST", "/ddl/social?tag=two_files", "a\n", FORM);
    expect([r.status, r.json.code]).to.deep.equal([400, "REST-30000"]);
    expect(r.json.message).to.contain("name one with the filename parameter");
  });

  const bad: [string, string, number, string, RegExp][] = [
    ["no tag", "/ddl/social", 400, "REST-30000", /Parameter tag is required/],
    ["unknown job", "/ddl/social?tag=nope", 400, "REST-30000", /The loading job 'nope' does not exist in graph 'social'/],
    ["unknown graph", "/ddl/other?tag=filtered", 400, "REST-1004", /Graph 'other' does not exist/],
    ["sep too long", "/ddl/social?tag=filtered&sep=abcde", 400, "REST-30000", /sep is 5 characters long/],
    ["empty eol", "/ddl/social?tag=filtered&eol=", 400, "REST-30000", /eol must be at least 1 characters long/],
    ["bad timeout", "/ddl/social?tag=filtered&timeout=-1", 400, "REST-30000", /timeout must be UINT32/],
    ["bad ack", "/ddl/social?tag=filtered&ack=some", 400, "REST-30000", /ack must be one of all, none/],
    ["unknown filename", "/ddl/social?tag=filtered&filename=zz", 400, "REST-30000", /no LOAD statement for the file variable or path 'zz'/],
    ["header without the column", "/ddl/social?tag=bad_header", 400, "REST-30000", /Column "nope" is not in the header/],
  ];
  for (const [what, path, status, code, message] of bad) {
    it(`rejects: ${what}`, async () => {
      const r = await server.request("POST", path, "id,name\n1,a\n", FORM);
      expect(r.status, r.text).to.equal(status);
      expect(r.json.error).to.equal(true);
      expect(r.json.code).to.equal(code);
      expect(r.json.message).to.match(message);
    });
  }

  it("a body over the size limit is refused with 413 and the server stays up", async () => {
    const r = await server.request("POST", "/ddl/social?tag=filtered", "x".repeat(5000), FORM);
    expect(r.status).to.equal(413);
    expect((await server.get("/echo")).json).to.deep.equal({ error: false, message: "Hello GSQL" });
  });
});

describe("POST /ddl: hostile bodies are counted, nothing partial, server up", () => {
  let server: TestServer;
  before(async () => {
    const engine = new Engine();
    engine.apply({ kind: "define-schema", schema: socialSchema() });
    const never = { kind: "compare" as const, op: "==" as const, left: { kind: "token" as const, value: col(0) }, right: { kind: "string" as const, text: "never" } };
    engine.apply({ kind: "create-loading-job", plan: job([{ kind: "vertex", type: "City", values: [col(0), col(1)], where: never }], {}, { name: "filtered" }) });
    const neverJson = { ...never, left: { kind: "token" as const, value: named("id") } };
    engine.apply({ kind: "create-loading-job", plan: job([{ kind: "vertex", type: "City", values: [named("id"), named("name")], where: neverJson }], { jsonFile: true }, { name: "json" }) });
    server = await startTestServer({ engine });
  });
  after(() => server.close());

  it("a 17 MiB line counts as oversizeToken; short lines as notEnoughToken", async () => {
    const body = `a,b\n${"x".repeat(17 << 20)}\nc\nd,e\n`;
    const r = await server.request("POST", "/ddl/social?tag=filtered", body, FORM);
    expect(r.status).to.equal(200);
    const s = r.json.results[0].statistics;
    expect([s.validLine, s.oversizeToken, s.notEnoughToken, s.failedConditionLine]).to.deep.equal([2, 1, 1, 2]);
  });

  it("binary garbage gives statistics, not an error", async () => {
    const random = mulberry32(5);
    const bytes = new Uint8Array(300_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
    const res = await fetch(server.url("/ddl/social?tag=filtered"), { method: "POST", body: bytes, headers: FORM });
    expect(res.status).to.equal(200);
    const s = ((await res.json()) as any).results[0].statistics;
    expect(s.validLine + s.notEnoughToken).to.be.greaterThan(0);
    expect(s.validLine).to.equal(s.failedConditionLine);
    const j = await fetch(server.url("/ddl/social?tag=json"), { method: "POST", body: bytes, headers: FORM });
    const js = ((await j.json()) as any).results[0].statistics;
    expect(js.validLine).to.equal(0);
    expect(js.invalidJson).to.be.greaterThan(0);
    expect((await server.get("/echo")).status).to.equal(200);
  });

  it("generated query strings never crash the endpoint", async () => {
    const random = mulberry32(11);
    const pieces = ["tag=filtered", "tag=", "sep=%00", "eol=%0D%0A", "sep=%E2%82%AC%E2%82%AC", "timeout=99999999999", "concise=maybe", "filename=%2F..%2Fetc", "ack=none", "tag=%FF", "sep=,,,,,"];
    for (let i = 0; i < 40; i++) {
      const query = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pieces[Math.floor(random() * pieces.length)]).join("&");
      const r = await server.request("POST", `/ddl/social?${query}`, "1,a\n2\n", FORM);
      expect([200, 400], query).to.include(r.status);
      expect(r.json.error, query).to.equal(r.status !== 200);
    }
    expect((await server.get("/echo")).status).to.equal(200);
  });
});
