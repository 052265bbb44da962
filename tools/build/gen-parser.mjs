// Build step: generates the GSQL lexer/parser (TypeScript, with visitors) from grammar/*.g4
// using antlr-ng, into compiler/parse/generated/. Skips the work when the output is newer
// than every grammar file, so repeated builds stay fast.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const grammarDir = join(root, "grammar");
const outDir = join(root, "compiler", "parse", "generated");
const stamp = join(outDir, ".stamp");

const grammars = readdirSync(grammarDir).filter((f) => f.endsWith(".g4"));
if (grammars.length === 0) process.exit(0);

const newestInput = Math.max(...grammars.map((g) => statSync(join(grammarDir, g)).mtimeMs),
  statSync(fileURLToPath(import.meta.url)).mtimeMs);
if (existsSync(stamp) && statSync(stamp).mtimeMs >= newestInput) process.exit(0);

mkdirSync(outDir, { recursive: true });
// Lexer grammars first: the parser grammar imports their token vocabulary.
const ordered = [...grammars].sort((a, b) => Number(b.includes("Lexer")) - Number(a.includes("Lexer")));
const cli = join(root, "node_modules", "antlr-ng", "dist", "cli", "runner.js");
execFileSync(process.execPath, [cli, "-Dlanguage=TypeScript", "--generate-visitor", "true",
  "--generate-listener", "false", "--lib", grammarDir, "-o", outDir, ...ordered.map((g) => join(grammarDir, g))],
  { stdio: "inherit", cwd: grammarDir });
writeFileSync(stamp, new Date().toISOString() + "\n");
