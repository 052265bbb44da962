// Loading jobs at the shell: CREATE LOADING JOB (checked by the binder, turned into the
// loader's plan, kept in the catalog), RUN LOADING JOB (the loader runs it; the shell shows
// its status block redrawn in place while files load, then the status table and warnings),
// and DROP JOB for every kind of job.
import type { AstCreateLoadingJob, AstDrop, AstRunLoadingJob } from "../../../compiler/ast/index.js";
import { DiagnosticLog } from "../../../compiler/diagnostics/index.js";
import { bindLoadingJob } from "../../../compiler/bind/index.js";
import { planFromBoundJob } from "../../loading/bound-adapter.js";
import { runAndDisplay } from "./loading-runs.js";
import { loadingJobRecord } from "../../loading/job-record.js";
import type { LoadingJobPlan } from "../../loading/plan.js";
import type { CatalogChange } from "../../catalog/catalog-state.js";
import { nameList, submit, workingGraph, type Outcome, type StatementContext } from "./context.js";
import { printDdlDiagnostics } from "./diagnostic-text.js";
import { jobNameTaken } from "./job-names.js";

export function runCreateLoadingJob(s: AstCreateLoadingJob, ctx: StatementContext): Outcome {
  const name = s.name.name;
  const where = workingGraph(ctx, s.graph?.name);
  if (!where.graph) return where.outcome!;
  const graph = where.graph;
  const failed = () => {
    ctx.out.line(`Failed to create loading jobs: ${nameList([name])}.`);
    return "error" as const;
  };
  if (jobNameTaken(ctx, graph, name)) {
    ctx.out.line(`Semantic Check Fails: The job name ${name} is used by another object! Please use a different name.`);
    return failed();
  }
  const log = new DiagnosticLog();
  const bound = bindLoadingJob(s, ctx.services.engine.schema, log, graph);
  printDdlDiagnostics(log.diagnostics, ctx.out);
  if (!bound || log.hasErrors()) return failed();
  let plan: LoadingJobPlan;
  try {
    plan = planFromBoundJob(bound);
  } catch (err) {
    ctx.out.line(`Semantic Check Fails: ${err instanceof Error ? err.message : String(err)}`);
    return failed();
  }
  submit(ctx, [{ kind: "put-loading-job", job: loadingJobRecord(plan) }]);
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
  if (!ctx.services.catalog.loadingJob(graph, name)) {
    ctx.out.line(`Semantic Check Fails: The job ${name} does not exist!`);
    return "error";
  }
  const flags = parseRunFlags(s);
  if (typeof flags === "string") {
    ctx.out.line(flags);
    return "error";
  }
  const paths: Record<string, string> = {};
  for (const o of s.using) {
    if (RUN_OPTIONS.has(o.name.name.toUpperCase())) continue;
    if (o.value.kind !== "StringLiteral") {
      ctx.out.line(`The file path of ${o.name.name} must be a string, as in USING ${o.name.name}="/data/file.csv".`);
      return "error";
    }
    Object.defineProperty(paths, o.name.name, { value: o.value.value, enumerable: true, configurable: true, writable: true });
  }
  return runAndDisplay(ctx, { graph, job: name, paths, ...flags });
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
        if (!m) return "-n takes [first,]last line numbers, as -n 50, -n 10,50 or -n 10,$.";
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
