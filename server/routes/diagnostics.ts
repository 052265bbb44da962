// Diagnostics endpoints: GET|POST /echo and GET /version (interface.md "Diagnostics").
import type Router from "@koa/router";
import type { Context } from "koa";
import { badRequest } from "../http/rest-error.js";
import { PRODUCT_VERSION, componentVersionLines } from "../version.js";

/** Upper bound on /echo's sleep so one request cannot hold a connection for hours. */
const MAX_ECHO_SLEEP_SECONDS = 3600;

export function registerDiagnostics(router: Router): void {
  const echo = async (ctx: Context) => {
    const sleep = parseEchoSleep(ctx.query.sleep);
    if (sleep > 0) await new Promise((resolve) => setTimeout(resolve, sleep * 1000));
    ctx.body = { error: false, message: "Hello GSQL" };
  };
  router.get(["/echo", "/echo/"], echo);
  router.post(["/echo", "/echo/"], echo);
  router.get(["/version", "/version/"], (ctx) => {
    ctx.body = { error: "false", message: versionMessage() };
  });
}

function parseEchoSleep(raw: string | string[] | undefined): number {
  if (raw === undefined) return 0;
  if (Array.isArray(raw)) throw badRequest("Parameter sleep may be given at most once.");
  if (!/^-?\d+$/.test(raw)) throw badRequest(`Values of parameter sleep must be INT32 type, invalid value [${raw}] provided.`);
  const seconds = Number(raw);
  if (seconds > MAX_ECHO_SLEEP_SECONDS) throw badRequest(`Parameter sleep must be at most ${MAX_ECHO_SLEEP_SECONDS}.`);
  return Math.max(0, seconds);
}

/** Multi-line text clients parse: banner, "--- Version ---", product version, one line per component. */
function versionMessage(): string {
  return [`wasmgraph RESTPP:`, ` --- Version ---`, `wasmgraph version: ${PRODUCT_VERSION}`, ...componentVersionLines(), ""].join("\n");
}
