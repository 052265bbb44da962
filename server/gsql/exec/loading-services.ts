// The seam between the executor and the loader (server/loading): turning a CREATE LOADING
// JOB into the loader's plan with diagnostics, and running a job over files with progress
// callbacks. serve.ts fills it from the loader.
import type { AstCreateLoadingJob } from "../../../compiler/ast/index.js";
import type { Diagnostic } from "../../../compiler/diagnostics/index.js";
import type { DatabaseSchema } from "../../../runtime-wasm/schema/types.js";

export interface PlannedLoadingJob {
  diagnostics: readonly Diagnostic[];
  /** The loader's plan (plain data); absent when there are errors. */
  plan?: unknown;
  /** Vertex and edge types the job writes. */
  types: string[];
  /** The job text in the normalised form `ls` prints. */
  normalizedText?: string;
}

export interface LoadingRunRequest {
  plan: unknown;
  /** File variable -> path, from USING and the job's defaults. */
  files: Map<string, string>;
  flags: { dryRun: boolean; lineRange?: { first: number; last?: number }; maxPercentError?: number };
}

/** One source's summary line of the loading status table. */
export interface LoadingSourceSummary {
  file: string;
  lines: number;
  objects: number;
  errors: number;
  durationMs: number;
  /** `[WARNING]` lines: "1 line(s) do not have enough number of tokens." ... */
  warnings: string[];
}

export interface LoadingProgress {
  file: string;
  bytesRead: number;
  totalBytes?: number;
  lines: number;
  elapsedMs: number;
}

export interface LoadingServices {
  plan?(job: AstCreateLoadingJob, schema: DatabaseSchema, graph: string): PlannedLoadingJob;
  run?(request: LoadingRunRequest, onProgress: (p: LoadingProgress) => void): Promise<LoadingSourceSummary[]>;
}
