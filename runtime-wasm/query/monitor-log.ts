// The monitoring log of `__GQUERY__monitor=true` (RUN QUERY -d): one line per executed
// SELECT with its processing time and result size, written to a file whose path the
// response names in its message.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SelectTiming } from "./run-types.js";

/** Writes the log for one run; returns its path. */
export function writeMonitorLog(dir: string, query: string, timings: SelectTiming[], totalMs: number): string {
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const path = join(dir, `${query.replace(/[^A-Za-z0-9_]/g, "_")}.${stamp}.${process.pid}.monitor.log`);
  const lines = [
    `query ${query}: ${timings.length} SELECT executions, ${totalMs.toFixed(3)} ms in total`,
    ...timings.map((t, i) => `#${i + 1} SELECT ${t.select}: ${t.ms.toFixed(3)} ms, ${t.resultSize} vertices selected`),
  ];
  writeFileSync(path, lines.join("\n") + "\n");
  return path;
}

/** The response message naming the log. */
export function monitorMessage(path: string): string {
  return `The query monitoring log is written to ${path}.`;
}
