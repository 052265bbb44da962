// Query-string parameters (the encodings of interface.md "Parameter encoding") turned into
// the arguments a compiled query's manifest asks for: INT/UINT exact as bigint, numbers,
// booleans, DATETIME as epoch seconds, vertices as {id, type}, repeated names for SET/BAG,
// `p=id&p.type=T` for an untyped vertex, `vp[0]=id&vp[0].type=T` for a set of them.
// In strict mode (GET /query) a name the query does not take, a parameter given twice and a
// parameter without a default that is missing are errors too.
import type { ManifestParam } from "../../runtime-wasm/query/manifest.js";
import type { QueryArgument, VertexArgument } from "../../runtime-wasm/query/query-runtime.js";
import { parseDatetime } from "../../runtime-wasm/values/index.js";

export type ArgumentsResult = { ok: true; args: QueryArgument[] } | { ok: false; message: string };

export interface ArgumentOptions {
  /** Unknown names, repeated scalars and missing required parameters are errors. */
  strict?: boolean;
  /** Names the server itself reads (timeout, query, `__GQUERY__` options): never unknown. */
  reserved?: (name: string) => boolean;
}

const INT64 = [-(2n ** 63n), 2n ** 63n - 1n] as const;
const UINT64 = [0n, 2n ** 64n - 1n] as const;
const FLOAT_TEXT = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const INDEXED = /^(.+)\[(\d{1,9})\](\.type)?$/;
/** Most vertices an indexed parameter may list (bounds what a hostile query string can make us allocate). */
export const MAX_INDEXED_VERTICES = 1 << 20;

/** Whether a parameter may be left out: it has a default, or it is a collection (empty then). */
export function isOptional(p: ManifestParam): boolean {
  return p.default !== undefined || p.type.collection !== undefined;
}

export function queryArguments(params: readonly ManifestParam[], search: URLSearchParams, options: ArgumentOptions = {}): ArgumentsResult {
  try {
    if (options.strict) checkNames(params, search, options.reserved ?? (() => false));
    const args: QueryArgument[] = [];
    for (const p of params) {
      const value = argumentFor(p, search, options.strict === true);
      if (value === undefined && options.strict && !isOptional(p)) throw new ArgumentError(`Parameter ${p.name} is required: the query takes ${describe(params)}.`);
      args.push(value);
    }
    return { ok: true, args };
  } catch (e) {
    if (e instanceof ArgumentError) return { ok: false, message: e.message };
    throw e;
  }
}

class ArgumentError extends Error {}

/** `p (VERTEX<Person>), k (INT, optional)` */
function describe(params: readonly ManifestParam[]): string {
  if (params.length === 0) return "no parameters";
  return params.map((p) => `${p.name} (${typeName(p)}${isOptional(p) ? ", optional" : ""})`).join(", ");
}

export function typeName(p: ManifestParam): string {
  const { base, vertexType, collection } = p.type;
  const element = base === "VERTEX" && vertexType ? `VERTEX<${vertexType}>` : base;
  return collection ? `${collection}<${element}>` : element;
}

function checkNames(params: readonly ManifestParam[], search: URLSearchParams, reserved: (name: string) => boolean): void {
  const byName = new Map(params.map((p) => [p.name, p]));
  for (const name of new Set(search.keys())) {
    if (reserved(name)) continue;
    const p = byName.get(name);
    if (p) {
      if (!p.type.collection && search.getAll(name).length > 1) throw new ArgumentError(`Parameter ${name} may be given at most once.`);
      if (p.type.base === "VERTEX" && p.type.collection && !p.type.vertexType) {
        throw new ArgumentError(`Parameter ${name} is a set of vertices of any type: give them indexed, ${name}[0]=<id>&${name}[0].type=<vertex type>.`);
      }
      continue;
    }
    if (name.endsWith(".type")) {
      const owner = byName.get(name.slice(0, -5));
      if (owner && owner.type.base === "VERTEX" && !owner.type.collection) {
        if (search.getAll(name).length > 1) throw new ArgumentError(`Parameter ${name} may be given at most once.`);
        continue;
      }
    }
    const indexed = INDEXED.exec(name);
    if (indexed) {
      const owner = byName.get(indexed[1]!);
      if (owner && owner.type.base === "VERTEX" && owner.type.collection) {
        if (search.getAll(name).length > 1) throw new ArgumentError(`Parameter ${name} may be given at most once.`);
        continue;
      }
    }
    throw new ArgumentError(`Unknown parameter ${clip(name)}: the query takes ${describe(params)}.`);
  }
}

function argumentFor(p: ManifestParam, search: URLSearchParams, strict: boolean): QueryArgument {
  const { base, collection } = p.type;
  if (base === "VERTEX") return collection ? vertexList(p, search, strict) : vertex(p, search);
  if (collection) return search.getAll(p.name).map((text) => scalar(p, text));
  const text = search.getAll(p.name).at(-1);
  return text === undefined ? undefined : scalar(p, text);
}

/** A VERTEX parameter: `p=id`, with `p.type=T` when the parameter names no type. */
function vertex(p: ManifestParam, search: URLSearchParams): QueryArgument {
  const id = search.getAll(p.name).at(-1);
  const type = search.getAll(`${p.name}.type`).at(-1);
  if (id === undefined) {
    if (type !== undefined) throw new ArgumentError(`Parameter ${p.name}.type is given without ${p.name}.`);
    return undefined;
  }
  return { id, type: vertexType(p, p.name, type) };
}

/** The vertex type of one vertex argument: the declared one, else the one given (required then). */
function vertexType(p: ManifestParam, name: string, given: string | undefined): string | undefined {
  const declared = p.type.vertexType;
  if (declared) {
    if (given !== undefined && given !== declared) throw new ArgumentError(`Parameter ${name}.type must be ${declared} (the query's parameter type is ${typeName(p)}), not '${clip(given)}'.`);
    return declared;
  }
  if (given === undefined) throw new ArgumentError(`The vertex parameter ${name} needs its type: ${name}.type=<vertex type>.`);
  return given;
}

/** A SET/BAG/LIST of vertices: repeated `vp=id` (typed only) or indexed `vp[i]=id&vp[i].type=T`. */
function vertexList(p: ManifestParam, search: URLSearchParams, strict: boolean): QueryArgument {
  const items: VertexArgument[] = [];
  if (p.type.vertexType) for (const id of search.getAll(p.name)) items.push({ id, type: p.type.vertexType });
  const indexed = new Map<number, { id?: string; type?: string }>();
  for (const [key, value] of search) {
    const m = INDEXED.exec(key);
    if (!m || m[1] !== p.name) continue;
    const index = Number(m[2]);
    if (index >= MAX_INDEXED_VERTICES) throw new ArgumentError(`Parameter ${clip(key)}: an index must be below ${MAX_INDEXED_VERTICES}.`);
    const entry = indexed.get(index) ?? {};
    if (m[3]) entry.type = value;
    else entry.id = value;
    indexed.set(index, entry);
  }
  for (const index of [...indexed.keys()].sort((a, b) => a - b)) {
    const { id, type } = indexed.get(index)!;
    const name = `${p.name}[${index}]`;
    if (id === undefined) throw new ArgumentError(`Parameter ${name}.type is given without ${name}.`);
    items.push({ id, type: vertexType(p, name, type) });
  }
  if (!strict && items.length === 0 && search.has(p.name) && !p.type.vertexType) return undefined;
  return items;
}

function scalar(p: ManifestParam, text: string): QueryArgument {
  const bad = (what: string) => new ArgumentError(`The parameter ${p.name} must be ${what}, not '${clip(text)}'.`);
  switch (p.type.base) {
    case "INT":
    case "UINT": {
      const range = p.type.base === "INT" ? INT64 : UINT64;
      if (!/^[-+]?[0-9]{1,20}$/.test(text)) throw bad(`an ${p.type.base}`);
      const n = BigInt(text);
      if (n < range[0] || n > range[1]) throw bad(`an ${p.type.base} in range`);
      return n;
    }
    case "FLOAT":
    case "DOUBLE": {
      const x = Number(text);
      if (!FLOAT_TEXT.test(text) || !Number.isFinite(x)) throw bad(`a ${p.type.base}`);
      return x;
    }
    case "BOOL": {
      const t = text.toLowerCase();
      if (t === "true" || t === "1") return true;
      if (t === "false" || t === "0") return false;
      throw bad("true or false");
    }
    case "DATETIME": {
      const t = parseDatetime(text);
      if (t === undefined) throw bad("a DATETIME (YYYY-MM-DD HH:MM:SS)");
      return t;
    }
    default:
      return text;
  }
}

/** User text quoted in a message, cut to a readable length. */
function clip(text: string): string {
  return text.length > 60 ? text.slice(0, 60) + "..." : text;
}
