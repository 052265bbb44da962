// Bench suite "load": CSV load throughput, ours vs Kuzu (npm package `kuzu`) on the same
// file in the same run. The file is a seeded R-MAT edge list ("src,dst", 4M edges over 2^20
// integer ids) generated under tools/bench/data/ at bench time.
// Ours: RUN-LOADING-JOB path (runLoad from the file, parsed in the loader's reader thread,
// batches into the graph store through the engine), endpoints created on the fly, with a data directory as a server has by
// default: every batch is in the write-ahead log (and durable) before the load counts as done.
// Like a server after its start, the process has run the loader's warm-up (LOAD_BENCH_COLD=1: not). Kuzu: COPY of the vertex file, then COPY of
// the edge file into a REL table (Kuzu needs its nodes first); both times are reported.
import { readFileSync, rmSync, mkdtempSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { BenchReport, BenchSuite } from "./run.js";
import { importPeer } from "./peer-import.js";
import { ensureLoadCsv } from "./data/load-csv.js";
import type { LoadSink } from "../../server/loading/sink.js";
import { runLoad } from "../../server/loading/run.js";
import { edgeListLoad, warmLoader } from "../../server/loading/warm-up.js";
import { warmReaderThread } from "../../server/loading/worker/read-in-thread.js";
import { Engine } from "../../server/engine/engine.js";
import { engineSink } from "../../server/loading/engine-sink.js";
import type { CreateStore } from "../../runtime-wasm/store/index.js";
import { openDurableEngine } from "../../server/persist/engine-state.js";
import type { Persistence } from "../../server/persist/persistence.js";

const EDGES = Number(process.env.LOAD_BENCH_EDGES ?? 4_000_000);
const SCALE = 20;

const { schema, plan } = edgeListLoad("g", "load_edges");

export const suite: BenchSuite = {
  name: "load",
  description: `CSV edge load, ${EDGES} R-MAT edges over 2^${SCALE} vertices: ours (runLoad into the store) vs Kuzu COPY FROM`,
  async run(report: BenchReport) {
    const files = await ensureLoadCsv(EDGES, SCALE);
    report.note(`data: ${files.edges} (${(files.bytes / 2 ** 20).toFixed(1)} MiB)`);
    // Both systems share the machine with whatever else runs: the load average tells how busy it was.
    report.note(`load average before: ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
    const ours = await measureOurs(files.edges, report);
    const kuzu = await measureKuzu(files.vertices, files.edges, report);
    report.note(`load average after: ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
    if (ours && kuzu) {
      // ratio() prints peer/ours: with times, above 1 means we load faster.
      report.ratio("load time (speed-up) vs Kuzu edge COPY", EDGES / ours, EDGES / kuzu.edgesPerSecond, "kuzu");
      report.ratio("load time (speed-up) vs Kuzu vertex+edge COPY", EDGES / ours, EDGES / kuzu.totalPerSecond, "kuzu with its vertex COPY");
    }
  },
};

/** Returns edges per second, or undefined when the store is not available in this build. */
async function measureOurs(path: string, report: BenchReport): Promise<number | undefined> {
  const storeModule = (await import("../../runtime-wasm/store/index.js")) as { createStore?: CreateStore };
  let sink: LoadSink;
  let counts: () => string = () => "";
  let dataDir: string | undefined;
  let persistence: Persistence | undefined;
  const holds: number[] = [];
  const applyStarts: number[] = [];
  if (storeModule.createStore) {
    const engine = new Engine({ createStore: storeModule.createStore, storeOptions: { initialBytes: 256 << 20 } });
    dataDir = mkdtempSync(join(tmpdir(), "wasmgraph-load-"));
    persistence = (await openDurableEngine(dataDir, engine, { snapshotOnClose: false })).persistence;
    engine.apply({ kind: "define-schema", schema });
    await persistence.sync();
    // As `wasmgraph serve` does once started (serve.ts): the loader's warm-up load, which
    // leaves its code compiled and the reader thread ready. LOAD_BENCH_COLD=1 measures a
    // process without it (as `wasmgraph serve --no-warm-up`: only the reader thread started).
    const warmStarted = performance.now();
    if (process.env.LOAD_BENCH_COLD === "1") await warmReaderThread();
    else await warmLoader();
    report.line(process.env.LOAD_BENCH_COLD === "1" ? "ours: cold start (LOAD_BENCH_COLD=1): reader thread started" : "ours: the server's loader warm-up (before the load, as at a server start)", performance.now() - warmStarted, "ms");
    sink = timedSink(engineSink(engine, "g"), holds, applyStarts);
    counts = () => engine.read((s) => `${s.vertexCount("V")} vertices, ${s.storedEdgeCount("E")} stored edges`);
  } else {
    report.note("the graph store is not in this build: measuring the loader alone (parse, convert, batch) into a sink that drops batches");
    sink = { schema: () => schema, apply: () => undefined };
  }
  const started = performance.now();
  const cpu = process.cpuUsage();
  const mainCpu = mainThreadCpuMs();
  let result;
  let seconds: number;
  try {
    result = await runLoad(plan, new Map([["f", { kind: "path", path }]]), sink);
    const loaded = performance.now();
    // Done when durable: what a RUN LOADING JOB user waits for (a background snapshot may still run).
    await persistence?.sync();
    report.line("ours: from the load's end until durable", performance.now() - loaded, "ms");
    seconds = (performance.now() - started) / 1000;
    cpuSeconds(cpu, report, "ours");
    const mainCpuAfter = mainThreadCpuMs();
    // The thread that applies and logs every batch: the load's critical path when the file is read in a reader thread.
    if (mainCpu !== undefined && mainCpuAfter !== undefined) report.line("ours: CPU time of the main thread", mainCpuAfter - mainCpu, "ms");
  } finally {
    await persistence?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
  const edges = result.sources[0]!.statistics.edge[0]!.validObject;
  report.line("ours: load time", seconds * 1000, "ms", counts());
  if (holds.length > 0) {
    // Requests to the server wait behind a batch being applied: its longest hold of the main thread.
    const sorted = [...holds].sort((a, b) => a - b);
    report.line("ours: longest batch apply (main thread held)", sorted[sorted.length - 1]!, "ms", `median ${sorted[sorted.length >> 1]!.toFixed(0)} ms over ${holds.length} batches`);
    // Until the first batch arrives the applying thread has nothing to do: the reader's start and its first chunks.
    report.line("ours: first batch applied after", applyStarts[0]! - started, "ms");
    // Between batches the main thread waits for the reader (or runs other work): the gaps between one apply's end and the next one's start.
    let gaps = 0;
    for (let i = 1; i < applyStarts.length; i++) gaps += applyStarts[i]! - applyStarts[i - 1]! - holds[i - 1]!;
    report.line("ours: between batch applies (main thread not applying)", gaps, "ms");
  }
  report.line("ours: edges/s", edges / seconds, "edges/s");
  return edges / seconds;
}

/** The sink with each batch's apply timed into `holds` (ms), and when each began into `starts`. */
function timedSink(sink: LoadSink, holds: number[], starts: number[]): LoadSink {
  return {
    schema: () => sink.schema(),
    get logged() {
      return sink.logged;
    },
    apply: (batch) => {
      const started = performance.now();
      starts.push(started);
      const done = sink.apply(batch);
      holds.push(performance.now() - started);
      return done;
    },
  };
}

async function measureKuzu(verticesPath: string, edgesPath: string, report: BenchReport): Promise<{ edgesPerSecond: number; totalPerSecond: number } | undefined> {
  const kuzu = await importPeer("kuzu");
  if (!kuzu) {
    report.note("kuzu is not installed (npm run bench:peers): no peer figure");
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), "wasmgraph-kuzu-"));
  try {
    const db = new kuzu.Database(join(dir, "db"));
    const conn = new kuzu.Connection(db);
    await conn.query("CREATE NODE TABLE V(id INT64, PRIMARY KEY(id))");
    await conn.query("CREATE REL TABLE E(FROM V TO V)");
    let t = performance.now();
    await conn.query(`COPY V FROM '${verticesPath}' (header=false)`);
    const vertexMs = performance.now() - t;
    t = performance.now();
    const cpu = process.cpuUsage();
    await conn.query(`COPY E FROM '${edgesPath}' (header=false)`);
    const edgeMs = performance.now() - t;
    cpuSeconds(cpu, report, "kuzu: edge COPY");
    const count = await conn.query("MATCH ()-[e:E]->() RETURN count(e) AS n");
    const rows = (await (Array.isArray(count) ? count[0]! : count).getAll()) as { n: number | bigint }[];
    const n = Number(rows[0]!.n);
    report.line("kuzu: vertex COPY", vertexMs, "ms");
    report.line("kuzu: edge COPY", edgeMs, "ms", `${n} edges`);
    report.line("kuzu: edges/s (edge COPY)", n / (edgeMs / 1000), "edges/s");
    await conn.close();
    await db.close();
    return { edgesPerSecond: n / (edgeMs / 1000), totalPerSecond: n / ((edgeMs + vertexMs) / 1000) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** CPU time of this process's main thread in ms (Linux /proc; undefined elsewhere), 10 ms steps. */
function mainThreadCpuMs(): number | undefined {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

/**
 * CPU time of the whole process (every thread) since `since`: on a machine shared with other
 * work, a steadier figure than the wall clock. Both systems run in this process.
 */
function cpuSeconds(since: NodeJS.CpuUsage, report: BenchReport, who: string): void {
  const used = process.cpuUsage(since);
  report.line(`${who}: CPU time (all threads of the process)`, (used.user + used.system) / 1000, "ms");
}
