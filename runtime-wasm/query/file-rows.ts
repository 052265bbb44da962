// The file SelectVertex reads (gsql-semantics §2.2): a delimited text file, one row per
// line (empty lines skipped, "\r\n" accepted), cells split on the separator. The id column is
// `$n` (0-based) or `$"name"` (needs the header line, which is then skipped); the vertex type
// is a constant the module knows or, the same way, a column. Relative paths resolve against
// the server's working directory, as FILE output does.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { RuntimeError } from "./abi.js";
import { HostOpError } from "./host-strings.js";

/** Rows of [id, type] cells ("" for the type when the module gave it as a constant). */
export function readFileRows(path: string, idColumn: string, typeColumn: string, separator: string, header: boolean): [string, string][] {
  let text: string;
  try {
    text = readFileSync(resolve(path), "utf8");
  } catch {
    throw new HostOpError(RuntimeError.FileRead);
  }
  const sep = separator === "" ? "," : separator;
  const lines = text.split(/\r?\n/).filter((l) => l !== "");
  const names = header && lines.length > 0 ? lines.shift()!.split(sep) : undefined;
  const index = (column: string): number => {
    const numbered = /^\$(\d+)$/.exec(column);
    if (numbered) return Number(numbered[1]);
    const named = /^\$"(.*)"$/.exec(column);
    const at = named && names ? names.indexOf(named[1]) : -1;
    if (at < 0) throw new HostOpError(RuntimeError.FileColumn);
    return at;
  };
  const idAt = index(idColumn);
  const typeAt = typeColumn === "" ? -1 : index(typeColumn);
  return lines.map((line) => {
    const cells = line.split(sep);
    if (idAt >= cells.length || typeAt >= cells.length) throw new HostOpError(RuntimeError.FileColumn);
    return [cells[idAt], typeAt < 0 ? "" : cells[typeAt]];
  });
}
