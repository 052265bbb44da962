// Runs in a worker thread: writes one snapshot folder at a time with synchronous file calls,
// so a snapshot's progress never waits for the main thread, whose event loop may be busy
// with large requests for seconds. Driven by SnapshotWriter (snapshot-writer.ts):
//   start → (open → chunk* → close | image)* → finish, or abort.
// `image` serialises a store version pinned by the main thread straight from the shared
// memory into its file. The thread runs at a lower priority than the process (Linux
// applies it to this thread only), so on a busy machine requests go first.
// The folder is written under its temporary name, every file and the folder fsynced, then
// renamed into place and the parent fsynced: a folder with the final name is complete.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parentPort } from "node:worker_threads";
import { crc32 } from "node:zlib";
import type { PinnedImage } from "../../../runtime-wasm/store/index.js";
import { memoryViews, writeImage } from "../../../runtime-wasm/store/image/write-image.js";
import { decodeManifest, encodeManifest, MANIFEST_FILE, SNAPSHOT_FORMAT, SNAPSHOT_FORMAT_VERSION, type ManifestSection, type SnapshotManifest } from "./manifest.js";

export type WriterRequest =
  | { op: "start"; parent: string; final: string; temporary: string }
  | { op: "open"; name: string }
  | { op: "chunk"; bytes: Uint8Array }
  | { op: "image"; name: string; image: Omit<PinnedImage, "release"> }
  | { op: "close" }
  | { op: "finish"; lsn: number; meta: Record<string, unknown> }
  | { op: "abort" };

export type WriterReply =
  | { op: "written"; bytes: number }
  | { op: "done"; sections: ManifestSection[]; existed: boolean }
  | { op: "failed"; message: string }
  | { op: "aborted" };

interface Job {
  parent: string;
  final: string;
  temporary: string;
  /** The final folder already holds a valid snapshot: keep it, write nothing. */
  existing?: ManifestSection[];
  sections: ManifestSection[];
  file?: { fd: number; name: string; crc: number; bytes: number };
}

/** Nice value of this thread: above the process's, so serialising yields to requests. */
const WRITER_NICE = 10;

let job: Job | undefined;
/** After a failure, everything up to the next start or abort is ignored. */
let failed = false;
/** Messages wait here while an image is written (writeImage awaits between pieces). */
let pending: Promise<void> = Promise.resolve();

function handle(message: WriterRequest): void {
  pending = pending
    .then(() => handleInOrder(message))
    .catch((err: unknown) => reply({ op: "failed", message: `snapshot writer: ${err instanceof Error ? err.message : String(err)}` }));
}

async function handleInOrder(message: WriterRequest): Promise<void> {
  if (message.op === "start") return begin(message);
  if (message.op === "abort") {
    abandon();
    return reply({ op: "aborted" });
  }
  if (failed || !job) return;
  try {
    if (message.op === "image") await writeImageFile(job, message);
    else step(job, message);
  } catch (err) {
    failed = true;
    closeFile(job);
    reply({ op: "failed", message: err instanceof Error ? err.message : String(err) });
  }
}

/** The pinned store version as one payload file, serialised here from the shared memory. */
async function writeImageFile(j: Job, m: Extract<WriterRequest, { op: "image" }>): Promise<void> {
  if (j.existing) return;
  step(j, { op: "open", name: m.name });
  const file = j.file!;
  // The sink writes each chunk before the next is made, so no chunk is kept or copied again.
  await writeImage(memoryViews(m.image.memory), m.image.header, m.image.version, m.image.catalog, (chunk) => {
    file.crc = crc32(chunk, file.crc);
    writeAll(file.fd, chunk, file.bytes);
    file.bytes += chunk.length;
  });
  step(j, { op: "close" });
}

function begin(m: Extract<WriterRequest, { op: "start" }>): void {
  abandon();
  failed = false;
  job = { parent: m.parent, final: m.final, temporary: m.temporary, sections: [] };
  try {
    if (!fs.existsSync(m.parent)) {
      fs.mkdirSync(m.parent, { recursive: true });
      fsyncDirectory(path.dirname(m.parent));
    }
    const existing = readManifest(m.final);
    if (existing) {
      job.existing = existing;
      return;
    }
    // A folder with the final name but no valid manifest is damaged: kept aside, out of the way.
    if (fs.existsSync(m.final)) fs.renameSync(m.final, `${m.final}.damaged-${Date.now()}`);
    fs.rmSync(m.temporary, { recursive: true, force: true });
    fs.mkdirSync(m.temporary);
  } catch (err) {
    failed = true;
    reply({ op: "failed", message: err instanceof Error ? err.message : String(err) });
  }
}

function step(j: Job, m: WriterRequest): void {
  if (j.existing) {
    if (m.op === "finish") finishJob(j, { op: "done", sections: j.existing, existed: true });
    return;
  }
  switch (m.op) {
    case "open":
      j.file = { fd: fs.openSync(path.join(j.temporary, m.name), "wx"), name: m.name, crc: 0, bytes: 0 };
      return;
    case "chunk": {
      const file = j.file!;
      file.crc = crc32(m.bytes, file.crc);
      writeAll(file.fd, m.bytes, file.bytes);
      file.bytes += m.bytes.length;
      reply({ op: "written", bytes: m.bytes.length });
      return;
    }
    case "close": {
      const file = j.file!;
      fs.fsyncSync(file.fd);
      fs.closeSync(file.fd);
      j.sections.push({ name: file.name, bytes: file.bytes, crc32: file.crc });
      j.file = undefined;
      return;
    }
    case "finish": {
      const manifest: SnapshotManifest = {
        format: SNAPSHOT_FORMAT,
        version: SNAPSHOT_FORMAT_VERSION,
        lsn: m.lsn,
        createdAt: new Date().toISOString(),
        meta: m.meta,
        sections: j.sections,
      };
      const fd = fs.openSync(path.join(j.temporary, MANIFEST_FILE), "wx");
      writeAll(fd, Buffer.from(encodeManifest(manifest)), 0);
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      fsyncDirectory(j.temporary);
      fs.renameSync(j.temporary, j.final);
      fsyncDirectory(j.parent);
      finishJob(j, { op: "done", sections: j.sections, existed: false });
      return;
    }
  }
}

function finishJob(j: Job, done: WriterReply): void {
  if (job === j) job = undefined;
  reply(done);
}

/** Drops the job in progress and its temporary folder (a failed or abandoned snapshot). */
function abandon(): void {
  if (!job) return;
  closeFile(job);
  if (!job.existing) fs.rmSync(job.temporary, { recursive: true, force: true });
  job = undefined;
}

function closeFile(j: Job): void {
  if (!j.file) return;
  try {
    fs.closeSync(j.file.fd);
  } catch {
    // already closed or never opened fully: nothing to release
  }
  j.file = undefined;
}

function writeAll(fd: number, bytes: Uint8Array, position: number): void {
  for (let written = 0; written < bytes.length; ) written += fs.writeSync(fd, bytes, written, bytes.length - written, position + written);
}

function fsyncDirectory(dir: string): void {
  const fd = fs.openSync(dir, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function readManifest(dir: string): ManifestSection[] | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, MANIFEST_FILE), "utf8");
  } catch {
    return undefined;
  }
  const manifest = decodeManifest(text);
  return typeof manifest === "string" ? undefined : manifest.sections;
}

function reply(message: WriterReply): void {
  parentPort!.postMessage(message);
}

try {
  os.setPriority(0, Math.min(19, os.getPriority(0) + WRITER_NICE));
} catch {
  // not permitted here (or not supported): the thread runs at the process's priority
}

parentPort?.on("message", handle);
