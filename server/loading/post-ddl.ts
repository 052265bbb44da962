// POST /ddl/{graph}: one request body is the data of one file variable of a loading job.
// The body is loaded atomically: every valid object of it, or (on a malformed request, a
// timeout or a store refusal) nothing. Parameters as in interface.md: tag (the job),
// filename (a file variable, or a path a variable stands for), sep and eol (1–4 characters,
// overriding the job's USING for this data), ack, timeout, concise.
import type { Engine } from "../engine/engine.js";
import type { LoadingJobPlan } from "./plan.js";
import { LoadError } from "./errors.js";
import { engineSink } from "./engine-sink.js";
import { runLoad } from "./run.js";
import type { LoadStatistics, ObjectStatistics } from "./statistics.js";

export interface DdlRequest {
  graph: string;
  tag: string;
  filename?: string;
  sep?: string;
  eol?: string;
  /** Seconds; 0 or absent: the engine's default. */
  timeoutSeconds?: number;
  concise?: boolean;
  body: Uint8Array;
}

export interface DdlResult {
  sourceFileName: string;
  statistics: LoadStatistics | Partial<LoadStatistics>;
}

export const ONLINE_POST = "Online_POST";

export async function postDdl(engine: Engine, request: DdlRequest): Promise<DdlResult[]> {
  const job = engine.loadingJob(request.graph, request.tag);
  if (!job) throw new LoadError(`The loading job '${request.tag}' does not exist in graph '${request.graph}'.`);
  const variable = fileVariable(job, request.filename);
  for (const [name, text] of [["sep", request.sep], ["eol", request.eol]] as const) {
    if (text !== undefined && (text.length < 1 || text.length > 4)) throw new LoadError(`Parameter ${name} must be 1 to 4 characters long, got ${text.length}.`);
  }
  const plan = withFormat(job, variable, request.sep, request.eol);
  const timeoutMs = request.timeoutSeconds ? request.timeoutSeconds * 1000 : engine.defaultTimeoutMs;
  const result = await runLoad(plan, new Map([[variable, { kind: "body", data: request.body }]]), engineSink(engine, request.graph), {
    atomic: true,
    bodyName: ONLINE_POST,
    signal: AbortSignal.timeout(timeoutMs),
  });
  return result.sources.map((s) => ({ sourceFileName: ONLINE_POST, statistics: request.concise ? conciseStatistics(s.statistics) : s.statistics }));
}

/**
 * The variable the data is for: a variable name, or the path a variable (or a literal LOAD
 * source) stands for. Without one, the job's only file variable (or the reserved default
 * name a literal LOAD gets).
 */
function fileVariable(job: LoadingJobPlan, filename: string | undefined): string {
  const read = new Set(job.statements.flatMap((s) => (s.source.kind === "file" ? [s.source.variable] : [])));
  if (filename === undefined) {
    if (read.size === 1) return [...read][0]!;
    throw new LoadError(`The loading job '${job.name}' reads ${read.size} file variables (${[...read].join(", ")}): name one with the filename parameter.`);
  }
  if (read.has(filename)) return filename;
  const byPath = job.files.find((f) => f.defaultPath === filename && read.has(f.name));
  if (byPath) return byPath.name;
  throw new LoadError(`The loading job '${job.name}' has no LOAD statement for the file variable or path '${filename}'.`);
}

/** The job with the request's sep/eol in the USING of every statement reading `variable`. */
function withFormat(job: LoadingJobPlan, variable: string, sep: string | undefined, eol: string | undefined): LoadingJobPlan {
  if (sep === undefined && eol === undefined) return job;
  return {
    ...job,
    statements: job.statements.map((s) =>
      s.source.kind === "file" && s.source.variable === variable
        ? { ...s, using: { ...s.using, ...(sep !== undefined ? { separator: sep } : {}), ...(eol !== undefined ? { eol } : {}) } }
        : s,
    ),
  };
}

/**
 * concise=true (the interface leaves its meaning open): file-level counters that are zero
 * are left out (validLine is always kept), and each type entry keeps typeName, validObject
 * and its non-zero error counters.
 */
function conciseStatistics(s: LoadStatistics): Partial<LoadStatistics> {
  const out: Record<string, unknown> = { validLine: s.validLine };
  for (const key of ["rejectLine", "failedConditionLine", "notEnoughToken", "invalidJson", "oversizeToken"] as const) if (s[key] > 0) out[key] = s[key];
  for (const group of ["vertex", "edge", "deleteVertex", "deleteEdge"] as const) {
    if (s[group].length > 0) out[group] = s[group].map(conciseObject);
  }
  return out as Partial<LoadStatistics>;
}

function conciseObject(o: ObjectStatistics): Partial<ObjectStatistics> {
  const out: Record<string, string | number> = { typeName: o.typeName, validObject: o.validObject };
  for (const [k, v] of Object.entries(o)) if (k !== "typeName" && k !== "validObject" && typeof v === "number" && v > 0) out[k] = v;
  return out as Partial<ObjectStatistics>;
}
