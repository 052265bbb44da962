// The string, formatting and DATETIME operations query modules leave to the host (StrOp,
// NumOp, FormatKind, DatetimeOp in abi.ts): rarely hot, and much simpler to get exactly
// right on JavaScript strings than in generated code. Positions count characters (code
// points) from 0, as the query language's string functions do.
import { formatDatetime, formatDouble, formatFloat, parseDatetime } from "../values/index.js";
import { DatetimeOp, FormatKind, NumOp, RuntimeError, StrOp } from "./abi.js";

/** Thrown for a bad argument that the language treats as a run-time error. */
export class HostOpError extends Error {
  constructor(readonly code: number) {
    super(`host operation failed (${code})`);
  }
}

const chars = (s: string): string[] => Array.from(s);

export function stringOp(op: number, a: string, b: string, c: string, x: number, y: number): string {
  switch (op) {
    case StrOp.Lower:
      return a.toLowerCase();
    case StrOp.Upper:
      return a.toUpperCase();
    case StrOp.Trim:
      return trim(a, b, x);
    case StrOp.Substr: {
      const cs = chars(a);
      let start = x < 0 ? Math.max(0, cs.length + x) : Math.min(x, cs.length);
      start = Math.trunc(start);
      const end = y < 0 ? cs.length : Math.min(cs.length, start + Math.max(0, Math.trunc(y)));
      return cs.slice(start, end).join("");
    }
    case StrOp.Left:
      return chars(a).slice(0, Math.max(0, x)).join("");
    case StrOp.Right: {
      const cs = chars(a);
      return x <= 0 ? "" : cs.slice(Math.max(0, cs.length - x)).join("");
    }
    case StrOp.Lpad:
    case StrOp.Rpad:
      return pad(a, Math.max(0, Math.trunc(x)), b === "" ? " " : b, op === StrOp.Lpad);
    case StrOp.Replace:
      return b === "" ? a : a.split(b).join(c);
    case StrOp.Insert: {
      const cs = chars(a);
      const pos = Math.max(0, Math.min(cs.length, Math.trunc(x)));
      return cs.slice(0, pos).join("") + b + cs.slice(pos + Math.max(0, Math.trunc(y))).join("");
    }
    case StrOp.Chr:
      return x >= 0 && x <= 0x10ffff ? String.fromCodePoint(Math.trunc(x)) : "";
    case StrOp.Space:
      return " ".repeat(Math.max(0, Math.min(1 << 24, Math.trunc(x))));
    case StrOp.Soundex:
      return soundex(a);
    case StrOp.Translate: {
      const from = chars(b);
      const to = chars(c);
      return chars(a)
        .map((ch) => {
          const i = from.indexOf(ch);
          return i < 0 ? ch : i < to.length ? to[i] : "";
        })
        .join("");
    }
    case StrOp.Repeat:
      return x <= 0 ? "" : a.repeat(Math.min(Math.trunc(x), Math.floor((1 << 26) / Math.max(1, a.length))));
    case StrOp.Reverse:
      return chars(a).reverse().join("");
    case StrOp.Uuid:
      return crypto.randomUUID();
    case StrOp.DatetimeFormat:
      return datetimeFormat(x, a);
    case StrOp.Concat:
      return a + b;
    default:
      throw new HostOpError(RuntimeError.Internal);
  }
}

export function numberOp(op: number, a: string, b: string, x: number, y: number): bigint {
  switch (op) {
    case NumOp.Length:
      return BigInt(chars(a).length);
    case NumOp.Instr:
      return BigInt(instr(a, b, x, y));
    case NumOp.FindInSet:
      return BigInt(b.split(",").indexOf(a));
    case NumOp.Ascii:
      return BigInt(a.length ? a.codePointAt(0)! : 0);
    case NumOp.Difference: {
      const [s, t] = [soundex(a), soundex(b)];
      let same = 0;
      for (let i = 0; i < 4; i++) if (s[i] === t[i]) same++;
      return BigInt(same);
    }
    case NumOp.StrToInt: {
      const t = a.trim();
      if (!/^[+-]?\d+$/.test(t)) throw new HostOpError(RuntimeError.BadInteger);
      return BigInt.asIntN(64, BigInt(t));
    }
    case NumOp.ToDatetime: {
      const d = parseDatetime(a);
      if (d === undefined) throw new HostOpError(RuntimeError.BadDatetime);
      return BigInt(d);
    }
    case NumOp.Like:
      return like(a, b, x === 0 ? undefined : String.fromCodePoint(x)) ? 1n : 0n;
    default:
      throw new HostOpError(RuntimeError.Internal);
  }
}

/** A scalar value as text (to_string and string concatenation of formatted values). */
export function formatValue(kind: number, bits: bigint): string {
  switch (kind) {
    case FormatKind.Int:
      return BigInt.asIntN(64, bits).toString();
    case FormatKind.Uint:
      return BigInt.asUintN(64, bits).toString();
    case FormatKind.Float: {
      const v = new DataView(new ArrayBuffer(4));
      v.setUint32(0, Number(BigInt.asUintN(32, bits)));
      return formatFloat(v.getFloat32(0));
    }
    case FormatKind.Double: {
      const v = new DataView(new ArrayBuffer(8));
      v.setBigUint64(0, BigInt.asUintN(64, bits));
      return formatDouble(v.getFloat64(0));
    }
    case FormatKind.Bool:
      return bits !== 0n ? "true" : "false";
    case FormatKind.Datetime:
      return formatDatetime(Number(BigInt.asIntN(64, bits)));
    default:
      throw new HostOpError(RuntimeError.Internal);
  }
}

export function datetimeOp(op: number, epoch: bigint, amount: bigint): bigint {
  const d = new Date(Number(epoch) * 1000);
  switch (op) {
    case DatetimeOp.Year:
      return BigInt(d.getUTCFullYear());
    case DatetimeOp.Month:
      return BigInt(d.getUTCMonth() + 1);
    case DatetimeOp.Day:
      return BigInt(d.getUTCDate());
    case DatetimeOp.Hour:
      return BigInt(d.getUTCHours());
    case DatetimeOp.Minute:
      return BigInt(d.getUTCMinutes());
    case DatetimeOp.Second:
      return BigInt(d.getUTCSeconds());
    case DatetimeOp.AddMonths: {
      // Adding months keeps the day of the month, clamped to the target month's last day.
      const months = d.getUTCFullYear() * 12 + d.getUTCMonth() + Number(amount);
      const year = Math.floor(months / 12);
      const month = months - year * 12;
      const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
      const day = Math.min(d.getUTCDate(), lastDay);
      return BigInt(Date.UTC(year, month, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()) / 1000);
    }
    case DatetimeOp.AddSeconds:
      return epoch + amount;
    default:
      throw new HostOpError(RuntimeError.Internal);
  }
}

function trim(a: string, set: string, side: number): string {
  const strip = set === "" ? (ch: string) => /\s/.test(ch) : (ch: string) => set.includes(ch);
  const cs = chars(a);
  let start = 0;
  let end = cs.length;
  if (side !== 2) while (start < end && strip(cs[start])) start++;
  if (side !== 1) while (end > start && strip(cs[end - 1])) end--;
  return cs.slice(start, end).join("");
}

function pad(a: string, n: number, padding: string, left: boolean): string {
  const cs = chars(a);
  if (cs.length >= n) return cs.slice(0, n).join("");
  const fill = chars(padding.repeat(Math.ceil((n - cs.length) / chars(padding).length))).slice(0, n - cs.length).join("");
  return left ? fill + a : a + fill;
}

function instr(a: string, b: string, start: number, occurrence: number): number {
  const cs = chars(a);
  const sub = chars(b);
  let found = 0;
  for (let i = Math.max(0, Math.trunc(start)); i + sub.length <= cs.length; i++) {
    let match = true;
    for (let j = 0; j < sub.length && match; j++) match = cs[i + j] === sub[j];
    if (match && ++found >= Math.max(1, Math.trunc(occurrence))) return i;
  }
  return -1;
}

const SOUNDEX_CODES: Record<string, string> = {
  b: "1", f: "1", p: "1", v: "1",
  c: "2", g: "2", j: "2", k: "2", q: "2", s: "2", x: "2", z: "2",
  d: "3", t: "3", l: "4", m: "5", n: "5", r: "6",
};

function soundex(a: string): string {
  const letters = a.toLowerCase().replace(/[^a-z]/g, "");
  if (letters === "") return "";
  let out = letters[0].toUpperCase();
  let last = SOUNDEX_CODES[letters[0]] ?? "";
  for (let i = 1; i < letters.length && out.length < 4; i++) {
    const ch = letters[i];
    const code = SOUNDEX_CODES[ch] ?? "";
    if (code !== "" && code !== last) out += code;
    if (ch !== "h" && ch !== "w") last = code;
  }
  return out.padEnd(4, "0");
}

function datetimeFormat(epoch: number, format: string): string {
  const d = new Date(epoch * 1000);
  const two = (n: number) => String(n).padStart(2, "0");
  return format.replace(/%([YmdHMS%])/g, (_, f: string) => {
    switch (f) {
      case "Y":
        return String(d.getUTCFullYear()).padStart(4, "0");
      case "m":
        return two(d.getUTCMonth() + 1);
      case "d":
        return two(d.getUTCDate());
      case "H":
        return two(d.getUTCHours());
      case "M":
        return two(d.getUTCMinutes());
      case "S":
        return two(d.getUTCSeconds());
      default:
        return "%";
    }
  });
}

/** LIKE: `%` any run, `_` one character, `[abc]`, `[a-z]`, `[^abc]`, `[!abc]`. */
export function like(text: string, pattern: string, escape?: string): boolean {
  let re = "^";
  const p = chars(pattern);
  for (let i = 0; i < p.length; i++) {
    const ch = p[i];
    if (escape !== undefined && ch === escape && i + 1 < p.length) {
      re += escapeRegExp(p[++i]);
    } else if (ch === "%") re += "[\\s\\S]*";
    else if (ch === "_") re += "[\\s\\S]";
    else if (ch === "[") {
      const close = p.indexOf("]", i + 1);
      if (close < 0) {
        re += "\\[";
        continue;
      }
      let body = p.slice(i + 1, close).join("");
      let negate = false;
      if (body.startsWith("^") || body.startsWith("!")) {
        negate = true;
        body = body.slice(1);
      }
      re += `[${negate ? "^" : ""}${body.replace(/[\\\]]/g, "\\$&")}]`;
      i = close;
    } else re += escapeRegExp(ch);
  }
  return new RegExp(re + "$", "u").test(text);
}

function escapeRegExp(ch: string): string {
  return ch.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
