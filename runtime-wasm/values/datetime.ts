// DATETIME values: seconds since 1970-01-01 00:00:00 UTC, held as a JS number (the whole
// valid range, 1582-10-15 to 9999-12-31 23:59:59, is far inside the exact-integer range).

export const DATETIME_MIN = Date.UTC(1582, 9, 15) / 1000;
export const DATETIME_MAX = Date.UTC(9999, 11, 31, 23, 59, 59) / 1000;

// The input forms of the loader and to_datetime (gsql-ddl-loading-shell §9): the year has
// 4 digits, other fields may drop leading zeros; "T…" with text after "." ignored.
const DATE_TIME = /^(\d{4})([-/])(\d{1,2})\2(\d{1,2})(?:[ ](\d{1,2}):(\d{1,2}):(\d{1,2}))?$/;
const ISO_FRACTION = /^(\d{4})-(\d{1,2})-(\d{1,2})T(\d{1,2}):(\d{1,2}):(\d{1,2})\.\d*[zZ]?$/;
const EPOCH = /^\d+$/;

/** Parses any accepted DATETIME text; undefined when malformed or out of range. */
export function parseDatetime(text: string): number | undefined {
  const s = text.trim();
  if (EPOCH.test(s)) {
    const seconds = Number(s);
    return seconds <= DATETIME_MAX ? seconds : undefined;
  }
  const m = DATE_TIME.exec(s);
  if (m) return fromFields(m[1]!, m[3]!, m[4]!, m[5] ?? "0", m[6] ?? "0", m[7] ?? "0");
  const iso = ISO_FRACTION.exec(s);
  if (iso) return fromFields(iso[1]!, iso[2]!, iso[3]!, iso[4]!, iso[5]!, iso[6]!);
  return undefined;
}

function fromFields(y: string, mo: string, d: string, h: string, mi: string, s: string): number | undefined {
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const seconds = Date.UTC(year, month - 1, day, hour, minute, second) / 1000;
  return seconds >= DATETIME_MIN && seconds <= DATETIME_MAX ? seconds : undefined;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** "YYYY-MM-DD HH:MM:SS" for epoch seconds (UTC). */
export function formatDatetime(seconds: number): string {
  const d = new Date(seconds * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}
