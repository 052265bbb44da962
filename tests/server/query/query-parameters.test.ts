// GET|POST /query/{graph}/{name}: every parameter encoding of interface.md (simple, repeated
// for SET/BAG, typed VERTEX, `v`+`v.type`, indexed `vs[i]`+`vs[i].type`), a data payload in
// the body (lines joined, the query string overriding it), a JSON body, defaults, INT/UINT
// exact to 64 bits, and each kind of bad parameter answered with its exact envelope.
import { expect } from "chai";
import { badParameter, ok, startQueryServer, V2, type QueryServer } from "./query-fixture.js";

describe("REST /query: parameters", function () {
  let s: QueryServer;
  before(async () => {
    s = await startQueryServer();
  });
  after(() => s.close());

  const get = async (path: string) => {
    const r = await s.send("GET", path);
    return { status: r.status, json: r.json };
  };

  describe("encodings", () => {
    it("simple values, INT and UINT at their 64-bit limits, a DATETIME, a default", async () => {
      const r = await get("/query/G/scalars?i=-9223372036854775808&u=18446744073709551615&d=0.1&b=true&s=h%C3%A9&t=2024-01-02%2003:04:05");
      expect(r.status).to.equal(200);
      // JSON.parse would lose the last digits: the exact text is checked.
      const raw = await s.send("GET", "/query/G/scalars?i=-9223372036854775808&u=18446744073709551615&d=0.1&b=true&s=h%C3%A9&t=2024-01-02%2003:04:05");
      expect(raw.text).to.equal(
        '{"version":{"edition":"wasmgraph","api":"v2","schema":0},"error":false,"message":"","results":[{"i":-9223372036854775808,"u":18446744073709551615,"d":0.1,"b":true,"s":"hé","t":"2024-01-02 03:04:05","k":7}]}',
      );
    });

    it("a given value replaces the default; BOOL as 0/1 and in any case", async () => {
      const r = await get("/query/G/scalars?i=42&u=0&d=-2.5e3&b=FALSE&s=&t=1700000000&k=-3");
      expect(r.json).to.deep.equal(ok([{ i: 42, u: 0, d: -2500, b: false, s: "", t: "2023-11-14 22:13:20", k: -3 }]));
      const text = (await s.send("GET", "/query/G/scalars?i=9223372036854775807&u=0&d=1&b=0&s=x&t=2024-01-01&k=1")).text;
      expect(text).to.contain('"i":9223372036854775807,');
      expect(text).to.contain('"b":false');
    });

    it("SET and BAG by repeating the name (a SET drops repeats, a BAG keeps them); absent: empty", async () => {
      expect((await get("/query/G/sets?xs=3&xs=1&xs=3&ss=a&ss=a")).json).to.deep.equal(ok([{ xs: [3, 1], ss: ["a", "a"] }]));
      expect((await get("/query/G/sets")).json).to.deep.equal(ok([{ xs: [], ss: [] }]));
    });

    it("VERTEX<T> by its id; VERTEX by id and type; SET<VERTEX<T>> repeated; SET<VERTEX> indexed with mixed types", async () => {
      expect((await get("/query/G/typed_vertex?p=ann")).json).to.deep.equal(ok([{ p: "ann" }]));
      expect((await get("/query/G/typed_vertex?p=ann&p.type=Person")).json).to.deep.equal(ok([{ p: "ann" }]));
      expect((await get("/query/G/any_vertex?v=oslo&v.type=City")).json).to.deep.equal(ok([{ v: "oslo" }]));
      expect((await get("/query/G/typed_set?ps=ann&ps=bob")).json).to.deep.equal(ok([{ ps: ["ann", "bob"] }]));
      expect((await get("/query/G/any_set?vs[1]=oslo&vs[1].type=City&vs[0]=ann&vs[0].type=Person")).json).to.deep.equal(ok([{ vs: ["ann", "oslo"] }]));
      expect((await get("/query/G/any_set?vs%5B0%5D=bob&vs%5B0%5D.type=Person")).json).to.deep.equal(ok([{ vs: ["bob"] }]));
    });

    it("the single-graph form /query/{name} runs the one graph's query", async () => {
      expect((await get("/query/typed_vertex?p=bob")).json).to.deep.equal(ok([{ p: "bob" }]));
    });

    it("a data payload in the body of a GET: lines joined, the query string overriding it name by name", async () => {
      const payload = "i=5&u=6&d=1.5&b=true&\ns=from+body&t=2020-02-02+02%3A02%3A02\r\n&k=9";
      const r = await s.send("GET", "/query/G/scalars", payload);
      expect(r.json).to.deep.equal(ok([{ i: 5, u: 6, d: 1.5, b: true, s: "from body", t: "2020-02-02 02:02:02", k: 9 }]));
      const over = await s.send("GET", "/query/G/scalars?k=1&s=url", payload);
      expect(over.json).to.deep.equal(ok([{ i: 5, u: 6, d: 1.5, b: true, s: "url", t: "2020-02-02 02:02:02", k: 1 }]));
      // A POST whose body is not JSON is a payload too.
      const form = await s.send("POST", "/query/G/sets?xs=4", "xs=1&ss=b", { "Content-Type": "application/x-www-form-urlencoded" });
      expect(form.json).to.deep.equal(ok([{ xs: [4], ss: ["b"] }]));
      const indexed = await s.send("GET", "/query/G/any_set", "vs[0]=oslo&vs[0].type=City");
      expect(indexed.json).to.deep.equal(ok([{ vs: ["oslo"] }]));
    });

    it("POST with a JSON body: numbers exact to 64 bits, sets as arrays, vertices as ids or {id, type}", async () => {
      const body = '{"i":-9223372036854775808,"u":"18446744073709551615","d":0.25,"b":false,"s":"json","t":"2024-05-06 07:08:09"}';
      const r = await s.send("POST", "/query/G/scalars", body, { "Content-Type": "application/json" });
      expect(r.text).to.equal(
        '{"version":{"edition":"wasmgraph","api":"v2","schema":0},"error":false,"message":"","results":[{"i":-9223372036854775808,"u":18446744073709551615,"d":0.25,"b":false,"s":"json","t":"2024-05-06 07:08:09","k":7}]}',
      );
      expect((await s.send("POST", "/query/G/sets", '{"xs":[2,2,9],"ss":["x"]}')).json).to.deep.equal(ok([{ xs: [2, 9], ss: ["x"] }]));
      expect((await s.send("POST", "/query/G/typed_vertex", '{"p":"bob"}')).json).to.deep.equal(ok([{ p: "bob" }]));
      expect((await s.send("POST", "/query/G/any_vertex", '{"v":{"id":"ann","type":"Person"}}')).json).to.deep.equal(ok([{ v: "ann" }]));
      expect((await s.send("POST", "/query/G/any_set", '{"vs":[{"id":"oslo","type":"City"},{"id":"bob","type":"Person"}]}')).json).to.deep.equal(ok([{ vs: ["oslo", "bob"] }]));
      expect((await s.send("POST", "/query/G/typed_set", '{"ps":["ann",{"id":"bob"}]}')).json).to.deep.equal(ok([{ ps: ["ann", "bob"] }]));
      // The query string still overrides the body.
      expect((await s.send("POST", "/query/G/typed_vertex?p=ann", '{"p":"bob"}')).json).to.deep.equal(ok([{ p: "ann" }]));
    });
  });

  describe("errors", () => {
    const cases: [string, string][] = [
      ["/query/G/typed_vertex", "Parameter p is required: the query takes p (VERTEX<Person>)."],
      ["/query/G/typed_vertex?p=ann&q=1", "Unknown parameter q: the query takes p (VERTEX<Person>)."],
      ["/query/G/typed_vertex?p=ann&p=bob", "Parameter p may be given at most once."],
      ["/query/G/typed_vertex?p=nobody", "Failed to convert user vertex id for parameter p: 'nobody' is not a valid Person vertex id."],
      ["/query/G/typed_vertex?p=ann&p.type=City", "Parameter p.type must be Person (the query's parameter type is VERTEX<Person>), not 'City'."],
      ["/query/G/any_vertex?v=ann", "The vertex parameter v needs its type: v.type=<vertex type>."],
      ["/query/G/any_vertex?v.type=Person", "Parameter v.type is given without v."],
      ["/query/G/any_vertex?v=ann&v.type=Planet", "Failed to convert user vertex id for parameter v: 'ann' is not a valid Planet vertex id."],
      ["/query/G/any_set?vs[0]=ann", "The vertex parameter vs[0] needs its type: vs[0].type=<vertex type>."],
      ["/query/G/any_set?vs=ann", "Parameter vs is a set of vertices of any type: give them indexed, vs[0]=<id>&vs[0].type=<vertex type>."],
      ["/query/G/any_set?vs[99999999]=ann&vs[99999999].type=Person", "Parameter vs[99999999]: an index must be below 1048576."],
      ["/query/G/scalars?i=1.5&u=1&d=1&b=true&s=x&t=2024-01-01", "The parameter i must be an INT, not '1.5'."],
      ["/query/G/scalars?i=9223372036854775808&u=1&d=1&b=true&s=x&t=2024-01-01", "The parameter i must be an INT in range, not '9223372036854775808'."],
      ["/query/G/scalars?i=1&u=-1&d=1&b=true&s=x&t=2024-01-01", "The parameter u must be an UINT in range, not '-1'."],
      ["/query/G/scalars?i=1&u=1&d=0x10&b=true&s=x&t=2024-01-01", "The parameter d must be a DOUBLE, not '0x10'."],
      ["/query/G/scalars?i=1&u=1&d=1&b=yes&s=x&t=2024-01-01", "The parameter b must be true or false, not 'yes'."],
      ["/query/G/scalars?i=1&u=1&d=1&b=true&s=x&t=tomorrow", "The parameter t must be a DATETIME (YYYY-MM-DD HH:MM:SS), not 'tomorrow'."],
      ["/query/G/sets?xs=1&xs=two", "The parameter xs must be an INT, not 'two'."],
      ["/query/G/sets?timeout=-1", "Values of parameter timeout must be UINT32 type, invalid value [-1] provided."],
      ["/query/G/sets?__GQUERY__monitor=maybe", "Parameter __GQUERY__monitor must be true or false, not 'maybe'."],
      ["/query/G/sets?__GQUERY__USING_ALL_ACTIVE_MODE=2", "Parameter __GQUERY__USING_ALL_ACTIVE_MODE must be true or false, not '2'."],
    ];
    for (const [path, message] of cases) {
      it(`${decodeURIComponent(path.slice(9))} → ${message}`, async () => {
        expect(await get(path)).to.deep.equal(badParameter(message));
      });
    }

    it("JSON bodies: a plain id for a vertex of any type, a missing type, wrong shapes, repeated keys, malformed text", async () => {
      const post = (path: string, body: string) => s.send("POST", path, body, { "Content-Type": "application/json" });
      const expectBad = async (path: string, body: string, message: string) => {
        const r = await post(path, body);
        expect({ status: r.status, json: r.json }).to.deep.equal(badParameter(message));
      };
      await expectBad("/query/G/any_vertex", '{"v":"ann"}', `'id' is not found in the VERTEX parameter v: a vertex of any type is given as {"id": <id>, "type": <vertex type>}.`);
      await expectBad("/query/G/any_vertex", '{"v":{"id":"ann"}}', "'type' is not found in the VERTEX parameter v.");
      await expectBad("/query/G/any_vertex", '{"v":{"type":"Person"}}', "'id' is not found in the VERTEX parameter v.");
      await expectBad("/query/G/typed_vertex", '{"p":["ann"]}', "Parameter p takes one VERTEX value, not an array.");
      await expectBad("/query/G/sets", '{"xs":[{"a":1}]}', "Parameter xs takes INT values, not an object.");
      await expectBad("/query/G/typed_vertex", '{"p":"ann","p":"bob"}', "Parameter p is given twice in the request body.");
      await expectBad("/query/G/typed_vertex", "[1,2]", "The request body must be a JSON object of parameter names and values.");
      const malformed = await post("/query/G/typed_vertex", '{"p": ');
      expect(malformed.status).to.equal(400);
      expect(malformed.json).to.deep.equal({ version: V2, error: true, message: "Invalid JSON in the request body: Unexpected end of body at line 1, column 7.", results: [], code: "REST-2001" });
    });

    it("an unknown query is an unknown endpoint (404); an unknown graph is REST-1004 (400)", async () => {
      expect(await get("/query/G/nope")).to.deep.equal({
        status: 404,
        json: { error: true, message: "Endpoint is not found from url = /query/G/nope, please use GET /endpoints to list all valid endpoints.", results: [], code: "REST-1000" },
      });
      expect(await get("/query/Nope/typed_vertex?p=ann")).to.deep.equal({ status: 400, json: { error: true, message: "Graph 'Nope' does not exist.", results: [], code: "REST-1004" } });
    });

    it("RESPONSE-LIMIT refuses a larger result with REST-4000", async () => {
      // [{"p":"ann"}] is 13 bytes.
      expect((await s.send("GET", "/query/G/typed_vertex?p=ann", undefined, { "RESPONSE-LIMIT": "13" })).json).to.deep.equal(ok([{ p: "ann" }]));
      const over = await s.send("GET", "/query/G/typed_vertex?p=ann", undefined, { "RESPONSE-LIMIT": "12" });
      expect({ status: over.status, json: over.json }).to.deep.equal({
        status: 400,
        json: { version: V2, error: true, message: "The response (13 bytes) is larger than the RESPONSE-LIMIT of 12 bytes.", results: [], code: "REST-4000" },
      });
      const bad = await s.send("GET", "/query/G/typed_vertex?p=ann", undefined, { "RESPONSE-LIMIT": "-5" });
      expect({ status: bad.status, json: bad.json }).to.deep.equal(badParameter("The RESPONSE-LIMIT header must be a whole number of bytes, not '-5'."));
    });

    it("a refused request changed nothing and left nothing running", async () => {
      expect((await s.send("GET", "/query/G/sets", undefined, { "GSQL-ASYNC": "later" })).json.message).to.equal("The GSQL-ASYNC header must be true or false, not 'later'.");
      expect((await s.send("GET", "/showprocesslist/G")).json.results).to.deep.equal([]);
      const before = (await s.send("GET", "/graph/G/vertices/Person?count_only=true")).json.results;
      expect((await get("/query/G/add_person?id=zed")).status).to.equal(400);
      expect((await get("/query/G/add_person?id=zed&age=x")).status).to.equal(400);
      expect((await s.send("GET", "/graph/G/vertices/Person?count_only=true")).json.results).to.deep.equal(before);
    });
  });
});
