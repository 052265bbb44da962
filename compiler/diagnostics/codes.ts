// The one table of diagnostic codes and message templates, assembled from one part per
// stage so each stage owns its range:
//   1xxx syntax (parse, AST)        codes-syntax.ts
//   2xxx name resolution            codes-names.ts
//   3xxx types                      codes-types.ts
//   4xxx DDL and catalog            codes-catalog.ts
//   5xxx query lifecycle and shell  codes-shell.ts
// Templates use `{name}` placeholders filled by DiagnosticLog.report(code, range, args).
import { SYNTAX_CODES } from "./codes-syntax.js";
import { NAME_CODES } from "./codes-names.js";
import { TYPE_CODES } from "./codes-types.js";
import { CATALOG_CODES } from "./codes-catalog.js";
import { SHELL_CODES } from "./codes-shell.js";

export interface DiagnosticTemplate {
  severity: "error" | "warning";
  message: string;
}

export const DIAGNOSTIC_TABLE = {
  ...SYNTAX_CODES,
  ...NAME_CODES,
  ...TYPE_CODES,
  ...CATALOG_CODES,
  ...SHELL_CODES,
} as const satisfies Record<string, DiagnosticTemplate>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_TABLE;
