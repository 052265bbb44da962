// Writes a successful envelope as JSON text. Bodies go through toJsonText so 64-bit
// integers stay exact and FLOAT/DOUBLE values keep the text their type decided. The
// envelope's own fields around `results` are written once per version and kept.
import type { Context } from "koa";
import { toJsonText, type JsonOut } from "../../runtime-wasm/values/index.js";
import type { ApiVersion } from "./envelope.js";

/** The Content-Type of every JSON answer (what Koa gives a JSON body). */
export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

export function sendResults(ctx: Context, results: JsonOut, version: ApiVersion | undefined, code?: string): void {
  const text = code === undefined ? envelopeHead(version) + toJsonText(results) + "}" : toJsonText({ version: version as JsonOut | undefined, error: false, message: "", results, code });
  sendJsonText(ctx, text);
}

/** Answers with JSON text already written: the header set directly, no media-type lookup. */
export function sendJsonText(ctx: Context, text: string): void {
  ctx.res.setHeader("Content-Type", JSON_CONTENT_TYPE);
  ctx.body = text;
}

/** `{"version":{…},"error":false,"message":"","results":` for the last version seen (they rarely change). */
let lastHead = { edition: "", api: "", schema: -1, text: "" };
let lastHeadWithout: string | undefined;

function envelopeHead(version: ApiVersion | undefined): string {
  if (version === undefined) return (lastHeadWithout ??= toJsonText({ error: false, message: "" }).slice(0, -1) + ',"results":');
  const h = lastHead;
  if (h.schema === version.schema && h.api === version.api && h.edition === version.edition) return h.text;
  const text = toJsonText({ version: { edition: version.edition, api: version.api, schema: version.schema }, error: false, message: "" }).slice(0, -1) + ',"results":';
  lastHead = { edition: version.edition, api: version.api, schema: version.schema, text };
  return text;
}
