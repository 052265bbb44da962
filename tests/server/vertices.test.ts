// GET|DELETE /graph/{g}/vertices/{type}[/{id}] and DELETE /graph/{g}/delete_by_type/...:
// select, filter (six operators, quoted strings, numbers, booleans, datetimes), sort, limit
// and its cap, count_only, timeout, permanent deletes, length limits, exact records.
import { expect } from "chai";
import { startTestServer, type TestServer } from "../helpers/http.js";
import { socialEngine } from "./graph-fixture.js";

const V2 = { edition: "wasmgraph", api: "v2", schema: 0 };
const PEOPLE = {
  p1: { name: "Ann", age: 30, score: 1.5, balance: 100.25, active: true, joined: "2020-01-01 00:00:00" },
  p2: { name: "Bob", age: 25, score: 2.5, balance: -3, active: false, joined: "2021-06-15 12:30:00" },
  p3: { name: "Cy, Jr.", age: 30, score: 0.1, balance: 0, active: true, joined: "2019-12-31 23:59:59" },
  p4: { name: 'Dee "Q"', age: 41, score: 3.25, balance: 7.5, active: false, joined: "2022-02-02 02:02:02" },
};

function upsertBody() {
  const vertices = Object.fromEntries(Object.entries(PEOPLE).map(([id, attrs]) => [id, Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k, { value: v }]))]));
  return JSON.stringify({ vertices: { Person: vertices }, edges: { Person: { p1: { knows: { Person: { p2: {} } }, lives_in: { City: { "1": {} } } } } } });
}

describe("REST vertices", () => {
  let t: TestServer;
  let clockStep = 0;
  let clock = 0;
  const ids = async (query: string) => {
    const r = await t.get(`/graph/social/vertices/Person${query}`);
    expect(r.status, `${query}: ${r.text}`).to.equal(200);
    return r.json.results.map((v: { v_id: string }) => v.v_id);
  };
  const sortedIds = async (query: string) => (await ids(query)).sort();
  const error = async (path: string, method = "GET") => {
    const r = await t.request(method, path);
    expect(r.status, path).to.equal(400);
    expect(r.json.error).to.equal(true);
    expect(r.json.results).to.deep.equal([]);
    return r.json.message as string;
  };

  beforeEach(async () => {
    clockStep = 0;
    t = await startTestServer({ engine: socialEngine({ now: () => (clock += clockStep) }) });
    expect((await t.request("POST", "/graph/social", upsertBody())).status).to.equal(200);
  });
  afterEach(() => t.close());

  it("reads one vertex by id as an exact record with every attribute", async () => {
    const r = await t.get("/graph/social/vertices/Person/p1");
    expect(r.status).to.equal(200);
    expect(r.json).to.deep.equal({
      version: V2,
      error: false,
      message: "",
      results: [{ v_id: "p1", v_type: "Person", attributes: { ...PEOPLE.p1, tags: [], prefs: {} } }],
    });
  });

  it("reads all vertices of a type, and accepts the path without the graph segment", async () => {
    expect(await sortedIds("")).to.deep.equal(["p1", "p2", "p3", "p4"]);
    const r = await t.get("/graph/vertices/Person/p2");
    expect(r.json.results[0].attributes.name).to.equal("Bob");
    const city = await t.get("/graph/social/vertices/City");
    expect(city.json.results).to.deep.equal([{ v_id: "1", v_type: "City", attributes: { id: 1, population: 0 } }]);
  });

  it("select includes, excludes, _ and -_, and refuses mixing and unknown names", async () => {
    const attrs = async (select: string) => (await t.get(`/graph/social/vertices/Person/p2?select=${encodeURIComponent(select)}`)).json.results[0].attributes;
    expect(await attrs("age,name")).to.deep.equal({ name: "Bob", age: 25 });
    expect(await attrs("-tags,-prefs,-joined,-balance,-score")).to.deep.equal({ name: "Bob", age: 25, active: false });
    expect(Object.keys(await attrs("_"))).to.have.length(8);
    expect(await attrs("-_")).to.deep.equal({});
    expect(await error("/graph/social/vertices/Person?select=age,-name")).to.equal("Invalid select parameter 'age,-name': inclusion and exclusion of attributes cannot be mixed.");
    expect(await error("/graph/social/vertices/Person?select=height")).to.equal("Invalid select parameter: 'height' is not an attribute of vertex type 'Person'.");
    expect(await error("/graph/social/vertices/Person?select=age,,name")).to.equal("Invalid select parameter 'age,,name': empty attribute name.");
  });

  it("filter supports all six operators on numbers", async () => {
    expect(await sortedIds("?filter=age=30")).to.deep.equal(["p1", "p3"]);
    expect(await sortedIds("?filter=age!=30")).to.deep.equal(["p2", "p4"]);
    expect(await sortedIds("?filter=age>30")).to.deep.equal(["p4"]);
    expect(await sortedIds("?filter=age>=30")).to.deep.equal(["p1", "p3", "p4"]);
    expect(await sortedIds("?filter=age<30")).to.deep.equal(["p2"]);
    expect(await sortedIds("?filter=age<=30")).to.deep.equal(["p1", "p2", "p3"]);
    expect(await sortedIds("?filter=balance<0")).to.deep.equal(["p2"]);
    expect(await sortedIds("?filter=score=0.1")).to.deep.equal(["p3"]);
    expect(await sortedIds("?filter=age>29.5")).to.deep.equal(["p1", "p3", "p4"]);
  });

  it("filter compares quoted strings (commas and escaped quotes inside), booleans and datetimes; conditions combine with AND", async () => {
    const q = (f: string) => sortedIds(`?filter=${encodeURIComponent(f)}`);
    expect(await q('name="Cy, Jr."')).to.deep.equal(["p3"]);
    expect(await q('name="Dee \\"Q\\""')).to.deep.equal(["p4"]);
    expect(await q('name>"B"')).to.deep.equal(["p2", "p3", "p4"]);
    expect(await q("name=Ann")).to.deep.equal(["p1"]);
    expect(await q("active=true")).to.deep.equal(["p1", "p3"]);
    expect(await q("active!=true")).to.deep.equal(["p2", "p4"]);
    expect(await q('joined>="2020-01-01 00:00:00"')).to.deep.equal(["p1", "p2", "p4"]);
    expect(await q('joined<"2020-01-01"')).to.deep.equal(["p3"]);
    expect(await q("age>=30,active=false")).to.deep.equal(["p4"]);
    expect(await q('age=30,name!="Ann"')).to.deep.equal(["p3"]);
  });

  it("refuses malformed and hostile filters with clear messages", async () => {
    const f = (text: string) => error(`/graph/social/vertices/Person?filter=${encodeURIComponent(text)}`);
    expect(await f("age>>3")).to.equal("Invalid filter parameter: '>3' is not a valid INT value for attribute 'age'.");
    expect(await f("height=3")).to.equal("Invalid filter parameter: 'height' is not an attribute of vertex type 'Person'.");
    expect(await f("age=abc")).to.equal("Invalid filter parameter: 'abc' is not a valid INT value for attribute 'age'.");
    expect(await f('name="open')).to.equal(`Invalid filter parameter 'name="open' at character 11: unterminated string value.`);
    expect(await f("age 3")).to.equal("Invalid filter parameter 'age 3' at character 4: one of the operators = != > >= < <= was expected.");
    expect(await f("age=3,")).to.equal("Invalid filter parameter 'age=3,' at character 7: an attribute name was expected.");
    expect(await f("active=maybe")).to.equal("Invalid filter parameter: 'maybe' is not a valid BOOL value for attribute 'active'.");
    expect(await f('joined>"yesterday"')).to.equal("Invalid filter parameter: 'yesterday' is not a valid DATETIME value for attribute 'joined'.");
    expect(await f("tags=x")).to.equal("Invalid filter parameter: attribute 'tags' is a collection and cannot be compared.");
    expect(await f("'; DROP ALL; --")).to.equal("Invalid filter parameter ''; DROP ALL; --' at character 1: an attribute name was expected.");
    const long = "age=1," + "x".repeat(2560);
    expect(await f(long)).to.equal("Parameter filter is 2566 characters long, longer than the limit of 2560.");
  });

  it("sort by several keys, descending with -, with limit", async () => {
    expect(await ids("?sort=age,-name")).to.deep.equal(["p2", "p3", "p1", "p4"]);
    expect(await ids("?sort=-balance")).to.deep.equal(["p1", "p4", "p3", "p2"]);
    expect(await ids("?sort=-balance&limit=2")).to.deep.equal(["p1", "p4"]);
    expect(await ids("?sort=joined&filter=active=true")).to.deep.equal(["p3", "p1"]);
    expect(await error("/graph/social/vertices/Person?sort=height")).to.equal("Invalid sort parameter: 'height' is not an attribute of vertex type 'Person'.");
    expect(await error("/graph/social/vertices/Person?sort=tags")).to.equal("Invalid sort parameter: attribute 'tags' of vertex type 'Person' is a collection and cannot be sorted on.");
  });

  it("limit caps the result; above 10240 it is refused", async () => {
    expect(await ids("?limit=3")).to.have.length(3);
    expect(await ids("?limit=0")).to.deep.equal([]);
    expect(await ids("?limit=10240")).to.have.length(4);
    expect(await error("/graph/social/vertices/Person?limit=10241")).to.equal("Parameter limit must be at most 10240, got 10241.");
    expect(await error("/graph/social/vertices/Person?limit=-1")).to.equal("Values of parameter limit must be UINT64 type, invalid value [-1] provided.");
    expect(await error("/graph/social/vertices/Person?limit=1&limit=2")).to.equal("Parameter limit may be given at most once.");
  });

  it("count_only gives [{v_type, count}], filtered when a filter is given", async () => {
    expect((await t.get("/graph/social/vertices/Person?count_only=true")).json.results).to.deep.equal([{ v_type: "Person", count: 4 }]);
    expect((await t.get("/graph/social/vertices/Person?count_only=true&filter=age=30")).json.results).to.deep.equal([{ v_type: "Person", count: 2 }]);
    expect((await t.get("/graph/social/vertices/City?count_only=1")).json.results).to.deep.equal([{ v_type: "City", count: 1 }]);
  });

  it("a missing id, an unknown type and over-long ids are errors with 400, never 404", async () => {
    expect(await error("/graph/social/vertices/Person/nobody")).to.equal("The input vertex id 'nobody' is not a valid vertex id for vertex type = Person.");
    expect(await error("/graph/social/vertices/City/abc")).to.equal("The input vertex id 'abc' is not a valid vertex id for vertex type = City.");
    expect(await error("/graph/social/vertices/Planet")).to.equal("Vertex type 'Planet' does not exist in graph 'social'.");
    expect(await error(`/graph/social/vertices/Person/${"x".repeat(2561)}`)).to.equal("Parameter vertex_id is 2561 characters long, longer than the limit of 2560.");
    expect(await error(`/graph/social/vertices/Person/${"x".repeat(2560)}`)).to.equal(`The input vertex id '${"x".repeat(100)}...' is not a valid vertex id for vertex type = Person.`);
  });

  it("ids with URL-encoded characters round-trip", async () => {
    const id = "a b/c?d&e=\u00e9";
    await t.request("POST", "/graph/social", JSON.stringify({ vertices: { Person: { [id]: { age: { value: 5 } } } } }));
    const r = await t.get(`/graph/social/vertices/Person/${encodeURIComponent(id)}`);
    expect(r.json.results[0].v_id).to.equal(id);
  });

  it("a read past its timeout answers 504 REST-3000 and counts as a timeout in /statistics", async () => {
    clockStep = 1500;
    const r = await t.get("/graph/social/vertices/Person?timeout=1");
    expect(r.status).to.equal(504);
    expect(r.json).to.deep.equal({ version: V2, error: true, message: "The request timed out after 1 seconds.", results: [], code: "REST-3000" });
    const d = await t.request("DELETE", "/graph/social/vertices/Person?timeout=1");
    expect(d.status).to.equal(504);
    clockStep = 0;
    expect(await sortedIds("")).to.deep.equal(["p1", "p2", "p3", "p4"]);
    const stats = (await t.get("/statistics?seconds=60")).json;
    expect(stats["GET /graph/{graph_name}/vertices/{vertex_type}"].TimeoutRequests).to.equal(1);
    expect(stats["GET /graph/{graph_name}/vertices/{vertex_type}"].CompletedRequests).to.equal(1);
    expect(stats["DELETE /graph/{graph_name}/vertices/{vertex_type}"]).to.deep.include({ TimeoutRequests: 1, CompletedRequests: 0, QPS: 0 });
    expect(Object.keys((await t.get("/statistics/social?seconds=60")).json)).to.include("GET /graph/{graph_name}/vertices/{vertex_type}");
  });

  it("DELETE by id deletes the vertex and its edges: {v_type, deleted_vertices}", async () => {
    const r = await t.request("DELETE", "/graph/social/vertices/Person/p1");
    expect(r.json).to.deep.equal({ version: V2, error: false, message: "", results: { v_type: "Person", deleted_vertices: 1 } });
    expect(await sortedIds("")).to.deep.equal(["p2", "p3", "p4"]);
    expect((await t.get("/graph/social/edges/Person/p2")).json.results).to.deep.equal([]);
    const again = await t.request("DELETE", "/graph/social/vertices/Person/p1");
    expect(again.json.results).to.deep.equal({ v_type: "Person", deleted_vertices: 0 });
  });

  it("DELETE with filter, and with sort only together with limit", async () => {
    expect((await t.request("DELETE", "/graph/social/vertices/Person?filter=age=30")).json.results).to.deep.equal({ v_type: "Person", deleted_vertices: 2 });
    expect(await sortedIds("")).to.deep.equal(["p2", "p4"]);
    expect(await error("/graph/social/vertices/Person?sort=age", "DELETE")).to.equal("The sort parameter of a delete must be used together with limit.");
    expect((await t.request("DELETE", "/graph/social/vertices/Person?sort=-age&limit=1")).json.results).to.deep.equal({ v_type: "Person", deleted_vertices: 1 });
    expect(await sortedIds("")).to.deep.equal(["p2"]);
  });

  it("permanent=true keeps deleted ids from coming back", async () => {
    await t.request("DELETE", "/graph/social/vertices/Person/p2?permanent=true");
    await t.request("DELETE", "/graph/social/vertices/Person/p3");
    const r = await t.request("POST", "/graph/social", JSON.stringify({ vertices: { Person: { p2: {}, p3: {} } } }));
    expect(r.json.results).to.deep.equal([
      { accepted_vertices: 1, skipped_vertices: 1, vertices_permanently_deleted: [{ v_type: "Person", v_id: "p2" }], accepted_edges: 0 },
    ]);
    expect(await sortedIds("")).to.deep.equal(["p1", "p3", "p4"]);
  });

  it("delete_by_type deletes every vertex of the type", async () => {
    const r = await t.request("DELETE", "/graph/social/delete_by_type/vertices/Person?ack=none");
    expect(r.json).to.deep.equal({ version: V2, error: false, message: "", results: { v_type: "Person", deleted_vertices: 4 } });
    expect(await ids("")).to.deep.equal([]);
    expect((await t.request("DELETE", "/graph/delete_by_type/vertices/City")).json.results).to.deep.equal({ v_type: "City", deleted_vertices: 1 });
    expect(await error("/graph/social/delete_by_type/vertices/Planet", "DELETE")).to.equal("Vertex type 'Planet' does not exist in graph 'social'.");
    expect(await error("/graph/social/delete_by_type/vertices/Person?ack=some", "DELETE")).to.equal("Parameter ack must be one of all, none; got [some].");
  });

  it("output API v1 drops the version field", async () => {
    t.server.services.engine.apply({ kind: "set-output-api", api: "v1" });
    const r = await t.get("/graph/social/vertices/Person/p1?select=-_");
    expect(r.json).to.deep.equal({ error: false, message: "", results: [{ v_id: "p1", v_type: "Person", attributes: {} }] });
  });
});
