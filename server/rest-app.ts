// The REST application (conventionally port 9000): composes middleware and routes once.
// Route handlers translate HTTP to engine calls and back; they hold no engine logic.
import Koa from "koa";
import Router from "@koa/router";
import { endpointNotFound, errorMiddleware } from "./http/error-middleware.js";
import { registerDiagnostics } from "./routes/diagnostics.js";

export interface RestAppOptions {
  log?: (line: string) => void;
}

export function createRestApp(options: RestAppOptions = {}): Koa {
  const log = options.log ?? ((line: string) => process.stderr.write(line + "\n"));
  const app = new Koa();
  const router = new Router();
  registerDiagnostics(router);
  app.use(errorMiddleware(log));
  app.use(router.routes());
  app.use(router.allowedMethods());
  app.use(async (ctx, next) => {
    await next();
    if (ctx.body === undefined && ctx.status === 404) endpointNotFound(ctx);
  });
  return app;
}
