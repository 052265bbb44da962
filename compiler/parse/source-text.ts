// A source text with its file name, and the conversions from the parser's token positions
// (code-point indices) to our SourceRange (1-based line and column, UTF-16 offsets, which is
// what JavaScript strings and editors use).
import type { SourcePosition, SourceRange } from "../diagnostics/source-range.js";

export class SourceText {
  /** UTF-16 offset of the first character of each line. */
  private readonly lineStarts: number[] = [0];
  /** Code-point index → UTF-16 offset; only built when the text has characters outside the BMP. */
  private readonly utf16OfCodePoint: Uint32Array | undefined;

  constructor(readonly text: string, readonly file: string) {
    for (let i = 0; i < text.length; i++) {
      if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
    }
    if (/[\uD800-\uDBFF][\uDC00-\uDFFF]/.test(text)) {
      const map: number[] = [];
      for (let i = 0; i < text.length; i++) {
        map.push(i);
        const code = text.charCodeAt(i);
        if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
          const next = text.charCodeAt(i + 1);
          if (next >= 0xdc00 && next <= 0xdfff) i++;
        }
      }
      map.push(text.length);
      this.utf16OfCodePoint = Uint32Array.from(map);
    }
  }

  /** The UTF-16 offset of a code-point index as the lexer counts it. */
  offsetOfCodePoint(index: number): number {
    if (this.utf16OfCodePoint === undefined) return Math.min(Math.max(index, 0), this.text.length);
    const clamped = Math.min(Math.max(index, 0), this.utf16OfCodePoint.length - 1);
    return this.utf16OfCodePoint[clamped]!;
  }

  /** Line and column (both 1-based) of a UTF-16 offset. */
  position(offset: number): SourcePosition {
    const clamped = Math.min(Math.max(offset, 0), this.text.length);
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid]! <= clamped) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: clamped - this.lineStarts[low]! + 1, offset: clamped };
  }

  /** The range between two UTF-16 offsets (`end` exclusive). */
  range(start: number, end: number): SourceRange {
    return { file: this.file, start: this.position(start), end: this.position(Math.max(start, end)) };
  }

  /** The range of a span of tokens, given the code-point start of the first and stop (inclusive) of the last. */
  rangeOfCodePoints(start: number, stopInclusive: number): SourceRange {
    const from = this.offsetOfCodePoint(start);
    return this.range(from, Math.max(from, this.offsetOfCodePoint(stopInclusive + 1)));
  }

  /** The text between two UTF-16 offsets. */
  slice(start: number, end: number): string {
    return this.text.slice(start, end);
  }

  /** The range covering the end of the text (where "end of input" errors point). */
  endRange(): SourceRange {
    return this.range(this.text.length, this.text.length);
  }
}
