// The compiler front end as one call for tools: GSQL text → parse tree → AST, with every
// diagnostic collected in one log. Later stages (bind) plug in here.
import { DiagnosticLog } from "./diagnostics/diagnostic-log.js";
import { parse } from "./parse/parse.js";
import { buildAst } from "./ast/build-ast.js";
import type { AstScript } from "./ast/script.js";
import type { SourceText } from "./parse/source-text.js";

export interface FrontEndOptions {
  /** Collect into this log instead of a fresh one (to check several files into one report). */
  log?: DiagnosticLog;
  /** Schema DDL that runs before this text (`gsqlc check --schema`), for the bind stage. */
  schema?: AstScript;
}

export interface FrontEndResult {
  ast: AstScript;
  source: SourceText;
  log: DiagnosticLog;
  /** True when the text had lexical or syntax errors (statements holding them are not in `ast`). */
  hasSyntaxErrors: boolean;
}

/** Parses `text` (named `file` in diagnostics) and builds its AST. Never throws on any input. */
export function analyzeSource(text: string, file: string, options: FrontEndOptions = {}): FrontEndResult {
  const log = options.log ?? new DiagnosticLog();
  const parsed = parse(text, file, log);
  const ast = buildAst(parsed, log);
  return { ast, source: parsed.source, log, hasSyntaxErrors: parsed.hasSyntaxErrors };
}
