// GET /statistics: per-endpoint counts and latencies over a window of seconds, percentile
// groups, the per-graph form, parameter bounds, and an empty object when nothing ran.
import { expect } from "chai";
import { startTestServer, type TestServer } from "../helpers/http.js";

describe("REST /statistics", () => {
  let t: TestServer;
  let clock = 1_000_000_000;
  before(async () => {
    t = await startTestServer({ now: () => clock });
  });
  after(() => t.close());

  it("is {} when nothing ran in the window", async () => {
    const r = await t.get("/statistics");
    expect(r.status).to.equal(200);
    expect(r.json).to.deep.equal({});
  });

  it("reports completed requests, QPS and latencies per endpoint pattern", async () => {
    clock += 100_000;
    for (let i = 0; i < 4; i++) await t.get("/echo");
    await t.request("POST", "/echo");
    const r = await t.get("/statistics?seconds=5&segments=4");
    expect(Object.keys(r.json).sort()).to.deep.equal(["GET /echo", "POST /echo"]);
    const s = r.json["GET /echo"];
    expect(s.CompletedRequests).to.equal(4);
    expect(s.QPS).to.equal(0.8);
    expect(s.TimeoutRequests).to.equal(0);
    expect(s.LatencyPercentile).to.have.length(4);
    expect(s.MinLatency).to.be.at.most(s.AverageLatency);
    expect(s.AverageLatency).to.be.at.most(s.MaxLatency);
    expect(s.LatencyPercentile[3]).to.equal(s.MaxLatency);
    for (let i = 1; i < 4; i++) expect(s.LatencyPercentile[i]).to.be.at.least(s.LatencyPercentile[i - 1]);
    expect(r.json["POST /echo"].CompletedRequests).to.equal(1);
    // the statistics request itself counts from the next call on
    const again = await t.get("/statistics?seconds=5");
    expect(again.json["GET /statistics"].CompletedRequests).to.equal(1);
    expect(again.json["GET /statistics"].LatencyPercentile).to.have.length(10);
  });

  it("counts requests answered with an error as completed", async () => {
    clock += 100_000;
    await t.get("/echo?sleep=x");
    const r = await t.get("/statistics?seconds=1");
    expect(r.json["GET /echo"].CompletedRequests).to.equal(1);
  });

  it("forgets requests older than the window", async () => {
    clock += 100_000;
    await t.get("/echo");
    clock += 30_000;
    expect((await t.get("/statistics?seconds=30")).json).to.deep.equal({});
    expect((await t.get("/statistics?seconds=31")).json["GET /echo"].CompletedRequests).to.equal(1);
  });

  it("rejects seconds outside 1..60 and segments outside 1..100 with 400", async () => {
    const cases: [string, string][] = [
      ["seconds=0", "Parameter seconds must be at least 1, got 0."],
      ["seconds=61", "Parameter seconds must be at most 60, got 61."],
      ["seconds=-1", "Values of parameter seconds must be UINT32 type, invalid value [-1] provided."],
      ["seconds=ten", "Values of parameter seconds must be UINT32 type, invalid value [ten] provided."],
      ["segments=0", "Parameter segments must be at least 1, got 0."],
      ["segments=101", "Parameter segments must be at most 100, got 101."],
    ];
    for (const [query, message] of cases) {
      const r = await t.get(`/statistics?${query}`);
      expect(r.status, query).to.equal(400);
      expect(r.json, query).to.deep.equal({ error: true, code: "REST-30000", message, results: [] });
    }
  });
});
