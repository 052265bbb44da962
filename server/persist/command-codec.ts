// How an engine command (a plain JSON-like object) becomes the payload of a log record and
// back. Plain JSON when the command holds nothing JSON cannot say exactly (the fast, common
// case); otherwise JSON in which such values are tagged strings, so they come back exact:
// 64-bit integers, and numbers JSON would turn into null or 0 (a CSV field "1e400" loads as
// Infinity; -0 keeps its sign). Typed arrays are written as plain arrays.
//
// Payload = one format byte, then:
//   'J'  plain JSON (UTF-8)
//   'T'  tagged JSON: a string "\0n:<digits>" is a bigint, "\0f:<NaN|Infinity|-Infinity|-0>"
//        that number; a string that itself begins with "\0" is written with one more "\0"
//        in front, so user text never collides.
//   'B'  a loading job's batch ("load-batch" command) in binary columnar form
//        (load-batch-codec.ts); logs written before it hold such batches as 'J' or 'T',
//        which still read back.
//   'U'  a REST upsert ("upsert-batch" command carrying its body): the body's bytes behind a
//        binary header (upsert-body-codec.ts), read back as an "upsert-text" command; logs
//        written before it hold REST upserts as "upsert-text" commands in 'J' or 'T'.

import { decodeLoadBatchCommand, encodeLoadBatchCommand, isLoadBatchCommand, LOAD_BATCH_FORMAT } from "./load-batch-codec.js";
import { decodeUpsertBody, encodeUpsertBody, isUpsertWithBody, UPSERT_BODY_FORMAT } from "./upsert-body-codec.js";

const PLAIN = 0x4a; // 'J'
const TAGGED = 0x54; // 'T'
const TAG = "\u0000";

/** A command as the engine logs it: JSON values plus bigint (and typed arrays, logged as arrays). */
export type CommandValue = null | boolean | number | bigint | string | CommandValue[] | { [key: string]: CommandValue | undefined };

/** Whether plain JSON would lose or refuse something in `value` (a walk costs a fifth of JSON.stringify). */
function needsTags(value: unknown): boolean {
  switch (typeof value) {
    case "number":
      return !Number.isFinite(value) || Object.is(value, -0);
    case "bigint":
      return true;
    case "string":
      return value.length > 0 && value.charCodeAt(0) === 0;
    case "object": {
      if (value === null) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (needsTags(value[i])) return true;
        return false;
      }
      if (ArrayBuffer.isView(value)) return true;
      const record = value as Record<string, unknown>;
      for (const key in record) if (needsTags(record[key])) return true;
      return false;
    }
    default:
      return false;
  }
}

function tagged(_key: string, value: unknown): unknown {
  switch (typeof value) {
    case "bigint":
      return `${TAG}n:${value}`;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0) ? value : `${TAG}f:${Object.is(value, -0) ? "-0" : String(value)}`;
    case "string":
      return value.startsWith(TAG) ? TAG + value : value;
    case "object":
      // Typed arrays (numeric id columns) as plain arrays; their elements pass through here again.
      return value !== null && ArrayBuffer.isView(value) && !(value instanceof DataView) ? Array.from(value as unknown as ArrayLike<unknown>) : value;
    default:
      return value;
  }
}

const TAGGED_NUMBERS: Record<string, number> = { NaN: NaN, Infinity: Infinity, "-Infinity": -Infinity, "-0": -0 };

function untagged(_key: string, value: unknown): unknown {
  if (typeof value !== "string" || !value.startsWith(TAG)) return value;
  if (value.startsWith(TAG + TAG)) return value.slice(1);
  if (value.startsWith(`${TAG}n:`)) return BigInt(value.slice(3));
  if (value.startsWith(`${TAG}f:`) && value.slice(3) in TAGGED_NUMBERS) return TAGGED_NUMBERS[value.slice(3)];
  throw new Error(`logged command holds an unknown tagged value '${value.slice(1, 8)}'`);
}

export function encodeCommand(command: CommandValue): Buffer {
  if (isLoadBatchCommand(command)) return encodeLoadBatchCommand(command);
  if (isUpsertWithBody(command)) return encodeUpsertBody(command);
  const format = needsTags(command) ? TAGGED : PLAIN;
  const text = format === PLAIN ? JSON.stringify(command) : JSON.stringify(command, tagged);
  if (text === undefined) throw new TypeError("a logged command must be a JSON value");
  // Encoded straight into the payload: commands of bulk upserts run to tens of megabytes.
  const out = Buffer.allocUnsafe(1 + Buffer.byteLength(text, "utf8"));
  out[0] = format;
  out.write(text, 1, "utf8");
  return out;
}

export function decodeCommand(payload: Uint8Array): CommandValue {
  const bytes = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  if (bytes[0] === LOAD_BATCH_FORMAT) return decodeLoadBatchCommand(payload) as unknown as CommandValue;
  if (bytes[0] === UPSERT_BODY_FORMAT) return decodeUpsertBody(payload) as unknown as CommandValue;
  const text = bytes.toString("utf8", 1);
  switch (bytes[0]) {
    case PLAIN:
      return JSON.parse(text) as CommandValue;
    case TAGGED:
      return JSON.parse(text, untagged) as CommandValue;
    default:
      throw new Error(`logged command has unknown format byte ${bytes[0]}`);
  }
}
