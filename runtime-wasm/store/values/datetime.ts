// DATETIME as the store keeps it: whole seconds since 1970-01-01 00:00:00 UTC. Parsing accepts
// epoch integers and "YYYY-MM-DD", "YYYY-MM-DD hh:mm:ss" (also with "T", and with leading zeros
// optional); the range is the interface's, 1582-10-15 to 9999-12-31 23:59:59.
export const DATETIME_MIN = -12219292800;
export const DATETIME_MAX = 253402300799;

const FORM = /^(\d{1,4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2}))?)?$/;

/** Epoch seconds of a datetime text, or undefined when it is not one. */
export function parseDatetime(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^[+-]?\d+$/.test(trimmed)) return inRange(Number(trimmed));
  const m = FORM.exec(trimmed);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4] ?? "0", m[5] ?? "0", m[6] ?? "0"].map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const millis = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC maps years 0-99 to 1900-1999; correct for them.
  const fixed = year < 100 ? new Date(millis).setUTCFullYear(year) : millis;
  return inRange(fixed / 1000);
}

export function inRange(seconds: number): number | undefined {
  return Number.isInteger(seconds) && seconds >= DATETIME_MIN && seconds <= DATETIME_MAX ? seconds : undefined;
}

/** "YYYY-MM-DD hh:mm:ss" of epoch seconds (UTC). */
export function formatDatetime(seconds: number): string {
  const d = new Date(seconds * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
