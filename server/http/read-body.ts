// Reads a request body as UTF-8 text with a size cap. Over the cap the request is refused
// with 413 as soon as the declared length or the bytes received pass it, without
// buffering the rest.
import type { Context } from "koa";
import { RestError } from "./rest-error.js";

/** Default cap for JSON bodies (the interface's default data payload limit). */
export const DEFAULT_BODY_LIMIT_BYTES = 128 * 1024 * 1024;

export async function readBodyText(ctx: Context, limitBytes: number): Promise<string> {
  return (await readBodyBytes(ctx, limitBytes)).toString("utf8");
}

/** The body's bytes as sent (POST /ddl data must not pass through any decoding or parsing). */
export async function readBodyBytes(ctx: Context, limitBytes: number): Promise<Buffer> {
  const declared = Number(ctx.get("content-length") || "NaN");
  if (declared > limitBytes) throw payloadTooLarge(limitBytes);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > limitBytes) {
      // Stop reading; the connection is closed after the answer so the rest is not parsed.
      ctx.set("Connection", "close");
      throw payloadTooLarge(limitBytes);
    }
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}

function payloadTooLarge(limitBytes: number): RestError {
  return new RestError(413, "REST-30000", `The request body is larger than the limit of ${limitBytes} bytes.`);
}
