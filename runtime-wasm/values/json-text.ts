// JSON text for output. Like JSON.stringify, but 64-bit integers (bigint) are written
// exactly, and numbers whose text was already decided by their GSQL type (FLOAT vs DOUBLE,
// see number-format.ts) are carried as RawJson and written as they are.

/** A fragment of JSON text written verbatim (a formatted number, or pre-rendered JSON). */
export class RawJson {
  constructor(readonly text: string) {}
}

export type JsonOut =
  | null
  | boolean
  | number
  | bigint
  | string
  | RawJson
  | JsonOut[]
  | { [key: string]: JsonOut | undefined };

/** Serialises a value; plain JS numbers are written as DOUBLE would be (shortest round trip). */
export function toJsonText(value: JsonOut): string {
  return write(value);
}

// Text is built by concatenation: V8 joins the pieces lazily, which costs less than pushing
// every piece to a list and joining it, and most answers are small.
function write(value: JsonOut): string {
  switch (typeof value) {
    case "string":
      return stringText(value);
    case "bigint":
      return value.toString();
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return value ? "true" : "false";
  }
  if (value === null) return "null";
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) {
    let text = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) text += ",";
      text += write(value[i]!);
    }
    return text + "]";
  }
  let text = "{";
  let first = true;
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (item === undefined) continue;
    if (!first) text += ",";
    first = false;
    text += keyText(key) + write(item);
  }
  return text + "}";
}

/**
 * Short strings with nothing to escape (no quote, backslash, control character or surrogate)
 * are quoted as they are: the same text JSON.stringify gives, without calling it.
 */
const PLAIN_STRING = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

function stringText(s: string): string {
  return s.length <= 64 && PLAIN_STRING.test(s) ? `"${s}"` : JSON.stringify(s);
}

/** Object keys repeat from answer to answer (envelope fields, attribute names): their `"key":` text is kept. */
const KEY_TEXT = new Map<string, string>();
const MAX_KEPT_KEYS = 4096;

function keyText(key: string): string {
  let text = KEY_TEXT.get(key);
  if (text === undefined) {
    text = stringText(key) + ":";
    if (key.length <= 64 && KEY_TEXT.size < MAX_KEPT_KEYS) KEY_TEXT.set(key, text);
  }
  return text;
}
