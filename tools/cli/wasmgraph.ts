#!/usr/bin/env node
// `wasmgraph`: the server command.
//   wasmgraph serve [--port 9000] [--gsql-port 14240] [--data DIR] [--no-demo] [--host 127.0.0.1]
import { parseArgs } from "node:util";
import { startServer } from "../../server/serve.js";

const USAGE = `usage: wasmgraph serve [--port 9000] [--gsql-port 14240] [--data DIR] [--no-demo] [--host 127.0.0.1]

  --port N        REST endpoints (default 9000; 0 picks a free port)
  --gsql-port N   GSQL-server endpoints (default 14240)
  --data DIR      data directory (default ./data)
  --no-demo       start with an empty database instead of the demo graph
  --host ADDR     address to listen on (default 127.0.0.1)`;

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
      "gsql-port": { type: "string", default: "14240" },
      data: { type: "string", default: "./data" },
      "no-demo": { type: "boolean", default: false },
      host: { type: "string", default: "127.0.0.1" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE + "\n");
    return 0;
  }
  const port = portNumber("--port", values.port);
  const gsqlPort = portNumber("--gsql-port", values["gsql-port"]);
  if (port === undefined || gsqlPort === undefined) return 2;
  const server = await startServer({ port, host: values.host, gsqlPort, demo: !values["no-demo"] });
  process.stdout.write(`wasmgraph REST endpoints on http://${values.host}:${server.restPort}\n`);
  process.stdout.write(`wasmgraph GSQL-server endpoints on http://${values.host}:${server.gsqlPort} (gsql --host http://${values.host}:${server.gsqlPort})\n`);
  if (server.demo) {
    process.stdout.write(server.demo.returnCode === 0
      ? "demo graph Social created: try curl 'http://" + values.host + ":" + server.restPort + "/query/Social/hello?p=Amara'\n"
      : `demo graph Social created with problems (return code ${server.demo.returnCode}):\n${server.demo.output}`);
  }
  // Not served by this build yet: persistence in --data. Say so rather than pretend.
  process.stdout.write(`note: persistence in ${values.data} is not available in this build; data is kept in memory\n`);
  return -1;
}

function portNumber(flag: string, text: string): number | undefined {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 65535) {
    process.stderr.write(`wasmgraph: ${flag} must be a port number, got '${text}'\n`);
    return undefined;
  }
  return n;
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
