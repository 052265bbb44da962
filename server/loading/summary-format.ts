// Text of the loading status the shell shows (gsql-ddl-loading-shell §8.2, 3.9 layout):
// the FILENAME | LINES | OBJECTS | ERRORS | AVG SPEED | DURATION table with right-aligned
// cells in columns as wide as their widest cell, speeds as "N l/s" / "N kl/s", durations
// "%.2f s", and the progress bar lines redrawn while a file loads.
import type { LoadProgress } from "./run.js";

export interface StatusRow {
  file: string;
  lines: number;
  objects: number;
  errors: number;
  seconds: number;
}

const LABELS = ["FILENAME", "   LINES", "   OBJECTS", "   ERRORS", "   AVG SPEED", "   DURATION"];

export function formatStatusTable(rows: StatusRow[]): string[] {
  const cells = rows.map((r) => [r.file, String(r.lines), String(r.objects), String(r.errors), formatSpeed(r.lines, r.seconds), `${r.seconds.toFixed(2)} s`]);
  const widths = LABELS.map((label, i) => Math.max(label.length, ...cells.map((c) => c[i]!.length)));
  const line = (values: string[]) => "  |" + values.map((v, i) => v.padStart(widths[i]!)).join(" |") + "|";
  const border = "  +" + "-".repeat(widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1)) + "+";
  return [border, line(LABELS), ...cells.map(line), border];
}

export function formatSpeed(lines: number, seconds: number): string {
  const rate = seconds > 0 ? lines / seconds : lines > 0 ? Infinity : 0;
  if (rate < 1) return "<1 l/s";
  if (rate < 1000) return `${Math.round(rate)} l/s`;
  if (!Number.isFinite(rate)) return `${lines} l/s`;
  return `${Math.round(rate / 1000)} kl/s`;
}

/** The status block while a file loads: machine line, file, and a 50-character bar. */
export function formatProgress(jobId: string, p: LoadProgress, finishedFiles: number, totalFiles: number): string[] {
  const fraction = p.totalBytes ? Math.min(1, p.bytesRead / p.totalBytes) : 0;
  const filled = Math.round(fraction * 50);
  const percent = Math.floor(fraction * 100);
  return [
    `Job "${jobId}" loading status`,
    `[RUNNING] m1 ( Finished: ${finishedFiles} / Total: ${totalFiles} )`,
    `  [LOADING] ${p.sourceName}`,
    `  [${"=".repeat(filled)}${" ".repeat(50 - filled)}] ${percent}%, ${formatSpeed(p.lines, p.elapsedMs / 1000)}`,
  ];
}
