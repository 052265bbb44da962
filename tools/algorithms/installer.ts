#!/usr/bin/env node
// `gsql-algorithms`: installs queries of the algorithm library on a graph of a running
// server, through its GSQL-server endpoints (as the gsql shell does).
//   gsql-algorithms                      interactive: graph, menu, types, install, requests
//   gsql-algorithms -a pageRank,conn_comp -g G [--install] ...   the same from flags
//   gsql-algorithms --list               the algorithms, their queries and _attr slots
// Answers are read from standard input line by line, so the interactive form can be driven
// through a pipe.
import { parseArgs } from "node:util";
import { createInterface } from "node:readline";
import { ALGORITHMS, algorithm, queryName } from "./library.js";
import { InputEnded, flagInstaller, interactiveInstaller, type FlagChoice, type InstallerIo } from "./installer-flow.js";
import { LibraryServer, ServerError } from "./library-server.js";
import { ConnectionRefused } from "../gsql-shell/client.js";

const USAGE = `usage: gsql-algorithms [--host URL] [-u USER] [-p PASSWORD] [--rest-url URL] [-g GRAPH]
                       [-a NAME[,NAME...] [--vertex-types A,B] [--edge-types E,F] [--weight ATTR]
                        [--attr SLOT=NAME]... [--install | --print]]
                       [--list]

Without -a it asks its questions on standard input. With -a it creates the named
algorithms' queries (stream, _file, and _attr when --attr is given) on graph -g,
dropping earlier queries of the same names, and with --install installs them.

  --host URL        GSQL server address (default http://127.0.0.1:14240)
  -u, -p            user and password (default tigergraph / tigergraph)
  --rest-url URL    address of the REST endpoints in the printed requests
                    (default: as INSTALL QUERY reports it, else port 9000 of the host)
  -a, --algorithm   algorithm names (see --list), comma-separated
  --vertex-types    vertex types to use (default all), --edge-types likewise
  --weight ATTR     edge attribute holding weights (weighted algorithms)
  --attr SLOT=NAME  where the _attr variant writes, e.g. --attr result=pr; repeat per slot
  --install         install the created queries (in one group)
  --print           only print the GSQL the other flags would create`;

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        host: { type: "string" },
        user: { type: "string", short: "u" },
        password: { type: "string", short: "p" },
        "rest-url": { type: "string" },
        graph: { type: "string", short: "g" },
        algorithm: { type: "string", short: "a" },
        "vertex-types": { type: "string" },
        "edge-types": { type: "string" },
        weight: { type: "string" },
        attr: { type: "string", multiple: true },
        install: { type: "boolean" },
        print: { type: "boolean" },
        list: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    });
  } catch (err) {
    process.stderr.write(`gsql-algorithms: ${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const v = parsed.values;
  if (v.help) {
    process.stdout.write(USAGE + "\n");
    return 0;
  }
  if (v.list) {
    for (const a of ALGORITHMS) {
      const queries = a.variants.map((x) => queryName(a, x)).join(", ");
      const slots = a.slots.length && a.variants.includes("attr") ? `; --attr ${a.slots.map((s) => `${s.name}=<${s.prompt}>`).join(" --attr ")}` : "";
      process.stdout.write(`${a.name}${a.menu ? ` (${a.menu})` : " (helper)"}: ${queries}${a.weighted ? "; needs --weight" : ""}${slots}\n`);
    }
    return 0;
  }
  const server = new LibraryServer({
    gsqlUrl: (v.host ?? "http://127.0.0.1:14240").replace(/\/+$/, ""),
    user: v.user ?? "tigergraph",
    password: v.password ?? "tigergraph",
    ...(v["rest-url"] ? { restUrl: v["rest-url"] } : {}),
  });
  const io = consoleIo();
  try {
    await server.login();
    if (v.algorithm === undefined) return await interactiveInstaller(io, server, v.graph);
    if (!v.graph) {
      io.say("-g GRAPH is needed with -a.");
      return 2;
    }
    const slots: Record<string, string> = {};
    for (const a of v.attr ?? []) {
      const [slot, name] = a.split("=");
      if (!slot || !name) {
        io.say(`--attr takes SLOT=NAME, not '${a}'.`);
        return 2;
      }
      slots[slot] = name;
    }
    const list = (s: string | undefined) => (s ?? "").split(",").map((x) => x.trim()).filter((x) => x !== "");
    const choices: FlagChoice[] = [];
    for (const name of list(v.algorithm)) {
      const a = ALGORITHMS.find((x) => x.name === name);
      if (a === undefined) {
        io.say(`There is no algorithm '${name}' in the library (see --list).`);
        return 2;
      }
      const own = Object.fromEntries(a.slots.filter((s) => slots[s.name] !== undefined).map((s) => [s.name, slots[s.name]]));
      choices.push({
        algorithm: algorithm(name),
        vertexTypes: list(v["vertex-types"]),
        edgeTypes: list(v["edge-types"]),
        ...(v.weight ? { weightAttribute: v.weight } : {}),
        ...(Object.keys(own).length ? { slots: own } : {}),
      });
    }
    return await flagInstaller(io, server, v.graph, choices, v.install ?? false, v.print ?? false);
  } catch (err) {
    if (err instanceof InputEnded || err instanceof ServerError || err instanceof ConnectionRefused) {
      io.say(err.message);
      return err instanceof InputEnded ? 3 : 1;
    }
    throw err;
  } finally {
    io.close();
  }
}

/** Prompts on stdout, answers from stdin line by line (echoed when stdin is not a terminal). */
function consoleIo(): InstallerIo & { close(): void } {
  const lines: string[] = [];
  let waiting: ((line: string | undefined) => void) | undefined;
  let ended = false;
  let rl: ReturnType<typeof createInterface> | undefined;
  const start = () => {
    if (rl) return;
    rl = createInterface({ input: process.stdin, terminal: false });
    rl.on("line", (line) => (waiting ? (waiting(line), (waiting = undefined)) : lines.push(line)));
    rl.on("close", () => {
      ended = true;
      waiting?.(undefined);
      waiting = undefined;
    });
  };
  const echo = !process.stdin.isTTY;
  return {
    say: (line) => process.stdout.write(line + "\n"),
    ask: async (prompt) => {
      start();
      process.stdout.write(prompt);
      const line = lines.length ? lines.shift() : ended ? undefined : await new Promise<string | undefined>((resolve) => (waiting = resolve));
      if (echo) process.stdout.write((line ?? "") + "\n");
      return line;
    },
    close: () => rl?.close(),
  };
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`gsql-algorithms: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
