// The loader's entry point: runLoad(plan, sources, sink, options) reads each source, turns
// its lines into whole objects through the compiled job, and hands them to the store in
// atomic batches. Statistics follow the POST /ddl shape; bad lines and bad objects are
// counted, never written in part. Problems with the job or the request itself (LoadError)
// are found before anything is written.
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { graphView } from "../../runtime-wasm/schema/lookup.js";
import type { LoadingJobPlan } from "./plan.js";
import { LoadError } from "./errors.js";
import { compileJob, type BoundSource, type JobSource } from "./compile/job.js";
import type { Row } from "./compile/row.js";
import { extractJsonTokens, fieldSplitter, readLines, type LineSource } from "./reader/index.js";
import { batchSize, emptyBatch, type LoadBatch, type LoadSink } from "./sink.js";
import { emptyStatistics, lineErrors, objectErrors, validObjects, type LoadStatistics } from "./statistics.js";

export interface LoadOptions {
  /** Read only lines first..last (1-based, the header included), as RUN LOADING JOB -n. */
  lineRange?: { first: number; last?: number };
  /** Count everything, write nothing (-dryrun). */
  dryRun?: boolean;
  /** Write the whole load as one atomic batch (POST /ddl): all valid objects or nothing. */
  atomic?: boolean;
  /** Longest line accepted, in characters (default 16 MiB); longer ones count as oversizeToken. */
  maxLineLength?: number;
  /** Stop a source when more than this percentage of its lines or objects is in error. */
  maxPercentError?: number;
  /** Stops the load between chunks (a timeout) with an error; already-applied batches stay. */
  signal?: AbortSignal;
  /**
   * Ends the load between chunks at a user's request (ABORT LOADING JOB): what was read is
   * written, the source reports `stoppedBy: "aborted"` and the sources after it are not read.
   */
  stop?: AbortSignal;
  onProgress?(progress: LoadProgress): void;
  /** Name reported for a body source ($sys.file_name and the statistics); default "Online_POST". */
  bodyName?: string;
  /** Chunk size of the reader in bytes (tests use small chunks to cross boundaries). */
  chunkBytes?: number;
}

export interface LoadProgress {
  variable: string;
  sourceName: string;
  bytesRead: number;
  totalBytes: number | undefined;
  lines: number;
  objects: number;
  elapsedMs: number;
}

export interface SourceLoadResult {
  variable: string;
  /** The file path, or "Online_POST" for a request body. */
  sourceName: string;
  statistics: LoadStatistics;
  /** Lines read, without the header. */
  lines: number;
  bytes: number;
  durationMs: number;
  /** Set when reading stopped early: "max_percent_error" or "aborted" (options.stop). */
  stoppedBy?: "max_percent_error" | "aborted";
  /** Number of the last physical line read (1-based, the header included): where a resumed load goes on. */
  lastLine: number;
}

export interface LoadResult {
  job: string;
  graph: string;
  sources: SourceLoadResult[];
  durationMs: number;
}

export const DEFAULT_MAX_LINE_LENGTH = 16 << 20;
const FLUSH_OBJECTS = 8192;

/** Loads `sources` (file variable → data) through the job. Variables not given are not run. */
export async function runLoad(plan: LoadingJobPlan, sources: ReadonlyMap<string, LineSource>, sink: LoadSink, options: LoadOptions = {}): Promise<LoadResult> {
  const started = performance.now();
  const view = graphView(sink.schema(), plan.graph);
  if (!view) throw new LoadError(`Graph ${plan.graph} does not exist.`);
  const job = compileJob(plan, view);
  const chosen: [JobSource, LineSource][] = [];
  for (const [variable, source] of sources) {
    const js = job.sources.find((s) => s.variable === variable);
    if (!js) throw new LoadError(`The loading job ${plan.name} has no LOAD statement reading the file variable ${variable}.`);
    chosen.push([js, source]);
  }
  for (const [, source] of chosen) if (source.kind === "path") await checkReadable(source.path);
  const writer = new BatchWriter(sink, options);
  const results: SourceLoadResult[] = [];
  for (const [js, source] of chosen) {
    const files = source.kind === "path" ? await expandDirectory(source.path) : [source];
    for (const file of files) {
      if (options.stop?.aborted) break;
      const name = file.kind === "path" ? file.path : (options.bodyName ?? "Online_POST");
      results.push(await loadSource(js, file, name, writer, options));
    }
  }
  await writer.finish();
  return { job: plan.name, graph: plan.graph, sources: results, durationMs: performance.now() - started };
}

/** Collects objects and applies them in batches (or once, when atomic). */
class BatchWriter {
  private batch: LoadBatch = emptyBatch();
  constructor(
    private readonly sink: LoadSink,
    private readonly options: LoadOptions,
  ) {}
  get current(): LoadBatch {
    return this.batch;
  }
  async maybeFlush(): Promise<void> {
    if (!this.options.atomic && batchSize(this.batch) >= FLUSH_OBJECTS) await this.flush();
  }
  async finish(): Promise<void> {
    await this.flush();
  }
  private async flush(): Promise<void> {
    const b = this.batch;
    this.batch = emptyBatch();
    if (!this.options.dryRun && batchSize(b) > 0) await this.sink.apply(b);
  }
}

async function loadSource(js: JobSource, source: LineSource, sourceName: string, writer: BatchWriter, options: LoadOptions): Promise<SourceLoadResult> {
  const started = performance.now();
  const stats = emptyStatistics();
  const { using } = js;
  const first = options.lineRange?.first ?? 1;
  const last = options.lineRange?.last ?? Infinity;
  const split = fieldSplitter(using.separator, using.quote === "double" ? '"' : using.quote === "single" ? "'" : undefined);
  const fields: string[] = [];
  const row: Row = { tokens: fields, fileName: sourceName };
  let bound: BoundSource | undefined = using.header ? undefined : js.bind(undefined, stats);
  let headerPending = using.header;
  let lines = 0;
  let bytes = 0;
  let stoppedBy: SourceLoadResult["stoppedBy"];
  let timedOut = false;
  let lastLine = 0;
  let bindError: unknown;

  const onLine = (text: string, lineNumber: number): boolean => {
    if (headerPending) {
      headerPending = false;
      const n = split(text, fields);
      try {
        bound = js.bind(fields.slice(0, n).map((c) => c.trim()), stats);
      } catch (err) {
        bindError = err;
        return false;
      }
      return true;
    }
    if (lineNumber < first) return true;
    if (lineNumber > last) return false;
    lines++;
    const b = bound!;
    if (using.jsonFile) {
      if (!extractJsonTokens(text, b.jsonPaths, fields)) {
        stats.invalidJson++;
        return true;
      }
      if (fields.length !== b.jsonPaths.length) fields.length = b.jsonPaths.length;
    } else {
      const n = split(text, fields);
      // Tokens past n are left from a longer line: cut them (only when the count changes).
      if (fields.length !== n) fields.length = n;
      if (n < b.requiredTokens) {
        stats.notEnoughToken++;
        return true;
      }
    }
    if (b.rejectLine && b.rejectLine(row)) {
      stats.rejectLine++;
      return true;
    }
    stats.validLine++;
    if (!b.process(row, writer.current)) stats.failedConditionLine++;
    return true;
  };

  await readLines(
    source,
    { eol: using.eol, maxLineLength: options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH, chunkBytes: options.chunkBytes },
    {
      line: (text, lineNumber) => {
        if (stoppedBy !== undefined || timedOut || bindError !== undefined) return false;
        lastLine = lineNumber;
        return onLine(text, lineNumber);
      },
      oversize: (lineNumber) => {
        lastLine = lineNumber;
        if (headerPending) {
          bindError = new LoadError(`The header line of ${sourceName} is longer than the line limit.`);
          return;
        }
        if (lineNumber >= first && lineNumber <= last) {
          lines++;
          stats.oversizeToken++;
        }
      },
      progress: async (bytesRead, totalBytes) => {
        bytes = bytesRead;
        if (bindError !== undefined) return;
        if (options.signal?.aborted) timedOut = true;
        else if (options.stop?.aborted) stoppedBy = "aborted";
        if (options.maxPercentError !== undefined && lines > 0) {
          const errors = lineErrors(stats) + objectErrors(stats);
          if ((errors * 100) / lines > options.maxPercentError) stoppedBy = "max_percent_error";
        }
        options.onProgress?.({ variable: js.variable, sourceName, bytesRead, totalBytes, lines, objects: validObjects(stats), elapsedMs: performance.now() - started });
        await writer.maybeFlush();
        // Let other requests run between chunks of a long load.
        await new Promise((resolve) => setImmediate(resolve));
      },
    },
  );
  if (bindError !== undefined) throw bindError;
  if (timedOut) throw new LoadError(`The load of ${sourceName} did not finish within its time limit.`, undefined, "timeout");
  return { variable: js.variable, sourceName, statistics: stats, lines, bytes, durationMs: performance.now() - started, stoppedBy, lastLine };
}

async function checkReadable(path: string): Promise<void> {
  try {
    await stat(path);
  } catch {
    throw new LoadError(`File or directory ${path} does not exist or cannot be read.`, undefined, "io");
  }
}

/** A directory loads every non-hidden file in it, in name order. */
export async function expandDirectory(path: string): Promise<LineSource[]> {
  const s = await stat(path);
  if (!s.isDirectory()) return [{ kind: "path", path }];
  const names = (await readdir(path)).filter((n) => !n.startsWith(".")).sort();
  const out: LineSource[] = [];
  for (const n of names) {
    const full = join(path, n);
    if ((await stat(full)).isFile()) out.push({ kind: "path", path: full });
  }
  return out;
}
