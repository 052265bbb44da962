// The one error type the store throws for refused operations. A StoreError always means that
// nothing changed; callers (the REST layer) turn `code` into an HTTP status and envelope.
import type { StoreErrorCode, StoreErrorDetail } from "./api.js";

export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    readonly detail: StoreErrorDetail = {},
  ) {
    super(message);
    this.name = "StoreError";
  }
}

export function isStoreError(e: unknown): e is StoreError {
  return e instanceof StoreError;
}

/** A caller's value as text for a message, whatever it is (String() throws on symbols inside arrays). */
export function shown(value: unknown): string {
  try {
    return typeof value === "string" ? value : String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
