// One place for the error policy: RestErrors and EngineErrors become the interface's
// envelope with a fitting status; anything else is an internal error whose details stay in
// the server log.
import type { Context, Next } from "koa";
import { RestError } from "./rest-error.js";
import { errorEnvelope } from "./envelope.js";
import { EngineError, type EngineErrorKind } from "../engine/engine-error.js";

const STATUS_BY_KIND: Record<EngineErrorKind, number> = {
  "bad-request": 400,
  "not-found": 400,
  timeout: 504,
  "too-large": 413,
  "out-of-memory": 507,
};

/** The error policy as a middleware of its own (the REST app has it in its front door). */
export function errorMiddleware(log: (line: string) => void) {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (err) {
      answerError(ctx, err, log);
    }
  };
}

/** Answers a failed request: the envelope with the failure's status, or a logged internal error. */
export function answerError(ctx: Context, err: unknown, log: (line: string) => void): void {
  if (err instanceof RestError || err instanceof EngineError) {
    ctx.status = err instanceof RestError ? err.status : STATUS_BY_KIND[err.kind];
    ctx.state.timedOut = err instanceof EngineError && err.kind === "timeout";
    ctx.body = errorEnvelope(err.message, err.code, ctx.state.apiVersion);
    return;
  }
  log(`internal error on ${ctx.method} ${ctx.path}: ${err instanceof Error ? err.stack : String(err)}`);
  ctx.status = 500;
  ctx.body = errorEnvelope("Internal server error.", "REST-5000");
}

/** Answer for a path no route matched, in the form the interface's clients look for. */
export function endpointNotFound(ctx: Context): void {
  ctx.status = 404;
  ctx.body = errorEnvelope(
    `Endpoint is not found from url = ${ctx.path}, please use GET /endpoints to list all valid endpoints.`,
    "REST-1000",
  );
}
