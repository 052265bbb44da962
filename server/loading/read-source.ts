// Reading one source through a compiled job: lines become tokens, tokens become objects in
// the batch the caller hands out, and the caller is told after each chunk (where it may
// write the batch, report progress, or stop the read). The same code runs in the request's
// thread and in the reader worker (source-worker.ts), so both count lines, objects and bad
// rows identically.
import { LoadError } from "./errors.js";
import type { JobSource, BoundSource } from "./compile/job.js";
import type { Row } from "./compile/row.js";
import { extractJsonTokens, fieldSplitter, readLines, type LineSource } from "./reader/index.js";
import type { LoadBatch } from "./sink.js";
import { emptyStatistics, lineErrors, objectErrors, validObjects, type LoadStatistics } from "./statistics.js";

/** How a read is cut short between chunks: a time limit passed, or a user stopped it. */
export type Interruption = "timeout" | "aborted";

export interface ReadOptions {
  /** Read only lines first..last (1-based, the header included). */
  lineRange?: { first: number; last?: number };
  maxLineLength: number;
  maxPercentError?: number;
  chunkBytes?: number;
}

/** What the caller of readSource provides: the batch to fill and the end-of-chunk step. */
export interface ReadHooks {
  /** The batch the next objects go to (it may change after `chunkDone`). */
  batch(): LoadBatch;
  /** Asked at each chunk end, before `chunkDone`. */
  interruption(): Interruption | undefined;
  /** After each chunk: may write the batch and yield. */
  chunkDone(progress: ReadProgress): Promise<void>;
}

export interface ReadProgress {
  bytesRead: number;
  totalBytes: number | undefined;
  lines: number;
  objects: number;
}

export interface SourceReadResult {
  statistics: LoadStatistics;
  /** Lines read, without the header. */
  lines: number;
  bytes: number;
  stoppedBy?: "max_percent_error" | "aborted";
  /** Number of the last physical line read (1-based, the header included). */
  lastLine: number;
  /** True when the time limit stopped the read (the caller raises the timeout error). */
  timedOut: boolean;
}

export async function readSource(js: JobSource, source: LineSource, sourceName: string, options: ReadOptions, hooks: ReadHooks): Promise<SourceReadResult> {
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
  let stoppedBy: SourceReadResult["stoppedBy"];
  let timedOut = false;
  let lastLine = 0;
  let bindError: unknown;
  let batch = hooks.batch();

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
    if (!b.process(row, batch)) stats.failedConditionLine++;
    return true;
  };

  await readLines(
    source,
    { eol: using.eol, maxLineLength: options.maxLineLength, chunkBytes: options.chunkBytes },
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
        const interruption = hooks.interruption();
        if (interruption === "timeout") timedOut = true;
        else if (interruption === "aborted") stoppedBy = "aborted";
        if (options.maxPercentError !== undefined && lines > 0) {
          const errors = lineErrors(stats) + objectErrors(stats);
          if ((errors * 100) / lines > options.maxPercentError) stoppedBy = "max_percent_error";
        }
        await hooks.chunkDone({ bytesRead, totalBytes, lines, objects: validObjects(stats) });
        batch = hooks.batch();
      },
    },
  );
  if (bindError !== undefined) throw bindError;
  return { statistics: stats, lines, bytes, stoppedBy, lastLine, timedOut };
}
