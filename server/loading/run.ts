// The loader's entry point: runLoad(plan, sources, sink, options) reads each source, turns
// its lines into whole objects through the compiled job, and hands them to the store in
// atomic batches. Statistics follow the POST /ddl shape; bad lines and bad objects are
// counted, never written in part. Problems with the job or the request itself (LoadError)
// are found before anything is written. Large files are read in a reader thread
// (worker/) so that parsing overlaps writing; what is written, and in which order, is the same.
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { graphView } from "../../runtime-wasm/schema/lookup.js";
import type { LoadingJobPlan } from "./plan.js";
import { LoadError } from "./errors.js";
import { compileJob, type JobSource } from "./compile/job.js";
import type { LineSource } from "./reader/index.js";
import { readSource, type Interruption, type ReadOptions, type SourceReadResult } from "./read-source.js";
import { appendBatch, batchLimit, batchSize, emptyBatch, type LoadBatch, type LoadSink } from "./sink.js";
import { readInThread } from "./worker/read-in-thread.js";
import { noteEncodedLoadBatch } from "../persist/load-batch-codec.js";
import type { LoadStatistics } from "./statistics.js";

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
  /**
   * Where files are read and parsed: "auto" (default) in a reader thread for files of at
   * least 8 MiB when the load is not atomic, so parsing overlaps writing; "thread" always for
   * files; "inline" never.
   */
  reader?: "auto" | "thread" | "inline";
  /** A batch is written at the first chunk end where it holds this many objects (default 393216; fewer for a source's first batches, see batchLimit). */
  batchObjects?: number;
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
/**
 * Objects a batch gathers before it is written: large enough that the store's per-batch work
 * is spread over many edges (sorting, its version, and above all the merge of its new edges
 * into each adjacency, one sequential pass over every list already stored: with 4M edges
 * loaded, a quarter as many batches cut the main thread's time by about a fifth); small enough
 * that applying one keeps other requests waiting at most about 150-200 ms (the target side's
 * merge runs in the store's merge thread, beside the source side's).
 */
const BATCH_OBJECTS = 393216;
/** Files at least this large are read in a reader thread (starting one costs tens of milliseconds). */
const THREAD_MIN_BYTES = 8 << 20;

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
      if (file.kind === "path" && (await readsInThread(file.path, options))) {
        results.push(await loadSourceInThread(plan, sink, js, file.path, writer, options));
        continue;
      }
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
  /** A kept batch's log record, good while the batch is written with nothing added (items are only ever added). */
  private kept: { batch: LoadBatch; size: number; graph: string; payload: Uint8Array } | undefined;
  constructor(
    private readonly sink: LoadSink,
    private readonly options: LoadOptions,
  ) {}
  get current(): LoadBatch {
    return this.batch;
  }
  /** Objects read and not written yet. */
  get held(): number {
    return batchSize(this.batch);
  }
  /** Writes the batch when it holds `limit` objects (a load's batch size, or less for a source's first batches); returns whether it did. */
  async maybeFlush(limit: number): Promise<boolean> {
    if (this.options.atomic || batchSize(this.batch) < limit) return false;
    await this.flush();
    return true;
  }
  async finish(): Promise<void> {
    await this.flush();
  }
  /** Writes a full batch read elsewhere, after the objects held so far. */
  async write(batch: LoadBatch): Promise<void> {
    if (batchSize(this.batch) === 0) this.batch = batch;
    else appendBatch(this.batch, batch);
    await this.flush();
  }
  /** Holds objects read elsewhere for the next write (with their log record, when given). */
  keep(batch: LoadBatch, logged?: { graph: string; payload: Uint8Array }): void {
    if (batchSize(this.batch) > 0) {
      appendBatch(this.batch, batch);
      return;
    }
    this.batch = batch;
    this.kept = logged && { batch, size: batchSize(batch), ...logged };
  }
  private async flush(): Promise<void> {
    const b = this.batch;
    this.batch = emptyBatch();
    const kept = this.kept;
    this.kept = undefined;
    if (this.options.dryRun || batchSize(b) === 0) return;
    if (kept !== undefined && kept.batch === b && kept.size === batchSize(b)) noteEncodedLoadBatch(kept.graph, b, kept.payload);
    await this.sink.apply(b);
  }
}

async function loadSource(js: JobSource, source: LineSource, sourceName: string, writer: BatchWriter, options: LoadOptions): Promise<SourceLoadResult> {
  const started = performance.now();
  let written = 0;
  const read = await readSource(js, source, sourceName, readOptions(options), {
    batch: () => writer.current,
    interruption: () => interruptionOf(options),
    chunkDone: async (p) => {
      options.onProgress?.({ variable: js.variable, sourceName, ...p, elapsedMs: performance.now() - started });
      if (await writer.maybeFlush(batchLimit(batchObjects(options), written))) written++;
      // Let other requests run between chunks of a long load.
      await new Promise((resolve) => setImmediate(resolve));
    },
  });
  return sourceResult(js.variable, sourceName, read, started);
}

async function readsInThread(path: string, options: LoadOptions): Promise<boolean> {
  const mode = options.reader ?? "auto";
  if (mode === "inline" || options.atomic) return false;
  return mode === "thread" || (await stat(path)).size >= THREAD_MIN_BYTES;
}

/** loadSource with the file read and parsed in a reader thread while this one writes. */
async function loadSourceInThread(plan: LoadingJobPlan, sink: LoadSink, js: JobSource, path: string, writer: BatchWriter, options: LoadOptions): Promise<SourceLoadResult> {
  const started = performance.now();
  const logGraph = sink.logged && !options.dryRun ? plan.graph : undefined;
  const request = { plan, schema: sink.schema(), variable: js.variable, path, sourceName: path, options: readOptions(options), flushObjects: batchObjects(options), heldObjects: writer.held, logGraph };
  const read = await readInThread(request, {
    write: (batch) => writer.write(batch),
    keep: (rest, logged) => writer.keep(rest, logged),
    interruption: () => interruptionOf(options),
    progress: (p) => options.onProgress?.({ variable: js.variable, sourceName: path, ...p, elapsedMs: performance.now() - started }),
  });
  return sourceResult(js.variable, path, read, started);
}

const batchObjects = (options: LoadOptions) => options.batchObjects ?? BATCH_OBJECTS;

export function readOptions(options: LoadOptions): ReadOptions {
  return { lineRange: options.lineRange, maxLineLength: options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH, maxPercentError: options.maxPercentError, chunkBytes: options.chunkBytes };
}

/** A time limit that passed comes before a user's stop. */
function interruptionOf(options: LoadOptions): Interruption | undefined {
  if (options.signal?.aborted) return "timeout";
  if (options.stop?.aborted) return "aborted";
  return undefined;
}

/** The result of a read; throws the timeout error when the time limit stopped it. */
function sourceResult(variable: string, sourceName: string, read: SourceReadResult, started: number): SourceLoadResult {
  if (read.timedOut) throw new LoadError(`The load of ${sourceName} did not finish within its time limit.`, undefined, "timeout");
  const { statistics, lines, bytes, stoppedBy, lastLine } = read;
  return { variable, sourceName, statistics, lines, bytes, durationMs: performance.now() - started, stoppedBy, lastLine };
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
