// The messages and results exchanged between the query pool (main thread) and its workers.
// Plain structured-cloneable data: WebAssembly.Module and WebAssembly.Memory cross threads
// by reference (the compiled code and the shared memory are not copied).
import type { OutputManifest } from "../output/decode-output.js";

/** Everything a run needs besides the memory. */
export interface RunRequest {
  module: WebAssembly.Module;
  manifest: OutputManifest;
  /** Encoded parameters (param-block.ts). */
  params: Uint8Array;
  /** Address of the graph snapshot descriptor the run reads. */
  snapshot: number;
  /** Every internal vertex id of that snapshot is below this bound. */
  vidBound: number;
  /** RunFlags bits. */
  flags: number;
  /** SELECT result limit in bytes when not the interface's 2 GB (tests lower it). */
  selectResultLimit?: number;
}

/** Parallel SELECT settings of a run (parallel-run.ts), set by the pool. */
export interface RunParallel {
  helpers: number;
  minSources: number;
  chunk: number;
  moduleId: number;
  /** Tests: how long the query's thread waits for a helper to join before taking chunks itself. */
  joinWaitMs?: number;
}

export type ToWorker =
  /** `board`: the memory's job board for SELECT helper threads. */
  | { kind: "attach"; memoryId: number; memory: WebAssembly.Memory; control: number; board: number }
  /** `chunk`: the first arena chunk, lent by the main thread. */
  /** `runTag`: non-zero; marks the job board while this run holds it. */
  | ({ kind: "run"; runId: number; runTag: number; memoryId: number; chunk: number; parallel?: RunParallel } & RunRequest);

/** Parallel SELECT in a run: walks split across threads, and chunks the helper threads ran. */
export interface ParallelStats {
  splits: number;
  helperChunks: number;
}

/** Per-SELECT timing in monitor mode. */
export interface SelectTiming {
  select: number;
  ms: number;
  /** Vertices in the SELECT's result. */
  resultSize: number;
}

export type RunOutcome =
  /** `output`: the typed output stream (decode-output.ts formats it); `dml`: the data-modification log. */
  | { kind: "ok"; output: Uint8Array; dml: Uint8Array | null; ms: number; monitor?: SelectTiming[]; logs: string[]; warnings?: string[]; parallel?: ParallelStats }
  /** An uncaught RAISE: the user's code and message. */
  | { kind: "exception"; code: number; message: string; ms: number; logs: string[] }
  /** A built-in run-time error (divide by zero, ...), or a failure of the run itself. */
  | { kind: "error"; message: string; ms: number; logs: string[] }
  /** Stopped by its timeout. */
  | { kind: "timeout"; ms: number }
  /** Stopped on request (abort). */
  | { kind: "aborted"; ms: number };

export type FromWorker =
  | { kind: "done"; runId: number; outcome: RunOutcome }
  /** The run needs another arena chunk; the answer goes to Ctl.chunkReply (0xffffffff: none). */
  | { kind: "chunk"; runId: number; bytes: number }
  | { kind: "ready" };

/** The response message's warning when vertex ids given as text name no vertex of the type. */
export function invalidVertexIdsWarning(count: number, vertexType: string | undefined): string {
  return `Runtime Warning: ${count} ids are invalid ${vertexType ? `${vertexType} ` : ""}vertex ids.`;
}
