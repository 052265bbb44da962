#!/usr/bin/env node
// `gsqlc`: the offline GSQL compiler front end.
//   gsqlc check [--schema DDL.gsql] [--format text|json] FILE|DIR...
//       checks GSQL files (a directory means every *.gsql below it) and prints every
//       diagnostic; exit 1 if any error, 0 otherwise, 2 on usage errors.
//   gsqlc ast FILE
//       prints the file's AST as JSON (diagnostics go to stderr; exit 1 if any error).
import { parseArgs } from "node:util";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { analyzeSource, type FrontEndResult } from "../../compiler/front-end.js";
import { DiagnosticLog } from "../../compiler/diagnostics/diagnostic-log.js";
import { formatDiagnosticText, formatDiagnosticsJson } from "../../compiler/diagnostics/printer.js";
import { dumpAst } from "../../compiler/ast/dump.js";
// The back-end commands (compile, ir) load the WebAssembly toolchain, which takes longer to
// start than checking a folder of files; check and ast do without it.
type Backend = typeof import("./gsqlc-backend.js");
const loadBackend = (): Promise<Backend> => import("./gsqlc-backend.js");

const FRONT_END_USAGE = `usage: gsqlc check [--schema DDL.gsql] [--format text|json] FILE|DIR...
       gsqlc ast FILE`;

async function usage(): Promise<string> {
  return `${FRONT_END_USAGE}\n${(await loadBackend()).BACKEND_USAGE}`;
}

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "check": return check(rest);
      case "ast": return ast(rest);
      case "--help": case "-h": case "help":
        process.stdout.write(await usage() + "\n");
        return 0;
    }
    const backend = await loadBackend();
    if (backend.isBackendCommand(command)) return backend.runBackendCommand(command!, rest);
    throw new UsageError(command === undefined ? "missing command" : `unknown command '${command}'`);
  } catch (error) {
    const isUsage = error instanceof UsageError || (error instanceof TypeError && "code" in error) ||
      error instanceof (await loadBackend()).BackendUsageError;
    if (isUsage) {
      process.stderr.write(`gsqlc: ${(error as Error).message}\n${await usage()}\n`);
      return 2;
    }
    throw error;
  }
}

function readSource(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    throw new UsageError(`cannot read '${path}'`);
  }
}

/** The files to check: each FILE as given, each DIR's *.gsql files (recursively, sorted). */
function collectFiles(paths: string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith(".gsql")) files.push(path);
    }
  };
  for (const path of paths) {
    let stat;
    try {
      stat = statSync(path);
    } catch {
      throw new UsageError(`no such file or directory: '${path}'`);
    }
    if (stat.isDirectory()) walk(path);
    else files.push(path);
  }
  return files;
}

function check(args: string[]): number {
  const { values, positionals } = parseArgs({
    args,
    options: { schema: { type: "string" }, format: { type: "string", default: "text" } },
    allowPositionals: true,
    strict: true,
  });
  if (values.format !== "text" && values.format !== "json") throw new UsageError(`--format must be text or json, not '${values.format}'`);
  if (positionals.length === 0) throw new UsageError("no files to check");
  const files = collectFiles(positionals);
  const log = new DiagnosticLog();
  const sources = new Map<string, string>();
  let schema: FrontEndResult | undefined;
  if (values.schema !== undefined) {
    const text = readSource(values.schema);
    sources.set(values.schema, text);
    schema = analyzeSource(text, values.schema, { log });
  }
  // The schema is checked once, as the schema; a directory that holds it does not check it again.
  const schemaPath = values.schema !== undefined ? resolve(values.schema) : undefined;
  const checked = files.filter((f) => resolve(f) !== schemaPath);
  for (const file of checked) {
    const text = readSource(file);
    sources.set(file, text);
    analyzeSource(text, file, { log, ...(schema ? { schema: schema.ast } : {}) });
  }
  const fileCount = checked.length + (schema ? 1 : 0);
  const diagnostics = log.sorted();
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  if (values.format === "json") {
    const report = { files: fileCount, errors, warnings, diagnostics: formatDiagnosticsJson(diagnostics) };
    process.stdout.write(JSON.stringify(report, null, 2) + "\n");
  } else {
    for (const d of diagnostics) process.stdout.write(formatDiagnosticText(d, sources.get(d.range.file)) + "\n");
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
    process.stdout.write(`${plural(fileCount, "file")} checked: ${plural(errors, "error")}, ${plural(warnings, "warning")}\n`);
  }
  return errors > 0 ? 1 : 0;
}

function ast(args: string[]): number {
  const { positionals } = parseArgs({ args, options: {}, allowPositionals: true, strict: true });
  if (positionals.length !== 1) throw new UsageError("ast takes exactly one file");
  const file = positionals[0]!;
  const text = readSource(file);
  const result = analyzeSource(text, file, { astOnly: true });
  for (const d of result.log.sorted()) process.stderr.write(formatDiagnosticText(d, text) + "\n");
  process.stdout.write(dumpAst(result.ast));
  return result.log.hasErrors() ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
