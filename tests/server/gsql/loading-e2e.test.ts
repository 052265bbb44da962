// Loading end to end, as a user does it: jobs written in GSQL and sent to the GSQL server,
// files loaded with RUN LOADING JOB and bodies with POST /ddl, every value read back over
// REST. CSV with and without a header, quoted fields, custom separators and end-of-line
// markers (multi-character and CR LF), JSON lines, WHERE filters, token functions, edges
// whose endpoints are created on the fly, rejected rows with exact statistics, every
// POST /ddl parameter, and malformed requests that load nothing.
import { expect } from "chai";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startGsqlServer, type GsqlTestServer } from "./gsql-helpers.js";

const G = { graph: "L" };
const FORM = { "Content-Type": "application/x-www-form-urlencoded" };

const SCHEMA = `CREATE VERTEX Person (PRIMARY_ID name STRING, age INT, active BOOL, label STRING) WITH primary_id_as_attribute="true"
CREATE VERTEX City (PRIMARY_ID id STRING, note STRING)
CREATE DIRECTED EDGE LivesIn (FROM Person, TO City, since INT)
CREATE GRAPH L (Person, City, LivesIn)
CREATE LOADING JOB people FOR GRAPH L {
  DEFINE FILENAME f;
  LOAD f TO VERTEX Person VALUES ($"name", $"age", gsql_to_bool($"active"), gsql_concat($"name", "/", $"age"))
    WHERE to_int($"age") >= 18 USING HEADER="true", SEPARATOR=",", QUOTE="double";
}
CREATE LOADING JOB lives FOR GRAPH L {
  DEFINE FILENAME f;
  LOAD f TO EDGE LivesIn VALUES ($0, $1, $2) USING SEPARATOR="|", EOL="\\r\\n";
}
CREATE LOADING JOB cities FOR GRAPH L {
  DEFINE FILENAME f;
  LOAD f TO VERTEX City VALUES ($"id", $"info":"note") USING JSON_FILE="true";
}
`;

describe("loading end to end: GSQL jobs, files and POST /ddl, read back over REST", function () {
  this.timeout(60_000);
  let s: GsqlTestServer;
  let dir: string;

  before(async () => {
    s = await startGsqlServer();
    dir = mkdtempSync(join(tmpdir(), "gsql-e2e-"));
    const setup = await s.file(SCHEMA);
    expect(setup.returnCode, setup.text).to.equal(0);
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const rest = async (method: string, path: string, body?: string, headers: Record<string, string> = {}) => {
    const res = await fetch(s.restUrl + path, { method, body, headers });
    const text = await res.text();
    return { status: res.status, json: JSON.parse(text) as any, text };
  };
  const vertex = async (type: string, id: string) => {
    const r = await rest("GET", `/graph/L/vertices/${type}/${encodeURIComponent(id)}`);
    return r.status === 200 ? (r.json.results[0].attributes as Record<string, unknown>) : undefined;
  };
  const count = async (fn: "stat_vertex_number" | "stat_edge_number", type: string) => {
    const r = await rest("POST", "/builtins/L", JSON.stringify({ function: fn, type }));
    expect(r.status, r.text).to.equal(200);
    return r.json.results[0].count as number;
  };
  /** RUN LOADING JOB through the shell endpoint; the status table's LINES / OBJECTS / ERRORS for the file. */
  const runJob = async (job: string, file: string, content: string | Buffer) => {
    const path = join(dir, file);
    writeFileSync(path, content);
    const run = await s.command(`RUN LOADING JOB ${job} USING f="${path}"`, G);
    const row = run.lines.find((l) => l.includes(path) && l.includes("|"));
    const cells = row?.split("|").map((c) => c.trim());
    return { run, table: cells ? cells.slice(2, 5).map(Number) : undefined };
  };

  it("CSV with a header: named columns, quoted fields keep the separator, WHERE filters, token functions", async () => {
    const { run, table } = await runJob("people", "people.csv", [
      "name,age,active,ignored",
      '"Ann, Jr",30,true,x',
      "Bob,12,true,x", // fails the WHERE: not an error
      "Cy,41,yes,x", // gsql_to_bool: only t and true (any case) are true
      "Dee,25", // short: not enough tokens
      '"Eve",50,false,"a,b"',
    ].join("\n") + "\n");
    expect(run.returnCode, run.text).to.equal(0);
    // 5 data lines (the header is not one); Ann, Cy and Eve load; Dee is an error.
    expect(table).to.deep.equal([5, 3, 1]);
    expect(await vertex("Person", "Ann, Jr")).to.deep.equal({ name: "Ann, Jr", age: 30, active: true, label: "Ann, Jr/30" });
    expect(await vertex("Person", "Eve")).to.deep.equal({ name: "Eve", age: 50, active: false, label: "Eve/50" });
    expect(await vertex("Person", "Cy")).to.deep.equal({ name: "Cy", age: 41, active: false, label: "Cy/41" });
    for (const absent of ["Bob", "Dee", "name"]) expect(await vertex("Person", absent), absent).to.equal(undefined);
    expect(run.text).to.include("1 line(s) do not have enough number of tokens.");
    expect(run.text).not.to.include("invalid attributes");
  });

  it("CSV without a header, separator | and CR LF lines: edges create their endpoints on the fly", async () => {
    const before = await count("stat_vertex_number", "Person");
    const { run, table } = await runJob("lives", "lives.csv", "Ann, Jr|Paris|2001\r\nZed|Rome|1999\r\nshort\r\nBob|Oslo|soon\r\n");
    expect(run.returnCode, run.text).to.equal(0);
    expect(table).to.deep.equal([4, 2, 2]);
    // Zed did not exist: the edge made it, with default attributes; so were Paris and Rome.
    expect(await vertex("Person", "Zed")).to.deep.equal({ name: "Zed", age: 0, active: false, label: "" });
    expect(await vertex("Person", "Ann, Jr")).to.deep.equal({ name: "Ann, Jr", age: 30, active: true, label: "Ann, Jr/30" });
    expect(await vertex("City", "Paris")).to.deep.equal({ note: "" });
    // The rejected edge (since is no INT) made neither endpoint.
    expect(await vertex("Person", "Bob")).to.equal(undefined);
    expect(await vertex("City", "Oslo")).to.equal(undefined);
    expect(await count("stat_vertex_number", "Person")).to.equal(before + 1);
    expect(await count("stat_edge_number", "LivesIn")).to.equal(2);
    const edges = await rest("GET", "/graph/L/edges/Person/Zed/LivesIn");
    expect(edges.json.results.map((e: any) => [e.to_id, e.attributes.since])).to.deep.equal([["Rome", 1999]]);
  });

  it("JSON lines: key paths in any order, absent keys keep defaults, bad lines count as invalidJson", async () => {
    const { run, table } = await runJob("cities", "cities.jsonl", [
      '{"id":"Paris","info":{"note":"capital"}}',
      '{"info":{"note":"silk"},"id":"Lyon"}',
      '{"id":"Nice"}',
      "not json at all",
      '["an","array"]',
    ].join("\n") + "\n");
    expect(run.returnCode, run.text).to.equal(0);
    expect(table).to.deep.equal([5, 3, 2]);
    expect(await vertex("City", "Paris")).to.deep.equal({ note: "capital" });
    expect(await vertex("City", "Lyon")).to.deep.equal({ note: "silk" });
    expect(await vertex("City", "Nice")).to.deep.equal({ note: "" });
  });

  describe("POST /ddl with every parameter", () => {
    const ddl = (query: string, body: string) => rest("POST", `/ddl/L?${query}`, body, FORM);

    it("tag and filename (a variable), multi-character sep and eol: each line loads exactly once", async () => {
      const r = await ddl(`tag=lives&filename=f&sep=${encodeURIComponent("<|>")}&eol=${encodeURIComponent("##")}`, "Gus<|>Bern<|>2010##Hal<|>Bern<|>2011##bad<|>line##");
      expect(r.status, r.text).to.equal(200);
      const st = r.json.results[0].statistics;
      expect([st.validLine, st.notEnoughToken, st.edge[0].validObject]).to.deep.equal([2, 1, 2]);
      const edges = await rest("GET", "/graph/L/edges/Person/Hal/LivesIn");
      expect(edges.json.results.map((e: any) => [e.to_id, e.attributes.since])).to.deep.equal([["Bern", 2011]]);
    });

    it("eol CR LF given as %0D%0A on a job whose own USING says otherwise", async () => {
      const r = await ddl("tag=people&eol=%0D%0A", 'name,age,active,x\r\nIvy,33,TRUE,q\r\n"Jo, Sr",40,0,q\r\n');
      expect(r.status, r.text).to.equal(200);
      expect(r.json.results[0].statistics.vertex[0].validObject).to.equal(2);
      expect(await vertex("Person", "Jo, Sr")).to.deep.equal({ name: "Jo, Sr", age: 40, active: false, label: "Jo, Sr/40" });
      expect(await vertex("Person", "Ivy")).to.deep.equal({ name: "Ivy", age: 33, active: true, label: "Ivy/33" });
    });

    it("ack=all and ack=none both load the data (none only answers before it reaches the disk); timeout in seconds", async () => {
      for (const [query, id] of [["ack=all", "Kim"], ["ack=none", "Lou"], ["timeout=30", "Max"], ["timeout=0&ack=all", "Ned"]] as const) {
        const r = await ddl(`tag=people&${query}`, `name,age,active,x\n${id},20,true,q\n`);
        expect(r.status, `${query}: ${r.text}`).to.equal(200);
        expect(await vertex("Person", id), query).to.deep.equal({ name: id, age: 20, active: true, label: `${id}/20` });
      }
    });

    it("concise=true answers only the counters that are not zero", async () => {
      const r = await ddl("tag=cities&concise=true", '{"id":"Bonn"}\n{oops\n');
      expect(r.json.results).to.deep.equal([{ sourceFileName: "Online_POST", statistics: { validLine: 1, invalidJson: 1, vertex: [{ typeName: "City", validObject: 1 }] } }]);
      const full = await ddl("tag=cities&concise=false", '{"id":"Graz"}\n');
      expect(Object.keys(full.json.results[0].statistics)).to.include.members(["rejectLine", "oversizeToken", "edge", "deleteVertex"]);
    });

    it("a malformed request loads nothing, and the server keeps serving", async () => {
      const people = await count("stat_vertex_number", "Person");
      const cities = await count("stat_vertex_number", "City");
      const edges = await count("stat_edge_number", "LivesIn");
      const body = "Pat|Wien|2000\r\n";
      const refused: [string, number][] = [
        ["tag=lives&sep=%7C%7C%7C%7C%7C", 400],
        ["tag=lives&eol=", 400],
        ["tag=lives&filename=nope", 400],
        ["tag=lives&ack=maybe", 400],
        ["tag=lives&timeout=-3", 400],
        ["tag=lives&timeout=abc", 400],
        ["tag=lives&concise=perhaps", 400],
        ["tag=no_such_job", 400],
        ["filename=f", 400],
      ];
      for (const [query, status] of refused) {
        const r = await ddl(query, body);
        expect(r.status, `${query}: ${r.text}`).to.equal(status);
        expect(r.json.error, query).to.equal(true);
      }
      const otherGraph = await rest("POST", "/ddl/Nowhere?tag=lives", body, FORM);
      expect(otherGraph.status).to.equal(400);
      expect([await count("stat_vertex_number", "Person"), await count("stat_vertex_number", "City"), await count("stat_edge_number", "LivesIn")]).to.deep.equal([people, cities, edges]);
      expect(await vertex("Person", "Pat")).to.equal(undefined);
    });
  });

  describe("bad files through RUN LOADING JOB: counted, nothing partial, server up", () => {
    it("a file cut inside its last line loads the whole lines and counts the cut one", async () => {
      const { run, table } = await runJob("lives", "cut.csv", "Quin|Riga|2001\r\nRay|Riga|20");
      expect(run.returnCode, run.text).to.equal(0);
      // The last line has no end-of-line but all its tokens: it loads (20 is a valid INT).
      expect(table).to.deep.equal([2, 2, 0]);
      const cut = await runJob("lives", "cut2.csv", "Sam|Riga|2001\r\nTom|Ri");
      expect(cut.table).to.deep.equal([2, 1, 1]);
      expect(await vertex("Person", "Tom")).to.equal(undefined);
    });

    it("binary garbage is counted line by line and loads nothing of itself", async () => {
      const people = await count("stat_vertex_number", "Person");
      const bytes = Buffer.alloc(64 * 1024);
      let x = 7;
      for (let i = 0; i < bytes.length; i++) {
        x = (x * 1103515245 + 12345) & 0x7fffffff;
        // No '|' and no CR LF pair: every garbage line is short of tokens.
        let b = x & 0xff;
        if (b === 0x7c || b === 0x0d) b = 0x41;
        bytes[i] = b;
      }
      const { run, table } = await runJob("lives", "garbage.bin", bytes);
      expect(run.returnCode, run.text).to.equal(0);
      expect(table![1]).to.equal(0);
      expect(table![2]).to.equal(table![0]);
      expect(await count("stat_vertex_number", "Person")).to.equal(people);
    });

    it("a line over the size limit is skipped and counted; the lines around it load", async () => {
      const huge = "x".repeat(17 << 20);
      const { run, table } = await runJob("lives", "huge.csv", `Uma|Kiev|2001\r\n${huge}|Kiev|1\r\nVic|Kiev|2002\r\n`);
      expect(run.returnCode, run.text).to.equal(0);
      expect(table).to.deep.equal([3, 2, 1]);
      expect(await vertex("Person", "Uma")).to.not.equal(undefined);
      expect(await vertex("Person", "Vic")).to.not.equal(undefined);
      expect((await rest("GET", "/echo")).status).to.equal(200);
    });

    it("wrong column counts: short lines are errors, extra columns are ignored", async () => {
      const { table } = await runJob("lives", "columns.csv", "Wes|Kiev\r\nXia|Kiev|2003|extra|more\r\n|\r\n");
      expect(table).to.deep.equal([3, 1, 2]);
      const edges = await rest("GET", "/graph/L/edges/Person/Xia/LivesIn");
      expect(edges.json.results.map((e: any) => [e.to_id, e.attributes.since])).to.deep.equal([["Kiev", 2003]]);
      expect(await vertex("Person", "Wes")).to.equal(undefined);
    });
  });
});

describe("loading end to end: a 100k-line file through RUN LOADING JOB and POST /ddl", function () {
  this.timeout(120_000);
  let s: GsqlTestServer;
  let dir: string;
  const LINES = 100_000;
  const CITIES = 5000;

  /** Lines `person,city,since,age`: every 1000th is short, every 997th has a since that is no INT. */
  function bigFile(): { text: string; persons: number; cities: number; edges: number; short: number; badSince: number } {
    const lines: string[] = [];
    const cities = new Set<string>();
    let short = 0;
    let badSince = 0;
    for (let i = 0; i < LINES; i++) {
      if (i % 1000 === 999) {
        lines.push(`p${i},c1`);
        short++;
        continue;
      }
      const bad = i % 997 === 0;
      if (bad) badSince++;
      else cities.add(`c${i % CITIES}`);
      lines.push(`p${i},c${i % CITIES},${bad ? "later" : 1900 + (i % 120)},${i % 100}`);
    }
    // Every line with all its tokens makes its person (the vertex is valid even when the edge is not).
    return { text: lines.join("\n") + "\n", persons: LINES - short, cities: cities.size, edges: LINES - short - badSince, short, badSince };
  }
  const data = bigFile();

  before(async () => {
    s = await startGsqlServer();
    dir = mkdtempSync(join(tmpdir(), "gsql-big-"));
    const setup = await s.file(`CREATE VERTEX BP (PRIMARY_ID id STRING, age INT)
CREATE VERTEX BC (PRIMARY_ID id STRING)
CREATE DIRECTED EDGE BE (FROM BP, TO BC, since INT)
CREATE GRAPH Big (BP, BC, BE)
CREATE LOADING JOB big FOR GRAPH Big {
  DEFINE FILENAME f;
  LOAD f TO VERTEX BP VALUES ($0, $3), TO EDGE BE VALUES ($0, $1, $2) USING SEPARATOR=",";
}`);
    expect(setup.returnCode, setup.text).to.equal(0);
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const stat = async (fn: string, type: string) => {
    const res = await fetch(`${s.restUrl}/builtins/Big`, { method: "POST", body: JSON.stringify({ function: fn, type }) });
    return ((await res.json()) as any).results[0].count as number;
  };
  const counts = async () => ({ persons: await stat("stat_vertex_number", "BP"), cities: await stat("stat_vertex_number", "BC"), edges: await stat("stat_edge_number", "BE") });

  it("RUN LOADING JOB: the status table and stat_vertex_number / stat_edge_number match the file", async () => {
    const path = join(dir, "big.csv");
    writeFileSync(path, data.text);
    const run = await s.command(`RUN LOADING JOB big USING f="${path}"`, { graph: "Big" });
    expect(run.returnCode, run.text).to.equal(0);
    const row = run.lines.find((l) => l.includes(path) && l.includes("|"))!.split("|").map((c) => c.trim());
    // OBJECTS counts the valid vertex and edge objects; ERRORS the short lines and the bad edges.
    expect(row.slice(2, 5).map(Number)).to.deep.equal([LINES, data.persons + data.edges, data.short + data.badSince]);
    expect(await counts()).to.deep.equal({ persons: data.persons, cities: data.cities, edges: data.edges });
  });

  it("POST /ddl of the same data into the cleared graph gives the same counts and statistics", async () => {
    const cleared = await s.command("CLEAR GRAPH STORE -HARD", { graph: "Big" });
    expect(cleared.returnCode, cleared.text).to.equal(0);
    expect(await counts()).to.deep.equal({ persons: 0, cities: 0, edges: 0 });
    const res = await fetch(`${s.restUrl}/ddl/Big?tag=big&filename=f`, { method: "POST", body: data.text, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(res.status).to.equal(200);
    const st = ((await res.json()) as any).results[0].statistics;
    expect([st.validLine, st.notEnoughToken]).to.deep.equal([LINES - data.short, data.short]);
    expect(st.vertex.map((v: any) => [v.typeName, v.validObject])).to.deep.equal([["BP", data.persons]]);
    expect(st.edge.map((e: any) => [e.typeName, e.validObject, e.invalidAttribute])).to.deep.equal([["BE", data.edges, data.badSince]]);
    expect(await counts()).to.deep.equal({ persons: data.persons, cities: data.cities, edges: data.edges });
  });
});
