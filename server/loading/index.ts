// The loader's public entry points: the plan format, running a plan over sources into a
// sink, the server-side calls behind POST /ddl and RUN LOADING JOB, and the adapter from
// the binder's bound loading job.
export * from "./plan.js";
export { runLoad, type LoadOptions, type LoadProgress, type LoadResult, type SourceLoadResult, DEFAULT_MAX_LINE_LENGTH } from "./run.js";
export { postDdl, ONLINE_POST, type DdlRequest, type DdlResult } from "./post-ddl.js";
export { runLoadingJob, type RunJobRequest, type RunJobSummary } from "./run-job.js";
export { warmReaderThread } from "./worker/read-in-thread.js";
export { warmLoader } from "./warm-up.js";
export { planFromBoundJob } from "./bound-adapter.js";
export { formatLoadingJob } from "./plan-text.js";
export { engineSink } from "./engine-sink.js";
export { applyLoadBatch, type BatchOutcome } from "./apply-batch.js";
export { LoadError, type LoadErrorKind } from "./errors.js";
export type { LoadBatch, LoadSink, VertexWrite, EdgeWrite, VertexDelete, EdgeDelete, AttributeWrite, VertexId } from "./sink.js";
export type { LoadStatistics, ObjectStatistics } from "./statistics.js";
export type { LineSource } from "./reader/index.js";
