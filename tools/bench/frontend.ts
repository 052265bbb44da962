// Front-end bench (not a test): parse + AST time, warm, for a 300-line query file and for a
// file of 50 queries, with the machine's details. Part of `npm run bench` (suite "frontend");
// alone: `node dist/tools/bench/frontend.js [--json]`. The inputs are generated from query
// shapes written here, so the figures do not depend on test files. Wall time and process CPU
// time are both reported: on a shared machine the CPU figure is the steadier one.
import { loadavg } from "node:os";
import { analyzeSource } from "../../compiler/front-end.js";
import { machineInfo } from "./machine.js";
import type { BenchSuite } from "./run.js";
import { parse } from "../../compiler/parse/parse.js";
import { DiagnosticLog } from "../../compiler/diagnostics/diagnostic-log.js";

/** One SELECT-heavy block of a query body (about 15 lines). */
function bodyBlock(i: number): string {
  return `
  // block ${i}
  Frontier_${i} = {Person.*};
  Frontier_${i} = SELECT t FROM Frontier_${i}:s -(Knows:e)-> Person:t
      WHERE s.age > ${i} AND t.name != "x${i}" AND e.weight BETWEEN 0.5 AND ${i + 2}.5
      ACCUM t.@score += s.@score * e.weight / (1 + s.outdegree("Knows")),
            @@total += 1,
            IF t.@score > ${i} THEN @@seen += t ELSE @@missed += 1 END
      POST-ACCUM t.@score = 0.15 + 0.85 * t.@score,
                 @@max_diff += abs(t.@score - t.@score')
      HAVING t.@score > 0
      ORDER BY t.@score DESC
      LIMIT ${10 + i};
  IF @@max_diff < 0.001 THEN PRINT "converged at ${i}" AS state; END;
  FOREACH v IN @@seen DO @@names += ("n${i}" -> 1); END;`;
}

const HEADER = `CREATE QUERY bench_query_NAME(VERTEX<Person> seed, INT k = 10, FLOAT damping = 0.85) FOR GRAPH Social {
  SumAccum<FLOAT> @score = 1;
  MaxAccum<FLOAT> @@max_diff;
  SumAccum<INT> @@total, @@missed;
  SetAccum<VERTEX<Person>> @@seen;
  MapAccum<STRING, SumAccum<INT>> @@names;`;

/** A single query of about `lines` lines. */
export function longQuery(lines: number): string {
  const parts = [HEADER.replace("NAME", "long")];
  for (let i = 0; parts.join("\n").split("\n").length < lines - 2; i++) parts.push(bodyBlock(i));
  parts.push("  PRINT @@total, @@names;\n}\n");
  return parts.join("\n");
}

/** `count` queries of a few blocks each, as an install script would hold them. */
export function manyQueries(count: number): string {
  const out: string[] = ["USE GRAPH Social"];
  for (let q = 0; q < count; q++) {
    out.push(HEADER.replace("NAME", String(q)), bodyBlock(q), bodyBlock(q + 1), "  PRINT @@total;\n}");
  }
  out.push(`INSTALL QUERY ${Array.from({ length: count }, (_, q) => `bench_query_${q}`).join(", ")}`);
  return out.join("\n") + "\n";
}

interface Timing {
  name: string;
  lines: number;
  bytes: number;
  runs: number;
  minMs: number;
  medianMs: number;
  meanMs: number;
  /** Median process CPU time per run (user + system). */
  medianCpuMs: number;
}

function time(name: string, text: string, runs: number): Timing {
  const log = new DiagnosticLog();
  if (parse(text, name, log).usedFullLL || log.diagnostics.length > 0) {
    throw new Error(`bench input ${name} does not take the fast path: ${log.diagnostics[0]?.message ?? "SLL failed"}`);
  }
  for (let i = 0; i < 5; i++) analyzeSource(text, name, { astOnly: true });
  const samples: number[] = [];
  const cpuSamples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    analyzeSource(text, name, { astOnly: true });
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
    const used = process.cpuUsage(cpu);
    cpuSamples.push((used.user + used.system) / 1000);
  }
  samples.sort((a, b) => a - b);
  cpuSamples.sort((a, b) => a - b);
  return {
    name, lines: text.split("\n").length, bytes: Buffer.byteLength(text), runs,
    minMs: samples[0]!, medianMs: samples[Math.floor(runs / 2)]!, meanMs: samples.reduce((a, b) => a + b, 0) / runs,
    medianCpuMs: cpuSamples[Math.floor(runs / 2)]!,
  };
}

export function runFrontendBench(runs = 30): { machine: Record<string, unknown>; results: Timing[] } {
  // Warm the parser once: the first parse in a process builds ANTLR's prediction caches.
  analyzeSource(manyQueries(2), "warm.gsql", { astOnly: true });
  const results = [time("300-line query", longQuery(300), runs), time("50 queries", manyQueries(50), Math.max(5, Math.round(runs / 3)))];
  return { machine: { ...machineInfo(), loadAverage: loadavg().map((l) => l.toFixed(2)).join(" ") }, results };
}

/** The `npm run bench` suite. */
export const suite: BenchSuite = {
  name: "frontend",
  description: "parse + AST, warm: a 300-line query file and a file of 50 queries",
  async run(report) {
    const { machine, results } = runFrontendBench(30);
    report.note(`load average ${machine.loadAverage}`);
    for (const r of results) {
      report.line(`${r.name} (${r.lines} lines) median`, r.medianMs, "ms", `min ${r.minMs.toFixed(2)} ms, CPU median ${r.medianCpuMs.toFixed(2)} ms`);
    }
  },
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = runFrontendBench(Number(process.env.BENCH_RUNS ?? 30));
  if (process.argv.includes("--json")) {
    process.stdout.write(JSON.stringify(report, null, 2) + "\n");
  } else {
    const m = report.machine;
    process.stdout.write(`GSQL front end (parse + AST), warm\nmachine: ${m.cpuModel}, ${m.cores} cores, ${m.memoryGiB} GiB, ` +
      `node ${m.node}, load ${m.loadAverage}\n`);
    for (const r of report.results) {
      process.stdout.write(`  ${r.name.padEnd(16)} ${String(r.lines).padStart(5)} lines ${String(r.bytes).padStart(7)} bytes` +
        `  min ${r.minMs.toFixed(2)} ms  median ${r.medianMs.toFixed(2)} ms  mean ${r.meanMs.toFixed(2)} ms` +
        `  CPU median ${r.medianCpuMs.toFixed(2)} ms  (${r.runs} runs)\n`);
    }
  }
}
