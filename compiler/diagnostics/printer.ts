// Printers for diagnostics. Text form, as compilers print them:
//   file.gsql:3:12: error GSQL1001: unexpected ';'; expected an expression
//     x = ;
//         ^
// JSON form: one flat object per diagnostic, for CI tools (`gsqlc check --format json`).
import type { Diagnostic } from "./diagnostic.js";

/** The text of line `line` (1-based) of `source`, without its line break. */
function sourceLine(source: string, line: number): string | undefined {
  let start = 0;
  for (let current = 1; current < line; current++) {
    const next = source.indexOf("\n", start);
    if (next < 0) return undefined;
    start = next + 1;
  }
  const end = source.indexOf("\n", start);
  return source.slice(start, end < 0 ? source.length : end).replace(/\r$/, "");
}

/**
 * One diagnostic as text: the `file:line:col: severity CODE: message` line, then (when the
 * source is given) the source line and a caret under the start column, with `~` under the
 * rest of the range on that line.
 */
export function formatDiagnosticText(diagnostic: Diagnostic, source?: string): string {
  const { range } = diagnostic;
  const head = `${range.file}:${range.start.line}:${range.start.column}: ${diagnostic.severity} ${diagnostic.code}: ${diagnostic.message}`;
  if (source === undefined) return head;
  const text = sourceLine(source, range.start.line);
  if (text === undefined) return head;
  const caretAt = Math.min(range.start.column - 1, text.length);
  // Keep tabs in the indentation so the caret lines up however the terminal renders them.
  const pad = text.slice(0, caretAt).replace(/[^\t]/g, " ");
  const endColumn = range.end.line === range.start.line ? range.end.column - 1 : text.length;
  const underline = Math.max(0, Math.min(endColumn, text.length) - caretAt - 1);
  return `${head}\n${text}\n${pad}^${"~".repeat(underline)}`;
}

export interface JsonDiagnostic {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: "error" | "warning";
  code: string;
  message: string;
}

/** Diagnostics as flat JSON-ready objects (positions 1-based; the end is just past the range). */
export function formatDiagnosticsJson(diagnostics: readonly Diagnostic[]): JsonDiagnostic[] {
  return diagnostics.map((d) => ({
    file: d.range.file,
    line: d.range.start.line,
    column: d.range.start.column,
    endLine: d.range.end.line,
    endColumn: d.range.end.column,
    severity: d.severity,
    code: d.code,
    message: d.message,
  }));
}
