// The interactive prompt (gsql-ddl-loading-shell §10.3): one trimmed line is one command;
// BEGIN ... END collects several lines (kept as typed) into one, ABORT drops them; `@file`
// sends a file; `exit`/`quit` (any case) or the end of input leave. Errors never end it.
import type { GsqlClient, Terminal } from "./client.js";
import { EndlessInclude, isIncludeLine, readCommandFile } from "./input-files.js";
import type { LineReader } from "./line-reader.js";

export async function interactiveShell(client: GsqlClient, reader: LineReader, terminal: Terminal, prompt: string): Promise<number> {
  for (;;) {
    const raw = await reader.next(prompt);
    if (raw === undefined) return 0;
    let command = raw.trim();
    if (command === "") continue;
    reader.remember(command);
    if (/^(exit|quit)$/i.test(command)) return 0;
    if (/^begin$/i.test(command)) {
      const block: string[] = [];
      let ended: "end" | "abort" | undefined;
      for (;;) {
        const line = await reader.next("");
        if (line === undefined) return 0;
        if (/^\s*end\s*$/i.test(line)) ended = "end";
        else if (/^\s*abort\s*$/i.test(line)) ended = "abort";
        if (ended) break;
        block.push(line);
      }
      if (ended === "abort") continue;
      command = block.join("\n");
      if (command.trim() === "") continue;
    }
    try {
      if (isIncludeLine(command)) {
        const text = readCommandFile(command.slice(1).trim(), (l) => terminal.print(l));
        if (text.trim() !== "") await client.run("file", text, terminal);
      } else {
        await client.run("command", command, terminal);
      }
    } catch (err) {
      if (err instanceof EndlessInclude) terminal.print(err.message);
      else throw err;
    }
  }
}
