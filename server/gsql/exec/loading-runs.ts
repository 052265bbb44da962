// Loading jobs while and after they run (gsql-ddl-loading-shell §8.4): every RUN LOADING JOB
// is recorded under its job id with its latest status block, so another session can
// SHOW LOADING STATUS it, ABORT LOADING JOB it (the load ends between chunks, what was read
// stays written) and RESUME LOADING JOB it (the files it finished are left alone, the one it
// stopped in goes on after its last line read). Runs are kept in memory, the latest 100.
import { runLoadingJob, statusTable, type RunJobRequest, type RunJobSummary } from "../../loading/run-job.js";
import type { LoadResult } from "../../loading/run.js";
import type { AstLoadingJobControl, AstShow } from "../../../compiler/ast/index.js";
import { workingGraph, type Outcome, type StatementContext } from "./context.js";

/** Least time between two redraws of the loading status, and before the first, in milliseconds. */
const REDRAW_MS = 250;
const FIRST_DRAW_MS = 1000;
const KEPT_RUNS = 100;

interface LoadingRun {
  jobId: string;
  graph: string;
  /** What RUN LOADING JOB asked for (RESUME runs it again from where it stopped). */
  request: RunJobRequest;
  state: "running" | "finished" | "aborted" | "failed";
  /** The latest status block: the running display, then the final status. */
  status: string[];
  result?: LoadResult;
  stop?: AbortController;
  /** Settles when the run ends (ABORT waits for it to print the final table). */
  done?: Promise<unknown>;
}

export class LoadingRuns {
  private readonly runs = new Map<string, LoadingRun>();

  get(jobId: string): LoadingRun | undefined {
    return this.runs.get(jobId);
  }

  /** The runs of `graph`, oldest first. */
  ofGraph(graph: string): LoadingRun[] {
    return [...this.runs.values()].filter((r) => r.graph === graph);
  }

  record(run: LoadingRun): void {
    this.runs.delete(run.jobId);
    this.runs.set(run.jobId, run);
    for (const old of this.runs.keys()) {
      if (this.runs.size <= KEPT_RUNS) break;
      if (this.runs.get(old)!.state !== "running") this.runs.delete(old);
    }
  }
}

/**
 * Runs a loading job as RUN LOADING JOB and RESUME LOADING JOB show it: the status block
 * redrawn in place while a long load runs, then the header, the final status and the closing
 * lines. The run is recorded for SHOW LOADING STATUS, ABORT and RESUME.
 */
export async function runAndDisplay(ctx: StatementContext, request: RunJobRequest, before: string[] = []): Promise<Outcome> {
  const runs = ctx.services.loadingRuns;
  const stop = new AbortController();
  // Set by onStart (a closure), read after the run: kept in an object so both see the same slot.
  const slot: { run?: LoadingRun } = {};
  let shown = 0;
  let lastDraw = 0;
  const started = performance.now();
  const job = runLoadingJob(ctx.services.engine, {
    ...request,
    stop: stop.signal,
    onStart: (jobId) => {
      slot.run = { jobId, graph: request.graph, request, state: "running", status: [], stop };
      runs.record(slot.run);
    },
    onProgress: (lines) => {
      if (slot.run) slot.run.status = lines;
      const now = performance.now();
      // Short loads show only the final status; long ones a status block redrawn in place.
      if (request.noPrint || now - started < FIRST_DRAW_MS || now - lastDraw < REDRAW_MS) return;
      lastDraw = now;
      if (shown > 0) ctx.out.cursorUp(shown);
      for (const l of lines) {
        if (shown > 0) ctx.out.cleanLine();
        ctx.out.line(l);
      }
      shown = lines.length;
    },
  });
  if (slot.run) slot.run.done = job.catch(() => undefined);
  let summary: RunJobSummary;
  try {
    summary = await job;
  } catch (err) {
    if (slot.run) slot.run.state = "failed";
    if (!(err instanceof Error) || err.name !== "LoadError") throw err;
    ctx.out.line(err.message);
    return "error";
  }
  if (shown > 0) {
    // The final status replaces the running display.
    ctx.out.cursorUp(shown);
    for (let i = 0; i < shown; i++) ctx.out.cleanLine();
  }
  const aborted = summary.result.sources.some((s) => s.stoppedBy === "aborted");
  Object.assign(slot.run!, { state: aborted ? "aborted" : "finished", status: summary.status, result: summary.result, stop: undefined });
  for (const l of [...before, ...summary.lines]) ctx.out.line(l);
  if (aborted) {
    ctx.out.line(`The loading job ${summary.jobId} was aborted: RESUME LOADING JOB ${summary.jobId} loads the rest.`);
    return "error";
  }
  ctx.out.line(`LOAD SUCCESSFUL for loading jobid: ${summary.jobId}`);
  ctx.out.line(`  Job ID: ${summary.jobId}`);
  ctx.out.line(`  Elapsed time: ${Math.round((performance.now() - started) / 1000)} sec`);
  return "ok";
}

/** SHOW LOADING STATUS jobid|ALL: the latest status block of the graph's runs. */
export function runShowLoadingStatus(s: AstShow, ctx: StatementContext): Outcome {
  const where = workingGraph(ctx);
  if (!where.graph) return where.outcome!;
  const wanted = chosenRuns(ctx, where.graph, s.pattern === undefined || s.pattern.toUpperCase() === "ALL" ? undefined : s.pattern);
  if (typeof wanted === "string") {
    ctx.out.line(wanted);
    return "error";
  }
  for (const run of wanted) {
    const status = run.status.length > 0 ? run.status : [`Job "${run.jobId}" loading status`, "[RUNNING] m1 ( Finished: 0 / Total: 1 )"];
    for (const l of status) ctx.out.line(l);
  }
  return "ok";
}

/** ABORT LOADING JOB jobid|ALL: ends the running loads and prints where each stopped. */
export async function runAbortLoadingJob(s: AstLoadingJobControl, ctx: StatementContext): Promise<Outcome> {
  const where = workingGraph(ctx);
  if (!where.graph) return where.outcome!;
  const chosen = chosenRuns(ctx, where.graph, s.all ? undefined : s.jobId);
  if (typeof chosen === "string") {
    ctx.out.line(chosen);
    return "error";
  }
  const running = chosen.filter((r) => r.state === "running");
  if (running.length === 0) {
    ctx.out.line("[ABORT_SUCCESS] No active Loading Job to abort.");
    return "ok";
  }
  for (const run of running) run.stop?.abort();
  for (const run of running) {
    await run.done;
    const sources = run.result?.sources ?? [];
    ctx.out.line(`Job "${run.jobId}" loading status`);
    ctx.out.line("[ABORT_SUCCESS] m1");
    ctx.out.line(`[SUMMARY] Finished: ${sources.filter((x) => x.stoppedBy !== "aborted").length} / Total: ${sources.length}`);
    if (run.result) for (const l of statusTable(run.result)) ctx.out.line(l);
  }
  return "ok";
}

/** RESUME LOADING JOB jobid: an aborted run goes on where it stopped; a finished one is left alone. */
export async function runResumeLoadingJob(s: AstLoadingJobControl, ctx: StatementContext): Promise<Outcome> {
  const where = workingGraph(ctx);
  if (!where.graph) return where.outcome!;
  if (s.jobId === undefined) {
    ctx.out.line("RESUME LOADING JOB takes one job id.");
    return "error";
  }
  const chosen = chosenRuns(ctx, where.graph, s.jobId);
  if (typeof chosen === "string") {
    ctx.out.line(chosen);
    return "error";
  }
  const run = chosen[0]!;
  if (run.state === "running") {
    ctx.out.line(`The loading job ${run.jobId} is still running.`);
    return "error";
  }
  if (run.state !== "aborted" || !run.result) {
    ctx.out.line(`The loading job ${run.jobId} is ${run.state}: there is nothing to resume.`);
    return run.state === "finished" ? "ok" : "error";
  }
  if (!ctx.services.catalog.loadingJob(run.graph, run.request.job)) {
    ctx.out.line(`Semantic Check Fails: The job ${run.request.job} does not exist!`);
    return "error";
  }
  return runAndDisplay(ctx, { ...run.request, resume: { jobId: run.jobId, result: run.result } }, [
    "[RESUME_SUCCESS] m1",
    "[MESSAGE] The current job got resummed",
  ]);
}

/** The runs of `graph` (all, or the one named); a message when the named one is unknown. */
function chosenRuns(ctx: StatementContext, graph: string, jobId: string | undefined): LoadingRun[] | string {
  const runs = ctx.services.loadingRuns;
  if (jobId === undefined) return runs.ofGraph(graph);
  const run = runs.get(jobId);
  if (!run || run.graph !== graph) return `Semantic Check Fails: The loading job id ${jobId} does not exist on the graph '${graph}'.`;
  return [run];
}
