// The write-ahead log's record of a REST upsert (POST /graph/{g}): the request body's own
// bytes behind a small binary header. Copying the body costs ~4 ms of CPU per 300,000
// vertices, where JSON text of the command (the body as a JSON string) cost ~60-90 ms and
// a columnar encoding of the parsed items (as load-batch-codec.ts does for loads) no less;
// replay reads the body again through the same reader and apply path as the request
// (Engine.apply of an "upsert-text" command), against the same schema, so it changes the
// same things.
//
// Payload = 'U' (a format byte beside command-codec's 'J', 'T' and 'B'), version byte 1, then
// (little endian; str = u32 byte length + UTF-8):
//   graph str
//   flags u8 (bit 0 new_vertex_only, 1 update_vertex_only, 2 vertex_must_exist,
//             3 source_vertex_must_exist, 4 target_vertex_must_exist)
//   maxDepth u32 (the nesting limit the body was read with)
//   encoding u8, then the body to the end of the payload: 0 UTF-8, 1 UTF-16LE (text holding
//   a lone surrogate, which UTF-8 cannot carry)
import type { UpsertBatchCommand, UpsertFlags, UpsertSource, UpsertTextCommand } from "../engine/commands.js";

export const UPSERT_BODY_FORMAT = 0x55; // 'U'
const VERSION = 1;
const HEADER_BYTES = 2 + 4 + 1 + 4 + 1; // + the graph name's bytes

const FLAG_NAMES: readonly (keyof UpsertFlags)[] = ["newVertexOnly", "updateVertexOnly", "vertexMustExist", "sourceVertexMustExist", "targetVertexMustExist"];

// String.prototype.isWellFormed (ES2024) is in Node 20, not yet in the TypeScript lib we target.
const isWellFormed = (s: string) => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

/** A REST upsert that carries the body it was read from (the route's commands do). */
export function isUpsertWithBody(value: unknown): value is UpsertBatchCommand & { source: UpsertSource } {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "upsert-batch" && typeof (value as { source?: { text?: unknown } }).source?.text === "string";
}

export function encodeUpsertBody(command: UpsertBatchCommand & { source: UpsertSource }): Buffer {
  const { text, maxDepth } = command.source;
  const graphBytes = Buffer.byteLength(command.graph, "utf8");
  const utf8 = isWellFormed(text);
  const bodyBytes = utf8 ? Buffer.byteLength(text, "utf8") : 2 * text.length;
  const out = Buffer.allocUnsafe(HEADER_BYTES + graphBytes + bodyBytes);
  let at = 0;
  out[at++] = UPSERT_BODY_FORMAT;
  out[at++] = VERSION;
  out.writeUInt32LE(graphBytes, at);
  at += 4;
  at += out.write(command.graph, at, "utf8");
  let flags = 0;
  FLAG_NAMES.forEach((name, bit) => {
    if (command.flags[name]) flags |= 1 << bit;
  });
  out[at++] = flags;
  out.writeUInt32LE(maxDepth, at);
  at += 4;
  out[at++] = utf8 ? 0 : 1;
  out.write(text, at, utf8 ? "utf8" : "utf16le");
  return out;
}

/** The logged upsert as the command replay applies: the body, read again on apply. */
export function decodeUpsertBody(payload: Uint8Array): UpsertTextCommand {
  const bytes = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  const damaged = (what: string) => new Error(`logged upsert is damaged: ${what}`);
  if (bytes.length < HEADER_BYTES || bytes[0] !== UPSERT_BODY_FORMAT) throw damaged("too short");
  if (bytes[1] !== VERSION) throw new Error(`logged upsert has unknown version ${bytes[1]}`);
  let at = 2;
  const graphBytes = bytes.readUInt32LE(at);
  at += 4;
  if (at + graphBytes + HEADER_BYTES - 6 > bytes.length) throw damaged("its graph name runs past its end");
  const graph = bytes.toString("utf8", at, at + graphBytes);
  at += graphBytes;
  const flagBits = bytes[at++]!;
  if (flagBits >> FLAG_NAMES.length !== 0) throw damaged(`unknown flags ${flagBits}`);
  const flags = Object.fromEntries(FLAG_NAMES.map((name, bit) => [name, (flagBits & (1 << bit)) !== 0])) as unknown as UpsertFlags;
  const maxDepth = bytes.readUInt32LE(at);
  at += 4;
  const encoding = bytes[at++];
  if (encoding !== 0 && encoding !== 1) throw damaged(`unknown text encoding ${encoding}`);
  const text = bytes.toString(encoding === 0 ? "utf8" : "utf16le", at);
  return { kind: "upsert-text", graph, source: { text, maxDepth }, flags };
}
