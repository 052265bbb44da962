// Errors of the loader that stop a load before anything is written: a plan that does not
// fit the schema, a missing file variable, an unreadable file, bad request options.
// Row-level problems are never errors: they are counted in the statistics.

export type LoadErrorKind = "invalid" | "timeout" | "io";

export class LoadError extends Error {
  constructor(
    message: string,
    /** Line of the job text the problem belongs to, when known. */
    readonly line?: number,
    /** invalid: the job or request is wrong; timeout: the time limit passed; io: a source could not be read. */
    readonly kind: LoadErrorKind = "invalid",
  ) {
    super(message);
    this.name = "LoadError";
  }
}
