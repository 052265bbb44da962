// A user-facing failure of a REST request: carries the interface's error code (REST-xxxx),
// the HTTP status that fits it, and a message safe to show to the client.

/** Thrown by route handlers; the error middleware turns it into the interface's envelope. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "RestError";
  }
}

export const badRequest = (message: string, code = "REST-30000") => new RestError(400, code, message);
export const notFound = (message: string, code = "REST-1000") => new RestError(404, code, message);
