// The server side of the REST bench, run as its own process (forked by rest.ts): a REST
// server on an ephemeral port with the bench schema and a data directory. It reports its port over IPC,
// answers "memory" requests with the store's memory statistics and "settle" once no snapshot is being taken. With --peer it instead
// measures the peer (the same batches given to a fresh store directly) and exits.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startServer } from "../../server/serve.js";
import { Engine } from "../../server/engine/engine.js";
import type { DatabaseSchema } from "../../runtime-wasm/schema/types.js";
import { createStore, type EdgeUpsert } from "../../runtime-wasm/store/index.js";

/** Person(id STRING, age INT, score DOUBLE); follows Person→Person without attributes; rated Person→Person with a weight. */
export const BENCH_SCHEMA: DatabaseSchema = {
  tuples: [],
  vertexTypes: [
    {
      key: "Person",
      name: "Person",
      primaryId: { name: "id", type: "STRING" },
      primaryIdAsAttribute: false,
      attributes: [
        { name: "age", type: { kind: "scalar", name: "INT" } },
        { name: "score", type: { kind: "scalar", name: "DOUBLE" } },
      ],
      stats: "OUTDEGREE_BY_EDGETYPE",
    },
  ],
  edgeTypes: [
    { key: "follows", name: "follows", directed: true, pairs: [{ from: "Person", to: "Person" }], discriminator: [], attributes: [] },
    { key: "rated", name: "rated", directed: true, pairs: [{ from: "Person", to: "Person" }], discriminator: [], attributes: [{ name: "weight", type: { kind: "scalar", name: "DOUBLE" } }] },
  ],
  graphs: [{ name: "bench", vertexTypes: ["Person"], edgeTypes: ["follows", "rated"], version: 0 }],
  globalVersion: 0,
};

async function main(): Promise<void> {
  const engine = new Engine({ storeOptions: { initialBytes: 256 * 1024 * 1024 } });
  // A data directory, as a server has by default: every upsert is answered once it is in the
  // write-ahead log and durable.
  const dataDir = mkdtempSync(join(tmpdir(), "wasmgraph-rest-bench-"));
  const server = await startServer({ port: 0, engine, dataDir, limits: { bodyBytes: 512 * 1024 * 1024 }, log: () => undefined });
  engine.apply({ kind: "define-schema", schema: BENCH_SCHEMA });
  process.on("message", (msg: unknown) => {
    if (msg === "memory") process.send!({ memory: engine.store.memoryStats() });
    // Background work a bulk load leaves (the snapshots its log growth made due) finished
    // before reads are measured, so they are not measured against it: reports its seconds.
    if (msg === "settle") {
      const start = performance.now();
      const settle = async () => {
        // A snapshot resolves undefined once nothing changed since the last one.
        for (let i = 0; i < 5 && server.persistence && (await server.persistence.snapshot()) !== undefined; i++);
        process.send!({ settled: (performance.now() - start) / 1000 });
      };
      void settle();
    }
    if (msg === "stop") {
      void server.close().then(() => {
        rmSync(dataDir, { recursive: true, force: true });
        process.exit(0);
      });
    }
  });
  process.send!({ port: server.restPort });
}

/**
 * The peer of the REST upsert numbers: the same vertices and edges given to a fresh store
 * directly, as batch objects, in batches of the same size (no HTTP, no JSON).
 */
function rawStoreRates(vertices: number, edges: number): { verticesPerSecond: number; edgesPerSecond: number; verticesPerCpuSecond: number; edgesPerCpuSecond: number } {
  const store = createStore(BENCH_SCHEMA, { initialBytes: 256 * 1024 * 1024 });
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  let seconds = 0;
  let cpuSeconds = 0;
  for (let i = 0; i < vertices; i += 10_000) {
    const n = Math.min(10_000, vertices - i);
    const batch = Array.from({ length: n }, (_, k) => ({ type: "Person", id: `p${i + k}`, attributes: [{ name: "age", value: BigInt((i + k) % 90) }, { name: "score", value: (i + k) / 7 }] }));
    const t0 = performance.now();
    const c0 = cpu();
    store.upsert({ vertices: batch });
    seconds += (performance.now() - t0) / 1000;
    cpuSeconds += cpu() - c0;
  }
  const verticesPerSecond = vertices / seconds;
  const verticesPerCpuSecond = vertices / cpuSeconds;
  seconds = 0;
  cpuSeconds = 0;
  for (let first = 0; first < edges; first += 100_000) {
    const n = Math.min(100_000, edges - first);
    const batch: EdgeUpsert[] = [];
    for (let j = first; j < first + n; j++) {
      const dst = (Math.imul(j, 2654435761) >>> 0) % vertices;
      batch.push({ type: "follows", from: { type: "Person", id: `p${Math.floor(j / 10) % vertices}` }, to: { type: "Person", id: `p${dst}` } });
    }
    const t0 = performance.now();
    const c0 = cpu();
    store.upsert({ edges: batch });
    seconds += (performance.now() - t0) / 1000;
    cpuSeconds += cpu() - c0;
  }
  return { verticesPerSecond, edgesPerSecond: edges / seconds, verticesPerCpuSecond, edgesPerCpuSecond: edges / cpuSeconds };
}

/**
 * `--bare`: the floor of GET vertex by id, a bare node:http server answering every request
 * with a fixed body of the same shape and size as the REST server's vertex read.
 */
function startBareServer(): void {
  const body = Buffer.from(JSON.stringify({
    version: { edition: "enterprise", api: "v2", schema: 0 },
    error: false,
    message: "",
    results: [{ v_id: "p12345", v_type: "Person", attributes: { age: 15, score: 1763.5714285714287 } }],
  }));
  const server = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": body.length });
    res.end(body);
  });
  server.listen(0, "127.0.0.1", () => process.send!({ port: (server.address() as AddressInfo).port }));
  process.on("message", (msg: unknown) => {
    if (msg === "stop") server.close(() => process.exit(0));
  });
}

/** `--peer V E`: measure the direct store in this (fresh) process, report, and exit. */
if (process.send && process.argv[2] === "--bare") startBareServer();
else if (process.send && process.argv[2] === "--peer") {
  process.send({ rawStore: rawStoreRates(Number(process.argv[3]), Number(process.argv[4])) }, () => process.exit(0));
} else if (process.send) void main();
