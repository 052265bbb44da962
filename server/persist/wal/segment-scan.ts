// Reads the records of one segment file and decides what a damaged spot means: a torn
// final batch (a crash during its write: never acknowledged, safe to cut off) or damage to
// data that was already durable (refused with the file and offset, never skipped).
import {
  decodeRecordAt,
  decodeSegmentHeader,
  encodeSegmentHeader,
  RECORD_HEADER_BYTES,
  readU64,
  SEGMENT_HEADER_BYTES,
  type FramedRecord,
} from "./record-format.js";

/** Damage in the log that recovery must not paper over. */
export class WalCorruptionError extends Error {
  constructor(
    readonly file: string,
    readonly offset: number,
    readonly reason: string,
  ) {
    super(
      `write-ahead log damaged in ${file} at byte offset ${offset}: ${reason}. ` +
        `Changes after this point were acknowledged but cannot be read back, so the server ` +
        `refuses to start rather than serve wrong data. Restore the data directory from a backup.`,
    );
    this.name = "WalCorruptionError";
  }
}

export interface TornTail {
  /** Where the valid part of the segment ends; everything from here is cut off. */
  offset: number;
  droppedBytes: number;
  reason: string;
}

export interface SegmentScan {
  records: FramedRecord[];
  /** Byte offset just past the last valid record. */
  validEnd: number;
  /** Set when the end of the segment was a torn final batch. */
  torn?: TornTail;
}

/**
 * Scans a segment. In the last segment a damaged spot that only the final batch covers is
 * a torn tail; anywhere else damage throws WalCorruptionError.
 */
export function scanSegment(bytes: Buffer, file: string, firstLsn: number, isLast: boolean): SegmentScan {
  const header = decodeSegmentHeader(bytes);
  if (typeof header === "string") {
    // A crash between creating the newest segment and writing its header leaves it short.
    if (isLast && bytes.length < SEGMENT_HEADER_BYTES && isPrefixOfHeader(bytes, firstLsn)) {
      return { records: [], validEnd: 0, torn: { offset: 0, droppedBytes: bytes.length, reason: header } };
    }
    throw new WalCorruptionError(file, 0, header);
  }
  if (header !== firstLsn) throw new WalCorruptionError(file, 8, `segment header names position ${header}, its file name ${firstLsn}`);

  const records: FramedRecord[] = [];
  let offset = SEGMENT_HEADER_BYTES;
  let expected = firstLsn;
  while (offset < bytes.length) {
    const decoded = decodeRecordAt(bytes, offset, expected);
    if (typeof decoded !== "string") {
      records.push(decoded);
      offset = decoded.end;
      expected++;
      continue;
    }
    if (!isLast) throw new WalCorruptionError(file, offset, decoded);
    const laterBatch = findLaterBatch(bytes, offset, expected);
    if (laterBatch !== undefined) {
      throw new WalCorruptionError(file, offset, `${decoded} (a later durable batch starts at offset ${laterBatch})`);
    }
    return { records, validEnd: offset, torn: { offset, droppedBytes: bytes.length - offset, reason: decoded } };
  }
  return { records, validEnd: offset };
}

/**
 * Looks past a damaged spot for a valid record of a batch after the one being written when
 * the damage happened (batch start beyond `expectedLsn`). Returns its offset, if any.
 */
function findLaterBatch(bytes: Buffer, damagedAt: number, expectedLsn: number): number | undefined {
  const maxLsn = expectedLsn + Math.ceil((bytes.length - damagedAt) / RECORD_HEADER_BYTES);
  let offset = damagedAt;
  while (offset + RECORD_HEADER_BYTES <= bytes.length) {
    const lsn = readU64(bytes, offset + 8);
    // Cheap filters first: random bytes almost never pass them, so the CRC rarely runs.
    if (lsn >= expectedLsn && lsn <= maxLsn && bytes.readUInt32LE(offset) <= bytes.length - offset - RECORD_HEADER_BYTES) {
      const record = decodeRecordAt(bytes, offset);
      if (typeof record !== "string" && record.lsn >= expectedLsn) {
        if (record.batchStart > expectedLsn) return offset;
        offset = record.end;
        continue;
      }
    }
    offset++;
  }
  return undefined;
}

function isPrefixOfHeader(bytes: Buffer, firstLsn: number): boolean {
  const header = encodeSegmentHeader(firstLsn);
  // Zero bytes are what a crash leaves when the length grew before the data landed.
  return bytes.every((b, i) => b === header[i] || b === 0);
}
