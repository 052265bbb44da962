// Value representation shared by the store, the query runtime and the server: number text,
// DATETIME parsing and formatting, JSON output with exact 64-bit integers.
export { formatDouble, formatFloat, formatSignificant, type FloatStyle } from "./number-format.js";
export { DATETIME_MAX, DATETIME_MIN, formatDatetime, parseDatetime } from "./datetime.js";
export { RawJson, toJsonText, type JsonOut } from "./json-text.js";
