// Dialogs: a command that needs an answer from the person at the shell (a new user's
// password, a confirmation) sends a `__GSQL__INTERACT__,<Kind>,<id>` line and waits, with
// its response still open, until the client posts `<id>,<answer>` to /gsqlserver/gsql/dialog.
// This registry pairs the two requests. It knows nothing of what the dialogs are for.
import { randomBytes } from "node:crypto";

export const DIALOG_TIMEOUT_MS = 5 * 60_000;

interface Pending {
  resolve(answer: string): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

export class DialogClosedError extends Error {}

export class DialogRegistry {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly timeoutMs = DIALOG_TIMEOUT_MS) {}

  /** Opens a dialog: its id (to send to the client) and the answer to come. */
  open(): { id: string; answer: Promise<string>; cancel(): void } {
    const id = randomBytes(12).toString("hex");
    const answer = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => this.settle(id, new DialogClosedError("No answer came to the dialog in time.")), this.timeoutMs);
      timer.unref();
      this.pending.set(id, { resolve, reject, timer });
    });
    return { id, answer, cancel: () => this.settle(id, new DialogClosedError("The dialog was cancelled.")) };
  }

  /** Delivers `<id>,<answer>` from the client. False when no such dialog waits. */
  answer(body: string): boolean {
    const comma = body.indexOf(",");
    if (comma < 0) return false;
    const id = body.slice(0, comma);
    const entry = this.pending.get(id);
    if (!entry) return false;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    entry.resolve(body.slice(comma + 1));
    return true;
  }

  get waiting(): number {
    return this.pending.size;
  }

  private settle(id: string, err: Error): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    entry.reject(err);
  }
}
