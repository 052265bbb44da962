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
