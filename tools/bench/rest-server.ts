// The server side of the REST bench, run as its own process (forked by rest.ts): a REST
// server on an ephemeral port with the bench schema. It reports its port over IPC and
// answers "memory" requests with the store's memory statistics.
import { startServer } from "../../server/serve.js";
import { Engine } from "../../server/engine/engine.js";
import type { DatabaseSchema } from "../../runtime-wasm/schema/types.js";

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
  engine.apply({ kind: "define-schema", schema: BENCH_SCHEMA });
  const server = await startServer({ port: 0, engine, limits: { bodyBytes: 512 * 1024 * 1024 } });
  process.on("message", (msg: unknown) => {
    if (msg === "memory") process.send!({ memory: engine.store.memoryStats() });
    if (msg === "stop") void server.close().then(() => process.exit(0));
  });
  process.send!({ port: server.restPort });
}

if (process.send) void main();
