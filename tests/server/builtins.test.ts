// POST /builtins/{g}: stat_vertex_number, stat_edge_number, stat_vertex_attr (interface.md's
// vertexName/attributeStat shape) and stat_edge_attr, with `*`, from_type/to_type, undirected
// edges counted from both ends, BOOL TRUE/FALSE counts, and errors.
import { expect } from "chai";
import { startTestServer, type TestServer } from "../helpers/http.js";
import { socialEngine } from "./graph-fixture.js";

const DATA = {
  vertices: {
    Person: {
      a: { age: { value: 10 }, score: { value: 1.5 }, active: { value: true } },
      b: { age: { value: 20 }, score: { value: 2.5 }, active: { value: false } },
      c: { age: { value: 36 }, score: { value: 0.5 }, active: { value: true } },
    },
    City: { "1": { population: { value: 100 } }, "2": { population: { value: 300 } } },
  },
  edges: {
    Person: {
      a: {
        knows: { Person: { b: { strength: { value: 0.5 } }, c: { strength: { value: 1.5 } } } },
        follows: { Person: { b: { weight: { value: 1 } } } },
        lives_in: { City: { "1": {} } },
      },
    },
  },
};

describe("REST POST /builtins/{g}", () => {
  let t: TestServer;
  const run = async (body: unknown, path = "/builtins/social") => {
    const r = await t.request("POST", path, JSON.stringify(body));
    expect(r.status, r.text).to.equal(200);
    expect(r.json.version).to.deep.equal({ edition: "wasmgraph", api: "v2", schema: 0 });
    return r.json.results;
  };
  const error = async (body: string) => {
    const r = await t.request("POST", "/builtins/social", body);
    expect(r.status).to.equal(400);
    expect(r.json.error).to.equal(true);
    return r.json.message as string;
  };

  before(async () => {
    t = await startTestServer({ engine: socialEngine() });
    await t.request("POST", "/graph/social", JSON.stringify(DATA));
  });
  after(() => t.close());

  it("stat_vertex_number per type and for *", async () => {
    expect(await run({ function: "stat_vertex_number", type: "*" })).to.deep.equal([
      { v_type: "Person", count: 3 },
      { v_type: "City", count: 2 },
    ]);
    expect(await run({ function: "stat_vertex_number", type: "City" }, "/builtins")).to.deep.equal([{ v_type: "City", count: 2 }]);
  });

  it("stat_edge_number counts undirected edges from both ends, zero counts included, narrowed by from_type/to_type", async () => {
    expect(await run({ function: "stat_edge_number", type: "*" })).to.deep.equal([
      { e_type: "knows", count: 4 },
      { e_type: "follows", count: 1 },
      { e_type: "reverse_follows", count: 1 },
      { e_type: "lives_in", count: 1 },
    ]);
    expect(await run({ function: "stat_edge_number", type: "*", to_type: "City" })).to.deep.equal([
      { e_type: "knows", count: 0 },
      { e_type: "follows", count: 0 },
      { e_type: "reverse_follows", count: 0 },
      { e_type: "lives_in", count: 1 },
    ]);
    expect(await run({ function: "stat_edge_number", type: "knows", from_type: "Person", to_type: "Person" })).to.deep.equal([{ e_type: "knows", count: 4 }]);
    expect(await run({ function: "stat_edge_number", type: "lives_in", from_type: "City" })).to.deep.equal([{ e_type: "lives_in", count: 0 }]);
  });

  it("stat_vertex_attr gives MAX/MIN/AVG of numeric attributes and TRUE/FALSE counts of booleans", async () => {
    expect(await run({ function: "stat_vertex_attr", type: "*" })).to.deep.equal([
      {
        vertexName: "Person",
        attributeStat: [
          { vattrName: "age", MAX: 36, MIN: 10, AVG: 22 },
          { vattrName: "score", MAX: 2.5, MIN: 0.5, AVG: 1.5 },
          { vattrName: "balance", MAX: 0, MIN: 0, AVG: 0 },
          { vattrName: "active", TRUE: 2, FALSE: 1 },
        ],
      },
      { vertexName: "City", attributeStat: [{ vattrName: "population", MAX: 300, MIN: 100, AVG: 200 }] },
    ]);
  });

  it("stat_edge_attr looks at undirected edges from both ends and honours from_type/to_type", async () => {
    expect(await run({ function: "stat_edge_attr", type: "knows" })).to.deep.equal([{ e_type: "knows", attributes: { strength: { MAX: 1.5, MIN: 0.5, AVG: 1 } } }]);
    expect(await run({ function: "stat_edge_attr", type: "*", from_type: "Person", to_type: "*" })).to.deep.equal([
      { e_type: "knows", attributes: { strength: { MAX: 1.5, MIN: 0.5, AVG: 1 } } },
      { e_type: "follows", attributes: { weight: { MAX: 1, MIN: 1, AVG: 1 } } },
      { e_type: "reverse_follows", attributes: { weight: { MAX: 1, MIN: 1, AVG: 1 } } },
      { e_type: "lives_in", attributes: {} },
    ]);
    expect(await run({ function: "stat_edge_attr", type: "follows", to_type: "City" })).to.deep.equal([{ e_type: "follows", attributes: { weight: { MAX: 0, MIN: 0, AVG: 0 } } }]);
  });

  it("refuses unknown functions and names, and malformed bodies, with 400", async () => {
    expect(await error('{"function":"stat_everything"}')).to.equal(
      "Unknown built-in function 'stat_everything': use one of stat_vertex_number, stat_edge_number, stat_vertex_attr, stat_edge_attr.",
    );
    expect(await error('{"type":"*"}')).to.equal('The body of /builtins needs "function" (one of stat_vertex_number, stat_edge_number, stat_vertex_attr, stat_edge_attr).');
    expect(await error('{"function":3}')).to.equal('"function" must be a string.');
    expect(await error('{"function":"stat_vertex_number","type":"Planet"}')).to.equal("Vertex type 'Planet' does not exist in graph 'social'.");
    expect(await error('{"function":"stat_edge_number","type":"likes"}')).to.equal("Edge type 'likes' does not exist in graph 'social'.");
    expect(await error('{"function":"stat_edge_number","type":"*","from_type":"Planet"}')).to.equal("Vertex type 'Planet' does not exist in graph 'social'.");
    expect(await error("[]")).to.equal('The body of /builtins must be a JSON object such as {"function":"stat_vertex_number","type":"*"}.');
    expect(await error("{")).to.equal("Invalid JSON in the request body: Unexpected end of body, expected a string key at line 1, column 2.");
  });
});
