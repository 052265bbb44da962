// A stable JSON dump of the AST for golden tests and `gsqlc ast`: `kind` first, then the
// range as "line:col-line:col" (no file name, so dumps do not depend on where a file lives),
// then every other property in alphabetical order; absent properties are left out.
import type { AstNode } from "./index.js";
import type { SourceRange } from "../diagnostics/source-range.js";

function isRange(value: unknown): value is SourceRange {
  return typeof value === "object" && value !== null && "start" in value && "end" in value && "file" in value;
}

function compactRange(range: SourceRange): string {
  return `${range.start.line}:${range.start.column}-${range.end.line}:${range.end.column}`;
}

function toPlain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toPlain);
  if (typeof value === "bigint") return value.toString();
  if (isRange(value)) return compactRange(value);
  if (typeof value !== "object" || value === null) return value;
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if ("kind" in record) out.kind = record.kind;
  if ("range" in record && isRange(record.range)) out.range = compactRange(record.range);
  for (const key of Object.keys(record).sort()) {
    if (key === "kind" || key === "range" || record[key] === undefined) continue;
    out[key] = toPlain(record[key]);
  }
  return out;
}

/** The AST as plain JSON-ready data (ranges compacted, keys ordered). */
export function astToJson(node: AstNode): unknown {
  return toPlain(node);
}

/** JSON text where any value that fits in `width` characters stays on one line. */
function layout(value: unknown, indent: string, width: number): string {
  const flat = JSON.stringify(value);
  if (flat.length + indent.length <= width || typeof value !== "object" || value === null) return flat;
  const inner = indent + "  ";
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => inner + layout(v, inner, width)).join(",\n")}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${layout(v, inner, width)}`).join(",\n")}\n${indent}}`;
}

/** The AST as JSON text (small nodes on one line), ending with a newline. */
export function dumpAst(node: AstNode): string {
  return layout(astToJson(node), "", 110) + "\n";
}
