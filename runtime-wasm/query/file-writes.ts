// FILE output of a query run (gsql-semantics §8.4): the lines a run's FileOpen / FileLine
// records describe, written when the run has succeeded. Opening a file empties it, so a file
// opened and never written ends up empty; a path opened twice in one run starts over.
// Relative paths resolve against the server's working directory. A FILE declared with an
// empty path is fine until something is written to it (library queries declare
// `FILE f (file_path)` and write only when a path was given); a line for it fails the run.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

export class FileWrites {
  private readonly paths = new Map<number, string>();
  private readonly lines = new Map<string, string[]>();

  open(file: number, path: string): void {
    if (path.trim() === "") {
      this.paths.set(file, "");
      return;
    }
    const full = resolve(path);
    this.paths.set(file, full);
    this.lines.set(full, []);
  }

  line(file: number, text: string): void {
    const path = this.paths.get(file);
    if (path === undefined) throw new Error(`a line for file ${file}, which was never opened`);
    if (path === "") throw new Error("a line written to a FILE whose path is empty");
    this.lines.get(path)!.push(text);
  }

  get size(): number {
    return this.lines.size;
  }

  /** Writes every file; returns their absolute paths. */
  write(): string[] {
    for (const [path, lines] of this.lines) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, lines.length ? lines.join("\n") + "\n" : "");
    }
    return [...this.lines.keys()];
  }
}
