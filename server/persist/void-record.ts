// The log's note that a command it took was then refused by the engine. Commands are logged
// ahead of their apply, so the disk write runs while the command applies; when the apply
// throws (the command changed nothing), a void record naming its position follows in the
// same turn, and replay skips the pair. A kind no engine command has ("$void"), so it can
// never be mistaken for one. A server older than this note refuses a log holding one (it
// cannot replay the kind) rather than misread it.
import type { CommandValue } from "./command-codec.js";

const VOID_KIND = "$void";

export function voidRecord(lsn: number): CommandValue {
  return { kind: VOID_KIND, lsn };
}

/** The position a void record voids; undefined for any other command. */
export function voidedLsn(command: CommandValue): number | undefined {
  if (command === null || typeof command !== "object" || Array.isArray(command) || command.kind !== VOID_KIND) return undefined;
  const lsn = command.lsn;
  return typeof lsn === "number" && Number.isSafeInteger(lsn) ? lsn : -1;
}
