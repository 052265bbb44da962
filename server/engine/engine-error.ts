// Failures of engine operations, as data the HTTP layer maps to the interface's envelope:
// a REST-style code, a kind that decides the HTTP status, and a message safe for clients.

export type EngineErrorKind = "bad-request" | "not-found" | "timeout" | "too-large" | "out-of-memory";

export class EngineError extends Error {
  constructor(
    readonly kind: EngineErrorKind,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "EngineError";
  }
}

/** Invalid parameter, payload or name: REST-30000 unless a more specific code applies. */
export const invalidRequest = (message: string, code = "REST-30000") => new EngineError("bad-request", code, message);
export const graphNotFound = (message: string) => new EngineError("bad-request", "REST-1004", message);
