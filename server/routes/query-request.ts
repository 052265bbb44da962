// What a GET|POST /query/{graph}/{name} request asks for, as one set of query-string
// parameters: the URL's own, over those of a data payload in the body (the same text as a
// query string, its lines joined), or over those of a JSON body (POST; VERTEX as
// {"id","type"}, sets as arrays, DATETIME as text); and the run's time limit from the
// GSQL-TIMEOUT header (milliseconds), the `timeout` parameter (seconds) or the server default.
import type { Context } from "koa";
import type { ManifestParam } from "../../runtime-wasm/query/manifest.js";
import { isJsonObject, JsonSyntaxError, parseJsonBody, type JsonValue } from "../http/json-body.js";
import { readBodyText } from "../http/read-body.js";
import { badRequest, RestError } from "../http/rest-error.js";
import type { RestLimits } from "../rest-services.js";

/** Names the server reads itself; a query's own parameter of the same name still gets its value. */
export function isReservedName(name: string): boolean {
  return name === "query" || name === "timeout" || name.startsWith("__GQUERY__");
}

/** The request's parameters: query string over body. */
export async function requestParameters(ctx: Context, params: readonly ManifestParam[], limits: RestLimits): Promise<URLSearchParams> {
  const url = new URLSearchParams(ctx.querystring);
  const body = await readBodyText(ctx, limits.bodyBytes);
  if (body.trim() === "") return url;
  const fromBody = isJsonRequest(ctx, body) ? jsonParameters(params, parseJson(body, limits.jsonDepth)) : new URLSearchParams(body.replace(/[\r\n]/g, ""));
  // Query-string values override the body's, name by name.
  const merged = new URLSearchParams();
  for (const [key, value] of fromBody) if (!url.has(key)) merged.append(key, value);
  for (const [key, value] of url) merged.append(key, value);
  return merged;
}

function isJsonRequest(ctx: Context, body: string): boolean {
  return ctx.method === "POST" && (ctx.is("application/json") === "application/json" || body.trimStart().startsWith("{"));
}

function parseJson(text: string, maxDepth: number): JsonValue {
  try {
    return parseJsonBody(text, { maxDepth });
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw new RestError(400, "REST-2001", `Invalid JSON in the request body: ${e.message}.`);
    throw e;
  }
}

/**
 * A JSON body's parameters in query-string form, so both forms meet the same checks: each
 * key is a parameter; arrays give SET/BAG/LIST elements; a vertex is its id, or an object
 * {"id", "type"} (the type is required for a VERTEX parameter that names none).
 */
export function jsonParameters(params: readonly ManifestParam[], body: JsonValue): URLSearchParams {
  if (!isJsonObject(body)) throw badRequest("The request body must be a JSON object of parameter names and values.");
  const byName = new Map(params.map((p) => [p.name, p]));
  const out = new URLSearchParams();
  const seen = new Set<string>();
  for (const [name, value] of body.entries) {
    if (seen.has(name)) throw badRequest(`Parameter ${name} is given twice in the request body.`);
    seen.add(name);
    if (value === null) continue;
    const p = byName.get(name);
    if (!p) {
      // Unknown names fail the query's own check with the rest; server options pass as text.
      out.append(name, Array.isArray(value) || isJsonObject(value) ? "[value]" : String(value));
      continue;
    }
    const items = p.type.collection ? (Array.isArray(value) ? value : [value]) : [value];
    if (!p.type.collection && Array.isArray(value)) throw badRequest(`Parameter ${name} takes one ${p.type.base} value, not an array.`);
    items.forEach((item, i) => {
      if (p.type.base === "VERTEX") appendVertex(out, p, i, item);
      else out.append(name, scalarText(name, p.type.base, item));
    });
  }
  return out;
}

function scalarText(name: string, base: string, value: JsonValue): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return String(value);
  throw badRequest(`Parameter ${name} takes ${base} values, not ${value === null ? "null" : Array.isArray(value) ? "an array" : "an object"}.`);
}

function appendVertex(out: URLSearchParams, p: ManifestParam, index: number, value: JsonValue): void {
  const name = p.type.collection ? `${p.name}[${index}]` : p.name;
  let id: JsonValue | undefined;
  let type: JsonValue | undefined;
  if (isJsonObject(value)) {
    for (const [k, v] of value.entries) {
      if (k === "id") id = v;
      else if (k === "type") type = v;
    }
    if (id === undefined) throw badRequest(`'id' is not found in the VERTEX parameter ${name}.`);
  } else if (p.type.vertexType) {
    id = value;
  } else {
    throw badRequest(`'id' is not found in the VERTEX parameter ${name}: a vertex of any type is given as {"id": <id>, "type": <vertex type>}.`);
  }
  if (typeof id !== "string" && typeof id !== "number" && typeof id !== "bigint") throw badRequest(`The id of the VERTEX parameter ${name} must be a string or a number.`);
  if (type !== undefined && typeof type !== "string") throw badRequest(`The type of the VERTEX parameter ${name} must be a vertex type name.`);
  out.append(name, String(id));
  if (type !== undefined) out.append(`${name}.type`, type);
  else if (!p.type.vertexType) throw badRequest(`'type' is not found in the VERTEX parameter ${name}.`);
}

/** Largest timeout accepted (UINT32 seconds, as for the other endpoints). */
const MAX_TIMEOUT_SECONDS = 2 ** 32 - 1;

/**
 * The run's time limit in milliseconds: the GSQL-TIMEOUT header (milliseconds), else the
 * `timeout` parameter (seconds), else the server's; 0 in either means the server's.
 */
export function requestTimeoutMs(ctx: Context, search: URLSearchParams, defaultMs: number): number {
  const header = ctx.get("GSQL-TIMEOUT");
  if (header !== "") {
    if (!/^\d{1,15}$/.test(header.trim())) throw badRequest(`The GSQL-TIMEOUT header must be a whole number of milliseconds, not '${header.slice(0, 40)}'.`);
    const ms = Number(header.trim());
    if (ms > 0) return ms;
  }
  const values = search.getAll("timeout");
  if (values.length > 1) throw badRequest("Parameter timeout may be given at most once.");
  const text = values[0];
  if (text !== undefined) {
    if (!/^\d{1,10}$/.test(text) || Number(text) > MAX_TIMEOUT_SECONDS) {
      throw badRequest(`Values of parameter timeout must be UINT32 type, invalid value [${text.slice(0, 40)}] provided.`);
    }
    if (Number(text) > 0) return Number(text) * 1000;
  }
  return defaultMs;
}

/** The RESPONSE-LIMIT header: the largest `results` text the client accepts, in bytes (absent: no limit). */
export function responseLimitBytes(ctx: Context): number | undefined {
  const header = ctx.get("RESPONSE-LIMIT").trim();
  if (header === "") return undefined;
  if (!/^\d{1,15}$/.test(header)) throw badRequest(`The RESPONSE-LIMIT header must be a whole number of bytes, not '${header.slice(0, 40)}'.`);
  return Number(header) > 0 ? Number(header) : undefined;
}
