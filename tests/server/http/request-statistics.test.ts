// RequestStatistics on its own, with a hand-driven clock: counts per endpoint and graph stay
// exact when a ring slot is reused for a later second (slots are reset in place, not
// replaced), graphs are kept apart, and timeouts stay out of the latency figures.
import { expect } from "chai";
import { RequestStatistics } from "../../../server/statistics/request-statistics.js";

describe("REST request statistics", () => {
  it("a slot reused 61 seconds later counts only its new second", () => {
    let clock = 5_000_000;
    const stats = new RequestStatistics(() => clock);
    for (let i = 0; i < 5; i++) stats.record("GET /echo", undefined, 2, false);
    stats.record("GET /echo", undefined, 9, true);
    expect(stats.report(1, 1)["GET /echo"]).to.deep.equal({
      CompletedRequests: 5, QPS: 5, TimeoutRequests: 1, AverageLatency: 2, MaxLatency: 2, MinLatency: 2, LatencyPercentile: [2],
    });
    clock += 61_000; // the same slot of the 61-second ring
    stats.record("GET /echo", undefined, 4, false);
    stats.record("GET /echo", undefined, 6, false);
    expect(stats.report(60, 2)["GET /echo"]).to.deep.equal({
      CompletedRequests: 2, QPS: 0.033, TimeoutRequests: 0, AverageLatency: 5, MaxLatency: 6, MinLatency: 4, LatencyPercentile: [4, 6],
    });
    clock += 120_000;
    expect(stats.report(60, 1)).to.deep.equal({});
  });

  it("keeps graphs apart and sums them in the listing over every graph", () => {
    const clock = 7_000_000;
    const stats = new RequestStatistics(() => clock);
    const key = "GET /graph/{graph_name}/vertices/{vertex_type}";
    for (let i = 0; i < 3; i++) stats.record(key, "a", 1, false);
    for (let i = 0; i < 2; i++) stats.record(key, "b", 3, false);
    stats.record("GET /echo", undefined, 1, false);
    expect(stats.report(10, 1, "a")[key]!.CompletedRequests).to.equal(3);
    expect(stats.report(10, 1, "b")[key]!.CompletedRequests).to.equal(2);
    expect(Object.keys(stats.report(10, 1, "b"))).to.deep.equal([key]);
    const all = stats.report(10, 1);
    expect(all[key]!.CompletedRequests).to.equal(5);
    expect(all[key]!.AverageLatency).to.equal(1.8);
    expect(all["GET /echo"]!.CompletedRequests).to.equal(1);
    // Only graph "a" visible: b's requests drop out, graph-less endpoints stay.
    const visible = stats.report(10, 1, undefined, (g) => g === "a");
    expect(visible[key]!.CompletedRequests).to.equal(3);
    expect(visible["GET /echo"]!.CompletedRequests).to.equal(1);
  });
});
