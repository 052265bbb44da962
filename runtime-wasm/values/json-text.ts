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
  const parts: string[] = [];
  write(value, parts);
  return parts.join("");
}

function write(value: JsonOut, out: string[]): void {
  switch (typeof value) {
    case "string":
      out.push(JSON.stringify(value));
      return;
    case "bigint":
      out.push(value.toString());
      return;
    case "number":
      out.push(Number.isFinite(value) ? String(value) : "null");
      return;
    case "boolean":
      out.push(value ? "true" : "false");
      return;
  }
  if (value === null) {
    out.push("null");
  } else if (value instanceof RawJson) {
    out.push(value.text);
  } else if (Array.isArray(value)) {
    out.push("[");
    value.forEach((item, i) => {
      if (i > 0) out.push(",");
      write(item, out);
    });
    out.push("]");
  } else {
    out.push("{");
    let first = true;
    for (const key of Object.keys(value)) {
      const item = value[key];
      if (item === undefined) continue;
      if (!first) out.push(",");
      first = false;
      out.push(JSON.stringify(key), ":");
      write(item, out);
    }
    out.push("}");
  }
}
