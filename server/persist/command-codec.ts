// How an engine command (a plain JSON-like object) becomes the payload of a log record and
// back. Plain JSON when the command holds no 64-bit integers (the fast, common case);
// otherwise JSON in which bigint values are tagged strings, so they come back exact.
//
// Payload = one format byte + UTF-8 JSON:
//   'J'  plain JSON
//   'T'  tagged JSON: a string "\0n:<digits>" is a bigint; a string that itself begins
//        with "\0" is written with one more "\0" in front, so user text never collides.

const PLAIN = 0x4a; // 'J'
const TAGGED = 0x54; // 'T'
const TAG = "\u0000";

/** A command as the engine logs it: JSON values plus bigint. */
export type CommandValue = null | boolean | number | bigint | string | CommandValue[] | { [key: string]: CommandValue | undefined };

export function encodeCommand(command: CommandValue): Buffer {
  let text: string;
  let format = PLAIN;
  try {
    text = JSON.stringify(command);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    // JSON.stringify refuses bigint: write the tagged form instead.
    format = TAGGED;
    text = JSON.stringify(command, (_key, value: unknown) => {
      if (typeof value === "bigint") return `${TAG}n:${value}`;
      if (typeof value === "string" && value.startsWith(TAG)) return TAG + value;
      return value;
    });
  }
  if (text === undefined) throw new TypeError("a logged command must be a JSON value");
  // Encoded straight into the payload: commands of bulk upserts run to tens of megabytes.
  const out = Buffer.allocUnsafe(1 + Buffer.byteLength(text, "utf8"));
  out[0] = format;
  out.write(text, 1, "utf8");
  return out;
}

export function decodeCommand(payload: Uint8Array): CommandValue {
  const bytes = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  const text = bytes.toString("utf8", 1);
  switch (bytes[0]) {
    case PLAIN:
      return JSON.parse(text) as CommandValue;
    case TAGGED:
      return JSON.parse(text, (_key, value: unknown) => {
        if (typeof value !== "string" || !value.startsWith(TAG)) return value;
        if (value.startsWith(TAG + TAG)) return value.slice(1);
        if (value.startsWith(`${TAG}n:`)) return BigInt(value.slice(3));
        throw new Error(`logged command holds an unknown tagged value '${value.slice(1, 8)}'`);
      }) as CommandValue;
    default:
      throw new Error(`logged command has unknown format byte ${bytes[0]}`);
  }
}
