// Front-end diagnostics printed as the shell prints them (gsql-ddl-loading-shell §10.6):
//  - syntax errors in a query: `line L:C <message>` per error, then
//    `Parsing encountered N syntax error(s)`;
//  - syntax errors in DDL and shell commands: `Encountered "<text>" at line L, column C.`
//    followed by what was expected;
//  - semantic and type errors in a query: `Semantic Check Error in query q (CODE): line L, col C`
//    (`Type Check Error` for type codes, `Warning` for warnings) and the message below;
//  - DDL semantic errors: `Semantic Check Fails: <message>`.
import type { AstTopStatement } from "../../../compiler/ast/index.js";
import type { Diagnostic } from "../../../compiler/diagnostics/index.js";
import type { ShellOutput } from "../shell-output.js";

const QUERY_START = /^\s*(CREATE\s+(OR\s+REPLACE\s+)?(DISTRIBUTED\s+)?QUERY|INTERPRET\s+QUERY\s*\()/i;

export function printSyntaxErrors(errors: Diagnostic[], statements: readonly AstTopStatement[], source: string, out: ShellOutput): void {
  const inQuery = errors.filter((d) => isInQuery(d, statements, source));
  const other = errors.filter((d) => !inQuery.includes(d));
  for (const d of other.slice(0, 1)) {
    // JavaCC-style parsers report the first problem only; so do we for DDL and commands.
    const found = source.slice(d.range.start.offset, Math.max(d.range.end.offset, d.range.start.offset + 1)).split("\n")[0] || "<EOF>";
    out.line(`Encountered "${found.length === 0 ? "<EOF>" : found}" at line ${d.range.start.line}, column ${d.range.start.column}.`);
    out.line(capitalise(d.message) + ".");
  }
  if (other.length === 0 && inQuery.length > 0) {
    for (const d of inQuery) out.line(`line ${d.range.start.line}:${d.range.start.column - 1} ${d.message}`);
    out.line(`Parsing encountered ${inQuery.length} syntax error(s)`);
  }
}

/** Semantic and type diagnostics of a query, in source order. */
export function printQueryDiagnostics(queryName: string, diagnostics: readonly Diagnostic[], out: ShellOutput): void {
  const sorted = [...diagnostics].sort((a, b) => a.range.start.offset - b.range.start.offset);
  for (const d of sorted) {
    const head = d.severity === "warning" ? "Warning" : d.code.startsWith("GSQL3") ? "Type Check Error" : "Semantic Check Error";
    out.line(`${head} in query ${queryName} (${d.code}): line ${d.range.start.line}, col ${d.range.start.column - 1}`);
    out.line(capitalise(d.message));
  }
}

/** DDL errors: one `Semantic Check Fails:` line each. */
export function printDdlDiagnostics(diagnostics: readonly Diagnostic[], out: ShellOutput): void {
  for (const d of diagnostics) {
    out.line(d.severity === "warning" ? `Warning: ${capitalise(d.message)}` : `Semantic Check Fails: ${capitalise(d.message)}`);
  }
}

function capitalise(text: string): string {
  return text.length === 0 ? text : text[0]!.toUpperCase() + text.slice(1);
}

/** Whether a syntax error sits in a CREATE QUERY / INTERPRET QUERY text. */
function isInQuery(d: Diagnostic, statements: readonly AstTopStatement[], source: string): boolean {
  const at = d.range.start.offset;
  const holder = statements.find((s) => s.range.start.offset <= at && at <= s.range.end.offset);
  if (holder) return holder.kind === "CreateQuery" || holder.kind === "InterpretAnonymousQuery";
  // The parser kept no statement here: look at the text since the last statement before it.
  const before = statements.filter((s) => s.range.end.offset <= at).at(-1);
  const from = before ? before.range.end.offset : 0;
  return QUERY_START.test(source.slice(from, at));
}
