// SHOW LOADING STATUS, ABORT LOADING JOB and RESUME LOADING JOB (gsql-ddl-loading-shell §8.4)
// from another session while RUN LOADING JOB streams. The load reads a named pipe the test
// writes to, so it is still running when ABORT arrives; RESUME then loads the rest of the
// file, and every line ends up loaded exactly once.
import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { splitAnswer, startGsqlServer, type GsqlTestServer } from "./gsql-helpers.js";

const G = { graph: "C" };
const line = (i: number) => `p${i},${i % 90}\n`;

describe("GSQL server: loading status, abort and resume", function () {
  this.timeout(60_000);
  let s: GsqlTestServer;
  let dir: string;

  before(async () => {
    s = await startGsqlServer();
    dir = mkdtempSync(join(tmpdir(), "gsql-control-"));
    const setup = await s.file(`CREATE VERTEX CP (PRIMARY_ID id STRING, age INT)
CREATE GRAPH C (CP)
CREATE LOADING JOB lc FOR GRAPH C { DEFINE FILENAME f; LOAD f TO VERTEX CP VALUES ($0, $1); }`);
    expect(setup.returnCode, setup.text).to.equal(0);
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const people = async () => {
    const res = await fetch(`${s.restUrl}/builtins/C`, { method: "POST", body: JSON.stringify({ function: "stat_vertex_number", type: "CP" }) });
    return ((await res.json()) as any).results[0].count as number;
  };

  it("with nothing running: ABORT says so, SHOW LOADING STATUS prints nothing, unknown ids are refused", async () => {
    expect((await s.command("ABORT LOADING JOB ALL", G)).lines).to.deep.equal(["[ABORT_SUCCESS] No active Loading Job to abort."]);
    const show = await s.command("SHOW LOADING STATUS ALL", G);
    expect([show.lines, show.returnCode]).to.deep.equal([[], 0]);
    for (const command of ["SHOW LOADING STATUS C.lc.file.m1.1", "ABORT LOADING JOB C.lc.file.m1.1", "RESUME LOADING JOB C.lc.file.m1.1"]) {
      const r = await s.command(command, G);
      expect(r.lines, command).to.deep.equal(["Semantic Check Fails: The loading job id C.lc.file.m1.1 does not exist on the graph 'C'."]);
      expect(r.returnCode).to.equal(212);
    }
  });

  it("a finished run: SHOW LOADING STATUS reprints its status, RESUME leaves it alone", async () => {
    const path = join(dir, "small.csv");
    writeFileSync(path, line(1) + line(2) + "short\n");
    const run = await s.command(`RUN LOADING JOB lc USING f="${path}"`, G);
    expect(run.returnCode, run.text).to.equal(0);
    const jobId = /jobid: (\S+)/.exec(run.text)![1]!;
    const status = await s.command(`SHOW LOADING STATUS ${jobId}`, G);
    const from = run.lines.indexOf(`Job "${jobId}" loading status`);
    expect(status.lines).to.deep.equal(run.lines.slice(from, from + status.lines.length));
    expect(status.lines.slice(0, 3)).to.deep.equal([`Job "${jobId}" loading status`, "[FINISHED] m1 ( Finished: 1 / Total: 1 )", "  [LOADED]"]);
    expect(status.lines[status.lines.length - 1]).to.match(/1 line\(s\) do not have enough number of tokens\.$/);
    const resume = await s.command(`RESUME LOADING JOB ${jobId}`, G);
    expect([resume.lines, resume.returnCode]).to.deep.equal([[`The loading job ${jobId} is finished: there is nothing to resume.`], 0]);
    expect(await people()).to.equal(2);
  });

  it("ABORT ends a running load between chunks; RESUME loads the rest, each line once", async () => {
    const before = await people();
    const fifo = join(dir, "feed.csv");
    execFileSync("mkfifo", [fifo]);
    // RUN LOADING JOB streams its answer while the load waits on the pipe.
    const running = fetch(`${s.gsqlUrl}/gsqlserver/gsql/command`, {
      method: "POST",
      body: encodeURIComponent(`RUN LOADING JOB lc USING f="${fifo}"`),
      headers: { "Content-Type": "application/x-www-form-urlencoded", "GSQL-Cookie": JSON.stringify(G) },
    }).then(async (res) => splitAnswer(res.status, await res.text()));
    const writer = await open(fifo, "w");
    let written = 0;
    const feed = async (n: number) => {
      let text = "";
      for (let i = 0; i < n; i++) text += line(1000 + written++);
      await writer.write(text);
    };
    await feed(500);
    // The run is recorded (and shows as running) once it has started.
    let status = "";
    for (let i = 0; i < 100 && !status.includes("[RUNNING]"); i++) {
      status = (await s.command("SHOW LOADING STATUS ALL", G)).text;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).to.include("[RUNNING] m1");
    const aborting = s.command("ABORT LOADING JOB ALL", G);
    // The load notices the abort between chunks: keep feeding until the run has ended.
    let ended = false;
    void running.then(() => (ended = true));
    while (!ended) {
      await new Promise((r) => setTimeout(r, 50));
      if (!ended) await feed(50).catch(() => undefined);
    }
    await writer.close().catch(() => undefined);
    const run = await running;
    const aborted = await aborting;
    const jobId = /jobid: (\S+)/.exec(run.text)![1]!;
    expect(run.returnCode, run.text).to.equal(212);
    expect(run.lines).to.include("[ABORTED] m1 ( Finished: 0 / Total: 1 )");
    expect(run.lines[run.lines.length - 1]).to.equal(`The loading job ${jobId} was aborted: RESUME LOADING JOB ${jobId} loads the rest.`);
    const loadedLines = Number(run.lines.find((l) => l.startsWith(`  |${fifo}`))!.split("|")[2]!.trim());
    expect(aborted.lines.slice(0, 3)).to.deep.equal([`Job "${jobId}" loading status`, "[ABORT_SUCCESS] m1", "[SUMMARY] Finished: 0 / Total: 1"]);
    expect(aborted.returnCode).to.equal(0);
    // What was read before the abort is written, nothing more.
    expect(loadedLines).to.be.greaterThan(0);
    expect(await people()).to.equal(before + loadedLines);

    // The pipe gives way to a file holding everything that was (and would have been) sent.
    unlinkSync(fifo);
    const total = written + 300;
    let all = "";
    for (let i = 0; i < total; i++) all += line(1000 + i);
    writeFileSync(fifo, all);
    const resumed = await s.command(`RESUME LOADING JOB ${jobId}`, G);
    expect(resumed.returnCode, resumed.text).to.equal(0);
    expect(resumed.lines.slice(0, 2)).to.deep.equal(["[RESUME_SUCCESS] m1", "[MESSAGE] The current job got resummed"]);
    const row = resumed.lines.find((l) => l.startsWith(`  |${fifo}`))!.split("|").map((c) => c.trim());
    expect(row.slice(2, 5).map(Number)).to.deep.equal([total - loadedLines, total - loadedLines, 0]);
    expect(resumed.lines).to.include(`LOAD SUCCESSFUL for loading jobid: ${jobId}`);
    expect(await people()).to.equal(before + total);
    const again = await s.command(`RESUME LOADING JOB ${jobId}`, G);
    expect(again.lines).to.deep.equal([`The loading job ${jobId} is finished: there is nothing to resume.`]);
  });
});
