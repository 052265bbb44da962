// Lines from the person at the shell (or from piped input): one reader serves commands and
// dialog answers alike, keeps a history file when it talks to a terminal, and can hide the
// typing of a password.
import { createInterface, type Interface } from "node:readline";
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";

const HISTORY_LIMIT = 1000;

/**
 * Whether a command line holds a password in its text (`... SECURED BY "pw"`, `ALTER ACL
 * PASSWORD SET|CLEAR ...`): such lines stay out of the history, in memory and on disk.
 */
export function carriesPassword(line: string): boolean {
  return /\bSECURED\s+BY\b|\bACL\s+PASSWORD\s+(SET|CLEAR)\b/i.test(line);
}

export class LineReader {
  private readonly rl: Interface;
  private readonly queue: string[] = [];
  private waiting: ((line: string | undefined) => void) | undefined;
  private ended = false;
  private muted = false;
  readonly interactive: boolean;

  constructor(private readonly historyFile?: string) {
    this.interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY);
    this.rl = createInterface({
      input: process.stdin,
      output: process.stdout,
      terminal: this.interactive,
      history: this.interactive ? loadHistory(historyFile) : [],
      historySize: HISTORY_LIMIT,
    });
    // Hide typed characters of secrets (the prompt itself is written before muting).
    const rlWrite = this.rl as unknown as { _writeToOutput(s: string): void };
    const write = rlWrite._writeToOutput.bind(this.rl);
    rlWrite._writeToOutput = (s: string) => {
      if (!this.muted) write(s);
    };
    // A secret typed at a hidden prompt must not come back with the arrow keys (readline adds
    // every line to its history and says so with this event, before the line is delivered).
    this.rl.on("history", (history: string[]) => {
      if ((this.muted || carriesPassword(this.rl.line)) && history[0] === this.rl.line) history.shift();
    });
    this.rl.on("line", (line) => this.deliver(line));
    this.rl.on("close", () => {
      this.ended = true;
      this.waiting?.(undefined);
      this.waiting = undefined;
    });
  }

  /** The next line, after showing `prompt` on a terminal; undefined at the end of input. */
  next(prompt: string, secret = false): Promise<string | undefined> {
    if (this.interactive) {
      this.rl.setPrompt(prompt);
      this.rl.prompt();
      this.muted = secret;
    }
    if (this.queue.length > 0) return Promise.resolve(this.take(this.queue.shift()!));
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.waiting = (line) => resolve(line === undefined ? undefined : this.take(line));
    });
  }

  /** Records a command in the history file (terminal sessions only). */
  remember(command: string): void {
    if (!this.interactive || !this.historyFile || command.includes("\n") || carriesPassword(command)) return;
    try {
      mkdirSync(dirname(this.historyFile), { recursive: true });
      appendFileSync(this.historyFile, command + "\n", { mode: 0o600 });
    } catch {
      // History is a convenience: a read-only home must not stop the shell.
    }
  }

  close(): void {
    this.rl.close();
  }

  private take(line: string): string {
    if (this.muted) {
      this.muted = false;
      process.stdout.write("\n");
    }
    return line;
  }

  private deliver(line: string): void {
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = undefined;
      w(line);
    } else {
      this.queue.push(line);
    }
  }
}

function loadHistory(file: string | undefined): string[] {
  if (!file) return [];
  try {
    return readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "").slice(-HISTORY_LIMIT).reverse();
  } catch {
    return [];
  }
}
