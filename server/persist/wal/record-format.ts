// The on-disk framing of the write-ahead log: a segment header, then records, each a
// fixed header (length, CRC32, log position, batch offset, kind) followed by its payload.
//
// Segment header (16 bytes): magic "WGWAL\0\0\x01" (format version 1 in the last byte),
// then the segment's first log position as u64 LE.
// Record header (24 bytes, little endian):
//   0  u32 payload length
//   4  u32 CRC32 of bytes 8 .. end of payload (position, batch offset, kind, payload)
//   8  u64 log position (lsn), 1, 2, 3, … without gaps across segments
//  16  u32 batch offset: lsn minus the lsn of the first record of its group-commit batch
//  20  u32 kind (1 = engine command)
// The batch offset lets recovery tell a torn final batch (never acknowledged) from damage
// to an earlier batch (acknowledged data): batches are written strictly one after another,
// each only after the previous one was fsynced.
import { crc32 } from "node:zlib";

export const SEGMENT_MAGIC = Buffer.from([0x57, 0x47, 0x57, 0x41, 0x4c, 0x00, 0x00, 0x01]);
export const SEGMENT_HEADER_BYTES = 16;
export const RECORD_HEADER_BYTES = 24;
/** Largest payload accepted; a larger length field is treated as damage. */
export const MAX_PAYLOAD_BYTES = 1 << 30;

export const RecordKind = { command: 1 } as const;

export interface WalRecord {
  lsn: number;
  payload: Buffer;
}

/** One record as found in a segment: where it starts and ends, and its batch. */
export interface FramedRecord extends WalRecord {
  offset: number;
  end: number;
  batchStart: number;
  kind: number;
}

export function encodeSegmentHeader(firstLsn: number): Buffer {
  const header = Buffer.alloc(SEGMENT_HEADER_BYTES);
  SEGMENT_MAGIC.copy(header, 0);
  writeU64(header, 8, firstLsn);
  return header;
}

/** The first lsn named in a segment header, or a reason it is not one. */
export function decodeSegmentHeader(bytes: Buffer): number | string {
  if (bytes.length < SEGMENT_HEADER_BYTES) return "segment header is incomplete";
  if (!bytes.subarray(0, 8).equals(SEGMENT_MAGIC)) return "not a wasmgraph log segment (bad magic bytes)";
  return readU64(bytes, 8);
}

/** Frames one batch of payloads with consecutive positions starting at `firstLsn`. */
export function encodeBatch(firstLsn: number, payloads: readonly Uint8Array[], kind = RecordKind.command): Buffer {
  let total = 0;
  for (const p of payloads) total += RECORD_HEADER_BYTES + p.length;
  const out = Buffer.allocUnsafe(total);
  let at = 0;
  payloads.forEach((payload, i) => {
    out.writeUInt32LE(payload.length, at);
    writeU64(out, at + 8, firstLsn + i);
    out.writeUInt32LE(i, at + 16);
    out.writeUInt32LE(kind, at + 20);
    out.set(payload, at + RECORD_HEADER_BYTES);
    const end = at + RECORD_HEADER_BYTES + payload.length;
    out.writeUInt32LE(crc32(out.subarray(at + 8, end)), at + 4);
    at = end;
  });
  return out;
}

/**
 * Decodes the record starting at `offset`, or explains why none valid starts there.
 * `expectedLsn` (when given) must match the record's position.
 */
export function decodeRecordAt(bytes: Buffer, offset: number, expectedLsn?: number): FramedRecord | string {
  if (bytes.length - offset < RECORD_HEADER_BYTES) return "record header is incomplete";
  const length = bytes.readUInt32LE(offset);
  if (length > MAX_PAYLOAD_BYTES) return `record length ${length} is out of range`;
  const end = offset + RECORD_HEADER_BYTES + length;
  if (end > bytes.length) return `record of ${length} bytes runs past the end of the file`;
  const lsn = readU64(bytes, offset + 8);
  const batchOffset = bytes.readUInt32LE(offset + 16);
  if (crc32(bytes.subarray(offset + 8, end)) !== bytes.readUInt32LE(offset + 4)) return "checksum mismatch";
  if (batchOffset >= lsn) return `batch offset ${batchOffset} is impossible for position ${lsn}`;
  if (expectedLsn !== undefined && lsn !== expectedLsn) return `log position ${lsn} found where ${expectedLsn} was expected`;
  return {
    lsn,
    offset,
    end,
    batchStart: lsn - batchOffset,
    kind: bytes.readUInt32LE(offset + 20),
    payload: bytes.subarray(offset + RECORD_HEADER_BYTES, end),
  };
}

/** u64 little endian, limited to the safe-integer range (2^53 records is far beyond reach). */
export function writeU64(buf: Buffer, at: number, value: number): void {
  buf.writeUInt32LE(value % 0x1_0000_0000, at);
  buf.writeUInt32LE(Math.floor(value / 0x1_0000_0000), at + 4);
}

export function readU64(buf: Buffer, at: number): number {
  return buf.readUInt32LE(at) + buf.readUInt32LE(at + 4) * 0x1_0000_0000;
}
