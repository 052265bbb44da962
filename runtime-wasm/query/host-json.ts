// JSONOBJECT / JSONARRAY values for query modules. A JSON value travels through the module
// as a string holding its canonical text (no whitespace, keys in their written order,
// numbers exactly as written, so 64-bit integers keep every digit); the empty string is the
// type's default ({} or []). parse_json_object/parse_json_array check and canonicalise a
// text; the getters parse the canonical text they are given and pick one member.
import { RuntimeError } from "./abi.js";
import { HostOpError } from "./host-strings.js";

type JsonNode =
  | { k: "object"; entries: [string, JsonNode][] }
  | { k: "array"; items: JsonNode[] }
  | { k: "number"; text: string }
  | { k: "string"; value: string }
  | { k: "bool"; value: boolean }
  | { k: "null" };

/** Parses JSON text keeping numbers as written; undefined when it is not valid JSON. */
export function parseJson(text: string): JsonNode | undefined {
  let at = 0;
  const ws = () => {
    while (at < text.length && " \t\n\r".includes(text[at]!)) at++;
  };
  const fail = (): never => {
    throw new SyntaxError(`invalid JSON at ${at}`);
  };
  const value = (depth: number): JsonNode => {
    if (depth > 512) fail();
    ws();
    const c = text[at];
    if (c === "{") {
      at++;
      const entries: [string, JsonNode][] = [];
      ws();
      if (text[at] === "}") {
        at++;
        return { k: "object", entries };
      }
      for (;;) {
        ws();
        if (text[at] !== '"') fail();
        const key = string();
        ws();
        if (text[at++] !== ":") fail();
        entries.push([key, value(depth + 1)]);
        ws();
        const sep = text[at++];
        if (sep === "}") return { k: "object", entries };
        if (sep !== ",") fail();
      }
    }
    if (c === "[") {
      at++;
      const items: JsonNode[] = [];
      ws();
      if (text[at] === "]") {
        at++;
        return { k: "array", items };
      }
      for (;;) {
        items.push(value(depth + 1));
        ws();
        const sep = text[at++];
        if (sep === "]") return { k: "array", items };
        if (sep !== ",") fail();
      }
    }
    if (c === '"') return { k: "string", value: string() };
    for (const [word, node] of [["true", { k: "bool", value: true }], ["false", { k: "bool", value: false }], ["null", { k: "null" }]] as const) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return node;
      }
    }
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(at, at + 400));
    if (!m) return fail();
    at += m[0].length;
    return { k: "number", text: m[0] };
  };
  const string = (): string => {
    const m = /^"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/.exec(text.slice(at));
    if (!m) return fail();
    at += m[0].length;
    return JSON.parse(m[0]) as string;
  };
  try {
    const v = value(0);
    ws();
    return at === text.length ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The canonical text of a parsed value. */
export function jsonText(v: JsonNode): string {
  switch (v.k) {
    case "object":
      return `{${v.entries.map(([k, x]) => `${JSON.stringify(k)}:${jsonText(x)}`).join(",")}}`;
    case "array":
      return `[${v.items.map(jsonText).join(",")}]`;
    case "number":
      return v.text;
    case "string":
      return JSON.stringify(v.value);
    case "bool":
      return v.value ? "true" : "false";
    case "null":
      return "null";
  }
}

/** parse_json_object / parse_json_array: the canonical text, or a run-time error. */
export function parseJsonOf(kind: "object" | "array", text: string): string {
  const v = parseJson(text);
  if (v === undefined || v.k !== kind) throw new HostOpError(RuntimeError.BadJson);
  return jsonText(v);
}

/** A value held by the module (canonical text, "" for the default) as a node of `kind`. */
function held(kind: "object" | "array", text: string): JsonNode {
  if (text === "") return kind === "object" ? { k: "object", entries: [] } : { k: "array", items: [] };
  const v = parseJson(text);
  if (v === undefined || v.k !== kind) throw new HostOpError(RuntimeError.Internal);
  return v;
}

/** The member of an object by key (the last one when repeated) or of an array by index. */
function member(container: "object" | "array", text: string, key: string, index: number): JsonNode | undefined {
  const v = held(container, text);
  if (v.k === "object") {
    for (let i = v.entries.length - 1; i >= 0; i--) if (v.entries[i]![0] === key) return v.entries[i]![1];
    return undefined;
  }
  if (v.k === "array") return Number.isInteger(index) && index >= 0 && index < v.items.length ? v.items[index] : undefined;
  return undefined;
}

/** What a getter returns: text for strings and nested values, a number otherwise. */
export type JsonGetter = "int" | "double" | "bool" | "string" | "object" | "array" | "contains" | "size";

/**
 * `getInt`, `getDouble`, ... on an object (by `key`) or array (by `index`); a missing member
 * or one of another type is a run-time error. INT comes back as a bigint, DOUBLE as a number,
 * BOOL/contains as 0n/1n, strings and nested values as text.
 */
export function jsonGet(container: "object" | "array", getter: JsonGetter, text: string, key: string, index: number): bigint | number | string {
  if (getter === "size") {
    const v = held(container, text);
    return BigInt(v.k === "object" ? v.entries.length : v.k === "array" ? v.items.length : 0);
  }
  const m = member(container, text, key, index);
  if (getter === "contains") return m === undefined ? 0n : 1n;
  const wrong = (): never => {
    throw new HostOpError(RuntimeError.JsonAccess);
  };
  if (m === undefined) return wrong();
  switch (getter) {
    case "int":
      if (m.k !== "number" || !/^-?\d+$/.test(m.text)) return wrong();
      return BigInt.asIntN(64, BigInt(m.text));
    case "double":
      return m.k === "number" ? Number(m.text) : wrong();
    case "bool":
      return m.k === "bool" ? (m.value ? 1n : 0n) : wrong();
    case "string":
      return m.k === "string" ? m.value : wrong();
    case "object":
    case "array":
      return m.k === getter ? jsonText(m) : wrong();
  }
}
