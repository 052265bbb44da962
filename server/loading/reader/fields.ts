// Stage 2 of reading a delimited line: line → tokens. The separator is 1–4 characters and
// has no escape. With a quote mode (QUOTE="double"|"single", gsql-ddl-loading-shell §7.7)
// separators between a pair of quotes are data, a field keeps only the inside of its first
// quote pair (a"b"c"d" gives b), and a quote with no partner on the line is plain data.
// Without a quote mode, quote characters are ordinary data.

/** Splits `line` into `out` (reused between lines); returns the number of tokens. */
export type FieldSplitter = (line: string, out: string[]) => number;

export function fieldSplitter(separator: string, quote: '"' | "'" | undefined): FieldSplitter {
  if (separator.length === 0) throw new Error("separator must not be empty");
  return quote === undefined ? (line, out) => splitPlain(line, separator, out) : (line, out) => splitQuoted(line, separator, quote, out);
}

function splitPlain(line: string, sep: string, out: string[]): number {
  let count = 0;
  let at = 0;
  for (;;) {
    const next = line.indexOf(sep, at);
    if (next < 0) {
      out[count++] = line.slice(at);
      return count;
    }
    out[count++] = line.slice(at, next);
    at = next + sep.length;
  }
}

function splitQuoted(line: string, sep: string, quote: string, out: string[]): number {
  let count = 0;
  let at = 0;
  for (;;) {
    // Scan one field: quote pairs hide separators; an unmatched quote is data.
    let scan = at;
    let firstOpen = -1;
    let firstClose = -1;
    let end: number;
    for (;;) {
      const nextSep = line.indexOf(sep, scan);
      const nextQuote = line.indexOf(quote, scan);
      if (nextQuote < 0 || (nextSep >= 0 && nextSep < nextQuote)) {
        end = nextSep;
        break;
      }
      const close = line.indexOf(quote, nextQuote + 1);
      if (close < 0) {
        end = nextSep; // here nextSep is -1 or after the unmatched quote
        break;
      }
      if (firstOpen < 0) {
        firstOpen = nextQuote;
        firstClose = close;
      }
      scan = close + 1;
    }
    const fieldEnd = end < 0 ? line.length : end;
    out[count++] = firstOpen >= 0 ? line.slice(firstOpen + 1, firstClose) : line.slice(at, fieldEnd);
    if (end < 0) return count;
    at = end + sep.length;
  }
}
