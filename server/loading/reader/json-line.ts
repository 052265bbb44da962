// Stage 2 of reading a JSON-lines source (USING JSON_FILE="true"): line → tokens, one per
// key path the job uses ($"a", $"a":"b"). Key order in the line does not matter; an absent
// key (or null) gives an undefined token, which loads the attribute's default. A line that
// is not a JSON object counts as invalid JSON.
// Tokens are text: strings as they are, numbers and booleans as JSON writes them, objects
// and arrays as JSON text (for flatten_json_array). Integers beyond 2^53 lose precision in
// JSON numbers; send them as JSON strings to keep them exact.

/** Fills `out[i]` with the token at `paths[i]`; false when the line is not a JSON object. */
export function extractJsonTokens(line: string, paths: readonly (readonly string[])[], out: (string | undefined)[]): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return false;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return false;
  for (let i = 0; i < paths.length; i++) out[i] = tokenAt(parsed as Record<string, unknown>, paths[i]!);
  return true;
}

function tokenAt(root: Record<string, unknown>, path: readonly string[]): string | undefined {
  let node: unknown = root;
  for (const key of path) {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return jsonToken(node);
}

/** The token text of a JSON value; undefined for null or absent. */
export function jsonToken(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
      return value;
    case "number":
    case "boolean":
      return String(value);
    case "object":
      return value === null ? undefined : JSON.stringify(value);
    default:
      return undefined;
  }
}
