// Bad input of every kind against the real server: random bytes and generated malformed
// bodies, values of the wrong type, huge ids and numbers, hostile query strings and paths.
// Each is answered with the error envelope and a 4xx status, never 5xx; the server stays up;
// the data is exactly as before.
import { expect } from "chai";
import { startTestServer, type TestServer, jsonOrUndefined } from "../helpers/http.js";
import { socialEngine } from "./graph-fixture.js";

const SEED_DATA = {
  vertices: { Person: { a: { age: { value: 1 }, name: { value: "A" } }, b: { age: { value: 2 } } }, City: { "5": { population: { value: 50 } } } },
  edges: { Person: { a: { knows: { Person: { b: { strength: { value: 0.5 } } } }, lives_in: { City: { "5": {} } } } } },
};

describe("REST bad input (generated and hand-written)", function () {
  this.timeout(60_000);
  let t: TestServer;
  let seed = 99;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

  const dump = async () => {
    const parts = [];
    for (const path of ["/graph/social/vertices/Person", "/graph/social/vertices/City", "/graph/social/edges/Person/a", "/graph/social/edges/Person/b"]) {
      parts.push((await t.get(path)).text);
    }
    return parts.join("\n");
  };
  const expectEnvelope = (r: { status: number; json: any; text: string }, what: string) => {
    expect(r.status, `${what}: ${r.text.slice(0, 300)}`).to.be.within(400, 499);
    expect(r.json, what).to.be.an("object");
    expect(r.json.error, what).to.equal(true);
    expect(r.json.message, what).to.be.a("string").and.not.equal("");
    expect(r.json.results, what).to.deep.equal([]);
  };

  before(async () => {
    t = await startTestServer({ engine: socialEngine(), limits: { bodyBytes: 64 * 1024 } });
    await t.request("POST", "/graph/social", JSON.stringify(SEED_DATA));
  });
  after(() => t.close());

  it("random bytes and truncated JSON bodies to upsert and builtins", async () => {
    const before = await dump();
    const valid = JSON.stringify(SEED_DATA);
    for (let i = 0; i < 150; i++) {
      let body: string | Uint8Array;
      const kind = i % 3;
      if (kind === 0) body = Uint8Array.from({ length: Math.floor(rnd() * 200) }, () => Math.floor(rnd() * 256));
      else if (kind === 1) body = valid.slice(0, Math.floor(rnd() * (valid.length - 1)));
      else {
        const chars = valid.split("");
        for (let k = 0; k < 3; k++) chars[Math.floor(rnd() * chars.length)] = pick(['"', "{", "}", "[", ":", ",", "\\", "\u0000", "x"]);
        body = chars.join("");
        try {
          JSON.parse(body);
          continue; // still valid JSON: not bad input
        } catch {
          /* malformed, as wanted */
        }
      }
      for (const path of ["/graph/social", "/builtins/social"]) {
        const r = await fetch(t.url(path), { method: "POST", body });
        const text = await r.text();
        const json = jsonOrUndefined(text);
        expectEnvelope({ status: r.status, json, text }, `${path} body #${i}`);
      }
    }
    expect(await dump()).to.equal(before);
  });

  it("well-formed bodies with values of the wrong type, huge ids and numbers change nothing", async () => {
    const before = await dump();
    const wrong: [string, unknown][] = [
      ["age", "12"], ["age", 1.5], ["age", true], ["age", null], ["age", [1]], ["age", { n: 1 }], ["age", 9223372036854775808n],
      ["score", "x"], ["score", false], ["balance", [1.5]], ["active", "true"], ["active", 0], ["name", 5], ["name", null],
      ["joined", "2020-02-30"], ["joined", -1], ["joined", "tomorrow"], ["tags", "t"], ["tags", [1]], ["prefs", { a: 1 }],
      ["prefs", { keylist: ["a"], valuelist: [] }], ["prefs", { keylist: ["a"], valuelist: ["x"] }],
    ];
    for (const [attr, value] of wrong) {
      const text = typeof value === "bigint" ? value.toString() : JSON.stringify(value);
      const body = `{"vertices":{"Person":{"a":{"age":{"value":7}},"new1":{"${attr}":{"value":${text}}}}}}`;
      expectEnvelope(await t.request("POST", "/graph/social", body), `${attr}=${text}`);
    }
    const hugeId = "x".repeat(100_000);
    const r = await t.request("POST", "/graph/social", JSON.stringify({ vertices: { City: { "99999999999999999999999": {} } } }));
    expectEnvelope(r, "INT id beyond 64 bits");
    expectEnvelope(await t.request("POST", "/graph/social", JSON.stringify({ vertices: { City: { abc: {} } } })), "non-numeric INT id");
    expectEnvelope(await t.request("POST", "/graph/social", JSON.stringify({ vertices: { City: { "": {} } } })), "empty INT id");
    expectEnvelope(await t.request("POST", "/graph/social", JSON.stringify({ vertices: { Person: { "": {} } } })), "empty STRING id");
    expectEnvelope(await t.get(`/graph/social/vertices/Person/${hugeId}`), "huge id in path");
    expectEnvelope(await t.request("POST", "/graph/social", `{"vertices":{"Person":{"a":{"age":{"value":1${"0".repeat(400)}}}}}}`), "huge number");
    expect(await dump()).to.equal(before);
  });

  it("hostile and generated query strings on reads and deletes", async () => {
    const before = await dump();
    const alphabet = ['"', "'", ",", "=", "!", "<", ">", "-", "_", "\\", "%00", "%22", "%2C", "age", "name", "nope", " ", "1", "1e999", "\u202e", "🙂", "&", ";", "*"];
    const params = ["select", "filter", "sort", "limit", "timeout", "count_only", "permanent", "not_wildcard"];
    for (let i = 0; i < 300; i++) {
      const name = pick(params);
      const value = Array.from({ length: 1 + Math.floor(rnd() * 8) }, () => pick(alphabet)).join("");
      const path = pick(["/graph/social/vertices/Person", "/graph/social/vertices/Person/a", "/graph/social/edges/Person/a", "/graph/social/edges/Person/a/_/Person/b"]);
      const url = `${path}?${name}=${encodeURIComponent(value).replace(/%25/g, "%")}`;
      const r = await t.get(url);
      expect(r.status, `${url}: ${r.text.slice(0, 200)}`).to.be.oneOf([200, 400]);
      expect(r.json.error, url).to.equal(r.status !== 200);
      // The same refused filter, limit or timeout must refuse a DELETE too (a valid one would change data).
      if (r.status === 400 && ["filter", "limit", "timeout"].includes(name)) expectEnvelope(await t.request("DELETE", url), `DELETE ${url}`);
    }
    expect(await dump()).to.equal(before);
  });

  it("generated paths answer 404 REST-1000 when no endpoint matches and 400 for bad names, never 5xx", async () => {
    const before = await dump();
    const segments = ["graph", "social", "vertices", "edges", "Person", "City", "a", "_", "%2F", "..", "%00", "builtins", "delete_by_type", "x".repeat(300), "%E2%82"];
    for (let i = 0; i < 300; i++) {
      const path = "/" + Array.from({ length: 1 + Math.floor(rnd() * 7) }, () => pick(segments)).join("/");
      const method = pick(["GET", "POST", "PUT", "GET"]);
      const r = await t.request(method, path, method === "POST" ? "{}" : undefined);
      expect(r.status, `${method} ${path}: ${r.text.slice(0, 200)}`).to.be.below(500);
      if (r.status === 404) expect(r.json.code, path).to.equal("REST-1000");
    }
    expect(await dump()).to.equal(before);
    expect((await t.get("/echo")).json).to.deep.equal({ error: false, message: "Hello GSQL" });
  });
});
