#!/usr/bin/env node
// `wasmgraph`: the server command. `wasmgraph serve [--port 9000] [--host 127.0.0.1]`.
import { parseArgs } from "node:util";
import { startServer } from "../../server/serve.js";

const USAGE = `usage: wasmgraph serve [--port 9000] [--host 127.0.0.1]`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== "serve") {
    process.stderr.write(USAGE + "\n");
    return command === undefined || command === "--help" || command === "-h" ? 0 : 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      port: { type: "string", default: "9000" },
      host: { type: "string", default: "127.0.0.1" },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`wasmgraph: --port must be a port number, got '${values.port}'\n`);
    return 2;
  }
  const server = await startServer({ port, host: values.host });
  process.stdout.write(`wasmgraph REST endpoints on http://${values.host}:${server.restPort}\n`);
  return -1;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: unknown) => {
    process.stderr.write(`wasmgraph: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
