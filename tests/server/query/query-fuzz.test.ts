// Generated hostile parameters for GET|POST /query: random query strings built from the
// parameter names, their indexed and `.type` forms, and awkward text (brackets, percent
// escapes, huge numbers, control characters), plus random JSON bodies. Every answer must be
// the envelope: 200 with error false, or 400 with error true, empty results and a code;
// never a 5xx, never a hang; and the server answers normally afterwards.
import { expect } from "chai";
import { ok, startQueryServer, type QueryServer } from "./query-fixture.js";
import { mulberry32 as random } from "../../../tools/bench/rmat.js";

const QUERIES = ["scalars", "sets", "typed_vertex", "any_vertex", "typed_set", "any_set", "slow_count"];
const NAMES = ["i", "u", "d", "b", "s", "t", "k", "xs", "ss", "p", "p.type", "v", "v.type", "ps", "vs", "vs[0]", "vs[0].type", "vs[1]", "vs[-1]", "vs[]", "vs[0", "spins", "timeout", "query", "__GQUERY__monitor", "__GQUERY__USING_ALL_ACTIVE_MODE", "zz", ""];
const VALUES = [
  "0", "1", "-1", "ann", "bob", "oslo", "Person", "City", "true", "FALSE", "1.5", "-0", "1e308", "1e309", "NaN", "Infinity",
  "9223372036854775807", "9223372036854775808", "-9223372036854775809", "18446744073709551616", "99999999999999999999999",
  "2024-02-30 25:61:61", "2024-01-01", "", "%", "%zz", "%00", "%E2%82", "[", "]", "&", "=", "é", "\u0001", "a".repeat(300),
];

describe("REST /query: generated parameters", function () {
  let s: QueryServer;
  before(async () => {
    s = await startQueryServer();
  });
  after(() => s.close());

  const answered = { ok: 0, refused: 0 };
  const checkEnvelope = (r: { status: number; text: string; json: any }, what: string) => {
    expect(r.json, `${what} answered JSON: ${r.text.slice(0, 200)}`).to.be.an("object");
    answered[r.status === 200 ? "ok" : "refused"]++;
    if (r.status === 200) {
      expect(r.json.error, what).to.equal(false);
      return;
    }
    expect(r.status, `${what}: ${r.text.slice(0, 300)}`).to.equal(400);
    expect(r.json.error, what).to.equal(true);
    expect(r.json.results, what).to.deep.equal([]);
    expect(r.json.message, what).to.be.a("string").and.not.equal("");
    expect(["REST-30000", "REST-2001"], what).to.include(r.json.code);
  };

  it("random query strings get the envelope, never a server error", async function () {
    this.timeout(120_000);
    const next = random(20261122);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
    const encode = (text: string) => (next() < 0.7 ? encodeURIComponent(text) : text.replace(/[^!-~]/g, encodeURIComponent).replace(/[#?]/g, encodeURIComponent));
    for (let n = 0; n < 300; n++) {
      const pairs: string[] = [];
      const count = Math.floor(next() * 6);
      for (let j = 0; j < count; j++) {
        const name = next() < 0.9 ? pick(NAMES) : pick(VALUES);
        pairs.push(next() < 0.1 ? encode(name) : `${encode(name)}=${encode(pick(VALUES))}`);
      }
      const query = pick(QUERIES);
      // slow_count must not run long: its spins are forced small.
      const path = `/query/G/${query}?${pairs.join("&")}${query === "slow_count" ? "&spins=10" : ""}`;
      const r = next() < 0.2 ? await s.send("GET", `/query/G/${query}`, pairs.join("&")) : await s.send("GET", path);
      checkEnvelope(r, `GET ${path}`);
    }
  });

  it("random JSON bodies get the envelope, never a server error", async function () {
    this.timeout(60_000);
    const next = random(7);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
    const value = (depth: number): string => {
      const r = next();
      if (r < 0.3) return JSON.stringify(pick(VALUES));
      if (r < 0.5) return pick(["0", "-1", "1.5", "true", "null", "9223372036854775808", "1e999", "-0"]);
      if (depth > 2) return "0";
      if (r < 0.75) return `[${Array.from({ length: Math.floor(next() * 3) }, () => value(depth + 1)).join(",")}]`;
      return `{${Array.from({ length: Math.floor(next() * 3) }, () => `${JSON.stringify(pick(["id", "type", ...NAMES]))}:${value(depth + 1)}`).join(",")}}`;
    };
    for (let n = 0; n < 200; n++) {
      const entries = Array.from({ length: Math.floor(next() * 4) }, () => `${JSON.stringify(pick(NAMES))}:${value(0)}`);
      let body = `{${entries.join(",")}}`;
      if (next() < 0.1) body = body.slice(0, Math.floor(next() * body.length));
      const query = pick(QUERIES.filter((q) => q !== "slow_count"));
      const r = await s.send("POST", `/query/G/${query}`, body, { "Content-Type": "application/json" });
      checkEnvelope(r, `POST /query/G/${query} ${body}`);
    }
  });

  it("the generated requests were both accepted and refused (the generator reaches past the checks)", () => {
    expect(answered.ok).to.be.above(20);
    expect(answered.refused).to.be.above(100);
  });

  it("the server answers normally afterwards, with nothing left running", async () => {
    expect((await s.send("GET", "/showprocesslist/G")).json.results).to.deep.equal([]);
    expect((await s.send("GET", "/query/G/typed_vertex?p=ann")).json).to.deep.equal(ok([{ p: "ann" }]));
    expect((await s.send("GET", "/echo")).json).to.deep.equal({ error: false, message: "Hello GSQL" });
  });
});
