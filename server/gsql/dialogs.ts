// Dialogs: a command that needs an answer from the person at the shell (a new user's
// password, a confirmation) sends a `__GSQL__INTERACT__,<Kind>,<id>` line and waits, with
// its response still open, until the client posts `<id>,<answer>` to /gsqlserver/gsql/dialog.
// This registry pairs the two requests. It knows nothing of what the dialogs are for.
// A dialog belongs to whoever ran the command that opened it: an answer sent by anybody
// else is treated as an answer to no dialog, so a leaked id cannot be used to set another
// user's password or confirm another user's CLEAR GRAPH STORE.
import { randomBytes } from "node:crypto";
import type { Principal } from "../auth/access.js";

export const DIALOG_TIMEOUT_MS = 5 * 60_000;

interface Pending {
  owner: string | undefined;
  resolve(answer: string): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

export class DialogClosedError extends Error {}

export class DialogRegistry {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly timeoutMs = DIALOG_TIMEOUT_MS) {}

  /**
   * Opens a dialog asked of `owner` (the principal running the command; absent: the server
   * itself, and anyone may answer): its id (to send to the client) and the answer to come.
   */
  open(owner?: Principal): { id: string; answer: Promise<string>; cancel(): void } {
    const id = randomBytes(12).toString("hex");
    const answer = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => this.settle(id, new DialogClosedError("No answer came to the dialog in time.")), this.timeoutMs);
      timer.unref();
      this.pending.set(id, { owner: ownerKey(owner), resolve, reject, timer });
    });
    return { id, answer, cancel: () => this.settle(id, new DialogClosedError("The dialog was cancelled.")) };
  }

  /**
   * Delivers `<id>,<answer>` from the client acting as `answerer`. False when no such dialog
   * waits for this answerer (the dialog then keeps waiting for its owner).
   */
  answer(body: string, answerer?: Principal): boolean {
    const comma = body.indexOf(",");
    if (comma < 0) return false;
    const id = body.slice(0, comma);
    const entry = this.pending.get(id);
    if (!entry) return false;
    if (entry.owner !== undefined && entry.owner !== ownerKey(answerer)) return false;
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

/** Who may answer: the same user acting within the same graph binding (a secret or token for one graph). */
function ownerKey(principal: Principal | undefined): string | undefined {
  if (principal === undefined) return undefined;
  return `${principal.user}\u0000${principal.graph ?? ""}`;
}
