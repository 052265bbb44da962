// Keeps client-supplied text (ids, names, parameter values) short inside error messages, so a
// hostile or huge value cannot flood a response or a log line.

export function clip(text: string, max = 100): string {
  return text.length > max ? text.slice(0, max) + "..." : text;
}
