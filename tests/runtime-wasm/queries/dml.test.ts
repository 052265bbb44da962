// Data modification in queries (gsql-semantics §5): writes are invisible to the query that
// makes them and visible to later queries; inserts upsert; deletes take edges along.
import { expect } from "chai";
import { closeSharedRuntime, compileGsql, createDatabase, runGsql } from "./gsql-harness.js";
import { SAMPLE_DATA, SAMPLE_DDL } from "./sample-graph.js";

describe("query data modification", function () {
  this.timeout(30000);
  after(closeSharedRuntime);

  async function ok(db: ReturnType<typeof createDatabase>, text: string, args: unknown[] = []) {
    const r = await runGsql(db, text, args as never[]);
    if (!r.ok) throw new Error(`${r.kind}: ${r.message}`);
    return r.json;
  }

  it("12. graph writes are invisible until the query ends, then visible", async () => {
    const db = createDatabase(SAMPLE_DDL, SAMPLE_DATA);
    const first = await ok(db, 'CREATE QUERY w() FOR GRAPH G SYNTAX V1 { S = {P.*}; S = SELECT s FROM S:s WHERE s.name == "Ann" POST-ACCUM s.age = 99; PRINT S[S.age]; }');
    expect(first).to.deep.equal([{ S: [{ v_id: "a", v_type: "P", attributes: { "S.age": 30 } }] }]);
    const later = await ok(db, 'CREATE QUERY r() FOR GRAPH G SYNTAX V1 { S = {P.*}; S = SELECT s FROM S:s WHERE s.name == "Ann"; PRINT S[S.age]; }');
    expect(later).to.deep.equal([{ S: [{ v_id: "a", v_type: "P", attributes: { "S.age": 99 } }] }]);
  });

  it("accumulates into attributes and writes edge attributes in ACCUM", async () => {
    const db = createDatabase(SAMPLE_DDL, SAMPLE_DATA);
    await ok(db, "CREATE QUERY w() FOR GRAPH G SYNTAX V1 { S = {P.*}; S = SELECT t FROM S:s -(Knows:e)-> P:t ACCUM e.w = e.w * 10 POST-ACCUM t.age += 1; }");
    expect(db.store.read((s) => [...s.vertices("P")].map((v) => [s.idText(v), s.attribute(v, "age")]))).to.deep.equal([
      ["a", 30n],
      ["b", 26n],
      ["c", 36n],
    ]);
    const weights = db.store.read((s) => [...s.edges(s.lookup("P", "a")!, { type: "Knows" })].map((e) => s.edgeAttribute(e, "w")));
    expect(weights).to.deep.equal([10n, 20n]);
  });

  it("writes attributes of edges held in variables: FOREACH over a SetAccum<EDGE> of two edge types, = and +=", async () => {
    const ddl = `
      CREATE VERTEX P (PRIMARY_ID pid STRING, name STRING)
      CREATE DIRECTED EDGE Knows (FROM P, TO P, w INT)
      CREATE UNDIRECTED EDGE Near (FROM P, TO P, w INT)
      CREATE DIRECTED EDGE Plain (FROM P, TO P)
      CREATE GRAPH G2 (P, Knows, Near, Plain)`;
    const edge = (type: string, from: string, to: string, w?: number) => ({ type, from: { type: "P", id: from }, to: { type: "P", id: to }, attributes: w === undefined ? [] : [{ name: "w", value: w }] });
    const db = createDatabase(ddl, {
      vertices: ["a", "b", "c"].map((id) => ({ type: "P", id, attributes: [{ name: "name", value: id.toUpperCase() }] })),
      edges: [edge("Knows", "a", "b", 1), edge("Knows", "a", "c", 2), edge("Knows", "b", "c", 3), edge("Near", "a", "b", 7), edge("Plain", "a", "c")],
    });
    const query = (name: string, write: string) => `CREATE QUERY ${name}(INT by) FOR GRAPH G2 SYNTAX V1 {
      SetAccum<EDGE> @@es;
      S = {P.*};
      K = SELECT t FROM S:s -(Knows:e)-> P:t WHERE s.name == "A" ACCUM @@es += e;
      N = SELECT t FROM S:s -(Near:e)- P:t WHERE s.name == "A" ACCUM @@es += e;
      FOREACH e IN @@es DO
        ${write};
      END;
      PRINT @@es.size() AS edges;
    }`;
    const weights = () =>
      db.store.read((s) => {
        const list = (from: string, type: string) => [...s.edges(s.lookup("P", from)!, { type })].map((e) => `${s.idText(e.to)}:${s.edgeAttribute(e, "w")}`);
        return { knowsA: list("a", "Knows"), knowsB: list("b", "Knows"), nearA: list("a", "Near"), nearB: list("b", "Near") };
      });
    expect(await ok(db, query("assign", "e.w = e.w + by"), [100n])).to.deep.equal([{ edges: 3 }]);
    // Ann's two Knows edges and the Near edge (seen from both ends) are written; Bob's Knows edge is not.
    expect(weights()).to.deep.equal({ knowsA: ["b:101", "c:102"], knowsB: ["c:3"], nearA: ["b:107"], nearB: ["a:107"] });
    expect(await ok(db, query("accumulate", "e.w += by"), [5n])).to.deep.equal([{ edges: 3 }]);
    expect(weights()).to.deep.equal({ knowsA: ["b:106", "c:107"], knowsB: ["c:3"], nearA: ["b:112"], nearB: ["a:112"] });
  });

  it("setAttr() by a constant name writes as an assignment does, converting nothing", async () => {
    const db = createDatabase(SAMPLE_DDL, SAMPLE_DATA);
    const first = await ok(
      db,
      `CREATE QUERY w() FOR GRAPH G SYNTAX V1 {
         S = {P.*};
         S = SELECT s FROM S:s -(Knows:e)-> P:t WHERE s.name == "Ann"
             ACCUM e.setAttr("w", e.w + 40), e.setAttr("nope", 1)
             POST-ACCUM s.setAttr("age", s.age * 2), s.setAttr("name", "Ann-" + s.name);
         PRINT S[S.age, S.name];
       }`,
    );
    // invisible to the query that writes
    expect(first).to.deep.equal([{ S: [{ v_id: "a", v_type: "P", attributes: { "S.age": 30, "S.name": "Ann" } }] }]);
    expect(db.store.read((s) => [...s.vertices("P")].map((v) => [s.attribute(v, "name"), s.attribute(v, "age")]))).to.deep.equal([
      ["Ann-Ann", 60n],
      ["Bob", 25n],
      ["Cid", 35n],
    ]);
    const weights = db.store.read((s) => [...s.edges(s.lookup("P", "a")!, { type: "Knows" })].map((e) => s.edgeAttribute(e, "w")));
    expect(weights).to.deep.equal([41n, 42n]);
    // a value of another type than the stored one is not converted: the query does not compile
    let error = "";
    try {
      await compileGsql(db, 'CREATE QUERY bad() FOR GRAPH G SYNTAX V1 { S = {P.*}; S = SELECT s FROM S:s POST-ACCUM s.setAttr("age", 1.5); }');
    } catch (e) {
      error = (e as Error).message;
    }
    expect(error).to.equal("not supported by this version of the compiler: setAttr() of the INT attribute age with a DOUBLE value");
  });

  it("setAttr() by a name given at run time writes the attribute of that name whose type the value has", async () => {
    const db = createDatabase(SAMPLE_DDL, SAMPLE_DATA);
    const text = `CREATE QUERY w(STRING vattr, STRING eattr) FOR GRAPH G SYNTAX V1 {
         S = {P.*};
         S = SELECT s FROM S:s -(Knows:e)-> P:t WHERE s.name == "Ann"
             ACCUM e.setAttr(eattr, e.w + 40)
             POST-ACCUM s.setAttr(vattr, s.age * 2), s.setAttr(vattr, "Ann-" + s.name);
       }`;
    const state = () => ({
      people: db.store.read((s) => [...s.vertices("P")].map((v) => [s.attribute(v, "name"), s.attribute(v, "age")])),
      weights: db.store.read((s) => [...s.edges(s.lookup("P", "a")!, { type: "Knows" })].map((e) => s.edgeAttribute(e, "w"))),
    });
    const before = state();
    // names no attribute has (case matters, as attribute names do): nothing is written
    await ok(db, text, ["Age", "nope"]);
    expect(state()).to.deep.equal(before);
    // "age" takes the INT value only, "w" the INT edge value
    await ok(db, text, ["age", "w"]);
    expect(state()).to.deep.equal({ people: [["Ann", 60n], ["Bob", 25n], ["Cid", 35n]], weights: [41n, 42n] });
    // "name" takes the STRING value only
    await ok(db, text, ["name", "none"]);
    expect(state().people).to.deep.equal([["Ann-Ann", 60n], ["Bob", 25n], ["Cid", 35n]]);
  });

  it("INSERT INTO vertices and edges; DELETE a vertex takes its edges", async () => {
    const db = createDatabase(SAMPLE_DDL, SAMPLE_DATA);
    await ok(
      db,
      `CREATE QUERY ins(STRING who) FOR GRAPH G SYNTAX V1 {
         INSERT INTO P VALUES (who, "Dee", 41);
         INSERT INTO Knows VALUES ("a" P, who P, 7);
         S = {P.*};
         PRINT S.size() AS n;
       }`,
      ["d"],
    );
    const after = await ok(db, 'CREATE QUERY r() FOR GRAPH G SYNTAX V1 { S = {P.*}; T = SELECT t FROM S:s -(Knows:e)-> P:t WHERE s.name == "Ann"; PRINT S.size() AS n, T[T.name]; }');
    expect((after as { n: number }[])[0].n).to.equal(4);
    expect(((after as { T: { v_id: string }[] }[])[0].T.map((v) => v.v_id)).sort()).to.deep.equal(["b", "c", "d"]);
    await ok(db, 'CREATE QUERY del() FOR GRAPH G SYNTAX V1 { S = {P.*}; S = SELECT s FROM S:s WHERE s.name == "Bob" POST-ACCUM DELETE(s); }');
    expect(db.store.read((s) => s.vertexCount("P"))).to.equal(3);
    expect(db.store.read((s) => s.storedEdgeCount("Friend"))).to.equal(0);
    expect(db.store.read((s) => s.storedEdgeCount("Knows"))).to.equal(2);
  });

  it("DELETE ... FROM removes matched edges; an uncaught exception commits nothing", async () => {
    const db = createDatabase(SAMPLE_DDL, SAMPLE_DATA);
    await ok(db, "CREATE QUERY d() FOR GRAPH G SYNTAX V1 { S = {P.*}; DELETE e FROM S:s -(Knows:e)-> P:t WHERE e.w > 1; }");
    expect(db.store.read((s) => s.storedEdgeCount("Knows"))).to.equal(1);
    const r = await runGsql(db, 'CREATE QUERY x() FOR GRAPH G SYNTAX V1 { EXCEPTION boom (40002); S = {P.*}; S = SELECT s FROM S:s POST-ACCUM s.age = 0; RAISE boom ("no"); }');
    expect(r).to.deep.include({ ok: false, kind: "exception", code: 40002, message: "no" });
    expect(db.store.read((s) => [...s.vertices("P")].map((v) => s.attribute(v, "age")))).to.deep.equal([30n, 25n, 35n]);
  });
});
