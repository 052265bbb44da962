// The loading status display of RUN LOADING JOB (gsql-ddl-loading-shell §8.2): a progress
// bar while the load runs, then the status table with one row per file, right-aligned cells
// whose columns fit the widest cell, and a `[WARNING]` line per kind of bad data.
import type { LoadingProgress, LoadingSourceSummary } from "./loading-services.js";

const BAR_WIDTH = 50;

/** `[=====     ] 20% (people.csv), 200 kl/s`: redrawn in place by the shell client. */
export function progressLine(p: LoadingProgress): string {
  const fraction = p.totalBytes ? Math.min(1, p.bytesRead / p.totalBytes) : 0;
  const filled = Math.round(fraction * BAR_WIDTH);
  const percent = Math.floor(fraction * 100);
  return `[${"=".repeat(filled)}${" ".repeat(BAR_WIDTH - filled)}] ${percent}% (${p.file}), ${speedText(p.lines, p.elapsedMs)}`;
}

export function speedText(lines: number, ms: number): string {
  if (ms <= 0) return lines > 0 ? `${lines} l/s` : "<1 l/s";
  const perSecond = (lines * 1000) / ms;
  if (perSecond < 1) return "<1 l/s";
  return perSecond >= 1000 ? `${Math.round(perSecond / 1000)} kl/s` : `${Math.round(perSecond)} l/s`;
}

export function loadingStatusLines(jobId: string, summaries: readonly LoadingSourceSummary[]): string[] {
  const header = ["FILENAME", "LINES", "OBJECTS", "ERRORS", "AVG SPEED", "DURATION"];
  const rows = summaries.map((s) => [
    s.file,
    String(s.lines),
    String(s.objects),
    String(s.errors),
    speedText(s.lines, s.durationMs),
    `${(s.durationMs / 1000).toFixed(2)} s`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const row = (cells: string[]) => "  |" + cells.map((c, i) => " ".repeat(i === 0 ? 0 : 3) + c.padStart(widths[i]!)).join(" |") + "|";
  const border = "  +" + "-".repeat(row(header).length - 4) + "+";
  const out = [
    `Job "${jobId}" loading status`,
    `[FINISHED] m1 ( Finished: ${summaries.length} / Total: ${summaries.length} )`,
    "  [LOADED]",
    border,
    row(header),
    ...rows.map(row),
    border,
  ];
  for (const s of summaries) for (const w of s.warnings) out.push(`[WARNING] bad data in m1 (replica 1) ${s.file}${w}`);
  return out;
}
