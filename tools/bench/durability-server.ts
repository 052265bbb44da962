// The server side of the durability bench's upsert figures, run as its own process: the
// same server either in memory or with a data directory, holding the bench schema, so the
// two figures differ only by durability. Prints the line `wasmgraph serve` prints.
//   node durability-server.js (--in-memory | --data DIR) SCHEMA_JSON
import { Engine } from "../../server/engine/engine.js";
import { startServer } from "../../server/serve.js";
import type { DatabaseSchema } from "../../runtime-wasm/schema/types.js";

async function main(argv: string[]): Promise<void> {
  const dataDir = argv[0] === "--data" ? argv[1] : undefined;
  const schema = JSON.parse(argv[argv.length - 1]!) as DatabaseSchema;
  const engine = new Engine();
  const server = await startServer({ port: 0, engine, dataDir, limits: { bodyBytes: 512 * 2 ** 20 } });
  if (engine.graphNames().length === 0) engine.apply({ kind: "define-schema", schema });
  await server.persistence?.sync();
  process.stdout.write(`wasmgraph REST endpoints on http://127.0.0.1:${server.restPort}\n`);
  process.on("SIGTERM", () => void server.close().then(() => process.exit(0)));
}

void main(process.argv.slice(2));
