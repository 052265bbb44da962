// Start-up from a data directory: load the newest complete snapshot that verifies, replay
// every logged command after it, cut off a torn log tail, then let the state reinstall its
// queries. Damage that would lose acknowledged changes stops the start with a message that
// names the file; a damaged snapshot is passed over only when the log still covers an
// older one (or the whole history).
import { decodeCommand, type CommandValue } from "./command-codec.js";
import { openDataDirectory } from "./data-directory.js";
import { Persistence, type PersistenceOptions } from "./persistence.js";
import { snapshotThreshold } from "./snapshot-policy.js";
import type { PersistentState } from "./persistent-state.js";
import { SnapshotCorruptionError, SnapshotStore, type LoadedSnapshot, type SnapshotEntry } from "./snapshot/snapshot-store.js";
import { voidedLsn } from "./void-record.js";
import { WriteAheadLog } from "./wal/write-ahead-log.js";

export interface RecoveryReport {
  dataDir: string;
  /** The snapshot the state was loaded from, if any. */
  snapshot?: { lsn: number; dir: string; bytes: number };
  replayedRecords: number;
  replayedBytes: number;
  lastLsn: number;
  /** A torn final log batch that was cut off (never acknowledged). */
  tornTail?: { file: string; offset: number; droppedBytes: number; reason: string };
  /** Snapshots that failed verification, were passed over and moved aside. */
  damagedSnapshots: Array<{ dir: string; reason: string; movedTo: string }>;
  /** Folders of snapshots a crash interrupted, removed. */
  removedIncomplete: string[];
  millis: number;
  /** Processor time recovery used (user + system), which a busy machine does not inflate. */
  cpuMillis: number;
}

/** Recovers the state from `dir` (created when missing) and returns the layer that keeps it durable. */
export async function recover(
  dir: string,
  state: PersistentState,
  options: PersistenceOptions = {},
): Promise<{ persistence: Persistence; report: RecoveryReport }> {
  const dataDir = await openDataDirectory(dir, { waitForLock: options.waitForLock });
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  let log: WriteAheadLog | undefined;
  const snapshots = new SnapshotStore(dataDir.snapshotDir);
  try {
    const removedIncomplete = await snapshots.removeIncomplete();
    const entries = await snapshots.list();
    log = await WriteAheadLog.open(dataDir.walDir, { firstLsn: (entries[0]?.lsn ?? 0) + 1, segmentBytes: options.segmentBytes });

    const damaged: Array<{ entry: SnapshotEntry; reason: string }> = [];
    const base = await loadNewestUsable(snapshots, entries, log, damaged);
    const baseLsn = base?.lsn ?? 0;
    if (log.lastLsn < baseLsn) {
      throw new Error(
        `write-ahead log in ${dataDir.walDir} ends at position ${log.lastLsn}, before the snapshot's position ${baseLsn}: ` +
          `durable log records are missing. Restore the data directory from a backup.`,
      );
    }
    if (base) await state.restore(base);

    const replayed = await replayLog(log, baseLsn, state, options);
    const { replayedRecords, replayedBytes } = replayed;
    await state.afterRecovery?.();

    const damagedSnapshots = [];
    for (const { entry, reason } of damaged) {
      damagedSnapshots.push({ dir: entry.dir, reason, movedTo: await snapshots.moveAside(entry) });
    }
    const baseBytes = base ? base.manifest.sections.reduce((n, s) => n + s.bytes, 0) : 0;
    const persistence = new Persistence(dataDir, log, snapshots, state, options, baseLsn, baseBytes, replayedBytes);
    const report: RecoveryReport = {
      dataDir: dataDir.root,
      replayedRecords,
      replayedBytes,
      lastLsn: log.lastLsn,
      damagedSnapshots,
      removedIncomplete,
      millis: performance.now() - started,
      cpuMillis: cpuMillisSince(cpuAtStart),
    };
    if (base) report.snapshot = { lsn: base.lsn, dir: base.dir, bytes: baseBytes };
    if (log.openReport.torn) report.tornTail = log.openReport.torn;
    // A long replay means the next start would be slow too: fold it into a snapshot now.
    if (replayedBytes >= snapshotThreshold(options, baseBytes)) {
      persistence.snapshot().catch((err: unknown) => options.log?.(`snapshot after recovery failed: ${String(err)}`));
    }
    return { persistence, report };
  } catch (err) {
    await log?.close().catch(() => undefined);
    await snapshots.close();
    await dataDir.release();
    throw err;
  }
}

/**
 * Replays every record after `baseLsn`. A command followed by a void record naming it was
 * refused when it ran and is skipped. A command that fails again is accepted only as the
 * log's last record: it was refused and the crash came before its void was durable (its
 * request got no answer); anywhere else the log does not match the state, and start fails.
 */
async function replayLog(log: WriteAheadLog, baseLsn: number, state: PersistentState, options: PersistenceOptions): Promise<{ replayedRecords: number; replayedBytes: number }> {
  let replayedRecords = 0;
  let replayedBytes = 0;
  let held: { lsn: number; command: CommandValue; bytes: number } | undefined;
  const applyHeld = async (last: boolean) => {
    if (!held) return;
    const { lsn, command, bytes } = held;
    held = undefined;
    try {
      await state.replay(command, lsn);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      if (last) {
        options.log?.(`log record ${lsn}, the last, was refused again on replay and is skipped (its request was never answered): ${why}`);
        return;
      }
      throw new Error(`replaying log record ${lsn} failed: ${why}`, { cause: err });
    }
    replayedRecords++;
    replayedBytes += bytes;
  };
  for await (const record of log.read(baseLsn)) {
    const command = decodeCommand(record.payload);
    const voided = voidedLsn(command);
    if (voided === undefined) {
      await applyHeld(false);
      held = { lsn: record.lsn, command, bytes: record.payload.length };
      continue;
    }
    // A void follows its command at once; one voiding anything else (or a command before the snapshot) is damage.
    if (held?.lsn !== voided) {
      if (voided <= baseLsn) continue; // the snapshot holds the state after the refusal: nothing to skip
      throw new Error(`log record ${record.lsn} voids record ${voided}, which is not the record before it: the log is damaged`);
    }
    held = undefined;
  }
  await applyHeld(true);
  return { replayedRecords, replayedBytes };
}

/**
 * The newest snapshot that verifies. A damaged one is passed over only when the log still
 * holds every record after the older base (an older snapshot, or the empty start).
 */
async function loadNewestUsable(
  snapshots: SnapshotStore,
  entries: SnapshotEntry[],
  log: WriteAheadLog,
  damaged: Array<{ entry: SnapshotEntry; reason: string }>,
): Promise<LoadedSnapshot | undefined> {
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    try {
      return await snapshots.load(entry);
    } catch (err) {
      if (!(err instanceof SnapshotCorruptionError)) throw err;
      damaged.push({ entry, reason: err.reason });
      const olderLsn = entries[i + 1]?.lsn ?? 0;
      if (log.firstAvailableLsn > olderLsn + 1) {
        const older = entries[i + 1] ? `the older snapshot at position ${olderLsn}` : "the empty start";
        throw new Error(
          `${err.message}. The write-ahead log starts at position ${log.firstAvailableLsn}, so it cannot ` +
            `rebuild the state from ${older}; the server refuses to start rather than serve wrong data. ` +
            `Restore the data directory from a backup.`,
          { cause: err },
        );
      }
    }
  }
  return undefined;
}

function cpuMillisSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
