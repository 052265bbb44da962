// Query-string parameters (the encodings of interface.md "Parameter encoding") turned into
// the arguments a compiled query's manifest asks for: INT/UINT exact as bigint, numbers,
// booleans, DATETIME as epoch seconds, vertices as {id, type}, repeated names for SET/BAG,
// `p=id&p.type=T` for an untyped vertex, `vp[0]=id&vp[0].type=T` for a set of them.
import type { ManifestParam } from "../../runtime-wasm/query/manifest.js";
import type { QueryArgument } from "../../runtime-wasm/query/query-runtime.js";
import { parseDatetime } from "../../runtime-wasm/values/index.js";

export type ArgumentsResult = { ok: true; args: QueryArgument[] } | { ok: false; message: string };

const INT64 = [-(2n ** 63n), 2n ** 63n - 1n] as const;
const UINT64 = [0n, 2n ** 64n - 1n] as const;

export function queryArguments(params: readonly ManifestParam[], search: URLSearchParams): ArgumentsResult {
  const args: QueryArgument[] = [];
  for (const p of params) {
    const r = argumentFor(p, search);
    if (typeof r === "string") return { ok: false, message: r };
    args.push(r.value);
  }
  return { ok: true, args };
}

function argumentFor(p: ManifestParam, search: URLSearchParams): { value: QueryArgument } | string {
  const { base, collection, vertexType } = p.type;
  if (base === "VERTEX" && !vertexType) {
    if (!collection) {
      const id = search.get(p.name);
      if (id === null) return { value: undefined };
      const type = search.get(`${p.name}.type`);
      if (type === null) return `The vertex parameter ${p.name} needs its type: ${p.name}.type=<vertex type>.`;
      return { value: { id, type } };
    }
    const items: QueryArgument[] = [];
    for (let i = 0; search.has(`${p.name}[${i}]`); i++) {
      const type = search.get(`${p.name}[${i}].type`);
      if (type === null) return `The vertex ${p.name}[${i}] needs its type: ${p.name}[${i}].type=<vertex type>.`;
      items.push({ id: search.get(`${p.name}[${i}]`)!, type });
    }
    return { value: items.length > 0 || !search.has(p.name) ? items : undefined };
  }
  if (collection) {
    const values: QueryArgument[] = [];
    for (const text of search.getAll(p.name)) {
      const v = scalar(p, text);
      if (typeof v === "string") return v;
      values.push(v.value);
    }
    return { value: values };
  }
  const text = search.getAll(p.name).at(-1);
  return text === undefined ? { value: undefined } : scalar(p, text);
}

function scalar(p: ManifestParam, text: string): { value: QueryArgument } | string {
  const bad = (what: string) => `The parameter ${p.name} must be ${what}, not '${text.length > 60 ? text.slice(0, 60) + "..." : text}'.`;
  switch (p.type.base) {
    case "INT":
    case "UINT": {
      const range = p.type.base === "INT" ? INT64 : UINT64;
      if (!/^[-+]?[0-9]{1,20}$/.test(text)) return bad(`an ${p.type.base}`);
      const n = BigInt(text);
      if (n < range[0] || n > range[1]) return bad(`an ${p.type.base} in range`);
      return { value: n };
    }
    case "FLOAT":
    case "DOUBLE": {
      const x = Number(text);
      if (text.trim() === "" || !Number.isFinite(x)) return bad(`a ${p.type.base}`);
      return { value: x };
    }
    case "BOOL": {
      const t = text.toLowerCase();
      if (t === "true" || t === "1") return { value: true };
      if (t === "false" || t === "0") return { value: false };
      return bad("true or false");
    }
    case "DATETIME": {
      const t = parseDatetime(text);
      return t === undefined ? bad("a DATETIME (YYYY-MM-DD HH:MM:SS)") : { value: t };
    }
    case "VERTEX":
      return { value: { id: text } };
    default:
      return { value: text };
  }
}
