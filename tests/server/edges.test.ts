// GET|DELETE /graph/{g}/edges/{st}/{sid}[/{et}[/{tt}[/{tid}]]]: every path form, the `_`
// wildcard and not_wildcard, count_only per edge type including zeros, select, filter,
// sort, limit, undirected and reverse edges, path id length limits, exact records.
import { expect } from "chai";
import { startTestServer, type TestServer } from "../helpers/http.js";
import { socialEngine } from "./graph-fixture.js";

const V2 = { edition: "wasmgraph", api: "v2", schema: 0 };

// a -knows(0.5, 2020)- b, a -knows(0.9, 2018)- c, a -follows(1.5)-> b, a -follows(0.25)-> d,
// c -follows(2)-> a, a -lives_in-> City 10, b -lives_in-> City 10
const BODY = {
  edges: {
    Person: {
      a: {
        knows: { Person: { b: { strength: { value: 0.5 }, since: { value: "2020-05-01 00:00:00" } }, c: { strength: { value: 0.9 }, since: { value: "2018-01-01 00:00:00" } } } },
        follows: { Person: { b: { weight: { value: 1.5 } }, d: { weight: { value: 0.25 } } } },
        lives_in: { City: { "10": {} } },
      },
      b: { lives_in: { City: { "10": {} } } },
      c: { follows: { Person: { a: { weight: { value: 2 } } } } },
    },
  },
};

const knowsAB = { e_type: "knows", directed: false, from_id: "a", from_type: "Person", to_id: "b", to_type: "Person", attributes: { strength: 0.5, since: "2020-05-01 00:00:00" } };
const knowsAC = { e_type: "knows", directed: false, from_id: "a", from_type: "Person", to_id: "c", to_type: "Person", attributes: { strength: 0.9, since: "2018-01-01 00:00:00" } };
const followsAB = { e_type: "follows", directed: true, from_id: "a", from_type: "Person", to_id: "b", to_type: "Person", attributes: { weight: 1.5 } };
const followsAD = { e_type: "follows", directed: true, from_id: "a", from_type: "Person", to_id: "d", to_type: "Person", attributes: { weight: 0.25 } };
const reverseAC = { e_type: "reverse_follows", directed: true, from_id: "a", from_type: "Person", to_id: "c", to_type: "Person", attributes: { weight: 2 } };
const livesA = { e_type: "lives_in", directed: true, from_id: "a", from_type: "Person", to_id: "10", to_type: "City", attributes: {} };

const key = (e: { e_type: string; from_id: string; to_id: string }) => `${e.e_type}:${e.from_id}->${e.to_id}`;

describe("REST edges", () => {
  let t: TestServer;
  const results = async (path: string) => {
    const r = await t.get(path);
    expect(r.status, `${path}: ${r.text}`).to.equal(200);
    return r.json.results;
  };
  const keys = async (path: string) => (await results(path)).map(key).sort();
  const error = async (path: string, method = "GET") => {
    const r = await t.request(method, path);
    expect(r.status, path).to.equal(400);
    expect(r.json.error).to.equal(true);
    return r.json.message as string;
  };

  beforeEach(async () => {
    t = await startTestServer({ engine: socialEngine() });
    expect((await t.request("POST", "/graph/social", JSON.stringify(BODY))).json.results).to.deep.equal([{ accepted_vertices: 0, accepted_edges: 7 }]);
  });
  afterEach(() => t.close());

  it("lists all edges leaving a vertex as exact edge records", async () => {
    const r = await t.get("/graph/social/edges/Person/a");
    expect(r.json.version).to.deep.equal(V2);
    const got = r.json.results.slice().sort((x: never, y: never) => key(x).localeCompare(key(y)));
    expect(got).to.deep.equal([followsAB, followsAD, knowsAB, knowsAC, livesA, reverseAC]);
    expect(await keys("/graph/edges/Person/a/_")).to.deep.equal(got.map(key));
  });

  it("narrows by edge type, target type and target id", async () => {
    expect(await results("/graph/social/edges/Person/a/follows")).to.have.deep.members([followsAB, followsAD]);
    expect(await results("/graph/social/edges/Person/a/_/City")).to.deep.equal([livesA]);
    expect(await results("/graph/social/edges/Person/a/knows/Person/c")).to.deep.equal([knowsAC]);
    expect(await keys("/graph/social/edges/Person/a/_/Person/b")).to.deep.equal(["follows:a->b", "knows:a->b"]);
    expect(await results("/graph/social/edges/Person/a/lives_in/Person")).to.deep.equal([]);
  });

  it("reads undirected edges from either end and reverse edges from the target", async () => {
    expect(await keys("/graph/social/edges/Person/b")).to.deep.equal(["knows:b->a", "lives_in:b->10", "reverse_follows:b->a"]);
    expect(await results("/graph/social/edges/Person/b/reverse_follows")).to.deep.equal([
      { e_type: "reverse_follows", directed: true, from_id: "b", from_type: "Person", to_id: "a", to_type: "Person", attributes: { weight: 1.5 } },
    ]);
    expect(await keys("/graph/social/edges/Person/a/reverse_follows")).to.deep.equal(["reverse_follows:a->c"]);
  });

  it("not_wildcard=true takes _ as an edge type name", async () => {
    expect(await error("/graph/social/edges/Person/a/_?not_wildcard=true")).to.equal("Edge type '_' does not exist in graph 'social'.");
    expect(await keys("/graph/social/edges/Person/a/_?not_wildcard=false&filter=weight>1")).to.deep.equal(["follows:a->b", "reverse_follows:a->c"]);
  });

  it("count_only counts per edge type, zero counts included", async () => {
    expect(await results("/graph/social/edges/Person/a?count_only=true")).to.deep.equal([
      { e_type: "knows", count: 2 },
      { e_type: "follows", count: 2 },
      { e_type: "reverse_follows", count: 1 },
      { e_type: "lives_in", count: 1 },
    ]);
    expect(await results("/graph/social/edges/Person/d?count_only=true")).to.deep.equal([
      { e_type: "knows", count: 0 },
      { e_type: "follows", count: 0 },
      { e_type: "reverse_follows", count: 1 },
      { e_type: "lives_in", count: 0 },
    ]);
    expect(await results("/graph/social/edges/Person/a/follows?count_only=true&filter=weight<1")).to.deep.equal([{ e_type: "follows", count: 1 }]);
    expect(await results("/graph/social/edges/City/10?count_only=true")).to.deep.equal([]);
  });

  it("select, filter, sort and limit apply across edge types", async () => {
    expect((await results("/graph/social/edges/Person/a/knows?select=strength")).map((e: { attributes: unknown }) => e.attributes)).to.have.deep.members([{ strength: 0.5 }, { strength: 0.9 }]);
    expect((await results("/graph/social/edges/Person/a/knows/Person/b?select=-_"))[0].attributes).to.deep.equal({});
    expect((await results("/graph/social/edges/Person/a?select=weight")).map((e: { attributes: unknown }) => e.attributes)).to.have.deep.members([{ weight: 1.5 }, { weight: 0.25 }, { weight: 2 }, {}, {}, {}]);
    expect(await keys("/graph/social/edges/Person/a/knows?filter=strength>0.6")).to.deep.equal(["knows:a->c"]);
    expect(await keys(`/graph/social/edges/Person/a/knows?filter=${encodeURIComponent('since<"2019-01-01"')}`)).to.deep.equal(["knows:a->c"]);
    expect((await results("/graph/social/edges/Person/a/knows?sort=-strength")).map(key)).to.deep.equal(["knows:a->c", "knows:a->b"]);
    expect((await results("/graph/social/edges/Person/a/follows?sort=weight&limit=1")).map(key)).to.deep.equal(["follows:a->d"]);
    expect(await results("/graph/social/edges/Person/a?limit=2")).to.have.length(2);
    expect(await error("/graph/social/edges/Person/a/knows?select=weight")).to.equal("Invalid select parameter: 'weight' is not an attribute of edge type 'knows'.");
    expect(await error("/graph/social/edges/Person/a?filter=colour=1")).to.equal("Invalid filter parameter: 'colour' is not an attribute of edge type 'knows'.");
    expect(await error("/graph/social/edges/Person/a?limit=10241")).to.equal("Parameter limit must be at most 10240, got 10241.");
    expect(await error("/graph/social/edges/Person/a?select=strength,-since")).to.equal("Invalid select parameter 'strength,-since': inclusion and exclusion of attributes cannot be mixed.");
  });

  it("refuses unknown names, missing vertices and over-long path ids with 400", async () => {
    expect(await error("/graph/social/edges/Planet/a")).to.equal("Vertex type 'Planet' does not exist in graph 'social'.");
    expect(await error("/graph/social/edges/Person/zz")).to.equal("The input vertex id 'zz' is not a valid vertex id for vertex type = Person.");
    expect(await error("/graph/social/edges/Person/a/likes")).to.equal("Edge type 'likes' does not exist in graph 'social'.");
    expect(await error("/graph/social/edges/Person/a/knows/Planet")).to.equal("Vertex type 'Planet' does not exist in graph 'social'.");
    expect(await error("/graph/social/edges/Person/a/knows/Person/zz")).to.equal("The input vertex id 'zz' is not a valid vertex id for vertex type = Person.");
    expect(await error(`/graph/social/edges/Person/${"a".repeat(257)}`)).to.equal("Parameter source_vertex_id is 257 characters long, longer than the limit of 256.");
    expect(await error(`/graph/social/edges/Person/a/knows/Person/${"b".repeat(257)}`)).to.equal("Parameter target_vertex_id is 257 characters long, longer than the limit of 256.");
    const tooDeep = await t.get("/graph/social/edges/Person/a/knows/Person/b/extra");
    expect(tooDeep.status).to.equal(404);
    expect(tooDeep.json.code).to.equal("REST-1000");
  });

  it("DELETE removes the matching edges and reports per edge type", async () => {
    const r = await t.request("DELETE", "/graph/social/edges/Person/a/follows?filter=weight<1");
    expect(r.json).to.deep.equal({ version: V2, error: false, message: "", results: [{ e_type: "follows", deleted_edges: 1 }] });
    expect(await keys("/graph/social/edges/Person/a/follows")).to.deep.equal(["follows:a->b"]);
    expect(await keys("/graph/social/edges/Person/d/reverse_follows")).to.deep.equal([]);
    const knows = await t.request("DELETE", "/graph/social/edges/Person/b/knows/Person/a");
    expect(knows.json.results).to.deep.equal([{ e_type: "knows", deleted_edges: 1 }]);
    expect(await keys("/graph/social/edges/Person/a/knows")).to.deep.equal(["knows:a->c"]);
    const all = await t.request("DELETE", "/graph/social/edges/Person/a");
    expect(all.json.results).to.deep.equal([
      { e_type: "knows", deleted_edges: 1 },
      { e_type: "follows", deleted_edges: 1 },
      { e_type: "reverse_follows", deleted_edges: 1 },
      { e_type: "lives_in", deleted_edges: 1 },
    ]);
    expect(await results("/graph/social/edges/Person/a")).to.deep.equal([]);
    expect(await keys("/graph/social/edges/Person/b")).to.deep.equal(["lives_in:b->10"]);
    expect((await t.get("/graph/social/vertices/Person?count_only=true")).json.results).to.deep.equal([{ v_type: "Person", count: 4 }]);
  });

  it("DELETE with sort needs limit, and with both deletes the first ones", async () => {
    expect(await error("/graph/social/edges/Person/a/knows?sort=strength", "DELETE")).to.equal("The sort parameter of a delete must be used together with limit.");
    const r = await t.request("DELETE", "/graph/social/edges/Person/a/knows?sort=-strength&limit=1");
    expect(r.json.results).to.deep.equal([{ e_type: "knows", deleted_edges: 1 }]);
    expect(await keys("/graph/social/edges/Person/a/knows")).to.deep.equal(["knows:a->b"]);
  });
});
