// The GSQL-server application (conventionally port 14240), as the interface's shell and
// clients call it (compat-notes "GSQL server HTTP", gsql-ddl-loading-shell §10.1):
//   POST /gsqlserver/gsql/login             base64 `user:password` -> JSON greeting
//   POST /gsqlserver/gsql/file | /command   URL-encoded GSQL -> streamed plain text
//   POST /gsql/v1/statements                the same with a text/plain body (newer clients)
//   POST /gsqlserver/gsql/dialog            `<dialogId>,<answer>` for a waiting command
//   GET  /gsqlserver/gsql/schema | /queryinfo | /udtlist, POST /gsqlserver/interpreted_query
//   /restpp/*                               the REST endpoints, in process
// Handlers translate HTTP to the executor and catalog; they hold no GSQL logic.
import Koa, { type Context } from "koa";
import Router from "@koa/router";
import type { IncomingMessage, ServerResponse } from "node:http";
import { authOff, type AuthDecision, type GsqlAuth } from "./gsql-auth.js";
import { BadGsqlRequest, DEFAULT_GSQL_BODY_LIMIT_BYTES, readGsqlText } from "./request-text.js";
import { runGsql } from "./exec/run-script.js";
import type { ExecServices } from "./exec/context.js";
import { sessionFromCookie } from "./session.js";
import { RETURN_CODE_PREFIX, StreamShellOutput } from "./shell-output.js";
import { requestDurability } from "../persist/request-durability.js";
import { registerInfoRoutes } from "./routes/info-routes.js";
import { registerInterpretRoute } from "./routes/interpret-route.js";
import { registerLoginRoutes } from "./routes/login-routes.js";
import type { Principal } from "../auth/access.js";

export interface GsqlAppOptions {
  exec: ExecServices;
  /** The REST application's request handler, for /restpp/*. */
  restHandler: (req: IncomingMessage, res: ServerResponse) => void;
  auth?: GsqlAuth;
  /** Largest GSQL text accepted, in bytes. */
  bodyLimitBytes?: number;
  /** Holds answers until the request's changes are durable (server/persist); absent: memory only. */
  durableWrites?: Koa.Middleware;
  log?: (line: string) => void;
}

export interface GsqlAppContext {
  exec: ExecServices;
  auth: GsqlAuth;
  bodyLimitBytes: number;
  log: (line: string) => void;
}

export function createGsqlApp(options: GsqlAppOptions): Koa {
  const app: GsqlAppContext = {
    exec: options.exec,
    auth: options.auth ?? authOff,
    bodyLimitBytes: options.bodyLimitBytes ?? DEFAULT_GSQL_BODY_LIMIT_BYTES,
    log: options.log ?? ((line) => process.stderr.write(line + "\n")),
  };
  const koa = new Koa();
  const router = new Router();
  registerLoginRoutes(router, app);
  router.post("/gsqlserver/gsql/file", (ctx) => runStatements(ctx, app, "file", "form"));
  router.post("/gsqlserver/gsql/command", (ctx) => runStatements(ctx, app, "interactive", "form"));
  router.post("/gsql/v1/statements", (ctx) => runStatements(ctx, app, "file", "plain"));
  registerInfoRoutes(router, app);
  registerInterpretRoute(router, app);
  koa.use(async (ctx, next) => {
    if (ctx.path === "/restpp" || ctx.path.startsWith("/restpp/")) return forwardToRest(ctx, options.restHandler);
    return next();
  });
  koa.use(errorsAsText(app));
  if (options.durableWrites) koa.use(options.durableWrites);
  koa.use(guard(app, router));
  koa.use(router.routes());
  koa.use(async (ctx, next) => {
    await next();
    if (ctx.body === undefined && ctx.status === 404) {
      ctx.status = 404;
      ctx.type = "text/plain; charset=utf-8";
      ctx.body = `No GSQL-server endpoint at ${ctx.method} ${ctx.path}.\n`;
    }
  });
  return koa;
}

/** Refusals as plain text with a fitting status (and a return-code line for shell clients); internal errors stay in the log. */
function errorsAsText(app: GsqlAppContext) {
  return async (ctx: Context, next: Koa.Next) => {
    try {
      await next();
    } catch (err) {
      ctx.type = "text/plain; charset=utf-8";
      if (err instanceof BadGsqlRequest) {
        ctx.status = err.status;
        ctx.body = `${err.message}\n${RETURN_CODE_PREFIX},201\n`;
        return;
      }
      const status = (err as { status?: unknown }).status;
      if (typeof status === "number" && status >= 400 && status < 500) {
        ctx.status = status;
        ctx.body = `${(err as Error).message}\n${RETURN_CODE_PREFIX},201\n`;
        return;
      }
      app.log(`internal error on ${ctx.method} ${ctx.path}: ${err instanceof Error ? err.stack : String(err)}`);
      ctx.status = 500;
      ctx.body = `The GSQL server failed because of an internal error; the server log has the details.\n${RETURN_CODE_PREFIX},255\n`;
    }
  };
}

/**
 * Authentication and endpoint access for every request before its route runs; the decision
 * stays on the context for the route (`authorized`) and the statements it runs.
 */
function guard(app: GsqlAppContext, router: Router) {
  return async (ctx: Context, next: Koa.Next) => {
    const routed = router.match(ctx.path, ctx.method).route;
    const decision = await app.auth.authorize(ctx, routed);
    ctx.state.gsqlAuth = decision;
    if (!decision.ok) {
      refuseAuth(ctx, decision);
      return;
    }
    return next();
  };
}

function refuseAuth(ctx: Context, decision: { status: number; message: string }): void {
  ctx.status = decision.status;
  ctx.type = "text/plain; charset=utf-8";
  ctx.body = `${decision.message}\n${RETURN_CODE_PREFIX},41\n`;
}

/** Answers a refused authorisation; true when the request may go on. */
export function authorized(ctx: Context, _app: GsqlAppContext): boolean {
  const decision = ctx.state.gsqlAuth as AuthDecision | undefined;
  if (decision?.ok) return true;
  refuseAuth(ctx, decision ?? { status: 401, message: "The request was not authenticated." });
  return false;
}

/** Who the guard let this request through as (absent: authentication off). */
export function requestPrincipal(ctx: Context): Principal | undefined {
  const decision = ctx.state.gsqlAuth as AuthDecision | undefined;
  return decision?.ok ? decision.principal : undefined;
}

/** POST .../file, .../command, /gsql/v1/statements: runs the text, streaming the output. */
async function runStatements(ctx: Context, app: GsqlAppContext, mode: "file" | "interactive", encoding: "form" | "plain"): Promise<void> {
  if (!authorized(ctx, app)) return;
  const text = await readGsqlText(ctx, app.bodyLimitBytes, encoding);
  const session = sessionFromCookie(ctx.get("GSQL-Cookie") || undefined);
  const out = new StreamShellOutput(requestDurability(ctx));
  ctx.status = 200;
  ctx.type = "text/plain; charset=utf-8";
  ctx.body = out.stream;
  // The body streams while the statements run; the return-code line ends it.
  void runGsql({ text, mode, session, principal: requestPrincipal(ctx) }, app.exec, out).then(
    (result) => out.finish(result.returnCode),
    (err: unknown) => {
      app.log(`GSQL run failed: ${err instanceof Error ? err.stack : String(err)}`);
      out.line("The command failed because of an internal error; the server log has the details.");
      out.finish(255);
    },
  );
}

/** /restpp/<path> is the REST endpoint <path>, served by the REST application in this process. */
function forwardToRest(ctx: Context, restHandler: GsqlAppOptions["restHandler"]): void {
  const rest = ctx.originalUrl.slice("/restpp".length);
  ctx.req.url = rest === "" || rest.startsWith("?") ? "/" + rest : rest;
  ctx.respond = false;
  restHandler(ctx.req, ctx.res);
}
