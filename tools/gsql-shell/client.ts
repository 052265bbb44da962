// The shell's side of the GSQL-server protocol (gsql-ddl-loading-shell §10.1): login, then
// each command or file is a POST whose plain-text answer streams back line by line. Control
// lines steer the client: the return code, a new session cookie, dialogs, cursor moves; the
// rest is printed.
export interface ClientOptions {
  /** Base URL of the GSQL-server endpoints, e.g. http://127.0.0.1:14240. */
  baseUrl: string;
  user: string;
  password: string;
  graph?: string;
}

export interface Terminal {
  /** Prints one line of server output. */
  print(line: string): void;
  /** Prints a progress bar line in place (`\r`), ending it at 100%. */
  progress(line: string, done: boolean): void;
  cursorUp(lines: number): void;
  cleanLine(): void;
  /** Asks the person at the shell; `secret` hides the typing. Undefined when input has ended. */
  ask(prompt: string, secret: boolean): Promise<string | undefined>;
}

export class ConnectionRefused extends Error {}

export interface LoginAnswer {
  ok: boolean;
  message: string;
  shellPrompt: string;
  welcomeMessage: string;
}

const PROGRESS = /^\[=*\s*\]\s[0-9]+%.*/;
const PROGRESS_DONE = /^\[=*\s*\]\s100%[^l]*$/;

export class GsqlClient {
  private cookie: string;

  constructor(private readonly options: ClientOptions) {
    const cookie: Record<string, unknown> = {
      clientPath: process.cwd(),
      terminalWidth: process.stdout.columns ?? 80,
      fromGsqlClient: true,
    };
    if (options.graph) cookie.graph = options.graph;
    this.cookie = JSON.stringify(cookie);
  }

  async login(): Promise<LoginAnswer> {
    const body = Buffer.from(`${encodeURIComponent(this.options.user)}:${this.options.password}`, "utf8").toString("base64");
    const res = await this.post("login", body, false);
    const text = await res.text();
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return { ok: false, message: `The server's login answer is not JSON (HTTP ${res.status}).`, shellPrompt: "", welcomeMessage: "" };
    }
    const error = json.error === true || json.error === "true" || json.error === undefined;
    return {
      ok: !error && res.ok,
      message: typeof json.message === "string" ? json.message : "",
      shellPrompt: typeof json.shellPrompt === "string" ? json.shellPrompt : "GSQL > ",
      welcomeMessage: typeof json.welcomeMessage === "string" ? json.welcomeMessage : "",
    };
  }

  /** Sends GSQL text to `file` (scripts) or `command` (one interactive command); returns the return code. */
  async run(endpoint: "file" | "command", text: string, terminal: Terminal): Promise<number> {
    const res = await this.post(endpoint, encodeURIComponent(text), true);
    if (res.status === 401 || res.status === 403) {
      for (const line of (await res.text()).split("\n")) if (line && !line.startsWith("__GSQL__")) terminal.print(line);
      return 41;
    }
    let returnCode: number | undefined;
    for await (const line of responseLines(res)) {
      if (line.startsWith("__GSQL__RETURN__CODE__")) {
        const n = Number(line.split(",", 2)[1]);
        returnCode = Number.isInteger(n) ? n : 255;
      } else if (line.startsWith("__GSQL__COOKIES__")) {
        this.cookie = line.slice(line.indexOf(",") + 1);
      } else if (line.startsWith("__GSQL__INTERACT__")) {
        await this.dialog(line, terminal);
      } else if (line.startsWith("__GSQL__MOVE__CURSOR___UP__")) {
        terminal.cursorUp(Number(line.split(",")[1]) || 0);
      } else if (line.startsWith("__GSQL__CLEAN__LINE__")) {
        terminal.cleanLine();
      } else if (PROGRESS.test(line)) {
        terminal.progress(line, PROGRESS_DONE.test(line));
      } else {
        terminal.print(line);
      }
    }
    if (returnCode !== undefined) return returnCode;
    return res.ok ? 0 : 255;
  }

  /** The session's working graph, as the server last set it. */
  get graph(): string | undefined {
    try {
      const g = (JSON.parse(this.cookie) as { graph?: unknown }).graph;
      return typeof g === "string" ? g : undefined;
    } catch {
      return undefined;
    }
  }

  private async dialog(line: string, terminal: Terminal): Promise<void> {
    const [, kind = "", id = "", extra] = line.split(",", 4);
    let answer: string | undefined;
    switch (kind) {
      case "CreateUserQb": {
        const name = await terminal.ask("User Name : ", false);
        const password = name === undefined ? undefined : await askPasswordTwice(terminal, `New user Password for ${name} : `, `Re-enter user Password for ${name} : `);
        answer = name === undefined || password === undefined ? undefined : `${encodeURIComponent(name)}:${password}`;
        break;
      }
      case "AlterPasswordQb":
        answer = await askPasswordTwice(terminal, "New Password : ", "Re-enter Password : ");
        break;
      case "AlterAclPasswordQb":
        answer = await askPasswordTwice(terminal, "New ACL Password : ", "Re-enter ACL Password : ");
        break;
      case "ClearStoreQb": {
        const yes = await terminal.ask("Clear store, are you sure? This will also shutdown all GSQL services. [y/N]:", false);
        answer = yes?.trim().toLowerCase() === "y" ? "y" : "n";
        break;
      }
      default:
        answer = await terminal.ask(extra ? `${extra} : ` : "Answer : ", /Password/i.test(kind));
    }
    // Without an answer (input ended) the server's dialog times out and the command fails.
    if (answer !== undefined) await this.post("dialog", encodeURIComponent(`${id},${answer}`), true).then((r) => r.text());
  }

  private async post(endpoint: string, body: string, withAuth: boolean): Promise<Response> {
    const headers: Record<string, string> = {
      "Content-Type": "application/x-www-form-urlencoded",
      "Content-Language": "en-US",
      "GSQL-Cookie": this.cookie,
    };
    if (withAuth) {
      headers.Authorization = "Basic " + Buffer.from(`${encodeURIComponent(this.options.user)}:${this.options.password}`, "utf8").toString("base64");
    }
    try {
      return await fetch(`${this.options.baseUrl}/gsqlserver/gsql/${endpoint}`, { method: "POST", body, headers });
    } catch (err) {
      throw new ConnectionRefused(`Connection refused: no GSQL server answers at ${this.options.baseUrl} (${(err as Error).cause ?? (err as Error).message}).`);
    }
  }
}

async function askPasswordTwice(terminal: Terminal, first: string, second: string): Promise<string | undefined> {
  const a = await terminal.ask(first, true);
  if (a === undefined) return undefined;
  const b = await terminal.ask(second, true);
  if (b === undefined) return undefined;
  if (a !== b) {
    terminal.print("The two passwords do not match.");
    return undefined;
  }
  return a;
}

/** The lines of a streamed response as they arrive. */
async function* responseLines(res: Response): AsyncGenerator<string> {
  if (!res.body) return;
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    pending += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = pending.indexOf("\n")) >= 0) {
      yield pending.slice(0, nl).replace(/\r$/, "");
      pending = pending.slice(nl + 1);
    }
  }
  pending += decoder.decode();
  if (pending.length > 0) yield pending;
}
