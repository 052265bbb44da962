// Source positions shared by every compiler stage: diagnostics and AST nodes carry a
// SourceRange so each message can point at the exact text it is about.

/** A point in a source text. `line` and `column` are 1-based; `offset` is the 0-based UTF-16 index. */
export interface SourcePosition {
  line: number;
  column: number;
  offset: number;
}

/** A span of source text: `start` is the first character, `end` is just past the last one. */
export interface SourceRange {
  file: string;
  start: SourcePosition;
  end: SourcePosition;
}

/** The smallest range covering both `a` and `b` (which must come from the same file). */
export function spanRanges(a: SourceRange, b: SourceRange): SourceRange {
  const start = a.start.offset <= b.start.offset ? a.start : b.start;
  const end = a.end.offset >= b.end.offset ? a.end : b.end;
  return { file: a.file, start, end };
}
