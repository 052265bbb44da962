// Reading GSQL text from a request body. The shell clients send URL-encoded text under a
// form content type (spaces as `+`); newer clients send text/plain. Bodies over the limit,
// not valid UTF-8, not valid URL encoding, or holding control characters are refused with a
// reason rather than guessed at.
import type { Context } from "koa";

export const DEFAULT_GSQL_BODY_LIMIT_BYTES = 32 * 1024 * 1024;

/** A request the GSQL server refuses; `status` is the HTTP status that fits. */
export class BadGsqlRequest extends Error {
  constructor(message: string, readonly status = 400) {
    super(message);
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

export async function readGsqlText(ctx: Context, limitBytes: number, encoding: "form" | "plain"): Promise<string> {
  const bytes = await readBodyBytes(ctx, limitBytes);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new BadGsqlRequest("The request body is not valid UTF-8 text.");
  }
  if (encoding === "form") {
    try {
      text = decodeURIComponent(text.replace(/\+/g, " "));
    } catch {
      throw new BadGsqlRequest("The request body is not URL-encoded GSQL text: a '%' escape is malformed or does not encode UTF-8.");
    }
  }
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(text)) {
    throw new BadGsqlRequest("The request body holds control characters; GSQL text is plain text.");
  }
  return text;
}

async function readBodyBytes(ctx: Context, limitBytes: number): Promise<Uint8Array> {
  const tooLarge = () => new BadGsqlRequest(`The request body is larger than the limit of ${limitBytes} bytes.`, 413);
  const declared = Number(ctx.get("content-length") || "NaN");
  if (declared > limitBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > limitBytes) {
      ctx.set("Connection", "close");
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}
