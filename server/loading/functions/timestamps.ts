// Timestamp text for the gsql_ts_* and gsql_year-family token functions (§7.5, §9): they
// accept only "%Y-%m-%d %H:%M:%S", "%Y/%m/%d %H:%M:%S" and "%Y-%m-%dT%H:%M:%S.<anything>",
// unlike a DATETIME attribute, which also takes dates alone and epochs.
import { parseDatetime } from "../../../runtime-wasm/values/datetime.js";

const TIMESTAMP = /^\s*\d{4}([-/])\d{1,2}\1\d{1,2}[ ]\d{1,2}:\d{1,2}:\d{1,2}\s*$/;
const ISO_TIMESTAMP = /^\s*\d{4}-\d{1,2}-\d{1,2}T\d{1,2}:\d{1,2}:\d{1,2}\..*$/;

/** Epoch seconds of a timestamp in one of the three token-function forms; undefined if not one. */
export function timestampSeconds(text: string): number | undefined {
  if (TIMESTAMP.test(text)) return parseDatetime(text);
  if (ISO_TIMESTAMP.test(text)) {
    // Text after the "." is ignored, whatever it is.
    const cut = text.trim();
    return parseDatetime(cut.slice(0, cut.indexOf(".")).replace("T", " "));
  }
  return undefined;
}

/** UTC calendar fields of epoch seconds. */
export function utcFields(seconds: number): { year: number; month: number; day: number } {
  const d = new Date(seconds * 1000);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}
