// POST /graph/{g}: upsert of vertices and edges. Exact result shapes and codes, operators by
// name and symbol, defaults of new items, whole-body validation (one bad item changes
// nothing), unknown attributes ignored, flags, duplicate keys, exact 64-bit values, and
// malformed or oversized bodies.
import { expect } from "chai";
import { startTestServer, type TestServer } from "../helpers/http.js";
import { socialEngine } from "./graph-fixture.js";

const V2 = { edition: "wasmgraph", api: "v2", schema: 0 };

describe("REST POST /graph/{g} (upsert)", () => {
  let t: TestServer;
  const post = (body: unknown, query = "") => t.request("POST", `/graph/social${query}`, typeof body === "string" ? body : JSON.stringify(body));
  const person = async (id: string) => (await t.get(`/graph/social/vertices/Person/${encodeURIComponent(id)}`)).json;
  const personCount = async () => (await t.get("/graph/social/vertices/Person?count_only=true")).json.results[0].count;

  beforeEach(async () => {
    t = await startTestServer({ engine: socialEngine(), limits: { bodyBytes: 4096 } });
  });
  afterEach(() => t.close());

  it("creates vertices with default attribute values and answers REST-0001", async () => {
    const r = await post({ vertices: { Person: { alice: { age: { value: 30 } }, bob: {} } } });
    expect(r.status).to.equal(200);
    expect(r.json).to.deep.equal({ version: V2, error: false, message: "", results: [{ accepted_vertices: 2, accepted_edges: 0 }], code: "REST-0001" });
    expect((await person("bob")).results).to.deep.equal([
      {
        v_id: "bob",
        v_type: "Person",
        attributes: { name: "", age: 0, score: 0, balance: 0, active: false, joined: "1970-01-01 00:00:00", tags: [], prefs: {} },
      },
    ]);
    expect((await person("alice")).results[0].attributes.age).to.equal(30);
  });

  it("creates edges with their missing endpoints (REST-0002) and both kinds together (REST-0003)", async () => {
    const e = await post({ edges: { Person: { alice: { follows: { Person: { bob: { weight: { value: 0.5 } } } } } } } });
    expect(e.json.results).to.deep.equal([{ accepted_vertices: 0, accepted_edges: 1 }]);
    expect(e.json.code).to.equal("REST-0002");
    expect(await personCount()).to.equal(2);
    const both = await post({ vertices: { City: { "7": { population: { value: 100 } } } }, edges: { Person: { alice: { lives_in: { City: { "7": {} } } } } } });
    expect(both.json.results).to.deep.equal([{ accepted_vertices: 1, accepted_edges: 1 }]);
    expect(both.json.code).to.equal("REST-0003");
  });

  it("applies every operator by name and by symbol", async () => {
    await post({ vertices: { Person: { a: { age: { value: 10 }, score: { value: 2.5 }, active: { value: true }, name: { value: "x" }, tags: { value: ["t1"] } } } } });
    const ops: [string, string, unknown, unknown][] = [
      ["add", "age", 5, 15],
      ["+", "age", 5, 20],
      ["max", "age", 7, 20],
      [">", "age", 25, 25],
      ["min", "age", 30, 25],
      ["<", "age", 3, 3],
      ["overwrite", "age", 40, 40],
      ["=", "age", 41, 41],
      ["ignore_if_exists", "age", 99, 41],
      ["~", "age", 99, 41],
      ["and", "active", false, false],
      ["|", "active", true, true],
      ["&", "active", true, true],
      ["or", "active", false, true],
      ["+", "score", 1.25, 3.75],
      ["+", "name", "y", "xy"],
      ["+", "tags", ["t2", "t1"], ["t1", "t2"]],
    ];
    for (const [op, attr, value, expected] of ops) {
      const r = await post({ vertices: { Person: { a: { [attr]: { value, op } } } } });
      expect(r.status, `${op} ${attr}`).to.equal(200);
      const got = (await person("a")).results[0].attributes[attr];
      expect(Array.isArray(got) ? [...got].sort() : got, `${op} ${attr}`).to.deep.equal(expected);
    }
  });

  it("creates a missing item with ignore_if_exists but rejects add/and/or/max/min on it, changing nothing", async () => {
    expect((await post({ vertices: { Person: { n1: { age: { value: 4, op: "~" } } } } })).json.results).to.deep.equal([{ accepted_vertices: 1, accepted_edges: 0 }]);
    for (const op of ["add", "+", "and", "&", "or", "|", "max", ">", "min", "<"]) {
      const value = op === "and" || op === "&" || op === "or" || op === "|" ? true : 1;
      const attr = typeof value === "boolean" ? "active" : "age";
      const r = await post({ vertices: { Person: { n1: { age: { value: 5 } }, ghost: { [attr]: { value, op } } } } });
      expect(r.status, op).to.equal(400);
      expect(r.json.error).to.equal(true);
      expect(r.json.code).to.equal("REST-30000");
      expect(r.json.results).to.deep.equal([]);
    }
    expect(await personCount()).to.equal(1);
    expect((await person("n1")).results[0].attributes.age).to.equal(4);
  });

  it("names the body's edge item when an edge operator finds no edge, changing nothing", async () => {
    // Items 0 and 1 are one run (knows), item 2 starts the next (follows): the message counts across runs.
    const edges = { Person: { a: { knows: { Person: { b: {}, c: {} } }, follows: { Person: { d: { weight: { value: 1, op: "add" } } } } } } };
    const r = await post({ edges });
    expect(r.status).to.equal(400);
    expect(r.json).to.deep.equal({ version: V2, error: true, message: 'edges[2]: operator "+" on attribute weight of an edge that does not exist', results: [], code: "REST-30000" });
    expect(await personCount()).to.equal(0);
  });

  it("rejects the whole body for an invalid vertex type, edge type, source or target type, or value type", async () => {
    await post({ vertices: { Person: { keep: { age: { value: 1 } } } } });
    const good = { Person: { keep: { age: { value: 2 } }, fresh: {} } };
    const cases: [unknown, string][] = [
      [{ vertices: { ...good, Planet: { x: {} } } }, "Vertex type 'Planet' does not exist in graph 'social'."],
      [{ vertices: { Person: { keep: { age: { value: "old" } } } } }, "Invalid attribute data type for attribute 'age' (INT) in vertices[0] (Person 'keep'): an integer was expected for INT."],
      [{ vertices: { Person: { keep: { active: { value: 1 } } } } }, "Invalid attribute data type for attribute 'active' (BOOL) in vertices[0] (Person 'keep'): true or false was expected for BOOL."],
      [{ vertices: { Person: { keep: { joined: { value: "2020-13-01" } } } } }, "Invalid attribute data type for attribute 'joined' (DATETIME) in vertices[0] (Person 'keep'): '2020-13-01' is not a valid DATETIME."],
      [{ vertices: good, edges: { Planet: { x: { knows: { Person: { keep: {} } } } } } }, "Invalid source vertex type 'Planet' in edges[0] (knows from Planet 'x' to Person 'keep'): no such vertex type in graph 'social'."],
      [{ vertices: good, edges: { Person: { x: { likes: { Person: { keep: {} } } } } } }, "Invalid edge type 'likes' in edges[0] (likes from Person 'x' to Person 'keep'): no such edge type in graph 'social'."],
      [{ vertices: good, edges: { Person: { x: { knows: { Planet: { keep: {} } } } } } }, "Invalid target vertex type 'Planet' in edges[0] (knows from Person 'x' to Planet 'keep'): no such vertex type in graph 'social'."],
      [{ vertices: good, edges: { Person: { x: { lives_in: { Person: { keep: {} } } } } } }, "Invalid vertex types in edges[0] (lives_in from Person 'x' to Person 'keep'): edge type 'lives_in' does not connect Person to Person."],
      [{ vertices: good, edges: { Person: { x: { knows: { Person: { keep: { strength: { value: "strong" } } } } } } } }, "Invalid attribute data type for attribute 'strength' (DOUBLE) in edges[0] (knows from Person 'x' to Person 'keep'): a number was expected for DOUBLE."],
      [{ vertices: { Person: { keep: { age: { value: 1, op: "times" } } } } }, "Invalid op 'times' for attribute 'age' in vertices[0] (Person 'keep'): use overwrite (=), ignore_if_exists (~), add (+), and (&), or (|), max (>) or min (<)."],
      [{ vertices: { Person: { keep: { age: 3 } } } }, 'Invalid upsert payload: attribute \'age\' of vertex \'keep\' of type \'Person\' must be an object {"value": ..., "op": ...}.'],
      [{ vertices: { Person: { keep: { age: { op: "+" } } } } }, "Invalid upsert payload: attribute 'age' of vertex 'keep' of type 'Person' has no \"value\"."],
      [{ vertices: [] }, "Invalid upsert payload: 'vertices' must be a JSON object."],
      [{ vertex: {} }, "Invalid upsert payload: unknown top-level key 'vertex'; only 'vertices' and 'edges' are allowed."],
      [[1, 2], "Invalid upsert payload: the request body must be a JSON object."],
    ];
    for (const [body, message] of cases) {
      const r = await post(body);
      expect(r.status, message).to.equal(400);
      expect(r.json, message).to.deep.equal({ version: V2, error: true, message, results: [], code: "REST-30000" });
    }
    expect(await personCount()).to.equal(1);
    expect((await person("keep")).results[0].attributes.age).to.equal(1);
  });

  it("ignores unknown attribute names", async () => {
    const r = await post({ vertices: { Person: { u: { age: { value: 3 }, nickname: { value: "zz" }, shoe_size: { value: 44, op: "+" } } } } });
    expect(r.json.results).to.deep.equal([{ accepted_vertices: 1, accepted_edges: 0 }]);
    expect((await person("u")).results[0].attributes).to.not.have.property("nickname");
  });

  it("keeps repeated JSON keys: multi-target edges in one object and repeated vertex entries", async () => {
    await post({ vertices: { Person: { z: { age: { value: 1 } } } } });
    const body = '{"edges":{"Person":{"a":{"follows":{"Person":{"b":{}},"Person":{"c":{}}}}}},"vertices":{"Person":{"z":{"age":{"value":10,"op":"+"}},"z":{"age":{"value":2,"op":"+"}}}}}';
    const r = await post(body);
    expect(r.json.results).to.deep.equal([{ accepted_vertices: 2, accepted_edges: 2 }]);
    const edges = (await t.get("/graph/social/edges/Person/a/follows")).json.results.map((e: { to_id: string }) => e.to_id).sort();
    expect(edges).to.deep.equal(["b", "c"]);
    expect((await person("z")).results[0].attributes.age).to.equal(13);
  });

  it("stores MAP values given as keylist/valuelist and 64-bit integers exactly; integer ids come back as strings", async () => {
    const body = '{"vertices":{"Person":{"m":{"prefs":{"value":{"keylist":["a","b"],"valuelist":[1,9223372036854775807]}},"age":{"value":-9223372036854775808}}},"City":{"9007199254740993":{"population":{"value":18446744073709551615}}}}}';
    expect((await post(body)).status).to.equal(200);
    const m = await t.get("/graph/social/vertices/Person/m?select=prefs,age");
    expect(m.text).to.contain('"attributes":{"age":-9223372036854775808,"prefs":{"a":1,"b":9223372036854775807}}');
    const c = await t.get("/graph/social/vertices/City/9007199254740993");
    expect(c.text).to.contain('"v_id":"9007199254740993","v_type":"City","attributes":{"id":9007199254740993,"population":18446744073709551615}');
    const bad = await post('{"vertices":{"City":{"1":{"population":{"value":18446744073709551616}}}}}');
    expect(bad.status).to.equal(400);
    expect(bad.json.message).to.equal("Invalid attribute data type for attribute 'population' (UINT) in vertices[0] (City '1'): 18446744073709551616 is out of range for UINT.");
  });

  it("new_vertex_only skips existing vertices and lists them", async () => {
    await post({ vertices: { Person: { a: {}, b: {} } } });
    const r = await post({ vertices: { Person: { a: { age: { value: 9 } }, b: {}, c: {} } } }, "?new_vertex_only=true");
    expect(r.json.results).to.deep.equal([
      { accepted_vertices: 1, skipped_vertices: 2, vertices_already_exist: [{ v_type: "Person", v_id: "a" }, { v_type: "Person", v_id: "b" }], accepted_edges: 0 },
    ]);
    expect((await person("a")).results[0].attributes.age).to.equal(0);
  });

  it("update_vertex_only skips missing vertices and lists them", async () => {
    await post({ vertices: { Person: { a: {}, b: {} } } });
    const r = await post({ vertices: { Person: { a: { age: { value: 9 } }, b: {}, c: {} } } }, "?update_vertex_only=true");
    expect(r.json.results).to.deep.equal([{ accepted_vertices: 2, skipped_vertices: 1, vertices_not_exist: [{ v_type: "Person", v_id: "c" }], accepted_edges: 0 }]);
    expect(await personCount()).to.equal(2);
  });

  it("vertex_must_exist, source_vertex_must_exist and target_vertex_must_exist skip edges with missing ends", async () => {
    await post({ vertices: { Person: { a: {}, b: {} } } });
    const edges = { Person: { a: { knows: { Person: { b: {}, x: {} } } }, y: { knows: { Person: { a: {} } } } } };
    const r = await post({ edges }, "?vertex_must_exist=true");
    expect(r.json.results).to.deep.equal([
      { accepted_vertices: 0, accepted_edges: 1, skipped_edges: 2, edge_vertices_not_exist: [{ v_type: "Person", v_id: "x" }, { v_type: "Person", v_id: "y" }] },
    ]);
    const source = await post({ edges }, "?source_vertex_must_exist=true");
    expect(source.json.results).to.deep.equal([{ accepted_vertices: 0, accepted_edges: 2, skipped_edges: 1, edge_vertices_not_exist: [{ v_type: "Person", v_id: "y" }] }]);
    expect(await personCount()).to.equal(3);
    const target = await post({ edges: { Person: { q: { knows: { Person: { a: {}, w: {} } } } } } }, "?target_vertex_must_exist=true");
    expect(target.json.results).to.deep.equal([{ accepted_vertices: 0, accepted_edges: 1, skipped_edges: 1, edge_vertices_not_exist: [{ v_type: "Person", v_id: "w" }] }]);
  });

  it("answers malformed JSON with REST-2001 and its position, and changes nothing", async () => {
    const r = await post('{"vertices":{"Person":{"a":{}}},\n "edges": [}');
    expect(r.status).to.equal(400);
    expect(r.json).to.deep.equal({
      version: V2,
      error: true,
      message: "Invalid JSON in the request body: Unexpected character '}' at line 2, column 12.",
      results: [],
      code: "REST-2001",
    });
    expect(await personCount()).to.equal(0);
    const empty = await post("");
    expect(empty.json.message).to.equal("Invalid JSON in the request body: Empty body, a JSON value was expected at line 1, column 1.");
  });

  it("refuses bodies over the size limit with 413 and nesting deeper than the limit with 400", async () => {
    const big = JSON.stringify({ vertices: { Person: Object.fromEntries(Array.from({ length: 800 }, (_, i) => [`p${i}`, {}])) } });
    const r = await post(big);
    expect(r.status).to.equal(413);
    expect(r.json).to.deep.equal({ version: V2, error: true, message: "The request body is larger than the limit of 4096 bytes.", results: [], code: "REST-30000" });
    const deep = await post("[".repeat(200) + "]".repeat(200));
    expect(deep.status).to.equal(400);
    expect(deep.json.code).to.equal("REST-2001");
    expect(await personCount()).to.equal(0);
  });

  it("accepts the endpoint without the graph segment in a single-graph deployment", async () => {
    const r = await t.request("POST", "/graph", JSON.stringify({ vertices: { Person: { s: {} } } }));
    expect(r.json.results).to.deep.equal([{ accepted_vertices: 1, accepted_edges: 0 }]);
    const missing = await t.request("POST", "/graph/nope", "{}");
    expect(missing.status).to.equal(400);
    expect(missing.json).to.deep.equal({ error: true, message: "Graph 'nope' does not exist.", results: [], code: "REST-1004" });
  });

  it("rejects a bad flag value with 400", async () => {
    const r = await post({}, "?new_vertex_only=yes");
    expect(r.status).to.equal(400);
    expect(r.json.message).to.equal("Values of parameter new_vertex_only must be BOOL type, invalid value [yes] provided.");
  });
});

describe("REST graph segment with several graphs", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ engine: socialEngine({}, ["work"]) });
  });
  after(() => t.close());

  it("requires the graph name in the path", async () => {
    for (const [method, path] of [["POST", "/graph"], ["GET", "/graph/vertices/Person"], ["GET", "/graph/edges/Person/a"], ["POST", "/builtins"]] as const) {
      const r = await t.request(method, path, method === "POST" ? "{}" : undefined);
      expect(r.status, path).to.equal(400);
      expect(r.json, path).to.deep.equal({
        error: true,
        message: "This database has 2 graphs (social, work): the graph name is required in the path, e.g. /graph/{graph_name}/...",
        results: [],
        code: "REST-30000",
      });
    }
    const ok = await t.request("POST", "/graph/work", JSON.stringify({ vertices: { Person: { w: {} } } }));
    expect(ok.json.results).to.deep.equal([{ accepted_vertices: 1, accepted_edges: 0 }]);
  });
});
