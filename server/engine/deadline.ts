// The time limit of one read or delete: the request's `timeout` seconds, or the engine's
// default when it is 0. Long loops call tick(), which looks at the clock every few thousand
// items so the check costs nothing measurable.
import { EngineError } from "./engine-error.js";

const CHECK_EVERY = 4096;

export class Deadline {
  private count = 0;
  private readonly at: number;

  constructor(
    private readonly now: () => number,
    readonly limitMs: number,
  ) {
    this.at = now() + limitMs;
  }

  /** A deadline that never passes (replaying a logged command must not time out). */
  static none(): Deadline {
    return new Deadline(() => 0, Infinity);
  }

  tick(): void {
    if (++this.count % CHECK_EVERY === 0) this.check();
  }

  check(): void {
    if (this.now() > this.at) {
      const seconds = Math.round(this.limitMs) / 1000;
      throw new EngineError("timeout", "REST-3000", `The request timed out after ${seconds} seconds.`);
    }
  }
}
