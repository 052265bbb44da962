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

export type ToWorker =
  | { kind: "attach"; memoryId: number; memory: WebAssembly.Memory; control: number }
  /** `chunk`: the first arena chunk, lent by the main thread. */
  | ({ kind: "run"; runId: number; memoryId: number; chunk: number } & RunRequest);

/** Per-SELECT timing in monitor mode. */
export interface SelectTiming {
  select: number;
  ms: number;
  /** Vertices in the SELECT's result. */
  resultSize: number;
}

export type RunOutcome =
  /** `output`: the typed output stream (decode-output.ts formats it); `dml`: the data-modification log. */
  | { kind: "ok"; output: Uint8Array; dml: Uint8Array | null; ms: number; monitor?: SelectTiming[]; logs: string[]; warnings?: string[] }
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
