// The back-end commands of `gsqlc`:
//   gsqlc compile [--schema DDL.gsql] [-O0..3] [-o OUT] FILE
//       compiles every CREATE QUERY of FILE to a WebAssembly module (NAME.wasm) and its
//       manifest (NAME.manifest.json); OUT is the .wasm path for a single query, or a
//       directory; without it the files go next to FILE.
//   gsqlc ir [--schema DDL.gsql] [-O0..3] FILE     the IR after the passes, as text
//   gsqlc wat [--schema DDL.gsql] [-O0..3] FILE    the modules in the WebAssembly text format
// Exit 1 when FILE has errors (printed like `gsqlc check`), 0 otherwise.
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { parseArgs } from "node:util";
import { analyzeSource } from "../../compiler/front-end.js";
import { compileQuery, type OptimizeLevel } from "../../compiler/back-end.js";
import { formatDiagnosticText } from "../../compiler/diagnostics/printer.js";
import { printIr } from "../../compiler/ir/print-ir.js";

/** A command-line mistake: gsqlc prints it with the usage text and exits 2. */
export class BackendUsageError extends Error {}

export const BACKEND_USAGE = `       gsqlc compile [--schema DDL.gsql] [-O0..3] [-o OUT] FILE
       gsqlc ir [--schema DDL.gsql] [-O0..3] FILE
       gsqlc wat [--schema DDL.gsql] [-O0..3] FILE`;

export function isBackendCommand(command: string | undefined): boolean {
  return command === "compile" || command === "ir" || command === "wat";
}

export function runBackendCommand(command: string, argv: string[]): number {
  // -O0..-O3 are not options parseArgs understands: take them out first.
  let level: OptimizeLevel = 1;
  const rest: string[] = [];
  for (const a of argv) {
    const m = /^-O([0-3])$/.exec(a);
    if (m) level = Number(m[1]) as OptimizeLevel;
    else if (/^-O/.test(a)) throw new BackendUsageError(`unknown optimisation level '${a}' (use -O0 to -O3)`);
    else rest.push(a);
  }
  const { values, positionals } = parseArgs({
    args: rest,
    options: { schema: { type: "string" }, output: { type: "string", short: "o" } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 1) throw new BackendUsageError(`${command} takes exactly one file`);
  if (values.output !== undefined && command !== "compile") throw new BackendUsageError("-o applies to compile only");
  const file = positionals[0]!;
  const text = read(file);
  const schemaText = values.schema !== undefined ? read(values.schema) : undefined;
  const schema = schemaText !== undefined ? analyzeSource(schemaText, values.schema!) : undefined;
  const fe = analyzeSource(text, file, schema ? { schema: schema.ast } : {});
  for (const d of fe.log.sorted()) process.stderr.write(formatDiagnosticText(d, text) + "\n");
  if (fe.log.hasErrors() || fe.bound === undefined) return 1;
  const queries = fe.bound.queries.filter((q) => q.name);
  if (queries.length === 0) {
    process.stderr.write(`gsqlc: ${file} defines no query\n`);
    return 1;
  }
  let failed = false;
  for (const q of queries) {
    let compiled;
    try {
      compiled = compileQuery(q, fe.bound.schema, level, command === "wat");
    } catch (e) {
      process.stderr.write(`${file}: error: query ${q.name}: ${(e as Error).message}\n`);
      failed = true;
      continue;
    }
    if (command === "ir") process.stdout.write(printIr(compiled.ir));
    else if (command === "wat") process.stdout.write(`;; query ${q.name}\n${compiled.text}`);
    else {
      const wasmPath = outputPath(file, q.name, values.output, queries.length);
      mkdirSync(dirname(wasmPath), { recursive: true });
      writeFileSync(wasmPath, compiled.bytes);
      writeFileSync(wasmPath.replace(/\.wasm$/, "") + ".manifest.json", JSON.stringify(compiled.manifest, null, 2) + "\n");
      process.stdout.write(`${q.name}: ${wasmPath} (${compiled.bytes.length} bytes, -O${level})\n`);
    }
  }
  return failed ? 1 : 0;
}

function read(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    throw new BackendUsageError(`cannot read '${path}'`);
  }
}

/** Where a query's module goes: OUT itself (one query, a .wasm path), OUT/NAME.wasm, or next to FILE. */
function outputPath(file: string, query: string, out: string | undefined, count: number): string {
  if (out === undefined) return join(dirname(file), `${query}.wasm`);
  const isDir = (() => {
    try {
      return statSync(out).isDirectory();
    } catch {
      return out.endsWith("/");
    }
  })();
  if (isDir) return join(out, `${query}.wasm`);
  if (count > 1) throw new BackendUsageError(`${basename(file)} defines ${count} queries: -o must name a directory`);
  return extname(out) === ".wasm" ? out : `${out}.wasm`;
}
