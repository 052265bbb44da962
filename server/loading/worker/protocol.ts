// The messages between a load and its reader thread (reader-thread.ts). The thread reads
// and parses one file and sends batches; the load applies them in order and counts each
// one applied in the shared control words, which hold the thread back when it runs ahead
// and tell it to stop.
import type { LoadingJobPlan } from "../plan.js";
import type { DatabaseSchema } from "../../../runtime-wasm/schema/types.js";
import type { LoadBatch } from "../sink.js";
import type { ReadOptions, ReadProgress, SourceReadResult } from "../read-source.js";

export interface ReaderStart {
  plan: LoadingJobPlan;
  schema: DatabaseSchema;
  variable: string;
  path: string;
  sourceName: string;
  options: ReadOptions;
  /** A batch is sent once a chunk ends with at least this many objects in it (fewer for the first ones: batchLimit). */
  flushObjects: number;
  /** When set, each batch also goes out encoded for the write-ahead log (as a batch of this graph). */
  logGraph?: string;
  /** Objects the load already holds unwritten: they go out with the first batch. */
  heldObjects: number;
  /** Int32 words: see CONTROL_*. */
  control: SharedArrayBuffer;
}

/** Control word: 0 = read on, 1 = the time limit passed, 2 = a user stopped the load. */
export const CONTROL_INTERRUPT = 0;
/** Control word: batches the load has applied so far. */
export const CONTROL_APPLIED = 1;
export const CONTROL_WORDS = 2;
/** Batches sent and not yet applied, at most: one being applied, one waiting. */
export const MAX_BATCHES_AHEAD = 2;

export type ReaderMessage =
  /** Once, when the thread has loaded its code and waits for a start. */
  | { kind: "ready" }
  | { kind: "progress"; progress: ReadProgress }
  | { kind: "batch"; batch: LoadBatch; logPayload?: Uint8Array }
  | { kind: "done"; read: SourceReadResult; rest: LoadBatch; restPayload?: Uint8Array }
  | { kind: "error"; error: { name: string; message: string; line?: number; loadKind?: string } };
