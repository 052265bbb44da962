// Token functions of VALUES expressions (gsql-ddl-loading-shell §7.5): each takes token
// texts and returns a token text, which the attribute's type then converts. Functions that
// produce numbers or booleans return their text ("42", "true"). A function given input it
// cannot read returns the input unchanged, so a typed attribute rejects the object while a
// STRING attribute keeps the text.
import { randomUUID } from "node:crypto";
import { formatDatetime, parseDatetime } from "../../../runtime-wasm/values/datetime.js";
import { timestampSeconds, utcFields } from "./timestamps.js";
import { cachedRegex } from "./regex-cache.js";

export interface TokenFunction {
  minArgs: number;
  maxArgs: number;
  apply(args: string[]): string;
}

const RECORD_SEPARATOR = String.fromCharCode(30);
const INTEGER = /^\s*[+-]?\d+\s*$/;
const NUMBER = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

const fn = (minArgs: number, maxArgs: number, apply: (args: string[]) => string): TokenFunction => ({ minArgs, maxArgs, apply });

/** Every token function by lower-case name. */
export const TOKEN_FUNCTIONS: ReadonlyMap<string, TokenFunction> = new Map<string, TokenFunction>([
  ["gsql_concat", fn(1, Infinity, (a) => a.join(""))],
  ["gsql_substring", fn(2, 3, substring)],
  ["gsql_find", fn(2, 2, ([s, sub]) => String(s!.indexOf(sub!)))],
  ["gsql_length", fn(1, 1, ([s]) => String([...s!].length))],
  ["gsql_replace", fn(3, 4, replace)],
  ["gsql_regex_replace", fn(3, 3, ([s, re, rep]) => regexApply(re!, "g", (r) => s!.replace(r, rep!)) ?? s!)],
  ["gsql_regex_match", fn(2, 2, ([s, re]) => String(regexApply(re!, "", (r) => fullMatch(r, s!)) ?? false))],
  ["gsql_reverse", fn(1, 1, ([s]) => [...s!].reverse().join(""))],
  ["gsql_upper", fn(1, 1, ([s]) => s!.toUpperCase())],
  ["gsql_lower", fn(1, 1, ([s]) => s!.toLowerCase())],
  ["gsql_trim", fn(1, 1, ([s]) => s!.trim())],
  ["gsql_ltrim", fn(1, 1, ([s]) => s!.trimStart())],
  ["gsql_rtrim", fn(1, 1, ([s]) => s!.trimEnd())],
  ["gsql_split_by_space", fn(1, 1, ([s]) => s!.replace(/ /g, RECORD_SEPARATOR))],
  ["gsql_to_bool", fn(1, 1, ([s]) => String(isTrueText(s!)))],
  ["gsql_to_int", fn(1, 1, ([s]) => toIntegerText(s!, true))],
  ["gsql_to_uint", fn(1, 1, ([s]) => toIntegerText(s!, false))],
  ["gsql_ts_to_epoch_seconds", fn(1, 1, ([s]) => mapTimestamp(s!, (t) => String(t)))],
  ["gsql_year", fn(1, 1, ([s]) => mapTimestamp(s!, (t) => String(utcFields(t).year)))],
  ["gsql_month", fn(1, 1, ([s]) => mapTimestamp(s!, (t) => String(utcFields(t).month)))],
  ["gsql_day", fn(1, 1, ([s]) => mapTimestamp(s!, (t) => String(utcFields(t).day)))],
  ["gsql_year_epoch", fn(1, 1, ([s]) => mapEpoch(s!, (t) => String(utcFields(t).year)))],
  ["gsql_month_epoch", fn(1, 1, ([s]) => mapEpoch(s!, (t) => String(utcFields(t).month)))],
  ["gsql_day_epoch", fn(1, 1, ([s]) => mapEpoch(s!, (t) => String(utcFields(t).day)))],
  ["gsql_current_time_epoch", fn(0, 1, () => String(Math.floor(Date.now() / 1000)))],
  ["gsql_uuid_v4", fn(0, 0, () => randomUUID())],
  ["to_datetime", fn(1, 1, ([s]) => mapDatetime(s!, (t) => formatDatetime(t)))],
  ["datetime_diff", fn(2, 2, datetimeDiff)],
]);

/** t / true in any case. */
export function isTrueText(s: string): boolean {
  const t = s.trim().toLowerCase();
  return t === "t" || t === "true";
}

function substring([s, begin, len]: string[]): string {
  const chars = [...s!];
  const b = Number(begin);
  if (!Number.isInteger(b) || b < 0) return "";
  if (len === undefined) return chars.slice(b).join("");
  const n = Number(len);
  return Number.isInteger(n) && n >= 0 ? chars.slice(b, b + n).join("") : "";
}

function replace([s, from, to, max]: string[]): string {
  if (from!.length === 0) return s!;
  if (max === undefined) return s!.split(from!).join(to!);
  let limit = Number(max);
  if (!Number.isInteger(limit) || limit < 0) return s!;
  let out = "";
  let at = 0;
  while (limit-- > 0) {
    const hit = s!.indexOf(from!, at);
    if (hit < 0) break;
    out += s!.slice(at, hit) + to!;
    at = hit + from!.length;
  }
  return out + s!.slice(at);
}

function regexApply<T>(pattern: string, flags: string, use: (r: RegExp) => T): T | undefined {
  const r = cachedRegex(pattern, flags);
  return r ? use(r) : undefined;
}

/** gsql_regex_match tests the whole token, as a full match. */
function fullMatch(r: RegExp, s: string): boolean {
  r.lastIndex = 0;
  const m = r.exec(s);
  return m !== null && m.index === 0 && m[0].length === s.length;
}

/** Integer text parsed; float text truncated toward zero; unsigned refuses negatives. */
function toIntegerText(s: string, signed: boolean): string {
  const t = s.trim();
  if (INTEGER.test(t)) {
    const v = BigInt(t.startsWith("+") ? t.slice(1) : t);
    return !signed && v < 0n ? s : v.toString();
  }
  if (NUMBER.test(t)) {
    const v = Math.trunc(Number(t));
    if (!Number.isFinite(v) || (!signed && v < 0)) return s;
    return BigInt(v).toString();
  }
  return s;
}

function mapTimestamp(s: string, f: (seconds: number) => string): string {
  const t = timestampSeconds(s);
  return t === undefined ? s : f(t);
}

function mapEpoch(s: string, f: (seconds: number) => string): string {
  return INTEGER.test(s) ? f(Number(s)) : s;
}

function mapDatetime(s: string, f: (seconds: number) => string): string {
  const t = parseDatetime(s);
  return t === undefined ? s : f(t);
}

function datetimeDiff([a, b]: string[]): string {
  const ta = parseDatetime(a!);
  const tb = parseDatetime(b!);
  return ta === undefined || tb === undefined ? "" : String(ta - tb);
}
