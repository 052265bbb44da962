// Collects diagnostics from every stage. Stages log and continue: nothing here throws, so
// one run reports every problem in a file.
import type { SourceRange } from "./source-range.js";
import type { DiagnosticCode } from "./codes.js";
import { makeDiagnostic, type Diagnostic, type MessageArgs } from "./diagnostic.js";

export class DiagnosticLog {
  private readonly items: Diagnostic[] = [];
  private errors = 0;

  /** Logs the diagnostic `code` at `range`, with `args` filling its message template. */
  report(code: DiagnosticCode, range: SourceRange, args?: MessageArgs): Diagnostic {
    const diagnostic = makeDiagnostic(code, range, args);
    this.add(diagnostic);
    return diagnostic;
  }

  add(diagnostic: Diagnostic): void {
    this.items.push(diagnostic);
    if (diagnostic.severity === "error") this.errors++;
  }

  /** Everything logged so far, in the order it was logged. */
  get diagnostics(): readonly Diagnostic[] {
    return this.items;
  }

  get errorCount(): number {
    return this.errors;
  }

  hasErrors(): boolean {
    return this.errors > 0;
  }

  /** The diagnostics ordered by file, then position, then code (the order printers use). */
  sorted(): Diagnostic[] {
    return [...this.items].sort((a, b) =>
      a.range.file < b.range.file ? -1 : a.range.file > b.range.file ? 1
        : a.range.start.offset - b.range.start.offset || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  }
}
