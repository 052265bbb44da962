// Errors of the loader that stop a load before anything is written: a plan that does not
// fit the schema, a missing file variable, an unreadable file, bad request options.
// Row-level problems are never errors: they are counted in the statistics.

export class LoadError extends Error {
  constructor(
    message: string,
    /** Line of the job text the problem belongs to, when known. */
    readonly line?: number,
  ) {
    super(message);
    this.name = "LoadError";
  }
}
