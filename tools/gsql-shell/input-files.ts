// Reading command files the way the shell does: a line that is just `@other.gsql` is
// replaced by that file's text, recursively; a file including itself is an error.
import { readFileSync, statSync } from "node:fs";

export class EndlessInclude extends Error {}

const INCLUDE = /^@[^@]*[^;,]$/;

/** The text of `path` with its `@file` lines inlined. Missing files print a message and read as empty. */
export function readCommandFile(path: string, warn: (line: string) => void, seen: Set<string> = new Set()): string {
  if (!isFile(path)) {
    warn(`File "${path}" does not exist!`);
    return "";
  }
  if (seen.has(path)) throw new EndlessInclude(`There is an endless loop by using @${path} cmd recursively.`);
  seen.add(path);
  let out = "";
  for (const line of readFileSync(path, "utf8").split(/\r?\n/)) {
    const trimmed = line.trim();
    out += INCLUDE.test(trimmed) ? readCommandFile(trimmed.slice(1), warn, seen) + "\n" : line + "\n";
  }
  seen.delete(path);
  return out;
}

export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export function isIncludeLine(line: string): boolean {
  return INCLUDE.test(line.trim());
}
