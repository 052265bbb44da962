// Writes a successful envelope as JSON text. Bodies go through toJsonText so 64-bit
// integers stay exact and FLOAT/DOUBLE values keep the text their type decided.
import type { Context } from "koa";
import { toJsonText, type JsonOut } from "../../runtime-wasm/values/index.js";
import type { ApiVersion } from "./envelope.js";

export function sendResults(ctx: Context, results: JsonOut, version: ApiVersion | undefined, code?: string): void {
  ctx.type = "application/json";
  ctx.body = toJsonText({ version: version as JsonOut | undefined, error: false, message: "", results, code });
}
