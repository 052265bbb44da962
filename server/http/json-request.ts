// A request body read as JSON: size cap (413), nesting cap, and malformed text answered with
// REST-2001 naming the line and column.
import type { Context } from "koa";
import { JsonSyntaxError, parseJsonBody, type JsonValue } from "./json-body.js";
import { readBodyText } from "./read-body.js";
import { RestError } from "./rest-error.js";

export async function readJsonBody(ctx: Context, limits: { bodyBytes: number; jsonDepth: number }): Promise<JsonValue> {
  const text = await readBodyText(ctx, limits.bodyBytes);
  try {
    return parseJsonBody(text, { maxDepth: limits.jsonDepth });
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw new RestError(400, "REST-2001", `Invalid JSON in the request body: ${e.message}.`);
    throw e;
  }
}
