// Loading jobs at the shell: CREATE LOADING JOB (checked against the schema by the loader's
// planner), RUN LOADING JOB (the loader reads the files; the shell shows a progress bar and
// the status table with warnings), and DROP JOB for every kind of job.
import type { AstCreateLoadingJob, AstDrop, AstExpr, AstRunLoadingJob } from "../../../compiler/ast/index.js";
import type { CatalogChange } from "../../catalog/catalog-state.js";
import { nameList, statementText, submit, workingGraph, type Outcome, type StatementContext } from "./context.js";
import { printDdlDiagnostics } from "./diagnostic-text.js";
import { jobNameTaken } from "./job-names.js";
import { loadingStatusLines, progressLine } from "./loading-status.js";
import type { LoadingProgress } from "./loading-services.js";

export function runCreateLoadingJob(s: AstCreateLoadingJob, ctx: StatementContext): Outcome {
  const name = s.name.name;
  const where = workingGraph(ctx, s.graph?.name);
  if (!where.graph) return where.outcome!;
  const graph = where.graph;
  const planner = ctx.services.loading.plan;
  if (!planner) {
    ctx.out.line("CREATE LOADING JOB is not available in this server build: the loader is not part of it.");
    return "error";
  }
  if (jobNameTaken(ctx, graph, name)) {
    ctx.out.line(`Semantic Check Fails: The job name ${name} is used by another object! Please use a different name.`);
    ctx.out.line(`Failed to create loading jobs: ${nameList([name])}.`);
    return "error";
  }
  const planned = planner(s, ctx.services.engine.schema, graph);
  if (planned.plan === undefined || planned.diagnostics.some((d) => d.severity === "error")) {
    printDdlDiagnostics(planned.diagnostics, ctx.out);
    ctx.out.line(`Failed to create loading jobs: ${nameList([name])}.`);
    return "error";
  }
  printDdlDiagnostics(planned.diagnostics, ctx.out);
  const text = planned.normalizedText ?? statementText(ctx, s);
  submit(ctx, [{ kind: "put-loading-job", job: { name, graph, text, plan: planned.plan, types: planned.types } }]);
  ctx.out.line(`Successfully created loading jobs: ${nameList([name])}.`);
  return "ok";
}

/** USING options of RUN LOADING JOB that are not file variables. */
const RUN_OPTIONS = new Set(["CONCURRENCY", "BATCH_SIZE", "EOF"]);

export async function runRunLoadingJob(s: AstRunLoadingJob, ctx: StatementContext): Promise<Outcome> {
  const where = workingGraph(ctx);
  if (!where.graph) return where.outcome!;
  const graph = where.graph;
  const name = s.name.name;
  const job = ctx.services.catalog.loadingJob(graph, name);
  if (!job) {
    ctx.out.line(`Semantic Check Fails: The job ${name} does not exist!`);
    return "error";
  }
  const run = ctx.services.loading.run;
  if (!run) {
    ctx.out.line("RUN LOADING JOB is not available in this server build: the loader is not part of it.");
    return "error";
  }
  const flags = parseRunFlags(s);
  if (typeof flags === "string") {
    ctx.out.line(flags);
    return "error";
  }
  const files = new Map<string, string>();
  for (const o of s.using) {
    if (RUN_OPTIONS.has(o.name.name.toUpperCase())) continue;
    const path = literalText(o.value);
    if (path === undefined) {
      ctx.out.line(`The file path of ${o.name.name} must be a string, as in USING ${o.name.name}="/data/file.csv".`);
      return "error";
    }
    files.set(o.name.name, path);
  }
  const jobId = `${graph}.${name}.file.m1.${Date.now()}`;
  ctx.out.line(`[Tip: Use "CTRL + C" to stop displaying the loading status update, then use "SHOW LOADING STATUS jobid" to track the loading progress again]`);
  ctx.out.line(`[Tip: Manage loading jobs with "ABORT/RESUME LOADING JOB jobid"]`);
  ctx.out.line(flags.noPrint ? "Kick off the following job:" : "Kick off the following job, i.e.");
  ctx.out.line(`  JobName: ${name}, jobid: ${jobId}`);
  ctx.out.line("");
  const started = performance.now();
  let lastProgress = 0;
  const onProgress = (p: LoadingProgress) => {
    const now = performance.now();
    if (flags.noPrint || now - lastProgress < 250) return;
    lastProgress = now;
    ctx.out.line(progressLine(p));
  };
  let summaries;
  try {
    summaries = await run({ plan: job.plan, files, flags }, onProgress);
  } catch (err) {
    ctx.out.line(err instanceof Error ? err.message : String(err));
    ctx.out.line(`Job "${jobId}" failed.`);
    return "error";
  }
  if (!flags.noPrint) {
    for (const l of loadingStatusLines(jobId, summaries)) ctx.out.line(l);
  }
  ctx.out.line(`LOAD SUCCESSFUL for loading jobid: ${jobId}`);
  ctx.out.line(`  Job ID: ${jobId}`);
  ctx.out.line(`  Elapsed time: ${Math.max(0, Math.round((performance.now() - started) / 1000))} sec`);
  return "ok";
}

interface RunFlags {
  dryRun: boolean;
  noPrint: boolean;
  lineRange?: { first: number; last?: number };
  maxPercentError?: number;
}

function parseRunFlags(s: AstRunLoadingJob): RunFlags | string {
  const flags: RunFlags = { dryRun: false, noPrint: false };
  for (const f of s.flags) {
    switch (f.name.toLowerCase()) {
      case "dryrun":
        flags.dryRun = true;
        break;
      case "noprint":
        flags.noPrint = true;
        break;
      case "n": {
        const m = /^\s*(?:([0-9]+)\s*,\s*)?([0-9]+|\$)\s*$/.exec(f.value ?? "");
        if (!m) return `-n takes [first,]last line numbers, as -n 50, -n 10,50 or -n 10,$.`;
        const first = m[1] === undefined ? 1 : Number(m[1]);
        flags.lineRange = m[2] === "$" ? { first } : { first, last: Number(m[2]) };
        break;
      }
      case "max_percent_error": {
        const p = Number(f.value);
        if (f.value === undefined || !Number.isFinite(p) || p < 0 || p > 100) return "-max_percent_error takes a percentage from 0 to 100.";
        flags.maxPercentError = p;
        break;
      }
      default:
        return `Unknown option -${f.name} for RUN LOADING JOB; the options are -noprint, -dryrun, -n and -max_percent_error.`;
    }
  }
  return flags;
}

function literalText(e: AstExpr): string | undefined {
  return e.kind === "StringLiteral" ? e.value : undefined;
}

/** DROP JOB names | * | ALL: loading and schema-change jobs of the working graph (global scope: global jobs, or every graph's with ALL). */
export function runDropJob(s: AstDrop, ctx: StatementContext): Outcome {
  const { catalog, engine } = ctx.services;
  const all = s.all !== undefined;
  const graph = ctx.session.graph;
  if (graph !== undefined) {
    const where = workingGraph(ctx);
    if (!where.graph) return where.outcome!;
  }
  const scopes: (string | undefined)[] = graph !== undefined ? [graph] : all ? [undefined, ...engine.schema.graphs.map((g) => g.name)] : [undefined];
  const changes: CatalogChange[] = [];
  const lines: string[] = [];
  for (const scope of scopes) {
    const existing = catalog.jobNames(scope);
    const names = all ? existing : s.names.map((n) => n.name);
    const missing = names.find((n) => !existing.includes(n));
    if (missing) {
      ctx.out.line(`Semantic Check Fails: The job ${missing} does not exist!`);
      return "error";
    }
    if (names.length === 0) continue;
    changes.push({ kind: "drop-jobs", graph: scope ?? "", names });
    lines.push(scope === undefined ? `Successfully dropped jobs: ${nameList(names)}.` : `Successfully dropped jobs on the graph '${scope}': ${nameList(names)}.`);
    if (all && scope !== undefined) lines.push(`All jobs on the graph '${scope}' are dropped.`);
  }
  submit(ctx, changes);
  if (lines.length === 0) lines.push("All jobs are dropped.");
  for (const l of lines) ctx.out.line(l);
  return "ok";
}
