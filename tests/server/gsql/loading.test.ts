// Loading jobs through the GSQL endpoints: CREATE LOADING JOB kept in the catalog and shown
// normalised by ls, RUN LOADING JOB with the loader's status table (counts checked against
// the written files and the REST counts), errors, DROP JOB, and a schema change dropping the
// jobs of a type it drops.
import { expect } from "chai";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startGsqlServer, SOCIAL_SCHEMA, type GsqlTestServer } from "./gsql-helpers.js";

const G = { graph: "Social" };

describe("GSQL server: loading jobs", () => {
  let s: GsqlTestServer;
  let dir: string;
  beforeEach(async () => {
    s = await startGsqlServer();
    dir = mkdtempSync(join(tmpdir(), "gsql-load-"));
    expect((await s.file(SOCIAL_SCHEMA)).returnCode).to.equal(0);
  });
  afterEach(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const JOB = `CREATE LOADING JOB load_people FOR GRAPH Social {
    DEFINE FILENAME people;
    DEFINE FILENAME friends = "/no/such/default.csv";
    LOAD people TO VERTEX Person VALUES ($"name", $"name", $"age") WHERE to_int($"age") >= 18 USING header="true", separator="|";
    LOAD friends TO EDGE Friendship VALUES ($0, $1, _);
  }`;

  it("CREATE LOADING JOB: success line, and ls shows the job normalised", async () => {
    const created = await s.file(JOB);
    expect(created.lines).to.deep.equal(["Successfully created loading jobs: [load_people]."]);
    const ls = await s.command("ls", G);
    const from = ls.lines.indexOf("Jobs:");
    expect(ls.lines.slice(from, from + 8)).to.deep.equal([
      "Jobs:",
      "  - CREATE LOADING JOB load_people FOR GRAPH Social {",
      "      DEFINE FILENAME people;",
      '      DEFINE FILENAME friends = "/no/such/default.csv";',
      '      LOAD people TO VERTEX Person VALUES($"name", $"name", $"age") WHERE to_int($"age") >= 18 USING SEPARATOR="|", HEADER="true", EOL="\\n";',
      '      LOAD friends TO EDGE Friendship VALUES($0, $1, _) USING SEPARATOR=",", HEADER="false", EOL="\\n";',
      "    }",
      "",
    ]);
    const dup = await s.file(JOB);
    expect(dup.lines).to.deep.equal([
      "Semantic Check Fails: The job name load_people is used by another object! Please use a different name.",
      "Failed to create loading jobs: [load_people].",
    ]);
  });

  it("a job naming an unknown type is refused with the binder's reason", async () => {
    const answer = await s.file(`CREATE LOADING JOB bad FOR GRAPH Social { DEFINE FILENAME f; LOAD f TO VERTEX Robot VALUES ($0); }`);
    expect(answer.lines[answer.lines.length - 1]).to.equal("Failed to create loading jobs: [bad].");
    expect(answer.lines[0]).to.match(/^Semantic Check Fails: .*Robot/);
    expect(answer.returnCode).to.equal(212);
  });

  it("RUN LOADING JOB loads the files given in USING and prints the status table", async () => {
    await s.file(JOB);
    const people = join(dir, "people.csv");
    writeFileSync(people, "name|age\nAnn|30\nBob|12\nCy|41\nshort\nDee|x7\n");
    const friends = join(dir, "friends.csv");
    writeFileSync(friends, "Ann,Cy\nCy,Eve\n");
    const run = await s.command(`RUN LOADING JOB load_people USING people="${people}", friends="${friends}"`, G);
    expect(run.returnCode).to.equal(0);
    const jobId = /jobid: (Social\.load_people\.file\.m1\.\d+)/.exec(run.text)![1]!;
    expect(run.lines.slice(0, 4)).to.deep.equal([
      '[Tip: Use "CTRL + C" to stop displaying the loading status update, then use "SHOW LOADING STATUS jobid" to track the loading progress again]',
      '[Tip: Manage loading jobs with "ABORT/RESUME LOADING JOB jobid"]',
      "Kick off the following job, i.e.",
      `  JobName: load_people, jobid: ${jobId}`,
    ]);
    expect(run.lines).to.include("[FINISHED] m1 ( Finished: 2 / Total: 2 )");
    const row = (file: string) => run.lines.find((l) => l.includes(file))!.split("|").map((c) => c.trim());
    // 5 data lines: Ann and Cy load; Bob (12) and Dee ("x7" is no number) fail the WHERE, which
    // is not an error; "short" lacks a token, which is.
    expect(row(people).slice(2, 5)).to.deep.equal(["5", "2", "1"]);
    expect(row(friends).slice(2, 5)).to.deep.equal(["2", "2", "0"]);
    expect(run.lines.slice(-3)).to.deep.equal([`LOAD SUCCESSFUL for loading jobid: ${jobId}`, `  Job ID: ${jobId}`, "  Elapsed time: 0 sec"]);
    const counts: any = await (await fetch(`${s.restUrl}/builtins/Social`, { method: "POST", body: JSON.stringify({ function: "stat_vertex_number", type: "Person" }) })).json();
    // Ann, Cy, and Eve created as an endpoint of a friendship.
    expect(counts.results).to.deep.equal([{ v_type: "Person", count: 3 }]);
  });

  it("a missing file or job is an error; -n takes line numbers", async () => {
    await s.file(JOB);
    const missing = await s.command(`RUN LOADING JOB load_people USING people="${join(dir, "nope.csv")}"`, G);
    expect(missing.returnCode).to.equal(212);
    expect(missing.text).to.include("nope.csv");
    const noJob = await s.command("RUN LOADING JOB nothing", G);
    expect(noJob.lines).to.deep.equal(["Semantic Check Fails: The job nothing does not exist!"]);
    const badFlag = await s.command(`RUN LOADING JOB -n abc load_people USING people="x"`, G);
    expect(badFlag.returnCode).to.be.oneOf([211, 212]);
  });

  it("DROP JOB drops by name and all at once", async () => {
    await s.file(JOB);
    await s.file(JOB.replace("load_people", "second"));
    expect((await s.command("DROP JOB load_people", G)).lines).to.deep.equal(["Successfully dropped jobs on the graph 'Social': [load_people]."]);
    expect((await s.command("DROP JOB nope", G)).lines).to.deep.equal(["Semantic Check Fails: The job nope does not exist!"]);
    expect((await s.command("DROP JOB ALL", G)).lines).to.deep.equal([
      "Successfully dropped jobs on the graph 'Social': [second].",
      "All jobs on the graph 'Social' are dropped.",
    ]);
    expect(s.server.gsql!.catalog.loadingJobs("Social")).to.deep.equal([]);
  });

  it("a schema change that alters a type a job loads drops that job", async () => {
    await s.file(JOB);
    await s.file(`CREATE LOADING JOB cities FOR GRAPH Social { DEFINE FILENAME f; LOAD f TO VERTEX City VALUES ($0); }`);
    await s.file("CREATE GLOBAL SCHEMA_CHANGE JOB add_email { ALTER VERTEX Person ADD ATTRIBUTE (email STRING); }");
    const run = await s.file("RUN GLOBAL SCHEMA_CHANGE JOB add_email");
    expect(run.lines).to.include("The loading job load_people is dropped because it loads a type this change dropped or altered.");
    expect(s.server.gsql!.catalog.loadingJobs("Social").map((j) => j.name)).to.deep.equal(["cities"]);
  });
});
