// A user's whole session through the `gsql` shell as a subprocess, in file mode and in piped
// interactive mode: schema, a loading job run on a file (progress and summary), a query
// created, installed, run, shown and dropped, and the errors on the way with their messages
// and exit codes. Output is compared whole, with only the job id, speed, duration and port
// (which change from run to run) masked.
import { expect } from "chai";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runShell, startGsqlServer, type GsqlTestServer } from "./gsql-helpers.js";

/** Masks what differs between runs: job ids, load speed and duration, the REST port. */
function masked(text: string): string {
  return text
    .replace(/\.m1\.\d+/g, ".m1.<time>")
    .replace(/\|\s+\d+ k?l\/s \|\s+[\d.]+ s\|/g, "| <speed> | <duration>|")
    .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:<port>")
    .replace(/Elapsed time: \d+ sec/g, "Elapsed time: <n> sec");
}

const SCHEMA = `CREATE VERTEX Person (PRIMARY_ID name STRING, age INT) WITH primary_id_as_attribute="true"
CREATE GRAPH S (Person)`;

function loadLines(file: string, jobId: string): string[] {
  const width = file.length;
  const rule = `  +${"-".repeat(width + 60)}+`;
  return [
    '[Tip: Use "CTRL + C" to stop displaying the loading status update, then use "SHOW LOADING STATUS jobid" to track the loading progress again]',
    '[Tip: Manage loading jobs with "ABORT/RESUME LOADING JOB jobid"]',
    "Kick off the following job, i.e.",
    `  JobName: lp, jobid: ${jobId}`,
    "",
    `Job "${jobId}" loading status`,
    "[FINISHED] m1 ( Finished: 1 / Total: 1 )",
    "  [LOADED]",
    rule,
    `  |${"FILENAME".padStart(width)} |   LINES |   OBJECTS |   ERRORS |   AVG SPEED |   DURATION|`,
    `  |${file} |       4 |         3 |        1 | <speed> | <duration>|`,
    rule,
    `[WARNING] bad data in m1 (replica 1) ${file}: 1 line(s) do not have enough number of tokens.`,
    `LOAD SUCCESSFUL for loading jobid: ${jobId}`,
    `  Job ID: ${jobId}`,
    "  Elapsed time: <n> sec",
  ];
}

const INSTALL_LINES = [
  "Start installing queries, about 1 minute ...",
  `older query: curl -X GET 'http://127.0.0.1:<port>/query/S/older?lo=VALUE'. Add -H "Authorization: Bearer TOKEN" if authentication is enabled.`,
  "",
  `[${"=".repeat(72)}] 100% (1/1)`,
  "Query installation finished.",
];

/** INTERPRET QUERY older(n) answering n people. */
const answer = (n: number) => JSON.stringify({ version: { edition: "wasmgraph", api: "v2", schema: 0 }, error: false, message: "", results: [{ n }] }, null, 2).split("\n");

describe("gsql shell (subprocess): a whole session", function () {
  this.timeout(120_000);
  let s: GsqlTestServer;
  let dir: string;
  let people: string;
  before(async () => {
    s = await startGsqlServer();
    dir = mkdtempSync(join(tmpdir(), "gsql-session-"));
    people = join(dir, "people.csv");
    writeFileSync(people, "name,age\nAnn,30\nBob,12\nshort\nCy,44\n");
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("file mode: runs the script in order, and its first failure ends it with the error's code", async () => {
    const script = join(dir, "session.gsql");
    writeFileSync(script, `${SCHEMA}
USE GRAPH S
CREATE LOADING JOB lp FOR GRAPH S { DEFINE FILENAME f; LOAD f TO VERTEX Person VALUES ($"name", $"age") USING HEADER="true"; }
RUN LOADING JOB lp USING f="${people}"
CREATE QUERY older(INT lo) FOR GRAPH S {
  S = {Person.*};
  R = SELECT p FROM S:p WHERE p.age >= lo;
  PRINT R.size() AS n;
}
INSTALL QUERY older
INTERPRET QUERY older(18)
SHOW QUERY older
DROP QUERY older
SHOW QUERY older
ls
`);
    const r = await runShell(["--host", s.gsqlUrl, script], "", dir);
    expect(masked(r.stdout).split("\n")).to.deep.equal([
      "Successfully created vertex types: [Person].",
      "The graph S is created.",
      "Using graph 'S'",
      "Successfully created loading jobs: [lp].",
      ...loadLines(people, "S.lp.file.m1.<time>"),
      "Successfully created queries: [older].",
      ...INSTALL_LINES,
      ...answer(2),
      "# installed v2",
      "CREATE QUERY older(INT lo) FOR GRAPH S {",
      "  S = {Person.*};",
      "  R = SELECT p FROM S:p WHERE p.age >= lo;",
      "  PRINT R.size() AS n;",
      "}",
      "Successfully dropped queries on the graph 'S': [older].",
      // The failure stops the file: `ls` does not run.
      "The query older does not exist on the graph 'S'.",
      "",
    ]);
    expect(r.code).to.equal(212);
    expect(r.stderr).to.equal("");
  });

  it("file mode: a syntax error runs nothing after the statements before it, and exits 211", async () => {
    const script = join(dir, "broken.gsql");
    writeFileSync(script, "USE GRAPH S\nSHOW VERTEX Person\nCREATE QUERY q(INT min) FOR GRAPH S { PRINT min; }\nDROP VERTEX Person\n");
    const r = await runShell(["--host", s.gsqlUrl, script], "", dir);
    expect(r.stdout.split("\n")[0]).to.equal("Using graph 'S'");
    expect(r.stdout).to.include("line 3:");
    expect(r.stdout).not.to.include("Successfully dropped");
    expect(r.code).to.equal(211);
    const ls = await runShell(["--host", s.gsqlUrl, "-g", "S", "SHOW VERTEX Person"], "", dir);
    expect(ls.stdout).to.equal('  - VERTEX Person(PRIMARY_ID name STRING, age INT) WITH STATS="OUTDEGREE_BY_EDGETYPE", PRIMARY_ID_AS_ATTRIBUTE="true"\n');
  });

  it("piped interactive mode: the same session line by line; errors print and the session goes on", async () => {
    await runShell(["--host", s.gsqlUrl, "-g", "S", "DROP JOB ALL"], "", dir);
    const input = [
      "USE GRAPH S",
      `CREATE LOADING JOB lp FOR GRAPH S { DEFINE FILENAME f; LOAD f TO VERTEX Person VALUES ($"name", $"age") USING HEADER="true"; }`,
      `RUN LOADING JOB lp USING f="${people}"`,
      "BEGIN",
      "CREATE QUERY older(INT lo) FOR GRAPH S {",
      "  S = {Person.*};",
      "  R = SELECT p FROM S:p WHERE p.age >= lo;",
      "  PRINT R.size() AS n;",
      "}",
      "END",
      "INSTALL QUERY older",
      "INTERPRET QUERY older(40)",
      "INTERPRET QUERY older(\"forty\")",
      "SHOW QUERY nope",
      "DROP QUERY older",
      "DROP QUERY older",
      "exit",
      "SHOW QUERY older",
    ].join("\n");
    const r = await runShell(["--host", s.gsqlUrl], input, dir);
    const lines = masked(r.stdout).split("\n");
    const at = (line: string) => {
      const i = lines.indexOf(line);
      expect(i, `missing: ${line}\n${r.stdout}`).to.be.greaterThan(-1);
      return i;
    };
    expect(lines.slice(0, 2)).to.deep.equal(["Using graph 'S'", "Successfully created loading jobs: [lp]."]);
    const load = at(loadLines(people, "S.lp.file.m1.<time>")[0]!);
    expect(lines.slice(load, load + 16)).to.deep.equal(loadLines(people, "S.lp.file.m1.<time>"));
    const created = at("Successfully created queries: [older].");
    expect(lines.slice(created + 1, created + 1 + INSTALL_LINES.length + answer(1).length)).to.deep.equal([...INSTALL_LINES, ...answer(1)]);
    // The bad argument answers the error envelope; the unknown query and the second DROP are
    // reported; the session goes on to `exit`.
    expect(lines).to.include(`  "message": "The parameter lo must be an INT, not 'forty'.",`);
    expect(lines).to.include("The query nope does not exist on the graph 'S'.");
    const dropped = at("Successfully dropped queries on the graph 'S': [older].");
    expect(lines[dropped + 1]).to.equal("The query older does not exist on the graph 'S'.");
    // Nothing after `exit` ran.
    expect(lines.slice(dropped + 2)).to.deep.equal([""]);
    expect(r.code).to.equal(0);
  });

  it("RUN QUERY of an installed query prints its answer; too many arguments are refused", async function () {
    const setup = await runShell(["--host", s.gsqlUrl, "-g", "S", `CREATE QUERY adults() FOR GRAPH S { S = {Person.*}; R = SELECT p FROM S:p WHERE p.age >= 18; PRINT R.size() AS n; }`], "", dir);
    expect(setup.code, setup.stdout).to.equal(0);
    expect((await runShell(["--host", s.gsqlUrl, "-g", "S", "INSTALL QUERY adults"], "", dir)).code).to.equal(0);
    const r = await runShell(["--host", s.gsqlUrl, "-g", "S", "RUN QUERY adults()"], "", dir);
    // The REST endpoint of installed queries is served by the query back end; until it is, say so.
    if (r.stdout.includes("Endpoint is not found")) this.skip();
    expect(r.stdout.split("\n")).to.deep.equal([...answer(2), ""]);
    expect(r.code).to.equal(0);
    const extra = await runShell(["--host", s.gsqlUrl, "-g", "S", "RUN QUERY adults(1)"], "", dir);
    expect(extra.code).to.not.equal(0);
  });
});
