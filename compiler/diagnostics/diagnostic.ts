// Diagnostics as data: a code from the one table (codes.ts), a severity, a message made
// from the code's template, and the source range it is about.
import type { SourceRange } from "./source-range.js";
import { DIAGNOSTIC_TABLE, type DiagnosticCode } from "./codes.js";

export type Severity = "error" | "warning";

export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  range: SourceRange;
}

/** Values substituted into a message template's `{name}` placeholders. */
export type MessageArgs = Record<string, string | number | bigint>;

/** Fills `{name}` placeholders; a placeholder without a value is left visible. */
export function formatMessage(template: string, args: MessageArgs = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(args, name) ? String(args[name]) : whole);
}

/** Builds a diagnostic from the table entry of `code`. */
export function makeDiagnostic(code: DiagnosticCode, range: SourceRange, args?: MessageArgs): Diagnostic {
  const entry = DIAGNOSTIC_TABLE[code];
  return { code, severity: entry.severity, message: formatMessage(entry.message, args), range };
}
