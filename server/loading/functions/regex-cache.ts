// Compiled regular expressions for gsql_regex_*: patterns are usually literals of the job,
// but may come from data, so the cache is bounded and a bad pattern is remembered as bad.
const MAX_ENTRIES = 256;
const cache = new Map<string, RegExp | null>();

/** The compiled pattern, or undefined when it is not a valid regular expression. */
export function cachedRegex(pattern: string, flags: string): RegExp | undefined {
  const key = flags + "/" + pattern;
  let r = cache.get(key);
  if (r === undefined) {
    try {
      r = new RegExp(pattern, flags);
    } catch {
      r = null;
    }
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, r);
  }
  return r ?? undefined;
}
