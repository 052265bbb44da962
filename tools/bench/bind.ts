// Bench: parse + AST and bind time of the front end, warm, for a 300-line query file and a
// file of 50 queries (both generated here, deterministic, with their schema so every name
// resolves). Registered as the `frontend-bind` suite of `npm run bench`; also runnable alone:
// `node dist/tools/bench/bind.js`. Reports median and p90 per stage.
import { cpus, totalmem } from "node:os";
import { performance } from "node:perf_hooks";
import { analyzeSource } from "../../compiler/front-end.js";
import { DiagnosticLog } from "../../compiler/diagnostics/index.js";
import { bind, MemoryCatalog } from "../../compiler/bind/index.js";
import { emptySchema } from "../../runtime-wasm/schema/types.js";
import type { BenchReport, BenchSuite } from "./run.js";

const SCHEMA = `CREATE VERTEX Person (PRIMARY_ID id STRING, name STRING, age INT, score DOUBLE, tags SET<STRING>)
CREATE VERTEX Company (PRIMARY_ID cid STRING, name STRING, revenue DOUBLE)
CREATE DIRECTED EDGE Knows (FROM Person, TO Person, since INT, weight DOUBLE) WITH REVERSE_EDGE="Knows_rev"
CREATE UNDIRECTED EDGE Friend (FROM Person, TO Person)
CREATE DIRECTED EDGE WorksAt (FROM Person, TO Company, salary UINT)
CREATE GRAPH Social (*)
`;

/** One block of ~14 lines of typical query statements, numbered to keep names distinct. */
function block(i: number): string {
  return `  S${i} = SELECT t FROM Start:s -(Knows:e)-> Person:t
        WHERE t.age > ${i} AND s.name != "x${i}"
        ACCUM t.@cnt += 1, @@total += e.weight, t.@best += s.score,
              @@byName += (t.name -> 1)
        POST-ACCUM t.@score = t.@cnt * 0.85 + 0.15, @@mx += t.@score
        HAVING t.@cnt > 0
        ORDER BY t.@score DESC, t.name
        LIMIT 100;
  IF S${i}.size() > ${i} THEN
    @@log += "step ${i}: " + to_string(S${i}.size());
  ELSE
    FOREACH v IN @@seen DO @@n += 1; END;
  END;
  W${i} = SELECT c FROM S${i}:p -(WorksAt:w)-> Company:c ACCUM c.@cnt += 1, @@pay += w.salary;`;
}

function bigQuery(name: string, blocks: number): string {
  const body = Array.from({ length: blocks }, (_, i) => block(i)).join("\n");
  return `CREATE QUERY ${name}(INT k = 10, STRING who = "a") FOR GRAPH Social SYNTAX V1 {
  SumAccum<INT> @cnt; SumAccum<DOUBLE> @score; MaxAccum<DOUBLE> @best;
  SumAccum<DOUBLE> @@total, @@mx; MapAccum<STRING, SumAccum<INT>> @@byName;
  ListAccum<STRING> @@log; SetAccum<VERTEX<Person>> @@seen; SumAccum<INT> @@n; SumAccum<UINT> @@pay;
  Start = {Person.*};
${body}
  PRINT @@total, @@mx, @@byName, @@log, @@n, @@pay;
}
`;
}

/** The 300-line file: the schema and one query of 21 blocks. */
export const FILE_300 = SCHEMA + bigQuery("big", 21);
/** 50 queries of about 25 lines each. */
export const FILE_50 = SCHEMA + Array.from({ length: 50 }, (_, i) => bigQuery(`q${i}`, 1)).join("\n");

interface Sample { parse: number; bind: number }

function measure(text: string): Sample {
  const log = new DiagnosticLog();
  const t0 = performance.now();
  const fe = analyzeSource(text, "bench.gsql", { log, astOnly: true });
  const t1 = performance.now();
  bind(fe.ast, new MemoryCatalog(emptySchema()), log);
  const t2 = performance.now();
  if (log.hasErrors()) throw new Error(`bench input has errors: ${log.diagnostics[0]!.message}`);
  return { parse: t1 - t0, bind: t2 - t1 };
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

function measureAll(label: string, text: string, warmup: number, runs: number, report: BenchReport): void {
  for (let i = 0; i < warmup; i++) measure(text);
  const samples = Array.from({ length: runs }, () => measure(text));
  const lines = text.split("\n").length;
  const note = `${lines} lines, ${runs} warm runs, p90 in parentheses`;
  for (const [stage, pick] of [["parse+AST", (s: Sample) => s.parse], ["bind", (s: Sample) => s.bind],
    ["total", (s: Sample) => s.parse + s.bind]] as const) {
    const xs = samples.map(pick);
    report.line(`${label} ${stage} median`, quantile(xs, 0.5), "ms", `p90 ${quantile(xs, 0.9).toFixed(2)} ms; ${note}`);
  }
}

export const suite: BenchSuite = {
  name: "frontend-bind",
  description: "GSQL front end, warm: parse+AST and bind of a 300-line query file and a 50-query file",
  run: async (report) => {
    measureAll("300-line file", FILE_300, 20, 50, report);
    measureAll("50-query file", FILE_50, 10, 30, report);
  },
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const cpu = cpus()[0];
  console.log(`front end bench: node ${process.version}, ${cpus().length} x ${cpu?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`);
  const console_: BenchReport = {
    line: (label, value, unit, note) => console.log(`${label}: ${value.toFixed(2)} ${unit}${note ? `  (${note})` : ""}`),
    ratio: () => undefined,
    note: (t) => console.log(t),
  };
  void suite.run(console_);
}
