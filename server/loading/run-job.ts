// RUN LOADING JOB as an engine call: picks the file variables to run (USING f="path"
// overrides a default path; without USING every variable runs), loads them in batches,
// reports progress, and returns the summary the shell prints (gsql-ddl-loading-shell §8.2,
// the 3.9 layout). The GSQL server streams `lines` to the client.
import type { Engine } from "../engine/engine.js";
import type { LoadingJobPlan } from "./plan.js";
import { LoadError } from "./errors.js";
import { engineSink } from "./engine-sink.js";
import { expandDirectory, runLoad, type LoadProgress, type LoadResult, type SourceLoadResult } from "./run.js";
import type { LineSource } from "./reader/index.js";
import { lineErrors, objectErrors, validObjects, type ObjectStatistics } from "./statistics.js";
import { formatProgress, formatStatusTable } from "./summary-format.js";

export interface RunJobRequest {
  graph: string;
  job: string;
  /** USING f="path", ...: only these variables run. Absent or empty: every variable, at its default path. */
  paths?: Record<string, string>;
  /** -n first,last */
  lineRange?: { first: number; last?: number };
  /** -dryrun */
  dryRun?: boolean;
  /** -noprint: only the job header. */
  noPrint?: boolean;
  /** -max_percent_error p */
  maxPercentError?: number;
  /** Directory named in the "Loading log" line (none: the line is left out). */
  logDirectory?: string;
  /** Redraws of the status block while loading (the progress bar). */
  onProgress?(lines: string[], progress: LoadProgress): void;
  /** Clock in epoch milliseconds, for the job id. */
  now?: () => number;
  /** ABORT LOADING JOB: ends the load between chunks; what was read stays written. */
  stop?: AbortSignal;
  /** Called once the job id is known, before anything is read. */
  onStart?(jobId: string): void;
  /**
   * RESUME LOADING JOB: the job id and result of an aborted run. Files it finished are left
   * alone, the file it stopped in goes on after its last line read, the others load whole.
   */
  resume?: { jobId: string; result: LoadResult };
}

export interface RunJobSummary {
  /** <graph>.<job>.file.m1.<epoch-ms> */
  jobId: string;
  result: LoadResult;
  /** The text the shell prints, line by line. */
  lines: string[];
  /** The status block alone (what SHOW LOADING STATUS reprints). */
  status: string[];
}

export async function runLoadingJob(engine: Engine, request: RunJobRequest): Promise<RunJobSummary> {
  const plan = engine.loadingJob(request.graph, request.job);
  if (!plan) throw new LoadError(`The loading job '${request.job}' does not exist in graph '${request.graph}'.`);
  const sources = chooseSources(plan, request.paths);
  const jobId = request.resume?.jobId ?? `${request.graph}.${request.job}.file.m1.${(request.now ?? Date.now)()}`;
  request.onStart?.(jobId);
  const header = jobHeader(request, jobId);
  const total = sources.size;
  const started: string[] = [];
  const load = request.resume ? resumeLoad(request.resume.result) : runLoad;
  const result = await load(plan, sources, engineSink(engine, request.graph), {
    lineRange: request.lineRange,
    dryRun: request.dryRun,
    maxPercentError: request.maxPercentError,
    stop: request.stop,
    onProgress:
      request.onProgress &&
      ((p) => {
        if (started[started.length - 1] !== p.sourceName) started.push(p.sourceName);
        request.onProgress!(formatProgress(jobId, p, started.length - 1, Math.max(total, started.length)), p);
      }),
  });
  const status = statusLines(jobId, result);
  if (request.noPrint) return { jobId, result, lines: header, status };
  return { jobId, result, lines: [...header, "", ...status], status };
}

/** The variables to run with their paths; a variable with no path anywhere stops the job before it starts. */
function chooseSources(plan: LoadingJobPlan, paths: Record<string, string> | undefined): Map<string, LineSource> {
  const read = new Set(plan.statements.flatMap((s) => (s.source.kind === "file" ? [s.source.variable] : [])));
  const out = new Map<string, LineSource>();
  const given = Object.entries(paths ?? {});
  if (given.length > 0) {
    for (const [variable, path] of given) {
      if (!plan.files.some((f) => f.name === variable)) throw new LoadError(`The loading job '${plan.name}' has no file variable ${variable}.`);
      if (read.has(variable)) out.set(variable, { kind: "path", path });
    }
    return out;
  }
  for (const f of plan.files) {
    if (!read.has(f.name)) continue;
    if (f.defaultPath === undefined) throw new LoadError(`The file variable ${f.name} has no path: give one with USING ${f.name}="path".`);
    out.set(f.name, { kind: "path", path: f.defaultPath });
  }
  return out;
}

function jobHeader(request: RunJobRequest, jobId: string): string[] {
  const log = request.logDirectory ? [`  Loading log: '${request.logDirectory}/${jobId}.log'`] : [];
  if (request.noPrint) return ["Kick off the following job:", `  JobName: ${request.job}, jobid: ${jobId}`, ...log];
  return [
    `[Tip: Use "CTRL + C" to stop displaying the loading status update, then use "SHOW LOADING STATUS jobid" to track the loading progress again]`,
    `[Tip: Manage loading jobs with "ABORT/RESUME LOADING JOB jobid"]`,
    "Kick off the following job, i.e.",
    `  JobName: ${request.job}, jobid: ${jobId}`,
    ...log,
  ];
}

/** Finished/Total count files: a directory variable contributes each file it holds. */
function statusLines(jobId: string, result: LoadResult): string[] {
  const stopped = result.sources.some((s) => s.stoppedBy !== undefined);
  const finished = result.sources.filter((s) => s.stoppedBy !== "aborted").length;
  return [
    `Job "${jobId}" loading status`,
    `[${stopped ? "ABORTED" : "FINISHED"}] m1 ( Finished: ${finished} / Total: ${result.sources.length} )`,
    `  [${stopped ? "ABORTED" : "LOADED"}]`,
    ...statusTable(result),
    ...result.sources.flatMap(warnings),
  ];
}

/** The FILENAME | LINES | OBJECTS | ERRORS | AVG SPEED | DURATION table of a result. */
export function statusTable(result: LoadResult): string[] {
  return formatStatusTable(result.sources.map((s) => ({
    file: s.sourceName,
    lines: s.lines,
    objects: validObjects(s.statistics),
    errors: lineErrors(s.statistics) + objectErrors(s.statistics),
    seconds: s.durationMs / 1000,
  })));
}

/**
 * The load of a resumed job: runLoad file by file, skipping the files `previous` finished and
 * starting the one it stopped in after its last line read.
 */
function resumeLoad(previous: LoadResult): typeof runLoad {
  const before = new Map(previous.sources.map((s) => [s.sourceName, s]));
  return async (plan, sources, sink, options = {}) => {
    const started = performance.now();
    const sourcesOut: SourceLoadResult[] = [];
    for (const [variable, source] of sources) {
      const files = source.kind === "path" ? await expandDirectory(source.path) : [source];
      for (const file of files) {
        if (options.stop?.aborted) break;
        const done = file.kind === "path" ? before.get(file.path) : undefined;
        if (done && done.stoppedBy !== "aborted") continue;
        const first = Math.max(done ? done.lastLine + 1 : 1, options.lineRange?.first ?? 1);
        const lineRange = { first, ...(options.lineRange?.last !== undefined ? { last: options.lineRange.last } : {}) };
        const part = await runLoad(plan, new Map([[variable, file]]), sink, { ...options, lineRange });
        sourcesOut.push(...part.sources);
      }
    }
    return { job: plan.name, graph: plan.graph, sources: sourcesOut, durationMs: performance.now() - started };
  };
}

const LINE_WARNINGS: [keyof SourceLoadResult["statistics"], string][] = [
  ["notEnoughToken", "line(s) do not have enough number of tokens."],
  ["rejectLine", "line(s) are rejected by the reject line rule."],
  ["invalidJson", "line(s) are not valid JSON objects."],
  ["oversizeToken", "line(s) are longer than the line size limit."],
];

const OBJECT_WARNINGS: [keyof ObjectStatistics, string][] = [
  ["noIdFound", "object(s) have an empty id."],
  ["invalidPrimaryId", "object(s) have an invalid primary id."],
  ["invalidSecondaryId", "object(s) have an invalid target id."],
  ["invalidVertexType", "object(s) name an invalid vertex type."],
  ["invalidAttribute", "object(s) have invalid attributes."],
  ["incorrectFixedBinaryLength", "object(s) have a FIXED_BINARY value of the wrong length."],
];

function warnings(s: SourceLoadResult): string[] {
  const prefix = `[WARNING] bad data in m1 (replica 1) ${s.sourceName}`;
  const out: string[] = [];
  for (const [key, text] of LINE_WARNINGS) {
    const n = s.statistics[key] as number;
    if (n > 0) out.push(`${prefix}: ${n} ${text}`);
  }
  for (const group of [s.statistics.vertex, s.statistics.edge, s.statistics.deleteVertex, s.statistics.deleteEdge]) {
    for (const entry of group) {
      for (const [key, text] of OBJECT_WARNINGS) {
        const n = entry[key] as number;
        if (n > 0) out.push(`${prefix}:${entry.typeName}: ${n} ${text}`);
      }
    }
  }
  if (s.stoppedBy === "max_percent_error") out.push(`${prefix}: loading stopped: the error percentage passed -max_percent_error.`);
  return out;
}
