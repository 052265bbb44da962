// A query's writes are all or nothing: when a later write of a run would be refused by the
// store, the graph is left exactly as it was (read back over REST) and nothing is logged; a
// write to an edge that an earlier DELETE of the same run removed is skipped rather than
// failing the run or bringing the edge back; a run with many kinds of writes applies them all
// as one logged command.
import { expect } from "chai";
import type { EngineCommand } from "../../../server/engine/commands.js";
import { startGsqlServer, type GsqlTestServer } from "../gsql/gsql-helpers.js";

const SETUP = `
CREATE VERTEX Person (PRIMARY_ID id STRING, age INT)
CREATE UNDIRECTED EDGE knows (FROM Person, TO Person, weight INT)
CREATE GRAPH G (Person, knows)
USE GRAPH G
CREATE QUERY remove_then_insert(VERTEX<Person> p, STRING newid) FOR GRAPH G {
  S = {p};
  S = SELECT x FROM S:x POST-ACCUM x.age = x.age + 100;
  DELETE x FROM S:x;
  INSERT INTO Person VALUES (newid, 1);
  INSERT INTO knows VALUES ("ann" Person, newid Person, 5);
  PRINT S.size() AS n;
}
CREATE QUERY unfriend_then_bump(VERTEX<Person> p) FOR GRAPH G {
  S = {p};
  T = SELECT t FROM S:s -(knows:e)- Person:t ACCUM DELETE(e), e.weight += 1;
  PRINT T.size() AS n;
}
CREATE QUERY bump(VERTEX<Person> p) FOR GRAPH G {
  S = {p};
  T = SELECT t FROM S:s -(knows:e)- Person:t ACCUM e.weight += 1 POST-ACCUM t.age = t.age + 1;
  PRINT T.size() AS n;
}
INSTALL QUERY ALL
`;

describe("REST /query: a query's writes are all or nothing", function () {
  this.timeout(60_000);
  let s: GsqlTestServer;
  let logged: EngineCommand[];

  before(async () => {
    s = await startGsqlServer();
    const setup = await s.file(SETUP);
    expect(setup.returnCode, setup.text).to.equal(0);
  });
  after(() => s.close());
  beforeEach(async () => {
    const engine = s.server.services.engine;
    engine.commandLog = undefined;
    expect((await rest("DELETE", "/graph/G/delete_by_type/vertices/Person")).status).to.equal(200);
    const r = await rest("POST", "/graph/G", {
      vertices: { Person: { ann: { age: { value: 30 } }, bob: { age: { value: 40 } }, cy: { age: { value: 50 } } } },
      edges: { Person: { ann: { knows: { Person: { bob: { weight: { value: 7 } }, cy: { weight: { value: 9 } } } } } } },
    });
    expect(r.status).to.equal(200);
    logged = [];
    engine.commandLog = { prepare: (command) => () => void logged.push(command) };
  });
  afterEach(() => {
    s.server.services.engine.commandLog = undefined;
  });

  async function rest(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
    const res = await fetch(s.restUrl + path, { method, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, json: await res.json() };
  }

  /** Every vertex with its attributes and every edge (each undirected edge from both ends), sorted. */
  async function graph(): Promise<{ vertices: string[]; edges: string[] }> {
    const people = (await rest("GET", "/graph/G/vertices/Person")).json.results as { v_id: string; attributes: object }[];
    const edges: string[] = [];
    for (const p of people) {
      const r = (await rest("GET", `/graph/G/edges/Person/${p.v_id}`)).json.results as { from_id: string; to_id: string; attributes: object }[];
      for (const e of r) edges.push(`${e.from_id}-${e.to_id} ${JSON.stringify(e.attributes)}`);
    }
    return { vertices: people.map((p) => `${p.v_id} ${JSON.stringify(p.attributes)}`).sort(), edges: edges.sort() };
  }

  const BEFORE = {
    vertices: ['ann {"age":30}', 'bob {"age":40}', 'cy {"age":50}'],
    edges: ['ann-bob {"weight":7}', 'ann-cy {"weight":9}', 'bob-ann {"weight":7}', 'cy-ann {"weight":9}'],
  };

  it("a run whose last write the store refuses (an empty STRING id) changes nothing and logs nothing", async () => {
    expect(await graph()).to.deep.equal(BEFORE);
    // Steps: bob's age, delete bob, then an insert of Person "" — refused (INVALID_ID).
    const r = await rest("GET", "/query/G/remove_then_insert?p=bob&newid=");
    expect(r.json).to.deep.include({ error: true, message: "Runtime Error: the query's data modification failed: vertices[0].id: '' is not a valid id for vertex type Person", results: [] });
    expect(await graph()).to.deep.equal(BEFORE);
    expect(logged).to.deep.equal([]);
  });

  it("the same run with a valid id applies every write, as one logged command", async () => {
    const r = await rest("GET", "/query/G/remove_then_insert?p=bob&newid=dee");
    expect(r.json.error, JSON.stringify(r.json)).to.equal(false);
    expect(r.json.results).to.deep.equal([{ n: 1 }]);
    expect(await graph()).to.deep.equal({
      vertices: ['ann {"age":30}', 'cy {"age":50}', 'dee {"age":1}'],
      edges: ['ann-cy {"weight":9}', 'ann-dee {"weight":5}', 'cy-ann {"weight":9}', 'dee-ann {"weight":5}'],
    });
    expect(logged.map((c) => [c.kind, c.kind === "query-writes" ? c.steps.map((step) => step.kind) : []])).to.deep.equal([["query-writes", ["upsert", "delete-vertex", "upsert"]]]);
  });

  it("a write to an edge the same run deleted is skipped: the edge stays deleted and the run succeeds", async () => {
    const r = await rest("GET", "/query/G/unfriend_then_bump?p=ann");
    expect(r.json.error, JSON.stringify(r.json)).to.equal(false);
    expect(r.json.results).to.deep.equal([{ n: 2 }]);
    expect(await graph()).to.deep.equal({ vertices: BEFORE.vertices, edges: [] });
    expect(logged).to.have.length(1);
  });

  it("edge and vertex attribute writes of one run all apply", async () => {
    const r = await rest("GET", "/query/G/bump?p=ann");
    expect(r.json.results).to.deep.equal([{ n: 2 }]);
    expect(await graph()).to.deep.equal({
      vertices: ['ann {"age":30}', 'bob {"age":41}', 'cy {"age":51}'],
      edges: ['ann-bob {"weight":8}', 'ann-cy {"weight":10}', 'bob-ann {"weight":8}', 'cy-ann {"weight":10}'],
    });
  });
});
