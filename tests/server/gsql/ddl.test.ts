// Schema DDL through the GSQL endpoints: the exact success and failure lines, `ls` in global
// and graph scope, scope rules (CREATE GRAPH switches, USE GRAPH/GLOBAL, the no-graph error),
// DROP GRAPH [CASCADE], DROP ALL, CLEAR GRAPH STORE, and the schema JSON clients read.
import { expect } from "chai";
import { startGsqlServer, SOCIAL_SCHEMA, type GsqlTestServer } from "./gsql-helpers.js";

describe("GSQL server: schema DDL", () => {
  let s: GsqlTestServer;
  beforeEach(async () => {
    s = await startGsqlServer();
  });
  afterEach(() => s.close());

  it("creates types and a graph with the shell's lines; CREATE GRAPH switches to the graph", async () => {
    const answer = await s.file(SOCIAL_SCHEMA);
    expect(answer.lines).to.deep.equal([
      "Successfully created vertex types: [Person].",
      "Successfully created vertex types: [City].",
      "Successfully created edge types: [Friendship].",
      "Successfully created edge types: [Lives].",
      "Successfully created reverse edge types: [Lives_rev].",
      "The graph Social is created.",
    ]);
    expect(answer.returnCode).to.equal(0);
    expect(JSON.parse(answer.cookie!)).to.deep.equal({ graph: "Social" });
  });

  it("ls in global scope lists global types, graphs and the API version", async () => {
    await s.file(SOCIAL_SCHEMA + "TYPEDEF TUPLE <a INT(4), b STRING(10)> Pair\n");
    const answer = await s.file("ls");
    expect(answer.text).to.equal(
      [
        "---- Global vertices, edges, and all graphs",
        "Vertex Types:",
        '  - VERTEX Person(PRIMARY_ID name STRING, name STRING, age INT) WITH STATS="OUTDEGREE_BY_EDGETYPE"',
        '  - VERTEX City(PRIMARY_ID id STRING) WITH STATS="OUTDEGREE_BY_EDGETYPE", PRIMARY_ID_AS_ATTRIBUTE="true"',
        "Edge Types:",
        "  - UNDIRECTED EDGE Friendship(FROM Person, TO Person, since DATETIME)",
        '  - DIRECTED EDGE Lives(FROM Person, TO City) WITH REVERSE_EDGE="Lives_rev"',
        '  - DIRECTED EDGE Lives_rev(FROM City, TO Person) WITH REVERSE_EDGE="Lives"',
        "",
        "Graphs:",
        "  - Graph Social(Person:v, City:v, Friendship:e, Lives:e, Lives_rev:e)",
        "Jobs:",
        "",
        "Tuples:",
        "  - TYPEDEF TUPLE <a INT(4), b STRING(10)> Pair",
        "",
        "",
        "JSON API version: v2",
        "Syntax version: v1",
      ].join("\n"),
    );
  });

  it("ls in a graph lists its types, jobs and queries with their states", async () => {
    await s.file(SOCIAL_SCHEMA);
    await s.file("CREATE QUERY hello(VERTEX<Person> p, INT k = 3) FOR GRAPH Social { PRINT p; }");
    await s.file("SET exit_on_error = false\nCREATE QUERY broken() FOR GRAPH Social { PRINT nothing_here; }");
    const answer = await s.command("ls", { graph: "Social" });
    expect(answer.text).to.equal(
      [
        "---- Graph Social",
        "Vertex Types:",
        '  - VERTEX Person(PRIMARY_ID name STRING, name STRING, age INT) WITH STATS="OUTDEGREE_BY_EDGETYPE"',
        '  - VERTEX City(PRIMARY_ID id STRING) WITH STATS="OUTDEGREE_BY_EDGETYPE", PRIMARY_ID_AS_ATTRIBUTE="true"',
        "Edge Types:",
        "  - UNDIRECTED EDGE Friendship(FROM Person, TO Person, since DATETIME)",
        '  - DIRECTED EDGE Lives(FROM Person, TO City) WITH REVERSE_EDGE="Lives_rev"',
        '  - DIRECTED EDGE Lives_rev(FROM City, TO Person) WITH REVERSE_EDGE="Lives"',
        "",
        "Graphs:",
        "  - Graph Social(Person:v, City:v, Friendship:e, Lives:e, Lives_rev:e)",
        "Jobs:",
        "Queries:",
        "  - hello(vertex<Person> p, int k = 3)",
        "  - broken() (draft)",
        "",
        "",
      ].join("\n"),
    );
  });

  it("failures print the reason and the failure line, and stop the file", async () => {
    await s.file(SOCIAL_SCHEMA);
    const dup = await s.file("CREATE VERTEX Person (PRIMARY_ID id STRING)\nCREATE VERTEX NotReached (PRIMARY_ID id STRING)");
    expect(dup.lines).to.deep.equal([
      "Semantic Check Fails: The vertex name Person is used by another object!",
      "Failed to create vertex types: [Person].",
    ]);
    expect(dup.returnCode).to.equal(212);
    const badEdge = await s.file("CREATE DIRECTED EDGE E (FROM Person, TO Nowhere)");
    expect(badEdge.lines[badEdge.lines.length - 1]).to.equal("Failed to create edge types: [E].");
    expect(badEdge.lines[0]).to.match(/^Semantic Check Fails: /);
    const badGraph = await s.file("CREATE GRAPH G2 (Person, Unknown)");
    expect(badGraph.lines[badGraph.lines.length - 1]).to.equal("The graph G2 could not be created!");
    const ls = await s.file("ls");
    expect(ls.text).not.to.include("NotReached");
  });

  it("a syntax error stops the file after the statements before it ran", async () => {
    const answer = await s.file("CREATE VERTEX A (PRIMARY_ID id STRING)\nCREATE VERTEX B (PRIMARY_ID id\nCREATE VERTEX C (PRIMARY_ID id STRING)");
    expect(answer.lines[0]).to.equal("Successfully created vertex types: [A].");
    expect(answer.lines[1]).to.match(/^Encountered ".*" at line 3, column 1\.$/);
    expect(answer.returnCode).to.equal(211);
    const ls = await s.file("SHOW VERTEX *");
    expect(ls.lines).to.deep.equal(['  - VERTEX A(PRIMARY_ID id STRING) WITH STATS="OUTDEGREE_BY_EDGETYPE"']);
  });

  it("graph commands without a graph give the no-graph error and return code 213", async () => {
    await s.file(SOCIAL_SCHEMA);
    const answer = await s.file("USE GLOBAL\nINSTALL QUERY *", { graph: "Social" });
    expect(answer.lines).to.deep.equal([
      "Currently not using any graphs! Please use 'USE GRAPH' command to switch to a graph. Create a graph if no graph exists.",
    ]);
    expect(answer.returnCode).to.equal(213);
    expect(JSON.parse(answer.cookie!)).to.deep.equal({});
  });

  it("USE GRAPH of an unknown graph fails; USE GRAPH of a known one persists through the cookie", async () => {
    await s.file(SOCIAL_SCHEMA);
    const bad = await s.command("USE GRAPH Other");
    expect(bad.lines).to.deep.equal(["Graph 'Other' does not exist."]);
    expect(bad.returnCode).to.equal(212);
    const good = await s.command("USE GRAPH Social");
    const next = await s.command("SHOW GRAPH *", good.cookie);
    expect(next.lines).to.deep.equal(["  - Graph Social(Person:v, City:v, Friendship:e, Lives:e, Lives_rev:e)"]);
  });

  it("DROP GRAPH keeps a graph with queries unless CASCADE; CASCADE drops them", async () => {
    await s.file(SOCIAL_SCHEMA + "CREATE QUERY q() FOR GRAPH Social { PRINT 1; }\n");
    const refused = await s.file("DROP GRAPH Social");
    expect(refused.lines).to.deep.equal([
      "Semantic Check Fails: The graph Social still has queries or jobs; drop them first or use DROP GRAPH Social CASCADE.",
      "The graph Social could not be dropped!",
    ]);
    const dropped = await s.file("DROP GRAPH Social CASCADE", { graph: "Social" });
    expect(dropped.lines).to.deep.equal(["The graph Social is dropped."]);
    expect(JSON.parse(dropped.cookie!)).to.deep.equal({});
    const again = await s.file("CREATE GRAPH Social (Person, Friendship)\nls");
    expect(again.text).to.include("Queries:\n\n");
    expect(again.text).not.to.include("  - q()");
  });

  it("DROP VERTEX refuses a type an edge uses; DROP EDGE then DROP VERTEX succeed", async () => {
    await s.file("CREATE VERTEX A (PRIMARY_ID id STRING)\nCREATE DIRECTED EDGE E (FROM A, TO A)");
    const refused = await s.file("DROP VERTEX A");
    expect(refused.lines[refused.lines.length - 1]).to.equal("Failed to drop vertex types: [A].");
    expect((await s.file("DROP EDGE E")).lines).to.deep.equal(["Successfully dropped edge types: [E]."]);
    expect((await s.file("DROP VERTEX A")).lines).to.deep.equal(["Successfully dropped vertex types: [A]."]);
  });

  it("DROP ALL removes everything and prints the shell's block", async () => {
    await s.file(SOCIAL_SCHEMA + "CREATE QUERY q() FOR GRAPH Social { PRINT 1; }\n");
    const answer = await s.file("DROP ALL");
    expect(answer.lines).to.deep.equal([
      "Dropping all, about 1 minute ...",
      "Abort all active loading jobs",
      "[ABORT_SUCCESS] No active Loading Job to abort.",
      "Resetting GPE...",
      "Successfully reset GPE and GSE",
      "Clearing graph store...",
      "Successfully cleared graph store",
      "Everything is dropped.",
    ]);
    const ls = await s.file("ls");
    expect(ls.lines.slice(0, 6)).to.deep.equal(["---- Global vertices, edges, and all graphs", "Vertex Types:", "Edge Types:", "", "Graphs:", "Jobs:"]);
    expect(s.server.gsql!.catalog.state.queries).to.deep.equal([]);
  });

  it("CLEAR GRAPH STORE -HARD clears without a dialog; -hard in lower case is refused", async () => {
    await s.file(SOCIAL_SCHEMA);
    const lower = await s.file("CLEAR GRAPH STORE -hard");
    expect(lower.lines).to.deep.equal(["Unknown option -hard for CLEAR GRAPH STORE; the only option is -HARD (in capitals)."]);
    const hard = await s.file("CLEAR GRAPH STORE -HARD");
    expect(hard.lines).to.include("Successfully cleared graph store");
    expect(hard.lines).to.include("Successfully started GPE GSE RESTPP");
    expect(hard.returnCode).to.equal(0);
  });

  it("GET /gsqlserver/gsql/schema answers the shape clients read", async () => {
    await s.file(SOCIAL_SCHEMA);
    const res = await s.get("/gsqlserver/gsql/schema?graph=Social");
    expect(res.status).to.equal(200);
    expect(res.json).to.deep.equal({
      error: false,
      message: "",
      results: {
        GraphName: "Social",
        Version: 0,
        VertexTypes: [
          {
            Name: "Person",
            PrimaryId: { AttributeName: "name", AttributeType: { Name: "STRING" }, PrimaryIdAsAttribute: false },
            Attributes: [
              { AttributeName: "name", AttributeType: { Name: "STRING" } },
              { AttributeName: "age", AttributeType: { Name: "INT" } },
            ],
            Config: { STATS: "OUTDEGREE_BY_EDGETYPE", PRIMARY_ID_AS_ATTRIBUTE: false },
            IsLocal: false,
          },
          {
            Name: "City",
            PrimaryId: { AttributeName: "id", AttributeType: { Name: "STRING" }, PrimaryIdAsAttribute: true },
            Attributes: [],
            Config: { STATS: "OUTDEGREE_BY_EDGETYPE", PRIMARY_ID_AS_ATTRIBUTE: true },
            IsLocal: false,
          },
        ],
        EdgeTypes: [
          {
            Name: "Friendship", FromVertexTypeName: "Person", ToVertexTypeName: "Person", IsDirected: false,
            EdgePairs: [{ From: "Person", To: "Person" }], Attributes: [{ AttributeName: "since", AttributeType: { Name: "DATETIME" } }],
            DiscriminatorCount: 0, Config: {}, IsLocal: false,
          },
          {
            Name: "Lives", FromVertexTypeName: "Person", ToVertexTypeName: "City", IsDirected: true,
            EdgePairs: [{ From: "Person", To: "City" }], Attributes: [], DiscriminatorCount: 0, Config: { REVERSE_EDGE: "Lives_rev" }, IsLocal: false,
          },
          {
            Name: "Lives_rev", FromVertexTypeName: "City", ToVertexTypeName: "Person", IsDirected: true,
            EdgePairs: [{ From: "City", To: "Person" }], Attributes: [], DiscriminatorCount: 0, Config: { REVERSE_EDGE: "Lives" }, IsLocal: false,
          },
        ],
      },
    });
    const missing = await s.get("/gsqlserver/gsql/schema?graph=Nope");
    expect(missing.status).to.equal(400);
    expect(missing.json).to.deep.equal({ error: true, message: "Graph 'Nope' does not exist.", results: [] });
    const noParam = await s.get("/gsqlserver/gsql/schema");
    expect(noParam.json.message).to.equal("The graph parameter is required, as in ?graph=<graph_name>.");
  });

  it("GET /gsqlserver/gsql/udtlist lists tuple types with their fields", async () => {
    await s.file(SOCIAL_SCHEMA + "TYPEDEF TUPLE <a INT(4), b STRING(10), c DOUBLE> Triple\n");
    const res = await s.get("/gsqlserver/gsql/udtlist?graph=Social");
    expect(res.json.results).to.deep.equal([
      { name: "Triple", fields: [{ fieldName: "a", fieldType: "INT", length: 4 }, { fieldName: "b", fieldType: "STRING", length: 10 }, { fieldName: "c", fieldType: "DOUBLE" }] },
    ]);
  });
});
