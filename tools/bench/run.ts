// `npm run bench`: the performance lab. Runs every registered suite (or those named on the
// command line) and prints figures and ratios against peers measured in the same run.
// Suites live next to this file; each exports `run(report)` and is registered below.
import { machineBanner } from "./machine.js";

export interface BenchReport {
  /** One measured figure, e.g. line("pagerank 20 iter", 812, "ms"). */
  line(label: string, value: number, unit: string, note?: string): void;
  /** A ratio of two figures measured in this run: ours versus a peer. */
  ratio(label: string, ours: number, peer: number, peerName: string): void;
  note(text: string): void;
}

export interface BenchSuite {
  name: string;
  description: string;
  run(report: BenchReport): Promise<void>;
}

/** Suites register themselves here as they are written; order is the run order. */
const suites: Array<() => Promise<BenchSuite>> = [];

export function registerSuite(load: () => Promise<BenchSuite>): void {
  suites.push(load);
}

function consoleReport(suite: string): BenchReport {
  const prefix = `[${suite}]`;
  return {
    line: (label, value, unit, note) =>
      console.log(`${prefix} ${label}: ${formatFigure(value)} ${unit}${note ? `  (${note})` : ""}`),
    ratio: (label, ours, peer, peerName) =>
      console.log(`${prefix} ${label}: ${formatFigure(peer / ours)}x vs ${peerName} (ours ${formatFigure(ours)}, ${peerName} ${formatFigure(peer)})`),
    note: (text) => console.log(`${prefix} ${text}`),
  };
}

function formatFigure(x: number): string {
  return Math.abs(x) >= 100 ? x.toFixed(0) : x.toPrecision(3);
}

async function main(args: string[]): Promise<void> {
  await import("./suites.js");
  console.log(machineBanner());
  const loaded = await Promise.all(suites.map((load) => load()));
  const chosen = args.length ? loaded.filter((s) => args.includes(s.name)) : loaded;
  if (chosen.length === 0) {
    console.log(`no suites to run; available: ${loaded.map((s) => s.name).join(", ") || "(none yet)"}`);
    return;
  }
  for (const suite of chosen) {
    console.log(`\n== ${suite.name}: ${suite.description}`);
    await suite.run(consoleReport(suite.name));
  }
}

const isEntry = import.meta.url === `file://${process.argv[1]}`;
if (isEntry) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
