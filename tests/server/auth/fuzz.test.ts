// Generated hostile input on the authentication paths: Authorization headers (random junk,
// near-misses of a valid token, secret or password, raw bytes a client library would refuse
// to send), /requesttoken bodies and GSQL login bodies. Whatever arrives, the server answers
// with a refusal (never a 5xx, never a hang), lets nothing through that is not a valid
// credential, changes nothing, and keeps serving.
import { expect } from "chai";
import { connect } from "node:net";
import { ROOT, basic, bearer, member, startAuthServer, type AuthServer, type Member } from "./auth-fixture.js";
import { mulberry32 } from "../../../tools/bench/rmat.js";

const SEED = 20240601;

describe("auth: generated hostile input", function () {
  this.timeout(120_000);
  let s: AuthServer;
  let m: Member;
  const random = mulberry32(SEED);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const int = (n: number) => Math.floor(random() * n);

  before(async () => {
    s = await startAuthServer();
    expect((await s.gsql("CREATE VERTEX P (PRIMARY_ID id STRING)\nCREATE GRAPH G (P)", ROOT)).returnCode).to.equal(0);
    m = await member(s, "fuzzed", "querywriter", "G", "G");
  });
  after(() => s.close());

  const JUNK = ["Bearer", "Basic", "bearer", "BASIC", "Digest", " ", "\t", "=", ":", "%", "%00", "+", "/", "é", "漢", "\u{1F600}", "null", "undefined", "{}", "[]", "'", '"', "\\", ";", ","];
  const ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  const randomText = (max: number, alphabet = ALNUM) => Array.from({ length: int(max) }, () => alphabet[int(alphabet.length)]).join("");

  /** A header that is certainly not a valid credential (near-misses included), as the bytes on the wire read in Latin-1. */
  function invalidHeader(): string {
    return Buffer.from(invalidHeaderText(), "utf8").toString("latin1");
  }

  function invalidHeaderText(): string {
    const mutate = (value: string) => {
      const i = int(value.length);
      switch (int(4)) {
        case 0: return value.slice(0, i) + (value[i] === "a" ? "b" : "a") + value.slice(i + 1);
        case 1: return value.slice(0, Math.max(0, value.length - 1 - int(5)));
        case 2: return value + pick(["a", "0", "x"]);
        default: return value.toUpperCase();
      }
    };
    switch (int(8)) {
      case 0: return Array.from({ length: 1 + int(6) }, () => pick(JUNK)).join(pick(["", " "]));
      case 1: return `Bearer ${mutate(m.token)}`;
      case 2: return `Bearer ${m.secret}`; // a secret is not a token
      case 3: return basic(m.user, mutate(m.password));
      case 4: return basic("__GSQL__secret", mutate(m.secret));
      case 5: return basic(randomText(20), randomText(20));
      case 6: return `Basic ${Buffer.from(randomText(40, ALNUM + ":%")).toString("base64")}`;
      default: return `${pick(["Bearer", "Basic", "Token", ""])} ${randomText(2000 + int(3000), ALNUM + "+/=.-_~ ")}`;
    }
  }

  it("refuses every generated Authorization header on REST reads and writes, and writes nothing", async () => {
    for (let i = 0; i < 250; i++) {
      const header = invalidHeader();
      const write = i % 2 === 0;
      const res = write
        ? await s.rest("POST", "/graph/G", header, JSON.stringify({ vertices: { P: { [`fz${i}`]: {} } } }))
        : await s.rest("GET", "/graph/G/vertices/P", header);
      expect([400, 401, 403], `${header.slice(0, 80)} -> ${res.status} ${res.text.slice(0, 120)}`).to.include(res.status);
      expect(res.json?.error, header.slice(0, 80)).to.equal(true);
    }
    const all = await s.rest("GET", "/graph/G/vertices/P", bearer(m.token));
    expect(all.json.results).to.deep.equal([]);
  });

  it("accepts the equivalent forms of a valid credential (scheme in any case, spaces around)", async () => {
    for (const header of [`bearer ${m.token}`, `BEARER   ${m.token}  `, ` Bearer ${m.token}`, basic(m.user, m.password), `basic ${basic(m.user, m.password).slice(6)}`]) {
      const res = await s.rest("GET", "/graph/G/vertices/P", header);
      expect(res.status, header).to.equal(200);
    }
  });

  it("answers raw requests with bytes clients refuse to send in a header, and keeps serving", async () => {
    const port = s.server.restPort;
    for (let i = 0; i < 60; i++) {
      const bytes = Buffer.from(Array.from({ length: 1 + int(300) }, () => {
        const b = int(256);
        return b === 10 || b === 13 ? 32 : b;
      }));
      const request = Buffer.concat([
        Buffer.from("GET /graph/G/vertices/P HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "),
        bytes,
        Buffer.from("\r\nConnection: close\r\n\r\n"),
      ]);
      const status = await rawStatus(port, request);
      expect([400, 401, 403], `bytes ${bytes.toString("hex").slice(0, 60)}`).to.include(status);
    }
    // Two Authorization headers, one valid: never more than the weakest reading.
    const twice = await rawStatus(port, Buffer.from(`POST /graph/G HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer junk\r\nAuthorization: Bearer ${m.token}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`));
    expect([400, 401]).to.include(twice);
    expect((await s.rest("GET", "/echo", bearer(m.token))).status).to.equal(200);
  });

  it("refuses generated /requesttoken bodies and issues no token", async () => {
    const before = s.server.services.engine.auth.tokenCount();
    const value = (depth: number): unknown => {
      switch (int(depth > 2 ? 6 : 8)) {
        case 0: return randomText(40);
        case 1: return int(2) === 0 ? int(1e9) : -int(1e9) / 7;
        case 2: return pick([true, false, null]);
        case 3: return pick(["1e309", "NaN", "-1", "0x10", " 5", "99999999999999999999", "", "\u0000"]);
        case 4: return "x".repeat(int(70_000));
        case 5: return randomText(32, "abcdefghijklmnopqrstuvwxyz0123456789");
        case 6: return Array.from({ length: int(4) }, () => value(depth + 1));
        default: {
          const o: Record<string, unknown> = {};
          for (const key of ["secret", "graph", "lifetime", "token", "__proto__", "constructor"]) if (int(2) === 0) o[key] = value(depth + 1);
          return o;
        }
      }
    };
    for (let i = 0; i < 200; i++) {
      const method = pick(["POST", "PUT", "DELETE", "GET"]);
      const body = int(5) === 0 ? randomText(200, ALNUM + "{}[]\":,") : JSON.stringify(value(0));
      const res = method === "GET"
        ? await s.rest("GET", `/requesttoken?secret=${encodeURIComponent(randomText(40))}&lifetime=${encodeURIComponent(String(value(3)))}`)
        : await s.rest(method, "/requesttoken", int(3) === 0 ? invalidHeader() : undefined, body);
      expect([400, 401, 403, 413, 431], `${method} ${body.slice(0, 100)} -> ${res.status} ${res.text.slice(0, 100)}`).to.include(res.status);
      expect(res.json?.error).to.equal(true);
    }
    expect(s.server.services.engine.auth.tokenCount()).to.equal(before);
  });

  it("refuses generated credentials on the GSQL server, running nothing", async () => {
    for (let i = 0; i < 80; i++) {
      const header = invalidHeader();
      const answer = await s.gsql(`CREATE VERTEX Fz${i} (PRIMARY_ID id STRING)`, header);
      expect([400, 401], header.slice(0, 80)).to.include(answer.status);
      expect(answer.returnCode).to.equal(41);
      const body = int(2) === 0 ? Buffer.from(`${randomText(20)}:${randomText(20)}`).toString("base64") : randomText(100, ALNUM + "+/=%:");
      const login = await s.gsqlHttp("POST", "/gsqlserver/gsql/login", undefined, body);
      expect([400, 401], body).to.include(login.status);
      expect(login.json?.error).to.equal(true);
    }
    expect(s.server.services.engine.schema.vertexTypes.map((v) => v.name)).to.deep.equal(["P"]);
    expect((await s.gsql("ls", basic(m.user, m.password), { graph: "G" })).returnCode).to.equal(0);
  });
});

/** Sends raw bytes and returns the status code of the answer (0 when the connection closed without one). */
function rawStatus(port: number, request: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error("no answer within 5 s"));
    }, 5000);
    socket.on("data", (d) => (text += d.toString("latin1")));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0));
    });
    socket.end(request);
  });
}
