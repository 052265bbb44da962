import { expect } from "chai";
import { mkdtempSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Engine } from "../../../server/engine/engine.js";
import { runLoadingJob } from "../../../server/loading/run-job.js";
import { formatStatusTable, formatSpeed } from "../../../server/loading/summary-format.js";
import { LoadError } from "../../../server/loading/errors.js";
import { col, job, skip, socialSchema } from "./fixtures.js";

describe("RUN LOADING JOB summary", () => {
  it("prints the 3.9 status table exactly", () => {
    expect(formatStatusTable([{ file: "/home/tigergraph/movie.dat", lines: 6, objects: 3, errors: 2, seconds: 0.1 }])).to.deep.equal([
      "  +--------------------------------------------------------------------------------------+",
      "  |                  FILENAME |   LINES |   OBJECTS |   ERRORS |   AVG SPEED |   DURATION|",
      "  |/home/tigergraph/movie.dat |       6 |         3 |        2 |      60 l/s |     0.10 s|",
      "  +--------------------------------------------------------------------------------------+",
    ]);
    expect([formatSpeed(0, 1), formatSpeed(999, 1), formatSpeed(250000, 1.25)]).to.deep.equal(["<1 l/s", "999 l/s", "200 kl/s"]);
  });

  it("runs the chosen variables (dry run), with job id, warnings and progress lines", async () => {
    const dir = mkdtempSync(join(tmpdir(), "wg-runjob-"));
    const people = join(dir, "people.csv");
    writeFileSync(people, "id,name,age\np1,Ann,31\np2,Bob\np3,Cy,old\np4,Di,40\n");
    const engine = new Engine();
    engine.apply({ kind: "define-schema", schema: socialSchema() });
    engine.apply({
      kind: "create-loading-job",
      plan: job([{ kind: "vertex", type: "Person", values: [col(0), col(1), col(2), skip, skip, skip, skip] }], { header: true }, { name: "load_people", files: [{ name: "f", defaultPath: join(dir, "missing.csv") }] }),
    });
    const progress: string[][] = [];
    const summary = await runLoadingJob(engine, { graph: "social", job: "load_people", paths: { f: people }, dryRun: true, now: () => 1592359900330, onProgress: (lines) => progress.push(lines) });
    expect(summary.jobId).to.equal("social.load_people.file.m1.1592359900330");
    const lines = summary.lines;
    expect(lines.slice(0, 5)).to.deep.equal([
      `[Tip: Use "CTRL + C" to stop displaying the loading status update, then use "SHOW LOADING STATUS jobid" to track the loading progress again]`,
      `[Tip: Manage loading jobs with "ABORT/RESUME LOADING JOB jobid"]`,
      "Kick off the following job, i.e.",
      "  JobName: load_people, jobid: social.load_people.file.m1.1592359900330",
      "",
    ]);
    expect(lines.slice(5, 8)).to.deep.equal(['Job "social.load_people.file.m1.1592359900330" loading status', "[FINISHED] m1 ( Finished: 1 / Total: 1 )", "  [LOADED]"]);
    const row = lines[10]!.split("|").map((c) => c.trim());
    expect(row.slice(1, 5)).to.deep.equal([people, "4", "2", "2"]);
    expect(lines.slice(12)).to.deep.equal([
      `[WARNING] bad data in m1 (replica 1) ${people}: 1 line(s) do not have enough number of tokens.`,
      `[WARNING] bad data in m1 (replica 1) ${people}:Person: 1 object(s) have invalid attributes.`,
    ]);
    expect(progress.length).to.be.greaterThan(0);
    expect(progress[progress.length - 1]![3]).to.match(/^ {2}\[=+\] 100%, \d+ (k?l\/s)$/);
  });

  it("a variable without a path stops the job before it starts; directories load every visible file", async () => {
    const engine = new Engine();
    engine.apply({ kind: "define-schema", schema: socialSchema() });
    engine.apply({ kind: "create-loading-job", plan: job([{ kind: "vertex", type: "City", values: [col(0), col(1)] }], {}, { name: "cities" }) });
    let error: unknown;
    await runLoadingJob(engine, { graph: "social", job: "cities" }).catch((e) => (error = e));
    expect(error).to.be.instanceOf(LoadError);
    expect((error as Error).message).to.equal('The file variable f has no path: give one with USING f="path".');

    const dir = mkdtempSync(join(tmpdir(), "wg-runjob-dir-"));
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, "b.csv"), "2,b\n3,c\n");
    writeFileSync(join(dir, "a.csv"), "1,a\n");
    writeFileSync(join(dir, ".hidden"), "9,z\n");
    const summary = await runLoadingJob(engine, { graph: "social", job: "cities", paths: { f: dir }, dryRun: true });
    expect(summary.result.sources.map((s) => [s.sourceName, s.lines])).to.deep.equal([[join(dir, "a.csv"), 1], [join(dir, "b.csv"), 2]]);
    expect(summary.lines).to.include("[FINISHED] m1 ( Finished: 2 / Total: 2 )");
  });

  it("a truncated file (cut inside a line and inside a UTF-8 character) is counted line by line", async () => {
    const engine = new Engine();
    engine.apply({ kind: "define-schema", schema: socialSchema() });
    engine.apply({ kind: "create-loading-job", plan: job([{ kind: "vertex", type: "Person", values: [col(0), col(1), col(2), skip, skip, skip, skip] }], {}, { name: "people" }) });
    const dir = mkdtempSync(join(tmpdir(), "wg-trunc-"));
    const full = Buffer.from("a,Ann,1\nb,Bé€,2\nc,Cy,3\n", "utf8");
    const cuts: [number, number[]][] = [
      [full.indexOf("c,Cy") + 2, [2, 1, 0]], // "c," : not enough tokens
      [full.indexOf("€") + 1, [1, 1, 0]], // "b,Bé\ufffd": not enough tokens, nothing after
      [full.length - 2, [3, 0, 0]], // "c,Cy,": empty INT keeps the stored value
    ];
    for (const [cut, [valid, short, oversize]] of cuts) {
      const path = join(dir, `cut${cut}.csv`);
      writeFileSync(path, full.subarray(0, cut));
      const summary = await runLoadingJob(engine, { graph: "social", job: "people", paths: { f: path }, dryRun: true });
      const s = summary.result.sources[0]!.statistics;
      expect([s.validLine, s.notEnoughToken, s.oversizeToken], `cut at ${cut}`).to.deep.equal([valid, short, oversize]);
    }
  });
});
