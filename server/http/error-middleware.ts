// One place for the error policy: RestErrors become the interface's envelope with their
// status; anything else is an internal error whose details stay in the server log.
import type { Context, Next } from "koa";
import { RestError } from "./rest-error.js";
import { errorEnvelope } from "./envelope.js";

export function errorMiddleware(log: (line: string) => void) {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (err) {
      if (err instanceof RestError) {
        ctx.status = err.status;
        ctx.body = errorEnvelope(err.message, err.code);
        return;
      }
      log(`internal error on ${ctx.method} ${ctx.path}: ${err instanceof Error ? err.stack : String(err)}`);
      ctx.status = 500;
      ctx.body = errorEnvelope("Internal server error.", "REST-5000");
    }
  };
}

/** Answer for a path no route matched, in the form the interface's clients look for. */
export function endpointNotFound(ctx: Context): void {
  ctx.status = 404;
  ctx.body = errorEnvelope(
    `Endpoint is not found from url = ${ctx.path}, please use GET /endpoints to list all valid endpoints.`,
    "REST-1000",
  );
}
