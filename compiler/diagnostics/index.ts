// Diagnostics shared by every compiler stage: the code table, the collecting log, and the
// text / JSON printers.
export type { SourcePosition, SourceRange } from "./source-range.js";
export { spanRanges } from "./source-range.js";
export { DIAGNOSTIC_TABLE, type DiagnosticCode, type DiagnosticTemplate } from "./codes.js";
export { formatMessage, makeDiagnostic, type Diagnostic, type MessageArgs, type Severity } from "./diagnostic.js";
export { DiagnosticLog } from "./diagnostic-log.js";
export { formatDiagnosticText, formatDiagnosticsJson, type JsonDiagnostic } from "./printer.js";
