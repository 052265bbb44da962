// Checks a request's path segments and query-string parameters against its endpoint
// descriptor: type, number of occurrences, string length, numeric bounds, allowed options.
// A violation is a bad request (REST-30000, status 400) naming the parameter and the rule.
import { badRequest } from "../http/rest-error.js";
import type { EndpointDescriptor, ParamDescriptor } from "./descriptor.js";
import { clip } from "../engine/clip-text.js";

export type ParamValue = boolean | string | number | bigint;
export type ParamValues = Record<string, ParamValue | ParamValue[] | undefined>;

export type RawParams = Record<string, string | string[] | undefined>;

const INT_RANGES = {
  INT32: [-(2n ** 31n), 2n ** 31n - 1n],
  UINT32: [0n, 2n ** 32n - 1n],
  INT64: [-(2n ** 63n), 2n ** 63n - 1n],
  UINT64: [0n, 2n ** 64n - 1n],
} as const;

/**
 * Validates and converts parameters. `raw` holds path segments and query parameters together
 * (path segments win). Parameters the descriptor does not declare are ignored, as clients
 * send extra ones. `optionalNames` are declared required but may be absent (the graph
 * segment of a single-graph deployment).
 */
export function validateParams(descriptor: EndpointDescriptor, raw: RawParams, optionalNames: readonly string[] = []): ParamValues {
  const out: ParamValues = {};
  if (!descriptor) return out;
  for (const [name, d] of parameterEntries(descriptor)) {
    const given = raw[name];
    const minCount = d.min_count ?? 0;
    const maxCount = d.max_count ?? 1;
    // The common case (given once, or not at all, as allowed) without building a list.
    if (typeof given === "string" && maxCount !== 0 && minCount <= 1) {
      const value = convert(name, d, given);
      out[name] = maxCount === 1 ? value : [value];
      continue;
    }
    if (given === undefined) {
      if (minCount > 0 && !optionalNames.includes(name)) throw badRequest(`Parameter ${name} is required.`);
      out[name] = defaultValue(name, d);
      continue;
    }
    const list = Array.isArray(given) ? given : [given];
    if (list.length < minCount && !optionalNames.includes(name)) throw badRequest(`Parameter ${name} is required.`);
    if (maxCount > 0 && list.length > maxCount) {
      throw badRequest(maxCount === 1 ? `Parameter ${name} may be given at most once.` : `Parameter ${name} may be given at most ${maxCount} times.`);
    }
    if (list.length === 0) {
      out[name] = d.default === undefined ? undefined : convert(name, d, d.default);
    } else {
      const values = list.map((text) => convert(name, d, text));
      out[name] = maxCount === 1 ? values[0] : values;
    }
  }
  return out;
}

/** Each parameter's default, converted once (values are primitives, so one may be shared). */
const defaults = new WeakMap<ParamDescriptor, ParamValue | undefined>();

function defaultValue(name: string, d: ParamDescriptor): ParamValue | undefined {
  if (d.default === undefined) return undefined;
  let value = defaults.get(d);
  if (value === undefined) {
    value = convert(name, d, d.default);
    defaults.set(d, value);
  }
  return value;
}

/** A descriptor's parameters as entries, listed once per descriptor object rather than per request. */
const entriesByDescriptor = new WeakMap<Record<string, ParamDescriptor>, [string, ParamDescriptor][]>();

function parameterEntries(descriptor: { parameters: Record<string, ParamDescriptor> }): [string, ParamDescriptor][] {
  let entries = entriesByDescriptor.get(descriptor.parameters);
  if (entries === undefined) {
    entries = Object.entries(descriptor.parameters);
    entriesByDescriptor.set(descriptor.parameters, entries);
  }
  return entries;
}

function convert(name: string, d: ParamDescriptor, text: string): ParamValue {
  const invalid = () => badRequest(`Values of parameter ${name} must be ${d.type} type, invalid value [${clip(text)}] provided.`);
  let value: ParamValue;
  switch (d.type) {
    case "BOOL": {
      const lower = text.toLowerCase();
      if (lower === "true" || lower === "1" || lower === "") value = true;
      else if (lower === "false" || lower === "0") value = false;
      else throw invalid();
      break;
    }
    case "STRING":
    case "TYPENAME":
      value = text;
      checkLength(name, d, text);
      break;
    case "FLOAT":
    case "DOUBLE":
    case "DATETIME":
      // Query parameter types: checked by the query's own argument reader.
      value = text;
      break;
    default: {
      if (!/^[-+]?\d{1,40}$/.test(text)) throw invalid();
      const n = BigInt(text);
      const [lo, hi] = INT_RANGES[d.type];
      if (n < lo || n > hi) throw invalid();
      checkBounds(name, d, n);
      value = d.type === "INT32" || d.type === "UINT32" ? Number(n) : n;
    }
  }
  if (d.options && !d.options.includes(String(value))) {
    throw badRequest(`Parameter ${name} must be one of ${d.options.join(", ")}; got [${clip(text)}].`);
  }
  return value;
}

function checkLength(name: string, d: ParamDescriptor, text: string): void {
  if (d.max_length !== undefined && text.length > d.max_length) {
    throw badRequest(`Parameter ${name} is ${text.length} characters long, longer than the limit of ${d.max_length}.`);
  }
  if (d.min_length !== undefined && text.length < d.min_length) {
    throw badRequest(`Parameter ${name} must be at least ${d.min_length} characters long.`);
  }
}

function checkBounds(name: string, d: ParamDescriptor, n: bigint): void {
  if (d.max !== undefined && n > BigInt(d.max)) throw badRequest(`Parameter ${name} must be at most ${d.max}, got ${n}.`);
  if (d.min !== undefined && n < BigInt(d.min)) throw badRequest(`Parameter ${name} must be at least ${d.min}, got ${n}.`);
}
