// Durability bench (not a test): what making every write durable costs and how fast a
// restart is. Measures, with the machine's details (printed by run.ts):
//   1. the write-ahead log alone: durable appends/s by concurrency, records per fsync;
//   2. batched upserts over HTTP against `wasmgraph serve --data` vs `--in-memory`, one and
//      eight concurrent clients (the durable figure as a share of the in-memory one);
//   3. a 4-million-edge graph loaded durably: restart time after kill -9 (snapshot + log
//      tail) and after a clean stop (snapshot only), snapshot size per edge.
// The server runs as a child process, as users run it.
//   node dist/tools/bench/run.js durability      (DURABILITY_EDGES=… for another size;
//   DURABILITY_PARTS=log,upserts,restart for some of the three)
import { spawn, type ChildProcess } from "node:child_process";
import { promises as fsp, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Engine } from "../../server/engine/engine.js";
import { openDurableEngine } from "../../server/persist/engine-state.js";
import { WriteAheadLog } from "../../server/persist/wal/write-ahead-log.js";
import type { DatabaseSchema } from "../../runtime-wasm/schema/types.js";
import type { BenchReport, BenchSuite } from "./run.js";
import { rmat } from "./rmat.js";
import { processCpuMillis } from "./machine.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(HERE, "../cli/wasmgraph.js");
const BENCH_SERVER = path.resolve(HERE, "durability-server.js");
const GRAPH = "bench";

const SCHEMA: DatabaseSchema = {
  tuples: [],
  vertexTypes: [
    {
      key: "V",
      name: "V",
      primaryId: { name: "id", type: "STRING" },
      primaryIdAsAttribute: false,
      attributes: [{ name: "score", type: { kind: "scalar", name: "DOUBLE" } }],
      stats: "OUTDEGREE_BY_EDGETYPE",
    },
  ],
  edgeTypes: [{ key: "e", name: "e", directed: true, pairs: [{ from: "V", to: "V" }], discriminator: [], attributes: [] }],
  graphs: [{ name: GRAPH, vertexTypes: ["V"], edgeTypes: ["e"], version: 0 }],
  globalVersion: 0,
};

export const suite: BenchSuite = {
  name: "durability",
  description: "write-ahead log, durable vs in-memory upserts, snapshot size, restart time",
  run: async (report) => {
    // Other work on the machine slows every figure; say how busy it was.
    report.note(`load average at start: ${os.loadavg().map((l) => l.toFixed(1)).join(", ")} (${os.cpus().length} cores)`);
    const root = await fsp.mkdtemp(path.join(os.tmpdir(), "wasmgraph-bench-durability-"));
    const parts = new Set((process.env.DURABILITY_PARTS ?? "log,upserts,restart").split(","));
    try {
      if (parts.has("log")) await benchLog(report, root);
      const missing = storeMissing();
      if (missing) {
        report.note(`upsert and restart figures skipped: ${missing}`);
        return;
      }
      if (parts.has("upserts")) await benchUpserts(report, root);
      if (parts.has("restart")) await benchRestart(report, root, Number(process.env.DURABILITY_EDGES ?? 4_000_000));
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
  },
};

/** 1. Durable appends of 1 KiB records with 1..64 writers each awaiting its own record. */
async function benchLog(report: BenchReport, root: string): Promise<void> {
  const payload = Buffer.alloc(1024, 7);
  for (const writers of [1, 8, 64]) {
    const log = await WriteAheadLog.open(path.join(root, `wal-${writers}`));
    const perWriter = writers === 1 ? 2000 : 20_000 / writers;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: writers }, async () => {
        for (let i = 0; i < perWriter; i++) await log.waitDurable(log.append(payload));
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    report.line(`log: durable 1 KiB appends, ${writers} concurrent writer(s)`, (writers * perWriter) / seconds, "records/s", `${(log.stats.records / log.stats.batches).toFixed(1)} records per fsync`);
    await log.close();
  }
}

/**
 * 2. The same batched upserts against a durable and an in-memory server, measured side by
 * side: in each of three runs both servers are up (fresh, each after a few untimed batches
 * for start-up and JIT warm-up) and take the timed batches in alternating blocks (in memory
 * first in one block, durable first in the next), so both see the same machine: on a
 * shared machine whose load swings within seconds, runs of one server after the other
 * compare the load more than the servers. Reported: each run's durable share (its
 * durable / in-memory time over the same blocks), and each mode's best throughput.
 */
async function benchUpserts(report: BenchReport, root: string): Promise<void> {
  const batch = 5_000;
  const warmup = 8;
  const timed = 64;
  const runs = 3;
  const bodies: string[] = [];
  for (let b = 0; b < warmup + timed; b++) {
    const items: string[] = [];
    for (let i = b * batch; i < (b + 1) * batch; i++) items.push(`"v${i}":{"score":{"value":${(i % 1000) / 8}}}`);
    bodies.push(`{"vertices":{"V":{${items.join(",")}}}}`);
  }
  const modes = ["in-memory", "durable"] as const;
  for (const clients of [1, 8]) {
    // Blocks of two batches per client keep every client busy through most of a block.
    const blockBatches = Math.max(8, 2 * clients);
    const best = { "in-memory": 0, durable: 0 };
    const leastCpu = { "in-memory": Infinity, durable: Infinity };
    const shares: number[] = [];
    for (let run = 0; run < runs; run++) {
      const servers = {
        "in-memory": await startServer([BENCH_SERVER, "--in-memory", JSON.stringify(SCHEMA)]),
        durable: await startServer([BENCH_SERVER, "--data", path.join(root, `upsert-${clients}-${run}`), JSON.stringify(SCHEMA)]),
      };
      try {
        for (const mode of modes) for (const body of bodies.slice(0, warmup)) await post(servers[mode].base, `/graph/${GRAPH}`, body);
        const millis = { "in-memory": 0, durable: 0 };
        const cpuAtStart = { "in-memory": processCpuMillis(servers["in-memory"].pid), durable: processCpuMillis(servers.durable.pid) };
        for (let first = warmup, block = 0; first < bodies.length; first += blockBatches, block++) {
          const blockBodies = bodies.slice(first, first + blockBatches);
          for (const mode of block % 2 === 0 ? modes : [...modes].reverse()) millis[mode] += await timedPosts(servers[mode].base, blockBodies, clients);
        }
        for (const mode of modes) {
          best[mode] = Math.max(best[mode], (timed * batch) / (millis[mode] / 1000));
          const cpuAtEnd = processCpuMillis(servers[mode].pid);
          const start = cpuAtStart[mode];
          if (start !== undefined && cpuAtEnd !== undefined) leastCpu[mode] = Math.min(leastCpu[mode], cpuAtEnd - start);
        }
        shares.push((100 * millis["in-memory"]) / millis.durable);
      } finally {
        for (const mode of modes) await servers[mode].stop("SIGKILL");
      }
    }
    const what = `upsert ${timed * batch} vertices (DOUBLE attribute) in batches of ${batch}, ${clients} client(s)`;
    report.line(`${what}, in memory`, best["in-memory"], "vertices/s", `best of ${runs}`);
    report.line(`${what}, durable`, best.durable, "vertices/s", `best of ${runs}; fsync before each answer, snapshots in the background`);
    const sorted = [...shares].sort((a, b) => a - b);
    report.line(
      `  durable as a share of in memory, ${clients} client(s)`,
      sorted[sorted.length >> 1]!,
      "%",
      `median of ${runs} side-by-side runs (${shares.map((s) => s.toFixed(1)).join(", ")}; blocks of ${blockBatches} batches alternating); aim: at least 80`,
    );
    if (leastCpu.durable !== Infinity) {
      // Server CPU per run is what a busy machine does not distort: the share a CPU-bound server keeps.
      report.line(`  server CPU, in memory / durable, ${clients} client(s)`, (100 * leastCpu["in-memory"]) / leastCpu.durable, "%", `${leastCpu["in-memory"]} / ${leastCpu.durable} ms CPU, least of ${runs}`);
    }
  }
}

/** Posts the bodies from `clients` concurrent clients, each taking the next one; the time it took. */
async function timedPosts(base: string, bodies: readonly string[], clients: number): Promise<number> {
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < bodies.length) await post(base, `/graph/${GRAPH}`, bodies[next++]!);
    }),
  );
  return performance.now() - start;
}

/**
 * 3. Load an R-MAT graph durably with the default snapshot policy, then: restart after
 * kill -9 (newest snapshot + the log after it), and after a clean stop (snapshot only).
 */
async function benchRestart(report: BenchReport, root: string, edges: number): Promise<void> {
  const scale = Math.max(10, Math.ceil(Math.log2(edges / 8)));
  const graph = rmat({ scale, edges, seed: 42, noSelfLoops: true });
  const dir = await seededDataDir(path.join(root, "restart"));
  let server = await startServer(serve("--data", dir));
  const loadStart = performance.now();
  const perBatch = 100_000;
  for (let first = 0; first < edges; first += perBatch) await post(server.base, `/graph/${GRAPH}`, edgeBatch(graph.src, graph.dst, first, Math.min(edges, first + perBatch)));
  report.line(`load ${edges} R-MAT edges (scale ${scale}) durably, batches of ${perBatch}`, edges / ((performance.now() - loadStart) / 1000), "edges/s", "default snapshot policy");

  await server.stop("SIGKILL");
  server = await startServer(serve("--data", dir));
  report.line(`restart after kill -9 during the load's last batches, spawn to listening`, server.startMillis, "ms", `${cpu(server)}; ${server.recoveryLine}`);

  const snapStart = performance.now();
  await server.stop("SIGTERM");
  report.line("clean stop, including writing a snapshot", performance.now() - snapStart, "ms");
  const snapshots = path.join(dir, "snapshots");
  const newest = (await fsp.readdir(snapshots)).filter((n) => /^snapshot-\d+$/.test(n)).sort().pop()!;
  const snapshotBytes = await directoryBytes(path.join(snapshots, newest));
  report.line("snapshot size per edge (store image + catalog)", snapshotBytes / edges, "bytes/edge", `${(snapshotBytes / 2 ** 20).toFixed(1)} MiB`);
  server = await startServer(serve("--data", dir));
  report.line(`restart after a clean stop (${edges} edges), spawn to listening`, server.startMillis, "ms", `${cpu(server)}; ${server.recoveryLine}`);
  await server.stop("SIGKILL");
  const bare = await startServer(serve("--in-memory"));
  report.line("  for reference: spawn to listening of an empty in-memory server", bare.startMillis, "ms", cpu(bare));
  await bare.stop("SIGKILL");
}

/** Why the server cannot hold data in this build, if it cannot (no graph store wired in). */
function storeMissing(): string | undefined {
  const engine = new Engine();
  engine.apply({ kind: "define-schema", schema: SCHEMA });
  try {
    void engine.store;
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

function edgeBatch(src: Uint32Array, dst: Uint32Array, from: number, to: number): string {
  const bySource = new Map<number, number[]>();
  for (let i = from; i < to; i++) {
    const list = bySource.get(src[i]!);
    if (list) list.push(dst[i]!);
    else bySource.set(src[i]!, [dst[i]!]);
  }
  const parts: string[] = [];
  for (const [s, targets] of bySource) parts.push(`"v${s}":{"e":{"V":{${targets.map((t) => `"v${t}":{}`).join(",")}}}}`);
  return `{"edges":{"V":{${parts.join(",")}}}}`;
}

/** A data directory holding the bench schema, as a user would have after defining it. */
async function seededDataDir(dir: string): Promise<string> {
  const engine = new Engine();
  const { persistence } = await openDurableEngine(dir, engine, { snapshotOnClose: false });
  engine.apply({ kind: "define-schema", schema: SCHEMA });
  await persistence.close();
  return dir;
}

interface BenchServer {
  base: string;
  pid: number;
  startMillis: number;
  /** Processor time the process used up to listening (Linux /proc), unaffected by other load. */
  startCpuMillis: number | undefined;
  recoveryLine: string;
  stop(signal: "SIGKILL" | "SIGTERM"): Promise<void>;
}

function cpu(server: BenchServer): string {
  return server.startCpuMillis === undefined ? "CPU time not available" : `${server.startCpuMillis} ms CPU`;
}

/** `wasmgraph serve` on free ports with these options (no demo graph: only the data measured). */
function serve(...args: string[]): string[] {
  return [CLI, "serve", "--port", "0", "--gsql-port", "0", "--no-demo", ...args];
}

/** Spawns a server script; resolves once it listens, with the time that took. */
function startServer(argv: string[]): Promise<BenchServer> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, argv, { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      stdout += d.toString();
      const match = /REST endpoints on (http:\/\/\S+)/.exec(stdout);
      if (!match) return;
      const recovered = /recovered .* in \d+ ms \(\d+ ms CPU\)/.exec(stderr);
      resolve({
        base: match[1]!,
        pid: child.pid!,
        startMillis: performance.now() - started,
        startCpuMillis: processCpuMillis(child.pid!),
        recoveryLine: recovered ? recovered[0] : "",
        stop: async (signal) => {
          child.kill(signal);
          await exited;
        },
      });
    });
    void exited.then(() => reject(new Error(`server exited before listening: ${stderr}`)));
  });
}


async function post(base: string, url: string, body: string): Promise<void> {
  const r = await fetch(base + url, { method: "POST", body });
  const text = await r.text();
  if (r.status !== 200) throw new Error(`POST ${url}: ${r.status} ${text.slice(0, 300)}`);
}

async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await fsp.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await fsp.stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}
