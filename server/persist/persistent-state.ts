// What the persistence layer needs from the state it makes durable (the engine: store plus
// catalog). The engine implements this; persistence never looks inside commands or payloads.
import type { CommandValue } from "./command-codec.js";
import type { LoadedSnapshot, SnapshotSection } from "./snapshot/snapshot-store.js";

/** The state as of one moment, handed over for a snapshot while writes go on. */
export interface PinnedState {
  /** Payloads: the store's memory regions (binary), the catalog (JSON text), … */
  sections: readonly SnapshotSection[];
  /** Small facts kept in the manifest (payload format versions, counts). */
  meta?: Record<string, unknown>;
  /** Called once the snapshot is written (or failed), so pinned memory can be given back. */
  release?(): void;
}

export interface PersistentState {
  /**
   * Pins the current state. Called between commands, synchronously: the result must hold
   * exactly the effect of every command recorded so far and none after (copy the regions,
   * or hold a copy-on-write version, so later writes do not show through).
   */
  pin(): PinnedState;
  /** Replaces the whole state by the one in a snapshot (called once, before any replay). */
  restore(snapshot: LoadedSnapshot): void | Promise<void>;
  /** Applies a logged command again, exactly as when it was acknowledged, without logging it. */
  replay(command: CommandValue, lsn: number): void | Promise<void>;
  /**
   * Runs once after the log was replayed, before the server answers requests: the place to
   * install every installed query again (recompile, or load cached modules).
   */
  afterRecovery?(): void | Promise<void>;
}
