// DDL written as GSQL, applied through the front end and the binder: the resulting schema
// is checked exactly, and failing statements leave it unchanged.
import { expect } from "chai";
import { brief, check } from "./helpers.js";

const SCALAR = (name: string) => ({ kind: "scalar", name });

describe("bind/ddl: GSQL DDL gives exactly the expected schema", () => {
  it("CREATE VERTEX: PRIMARY_ID, defaults converted to their types, options", () => {
    const { bound, diagnostics } = check(`
      CREATE VERTEX Person (PRIMARY_ID pid STRING, name STRING DEFAULT "anon", age INT DEFAULT -3, ok BOOL DEFAULT "False",
        w FLOAT DEFAULT 0.1, born DATETIME DEFAULT "2020-02-03 04:05:06", tags SET<STRING>, m MAP<INT, DOUBLE>)
        WITH primary_id_as_attribute="TRUE", STATS="none"`);
    expect(brief(diagnostics)).to.deep.equal([]);
    expect(bound.schema.vertexTypes).to.deep.equal([{
      key: "Person", name: "Person", primaryId: { name: "pid", type: "STRING" }, primaryIdAsAttribute: true, stats: "NONE",
      attributes: [
        { name: "name", type: SCALAR("STRING"), default: "anon" },
        { name: "age", type: SCALAR("INT"), default: -3n },
        { name: "ok", type: SCALAR("BOOL"), default: false },
        { name: "w", type: SCALAR("FLOAT"), default: Math.fround(0.1) },
        { name: "born", type: SCALAR("DATETIME"), default: Date.UTC(2020, 1, 3, 4, 5, 6) / 1000 },
        { name: "tags", type: { kind: "set", element: SCALAR("STRING") } },
        { name: "m", type: { kind: "map", key: SCALAR("INT"), value: SCALAR("DOUBLE") } },
      ],
    }]);
  });

  it("PRIMARY KEY forms: a single key attribute and a composite key", () => {
    const { bound, diagnostics } = check(`
      CREATE VERTEX City (name STRING PRIMARY KEY, population UINT)
      CREATE VERTEX Post (id INT, lang STRING, title STRING, PRIMARY KEY (id, lang))`);
    expect(brief(diagnostics)).to.deep.equal([]);
    const [city, post] = bound.schema.vertexTypes;
    expect(city).to.deep.include({ primaryId: { name: "name", type: "STRING" }, primaryIdAsAttribute: true });
    expect(city!.attributes.map((a) => a.name)).to.deep.equal(["population"]);
    expect(post).to.deep.include({ primaryId: { name: "id,lang", type: "STRING" }, primaryIdAsAttribute: false, compositeKey: ["id", "lang"] });
    expect(post!.attributes.map((a) => a.name)).to.deep.equal(["id", "lang", "title"]);
  });

  it("CREATE EDGE: A|B cross product, `*` over existing types only, discriminator, reverse edge", () => {
    const { bound, diagnostics } = check(`
      CREATE VERTEX A (PRIMARY_ID id STRING)
      CREATE VERTEX B (PRIMARY_ID id STRING)
      CREATE DIRECTED EDGE E (FROM A|B, TO B, DISCRIMINATOR (at DATETIME), w INT) WITH REVERSE_EDGE="E_rev"
      CREATE UNDIRECTED EDGE Any_link (FROM *, TO *)
      CREATE VERTEX C (PRIMARY_ID id STRING)`);
    expect(brief(diagnostics)).to.deep.equal([]);
    expect(bound.schema.edgeTypes).to.deep.equal([
      { key: "E", name: "E", directed: true, pairs: [{ from: "A", to: "B" }, { from: "B", to: "B" }], discriminator: ["at"],
        attributes: [{ name: "at", type: SCALAR("DATETIME") }, { name: "w", type: SCALAR("INT") }], reverseEdge: "E_rev" },
      { key: "E_rev", name: "E_rev", directed: true, pairs: [{ from: "B", to: "A" }, { from: "B", to: "B" }], discriminator: ["at"],
        attributes: [{ name: "at", type: SCALAR("DATETIME") }, { name: "w", type: SCALAR("INT") }], reverseOf: "E" },
      { key: "Any_link", name: "Any_link", directed: false, discriminator: [], attributes: [],
        pairs: [{ from: "A", to: "A" }, { from: "A", to: "B" }, { from: "B", to: "A" }, { from: "B", to: "B" }] },
    ]);
  });

  it("CREATE GRAPH: a listed edge brings its reverse; (*) takes every global type; () is empty", () => {
    const { bound, diagnostics } = check(`
      CREATE VERTEX A (PRIMARY_ID id STRING)
      CREATE DIRECTED EDGE E (FROM A, TO A) WITH REVERSE_EDGE="E_rev"
      CREATE GRAPH G1 (A, E)
      CREATE GRAPH G2 (*)
      CREATE GRAPH G3 ()`);
    expect(brief(diagnostics)).to.deep.equal([]);
    expect(bound.schema.graphs).to.deep.equal([
      { name: "G1", vertexTypes: ["A"], edgeTypes: ["E", "E_rev"], version: 0 },
      { name: "G2", vertexTypes: ["A"], edgeTypes: ["E", "E_rev"], version: 0 },
      { name: "G3", vertexTypes: [], edgeTypes: [], version: 0 },
    ]);
  });

  it("a local schema-change job adds local types and bumps only its graph's version", () => {
    const { bound, diagnostics } = check(`
      CREATE VERTEX A (PRIMARY_ID id STRING)
      CREATE GRAPH G1 (A)
      CREATE GRAPH G2 (A)
      CREATE SCHEMA_CHANGE JOB j FOR GRAPH G1 {
        ADD VERTEX L (PRIMARY_ID id UINT, note STRING DEFAULT "n");
        ADD DIRECTED EDGE LE (FROM A, TO L) WITH REVERSE_EDGE="LE_rev";
      }
      RUN SCHEMA_CHANGE JOB j`);
    expect(brief(diagnostics)).to.deep.equal([]);
    const s = bound.schema;
    expect(s.vertexTypes.map((v) => [v.key, v.graph])).to.deep.equal([["A", undefined], ["G1/L", "G1"]]);
    expect(s.edgeTypes.map((e) => [e.key, e.graph, e.pairs])).to.deep.equal([
      ["G1/LE", "G1", [{ from: "A", to: "L" }]], ["G1/LE_rev", "G1", [{ from: "L", to: "A" }]]]);
    expect(s.graphs.map((g) => [g.name, g.vertexTypes, g.edgeTypes, g.version])).to.deep.equal([
      ["G1", ["A", "L"], ["LE", "LE_rev"], 1], ["G2", ["A"], [], 0]]);
    expect(s.globalVersion).to.equal(0);
  });

  it("a global job alters a global type in every graph using it; errors keep the old schema", () => {
    const { bound, diagnostics } = check(`
      CREATE VERTEX A (PRIMARY_ID id STRING, x INT)
      CREATE VERTEX B (PRIMARY_ID id STRING)
      CREATE DIRECTED EDGE E (FROM A, TO A, w INT) WITH REVERSE_EDGE="E_rev"
      CREATE GRAPH G1 (A, E)
      CREATE GRAPH G2 (B)
      CREATE GLOBAL SCHEMA_CHANGE JOB ok {
        ALTER VERTEX A ADD ATTRIBUTE (y STRING DEFAULT "d");
        ALTER EDGE E DROP ATTRIBUTE (w);
        ADD VERTEX B TO GRAPH G1;
      }
      RUN GLOBAL SCHEMA_CHANGE JOB ok
      CREATE GLOBAL SCHEMA_CHANGE JOB bad {
        ALTER VERTEX A DROP ATTRIBUTE (x);
        ALTER VERTEX A ADD ATTRIBUTE (x2 INT DEFAULT "nope");
      }
      RUN GLOBAL SCHEMA_CHANGE JOB bad`);
    expect(brief(diagnostics)).to.deep.equal(["GSQL4004 15:54"]);
    const s = bound.schema;
    expect(s.vertexTypes[0]!.attributes.map((a) => a.name)).to.deep.equal(["x", "y"]);
    expect(s.edgeTypes.map((e) => e.attributes.length)).to.deep.equal([0, 0]);
    expect(s.graphs.map((g) => [g.name, g.vertexTypes, g.version])).to.deep.equal([["G1", ["A", "B"], 1], ["G2", ["B"], 0]]);
    expect(s.globalVersion).to.equal(1);
  });

  it("DROP: refuses a vertex type still used; DROP GRAPH removes local types; DROP ALL empties", () => {
    const first = check(`
      CREATE VERTEX A (PRIMARY_ID id STRING)
      CREATE DIRECTED EDGE E (FROM A, TO A)
      DROP VERTEX A
      CREATE GRAPH G (A, E)
      CREATE SCHEMA_CHANGE JOB j FOR GRAPH G { ADD VERTEX L (PRIMARY_ID id STRING); }
      RUN SCHEMA_CHANGE JOB j
      DROP GRAPH G`);
    expect(brief(first.diagnostics)).to.deep.equal(["GSQL4009 4:19"]);
    expect(first.bound.schema.vertexTypes.map((v) => v.key)).to.deep.equal(["A"]);
    expect(first.bound.schema.graphs).to.deep.equal([]);
    const second = check(`
      CREATE VERTEX A (PRIMARY_ID id STRING)
      CREATE GRAPH G (A)
      DROP ALL`);
    expect(second.bound.schema).to.deep.equal({ tuples: [], vertexTypes: [], edgeTypes: [], graphs: [], globalVersion: 0 });
  });

  it("TYPEDEF TUPLE with sized fields, and a tuple attribute", () => {
    const { bound, diagnostics } = check(`
      TYPEDEF TUPLE <f1 INT(1), f2 UINT, f3 STRING(10), f4 DOUBLE> My_Tuple
      CREATE VERTEX V (PRIMARY_ID id STRING, t My_Tuple, lt LIST<My_Tuple>)`);
    expect(brief(diagnostics)).to.deep.equal([]);
    expect(bound.schema.tuples).to.deep.equal([{ name: "My_Tuple", fields: [
      { name: "f1", type: { kind: "scalar", name: "INT", size: 1 }, size: 1 },
      { name: "f2", type: SCALAR("UINT") },
      { name: "f3", type: { kind: "scalar", name: "STRING", size: 10 }, size: 10 },
      { name: "f4", type: SCALAR("DOUBLE") },
    ] }]);
    expect(bound.schema.vertexTypes[0]!.attributes.map((a) => a.type)).to.deep.equal([
      { kind: "tuple", name: "My_Tuple" }, { kind: "list", element: { kind: "tuple", name: "My_Tuple" } }]);
  });
});
