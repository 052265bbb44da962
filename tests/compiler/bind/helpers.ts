// Test helpers for the bind stage: run the front end and the binder over GSQL text.
import { analyzeSource } from "../../../compiler/front-end.js";
import { DiagnosticLog, type Diagnostic } from "../../../compiler/diagnostics/index.js";
import { MemoryCatalog, type BoundScript } from "../../../compiler/bind/index.js";
import { emptySchema } from "../../../runtime-wasm/schema/types.js";

export interface Checked {
  bound: BoundScript;
  diagnostics: readonly Diagnostic[];
}

/** Parse and bind `text` against an empty database (the text brings its own DDL). */
export function check(text: string, file = "test.gsql"): Checked {
  const log = new DiagnosticLog();
  const fe = analyzeSource(text, file, { log, catalog: new MemoryCatalog(emptySchema()) });
  return { bound: fe.bound!, diagnostics: log.sorted() };
}

/** `code line:col` for each diagnostic, for compact assertions. */
export function brief(ds: readonly Diagnostic[]): string[] {
  return ds.map((d) => `${d.code} ${d.range.start.line}:${d.range.start.column}`);
}

/** Strip `⟪` markers and return the text plus the line:col of each marker. */
export function markers(text: string): { text: string; positions: string[] } {
  const positions: string[] = [];
  let out = "";
  let line = 1;
  let col = 1;
  for (const ch of text) {
    if (ch === "⟪") {
      positions.push(`${line}:${col}`);
      continue;
    }
    out += ch;
    if (ch === "\n") {
      line++;
      col = 1;
    } else col++;
  }
  return { text: out, positions };
}
