// The plain-text stream a GSQL-server command answers with. Ordinary lines are printed by the
// client as they arrive; control lines start with `__GSQL__` and steer the client: the
// return code (last line), a replacement session cookie, a dialog prompt, cursor moves for
// redrawn progress displays (gsql-ddl-loading-shell §10.1).
import { PassThrough } from "node:stream";
import type { RequestDurability } from "../persist/request-durability.js";

export const RETURN_CODE_PREFIX = "__GSQL__RETURN__CODE__";
export const COOKIE_PREFIX = "__GSQL__COOKIES__";
export const INTERACT_PREFIX = "__GSQL__INTERACT__";
export const MOVE_CURSOR_UP_PREFIX = "__GSQL__MOVE__CURSOR___UP__";
export const CLEAN_LINE = "__GSQL__CLEAN__LINE__";

/** Where statement output goes. Implementations: the HTTP stream below, and a collecting buffer. */
export interface ShellOutput {
  /** One line of output (a line break inside `text` makes several lines). */
  line(text: string): void;
  /** Replaces the client's session cookie. */
  cookie(cookieText: string): void;
  /** Asks the client to open a dialog of `kind` answering to `dialogId`. */
  interact(kind: string, dialogId: string, extra?: string): void;
  /** Moves the client's cursor up `lines` lines (progress redraws). */
  cursorUp(lines: number): void;
  /** Clears the line the cursor is on, before it is printed again. */
  cleanLine(): void;
  /** True once the client has gone away; long work may stop early. */
  readonly closed: boolean;
}

/**
 * Output written to an HTTP response as it is produced. A line may report a change
 * ("Successfully created …"), so each goes out only once every change the request made
 * before it is durable (server/persist: a no-op without a data directory).
 */
export class StreamShellOutput implements ShellOutput {
  readonly stream = new PassThrough();
  private ended = false;
  private clientGone = false;
  /** Writes wait here, in order, for durability. */
  private queue: Promise<void> = Promise.resolve();

  /** `durability`: the request's wait for what it logged (each line goes out once the changes before it are durable). */
  constructor(private readonly durability: RequestDurability = { awaitDurable: () => Promise.resolve() }) {
    this.stream.on("close", () => (this.clientGone = true));
  }

  get closed(): boolean {
    return this.clientGone || this.stream.destroyed;
  }

  line(text: string): void {
    this.write(text + "\n");
  }

  cookie(cookieText: string): void {
    this.write(`${COOKIE_PREFIX},${cookieText}\n`);
  }

  interact(kind: string, dialogId: string, extra?: string): void {
    this.write(`${INTERACT_PREFIX},${kind},${dialogId}${extra === undefined ? "" : "," + extra}\n`);
  }

  cursorUp(lines: number): void {
    this.write(`${MOVE_CURSOR_UP_PREFIX},${lines}\n`);
  }

  cleanLine(): void {
    this.write(`${CLEAN_LINE}\n`);
  }

  /** Writes the return-code line and ends the stream. */
  finish(returnCode: number): void {
    if (this.ended) return;
    this.write(`${RETURN_CODE_PREFIX},${returnCode}\n`);
    this.ended = true;
    this.queue = this.queue.then(() => {
      if (!this.stream.writableEnded) this.stream.end();
    });
  }

  private write(text: string): void {
    if (this.ended) return;
    // Taken now: the changes made before this line, not those made while it waits.
    const durable = this.durability.awaitDurable();
    this.queue = this.queue.then(
      () => durable.then(() => {
        if (!this.closed && !this.stream.writableEnded) this.stream.write(text);
      }),
      () => undefined,
    ).catch((err: unknown) => this.failDurability(err));
  }

  /** A change could not be made durable: say so, end with a failure code, drop the rest. */
  private failDurability(err: unknown): void {
    if (this.closed || this.stream.writableEnded) return;
    this.stream.write(`${err instanceof Error ? err.message : String(err)}\n${RETURN_CODE_PREFIX},255\n`);
    this.ended = true;
    this.stream.end();
  }
}

/** Output kept in memory: the demo-graph setup, tests, and endpoints that answer with one text. */
export class BufferShellOutput implements ShellOutput {
  readonly lines: string[] = [];
  cookieText?: string;
  readonly closed = false;

  line(text: string): void {
    this.lines.push(...text.split("\n"));
  }

  cookie(cookieText: string): void {
    this.cookieText = cookieText;
  }

  interact(kind: string): void {
    throw new Error(`The ${kind} dialog needs an interactive client.`);
  }

  cursorUp(): void {}

  cleanLine(): void {}

  text(): string {
    return this.lines.map((l) => l + "\n").join("");
  }
}
