// Stage 1 of reading: bytes → lines. Streams a file path or an in-memory body in chunks,
// decodes UTF-8 (invalid bytes become U+FFFD, a character split across chunks is kept
// whole), and cuts lines at an end-of-line marker of 1–4 characters (CR LF included).
// There are no escapes and quotes never span lines: the loader is line-oriented.
// A line longer than the limit is skipped to its end without being held in memory and
// reported as oversize; so is unbounded garbage with no end-of-line at all.
import { open } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";

/** A file on disk, or data that arrived in a request body. */
export type LineSource = { kind: "path"; path: string } | { kind: "body"; data: string | Uint8Array };

export interface LineCallbacks {
  /** A complete line without its end-of-line marker. Return false to stop reading. */
  line(text: string, lineNumber: number): boolean | void;
  /** A line longer than the limit was skipped. */
  oversize(lineNumber: number): void;
  /** Called after each chunk with the bytes consumed so far; may await to yield. */
  progress?(bytesRead: number, totalBytes: number | undefined): void | Promise<void>;
}

export interface LineOptions {
  eol: string;
  /** Longest line kept, in characters. */
  maxLineLength: number;
  /** Chunk size in bytes (default 4 MiB). */
  chunkBytes?: number;
}

const DEFAULT_CHUNK = 256 << 10;

/** Reads every line of the source; resolves with the number of lines seen (oversize included). */
export async function readLines(source: LineSource, options: LineOptions, callbacks: LineCallbacks): Promise<number> {
  const splitter = new LineSplitter(options, callbacks);
  if (source.kind === "body") {
    const data = typeof source.data === "string" ? Buffer.from(source.data, "utf8") : source.data;
    const chunk = options.chunkBytes ?? DEFAULT_CHUNK;
    for (let at = 0; at < data.length && !splitter.stopped; at += chunk) {
      const end = Math.min(data.length, at + chunk);
      splitter.push(data.subarray(at, end));
      await callbacks.progress?.(end, data.length);
    }
  } else {
    const handle = await open(source.path, "r");
    try {
      const total = (await handle.stat()).size;
      const buffer = Buffer.allocUnsafe(options.chunkBytes ?? DEFAULT_CHUNK);
      let read = 0;
      while (!splitter.stopped) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) break;
        read += bytesRead;
        splitter.push(buffer.subarray(0, bytesRead));
        await callbacks.progress?.(read, total);
      }
    } finally {
      await handle.close();
    }
  }
  splitter.finish();
  return splitter.lineNumber;
}

/** Incremental line cutter over decoded text; keeps only the unfinished tail between chunks. */
class LineSplitter {
  private readonly decoder = new StringDecoder("utf8");
  private tail = "";
  /** True while skipping the rest of an oversize line. */
  private skipping = false;
  /** A UTF-8 byte order mark at the very start of a source is not data. */
  private atStart = true;
  lineNumber = 0;
  stopped = false;

  constructor(
    private readonly options: LineOptions,
    private readonly callbacks: LineCallbacks,
  ) {
    if (options.eol.length < 1) throw new Error("end-of-line marker must not be empty");
  }

  push(bytes: Uint8Array): void {
    this.consume(this.decoder.write(bytes as Buffer));
  }

  finish(): void {
    if (this.stopped) return;
    this.consume(this.decoder.end());
    if (this.skipping) {
      this.skipping = false;
    } else if (this.tail.length > 0) {
      this.emit(this.tail);
    }
    this.tail = "";
  }

  private consume(decoded: string): void {
    if (this.stopped || decoded.length === 0) return;
    if (this.atStart) {
      this.atStart = false;
      if (decoded.charCodeAt(0) === 0xfeff) decoded = decoded.slice(1);
    }
    const { eol, maxLineLength } = this.options;
    const text = this.tail.length > 0 ? this.tail + decoded : decoded;
    let at = 0;
    for (;;) {
      const end = text.indexOf(eol, at);
      if (end < 0) break;
      if (this.skipping) {
        this.skipping = false;
      } else if (end - at > maxLineLength) {
        this.lineNumber++;
        this.callbacks.oversize(this.lineNumber);
      } else {
        this.emit(text.slice(at, end));
        if (this.stopped) return;
      }
      at = end + eol.length;
    }
    const rest = text.length - at;
    if (this.skipping) {
      // Keep only what could be the start of a split end-of-line marker.
      this.tail = text.slice(Math.max(at, text.length - (eol.length - 1)));
    } else if (rest > maxLineLength + eol.length) {
      this.lineNumber++;
      this.callbacks.oversize(this.lineNumber);
      this.skipping = true;
      this.tail = text.slice(text.length - (eol.length - 1));
    } else {
      this.tail = text.slice(at);
    }
  }

  private emit(line: string): void {
    // Empty lines (blank lines, a doubled end-of-line) carry no data and are not counted.
    if (line.length === 0) return;
    this.lineNumber++;
    if (this.callbacks.line(line, this.lineNumber) === false) this.stopped = true;
  }
}
