#!/usr/bin/env node
// `wasmgraph`: the server command.
//   wasmgraph serve [--port 9000] [--gsql-port 14240] [--data DIR | --in-memory] [--no-demo] [--no-warm-up] [--host 127.0.0.1] [--auth]
import { parseArgs } from "node:util";
import { startServer, type RunningServer } from "../../server/serve.js";
import type { RecoveryReport } from "../../server/persist/recovery.js";

const USAGE = `usage: wasmgraph serve [--port 9000] [--gsql-port 14240] [--data DIR | --in-memory] [--no-demo] [--no-warm-up] [--host 127.0.0.1] [--auth]

  --port N        REST endpoints (default 9000; 0 picks a free port)
  --gsql-port N   GSQL-server endpoints (default 14240)
  --data DIR      data directory: every acknowledged change is logged there and
                  recovered on the next start (default ./data)
  --in-memory     keep everything in memory only; nothing survives a restart
  --snapshot-every-mb N
                  take a snapshot in the background once the log grew by N MiB
                  (REST upserts count 16 bytes per item), or by a quarter
                  of the last snapshot if more (default 8; 0: only on a clean stop)
  --idle-compaction-ms N
                  compact edge lists once no write came for N ms (default 2000;
                  0: never), so reads after a load walk packed lists
  --wait-for-lock if another server holds the data directory, wait until it stops,
                  then recover and take over (a standby for restarts)
  --no-demo       start with an empty database instead of the demo graph
  --no-warm-up    skip the loader's warm-up: by default a small load into a
                  throwaway store runs once started, so that the first large
                  load runs compiled code (10-15% faster on 4M edges)
  --host ADDR     address to listen on (default 127.0.0.1)
  --auth          require authentication (also WASMGRAPH_AUTH=true): users, roles,
                  secrets and tokens; the first start creates user tigergraph with
                  password tigergraph, to be changed with ALTER PASSWORD`;

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
      "in-memory": { type: "boolean", default: false },
      "snapshot-every-mb": { type: "string", default: "8" },
      "idle-compaction-ms": { type: "string", default: "2000" },
      "wait-for-lock": { type: "boolean", default: false },
      "no-demo": { type: "boolean", default: false },
      "no-warm-up": { type: "boolean", default: false },
      host: { type: "string", default: "127.0.0.1" },
      auth: { type: "boolean", default: false },
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
  const snapshotMiB = Number(values["snapshot-every-mb"]);
  if (!/^\d+(\.\d+)?$/.test(values["snapshot-every-mb"]) || !Number.isFinite(snapshotMiB)) {
    process.stderr.write(`wasmgraph: --snapshot-every-mb must be a number of MiB, got '${values["snapshot-every-mb"]}'\n`);
    return 2;
  }
  const idleCompactionMs = Number(values["idle-compaction-ms"]);
  if (!/^\d+$/.test(values["idle-compaction-ms"])) {
    process.stderr.write(`wasmgraph: --idle-compaction-ms must be a whole number of milliseconds, got '${values["idle-compaction-ms"]}'\n`);
    return 2;
  }
  const log = (line: string) => process.stderr.write(`wasmgraph: ${line}\n`);
  const dataDir = values["in-memory"] ? undefined : values.data;
  const persistence = { snapshotEveryBytes: Math.round(snapshotMiB * 2 ** 20), waitForLock: values["wait-for-lock"] };
  const auth = values.auth || authFromEnvironment(process.env.WASMGRAPH_AUTH);
  if (auth === undefined) return 2;
  const server = await startServer({
    port, host: values.host, gsqlPort, demo: !values["no-demo"], dataDir, persistence, log, auth: { enabled: auth }, idleCompactionMs,
    warmLoader: !values["no-warm-up"],
  });
  if (server.recovery) log(describeRecovery(server.recovery));
  stopOnSignals(server, log);
  process.stdout.write(`wasmgraph REST endpoints on http://${values.host}:${server.restPort}\n`);
  process.stdout.write(`wasmgraph GSQL-server endpoints on http://${values.host}:${server.gsqlPort} (gsql --host http://${values.host}:${server.gsqlPort})\n`);
  if (server.auth.enabled) {
    process.stdout.write(`authentication is on: log in with gsql -u USER, or get a token with POST /requesttoken` +
      (server.auth.mustChangePassword("tigergraph") ? ` (user tigergraph still has its default password: change it with ALTER PASSWORD)` : "") + "\n");
  }
  if (server.demo) {
    process.stdout.write(server.demo.returnCode === 0
      ? `demo graph Social created: try curl 'http://${values.host}:${server.restPort}/query/Social/hello?p=Amara'\n`
      : `demo graph Social created with problems (return code ${server.demo.returnCode}):\n${server.demo.output}`);
  }
  return -1;
}

/** WASMGRAPH_AUTH: true/1/on or false/0/off (unset: off); undefined after reporting a bad value. */
function authFromEnvironment(value: string | undefined): boolean | undefined {
  if (value === undefined || value === "") return false;
  if (/^(true|1|on|yes)$/i.test(value)) return true;
  if (/^(false|0|off|no)$/i.test(value)) return false;
  process.stderr.write(`wasmgraph: WASMGRAPH_AUTH must be true or false, got '${value}'\n`);
  return undefined;
}

function portNumber(flag: string, text: string): number | undefined {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 65535) {
    process.stderr.write(`wasmgraph: ${flag} must be a port number, got '${text}'\n`);
    return undefined;
  }
  return n;
}

function describeRecovery(r: RecoveryReport): string {
  const from = r.snapshot ? `snapshot at log position ${r.snapshot.lsn}` : "an empty database";
  const lines = [`data directory ${r.dataDir}: recovered ${from} + ${r.replayedRecords} log records in ${r.millis.toFixed(0)} ms (${r.cpuMillis.toFixed(0)} ms CPU)`];
  if (r.tornTail) lines.push(`cut off an incomplete last log write (${r.tornTail.droppedBytes} bytes in ${r.tornTail.file}: never acknowledged)`);
  for (const d of r.damagedSnapshots) lines.push(`passed over damaged snapshot ${d.dir} (${d.reason}); kept as ${d.movedTo}`);
  return lines.join("\nwasmgraph: ");
}

/** A clean stop finishes pending writes and takes a snapshot, so the next start is quick. */
function stopOnSignals(server: RunningServer, log: (line: string) => void): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log(`stopping failed: ${err instanceof Error ? err.message : String(err)}`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
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
