// When a background snapshot is due. A snapshot bounds what a restart after a crash
// replays; each one rewrites the whole store image, so taking them too often costs the
// writer thread CPU and the disk syncs that the log's synced writes queue behind. The log's
// growth since the last snapshot is weighed by what replaying it costs, and a snapshot is
// due once that passes the floor, or a quarter of the last snapshot's size for big graphs.
import type { CommandValue } from "./command-codec.js";

/**
 * The floor: log growth (weighed as below) under which no snapshot is taken. 8 MiB of
 * weight is ~520,000 upsert items, which replay in about 0.8 s of CPU (~1.5 µs per vertex
 * with an attribute, ~1.25 µs per edge, on a 2-core AMD EPYC).
 */
export const DEFAULT_SNAPSHOT_EVERY_BYTES = 8 << 20;

/**
 * Above the floor, the log may grow by this share of the last snapshot's size: snapshot
 * work stays in proportion to the writes, and replay in proportion to loading the snapshot.
 */
export const SNAPSHOT_LOG_SHARE = 1 / 4;

/**
 * What one item of a REST upsert (a vertex or an edge) weighs. Replaying costs about the
 * same per item whatever its text: an edge item of a body is ~10 bytes, a vertex with an
 * attribute ~36, so their bytes alone would let a snapshot come 3-4 times as often for
 * vertices as for edges, for the same replay. Loading-job batches keep their bytes: they
 * are logged in binary columns (~8 bytes per edge) and replay without parsing.
 */
export const ITEM_REPLAY_BYTES = 16;

/**
 * Log growth since the last snapshot after which the next one is due: the floor
 * (`snapshotEveryBytes`), or a quarter of the last snapshot's size when more; Infinity when
 * automatic snapshots are off (0).
 */
export function snapshotThreshold(options: { snapshotEveryBytes?: number }, lastSnapshotBytes: number): number {
  const every = options.snapshotEveryBytes ?? DEFAULT_SNAPSHOT_EVERY_BYTES;
  return every <= 0 ? Infinity : Math.max(every, lastSnapshotBytes * SNAPSHOT_LOG_SHARE);
}

/**
 * What a logged command weighs towards the next snapshot: a REST upsert ITEM_REPLAY_BYTES
 * per item (a quarter of its bytes when more: items with many attributes replay longer);
 * any other command its payload's bytes.
 */
export function replayWeight(command: CommandValue, payloadBytes: number): number {
  const items = upsertItems(command);
  return items === undefined ? payloadBytes : Math.max(items * ITEM_REPLAY_BYTES, payloadBytes / 4);
}

/** Items of a REST upsert (vertices and edges); undefined for any other command. */
function upsertItems(command: CommandValue): number | undefined {
  if (typeof command !== "object" || command === null || Array.isArray(command)) return undefined;
  const c = command as { kind?: unknown; vertices?: unknown; edgeColumns?: unknown };
  if (c.kind !== "upsert-batch" || !Array.isArray(c.vertices) || !Array.isArray(c.edgeColumns)) return undefined;
  let items = c.vertices.length;
  for (const group of c.edgeColumns) items += lengthOf((group as { from?: unknown } | null)?.from);
  return items;
}

function lengthOf(list: unknown): number {
  return Array.isArray(list) || ArrayBuffer.isView(list) ? (list as ArrayLike<unknown>).length : 0;
}
