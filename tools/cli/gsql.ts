#!/usr/bin/env node
// `gsql`: the shell client of the GSQL-server endpoints, used like the established one.
//   gsql                         interactive prompt (history, BEGIN ... END, exit)
//   gsql FILE.gsql | -f FILE     runs a command file (`@other.gsql` lines are inlined)
//   gsql 'command' | -c command  runs one command text
// Options: -g GRAPH, --host URL (or -ip HOST:PORT), -u USER, -p PASSWORD, -s SECRET, -v.
// The exit code is the server's return code: non-zero when a command failed.
import { parseArgs } from "node:util";
import { homedir } from "node:os";
import { join } from "node:path";
import { ConnectionRefused, GsqlClient, type Terminal } from "../gsql-shell/client.js";
import { EndlessInclude, isFile, readCommandFile } from "../gsql-shell/input-files.js";
import { interactiveShell } from "../gsql-shell/interactive.js";
import { LineReader } from "../gsql-shell/line-reader.js";

const USAGE = `usage: gsql [-g GRAPH] [--host URL | -ip HOST:PORT] [-u USER] [-p PASSWORD | -s SECRET]
            [FILE.gsql | -f FILE | -c COMMAND... | 'COMMAND']

  -g GRAPH        start in this graph (as USE GRAPH)
  --host URL      GSQL server address (default http://127.0.0.1:14240)
  -ip HOST:PORT   the same, as host and port
  -u USER         user name (default tigergraph)
  -p PASSWORD     password (asked for when needed)
  -s SECRET       log in with a secret instead of a user and password
  -f FILE         run a command file
  -c COMMAND      run the rest of the line as one command
  -v, --version   print the server's version`;

/** Exit codes of the established client (gsql-ddl-loading-shell §10.2). */
const EXIT = { ok: 0, login: 41, badArguments: 201, connection: 202, unknown: 255 } as const;

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.map((a) => (a === "-ip" ? "--ip" : a)),
      options: {
        graph: { type: "string", short: "g" },
        host: { type: "string" },
        ip: { type: "string" },
        user: { type: "string", short: "u" },
        password: { type: "string", short: "p" },
        secret: { type: "string", short: "s" },
        file: { type: "string", short: "f" },
        command: { type: "string", short: "c" },
        version: { type: "boolean", short: "v" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    process.stderr.write(`gsql: ${(err as Error).message}\n${USAGE}\n`);
    return EXIT.badArguments;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE + "\n");
    return EXIT.ok;
  }
  if (values.user !== undefined && values.secret !== undefined) {
    process.stderr.write("gsql: -u and -s cannot be used together.\n");
    return EXIT.badArguments;
  }
  const baseUrl = serverUrl(values.host, values.ip);
  if (!baseUrl) {
    process.stderr.write(`gsql: --host must be a URL such as http://127.0.0.1:14240, and -ip HOST:PORT.\n`);
    return EXIT.badArguments;
  }
  if (values.version) {
    const res = await fetch(`${baseUrl}/gsqlserver/gsql/version`, { method: "POST" }).catch(() => undefined);
    if (!res) return refused(baseUrl);
    process.stdout.write(await res.text());
    return EXIT.ok;
  }

  const user = values.secret !== undefined ? "__GSQL__secret" : values.user ?? "tigergraph";
  const terminal = consoleTerminal();
  let reader: LineReader | undefined;
  const input = (): LineReader => (reader ??= new LineReader(join(homedir(), ".wasmgraph", "gsql_history")));
  terminal.ask = (prompt, secret) => input().next(prompt, secret);

  try {
    // -u without -p asks for the password (from the terminal, or the first line of piped input);
    // without -u the default user's default password is tried first.
    let password = values.secret ?? values.password ?? (values.user === undefined ? "tigergraph" : undefined);
    password ??= (await input().next(`Password for ${user} : `, true)) ?? "";
    let client = new GsqlClient({ baseUrl, user, password, graph: values.graph });
    let login = await client.login();
    if (!login.ok && values.user === undefined && values.password === undefined && values.secret === undefined && input().interactive) {
      // The default password did not work: ask, as the established client does.
      password = (await input().next(`Password for ${user} : `, true)) ?? "";
      client = new GsqlClient({ baseUrl, user, password, graph: values.graph });
      login = await client.login();
    }
    if (!login.ok) {
      process.stdout.write((login.message || "Invalid username or password!") + "\n");
      return EXIT.login;
    }

    const text = commandText(values.file, values.command, positionals, terminal);
    if (text !== undefined) {
      if (text.trim() === "") return EXIT.ok;
      return await client.run("file", text, terminal);
    }
    const r = input();
    if (r.interactive && login.welcomeMessage) process.stdout.write(login.welcomeMessage + "\n");
    return await interactiveShell(client, r, terminal, login.shellPrompt);
  } catch (err) {
    if (err instanceof ConnectionRefused) return refused(baseUrl);
    if (err instanceof EndlessInclude) {
      process.stdout.write(err.message + "\n");
      return 212;
    }
    throw err;
  } finally {
    reader?.close();
  }
}

/** The text a non-interactive run sends, or undefined for the interactive prompt. */
function commandText(file: string | undefined, command: string | undefined, positionals: string[], terminal: Terminal): string | undefined {
  const warn = (line: string) => terminal.print(line);
  if (file !== undefined) return readCommandFile(file, warn);
  if (command !== undefined) return [command, ...positionals].join(" ");
  if (positionals.length === 1 && isFile(positionals[0]!)) return readCommandFile(positionals[0]!, warn);
  if (positionals.length > 0) return positionals.join(" ");
  return undefined;
}

function serverUrl(host: string | undefined, ip: string | undefined): string | undefined {
  const raw = host ?? (ip !== undefined ? (ip.includes(":") ? ip : `${ip}:14240`) : "http://127.0.0.1:14240");
  const withScheme = /^https?:\/\//.test(raw) ? raw : `http://${raw}`;
  try {
    const url = new URL(withScheme);
    return `${url.protocol}//${url.host}`;
  } catch {
    return undefined;
  }
}

function refused(baseUrl: string): number {
  process.stdout.write(`Connection refused.\nNo GSQL server answers at ${baseUrl}. Start one with 'wasmgraph serve' (or npm start), or name it with --host.\n`);
  return EXIT.connection;
}

/** Prints server output to stdout, with cursor control only on a terminal. */
function consoleTerminal(): Terminal {
  const tty = Boolean(process.stdout.isTTY);
  return {
    print: (line) => process.stdout.write(line + "\n"),
    progress: (line, done) => {
      if (tty) process.stdout.write("\r" + line + (done ? "\n" : ""));
      else if (done) process.stdout.write(line + "\n");
    },
    cursorUp: (n) => {
      if (tty && n > 0) process.stdout.write(`\u001b[${n}A`);
    },
    cleanLine: () => {
      if (tty) process.stdout.write("\u001b[2K");
    },
    ask: async () => undefined,
  };
}

// A reader that stops early (`gsql 'ls' | head`) closes the pipe; that ends the output, not in a crash.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE") process.exit(EXIT.ok);
  throw err;
});

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`gsql: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(EXIT.unknown);
  },
);
