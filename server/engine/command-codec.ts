// Exact text form of engine commands, for a write-ahead log: JSON where 64-bit integers
// (bigint, as parsed upsert values may be) are written as {"$bigint":"<digits>"} and objects
// parsed with duplicate keys keep their entry lists as they are.
import type { EngineCommand } from "./commands.js";

const BIGINT_TAG = "$bigint";

export function encodeCommand(command: EngineCommand): string {
  return JSON.stringify(command, (_key, value: unknown) => (typeof value === "bigint" ? { [BIGINT_TAG]: value.toString() } : value));
}

export function decodeCommand(text: string): EngineCommand {
  return JSON.parse(text, (_key, value: unknown) => {
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      const keys = Object.keys(value);
      if (keys.length === 1 && keys[0] === BIGINT_TAG) return BigInt((value as Record<string, string>)[BIGINT_TAG]!);
    }
    return value;
  }) as EngineCommand;
}
