// A request body read as JSON: size cap (413), nesting cap, and malformed text answered with
// REST-2001 naming the line and column.
import type { Context } from "koa";
import { JsonSyntaxError, parseJsonBody, type JsonParseOptions, type JsonValue } from "./json-body.js";
import { readBodyText } from "./read-body.js";
import { RestError } from "./rest-error.js";

export interface BodyLimits {
  bodyBytes: number;
  jsonDepth: number;
}

export async function readJsonBody(ctx: Context, limits: BodyLimits): Promise<JsonValue> {
  return readBodyAs(ctx, limits, parseJsonBody);
}

/** The body text given to `read` (a parser); syntax errors become REST-2001. */
export async function readBodyAs<T>(ctx: Context, limits: BodyLimits, read: (text: string, options: JsonParseOptions) => T): Promise<T> {
  const text = await readBodyText(ctx, limits.bodyBytes);
  try {
    return read(text, { maxDepth: limits.jsonDepth });
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw new RestError(400, "REST-2001", `Invalid JSON in the request body: ${e.message}.`);
    throw e;
  }
}
