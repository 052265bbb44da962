// The query-case file format: a small graph, GSQL queries, and runs with their expected
// results, in one text file.
//
//   # comments
//   --- schema            GSQL DDL (vertex and edge types, the graph)
//   --- data              one item per line:
//                           V <type> <id> [{"attr": value, ...}]
//                           E <type> <from> <to> [{"attr": value, ...}]
//                         an endpoint is <id>, or <type>:<id> when the edge type has several
//                         endpoint types; INT/UINT attribute values may be "123n" strings.
//   --- query             one CREATE QUERY (several sections allowed)
//   --- run NAME [args]   runs query NAME with a JSON array of arguments; options after
//                         the array as JSON: {"allActive": true, "timeoutMs": 100,
//                         "selectResultLimitBytes": 64}
//   --- expect            the exact results array (JSON); vertex-record arrays are compared
//                         as sets unless the run's expect line says `--- expect ordered`
//   --- expect-error KIND the run fails with KIND (error, exception, timeout, bad-argument);
//                         the section's text, when not empty, is the exact message
import type { EdgeUpsert, UpsertBatch, VertexUpsert } from "../../../runtime-wasm/store/index.js";
import type { DatabaseSchema } from "../../../runtime-wasm/schema/types.js";

export interface CaseRun {
  query: string;
  args: unknown[];
  options: { allActive?: boolean; timeoutMs?: number; monitor?: boolean; selectResultLimitBytes?: number };
  expect?: unknown;
  ordered: boolean;
  error?: { kind: string; message?: string };
  line: number;
}

export interface QueryCase {
  schema: string;
  data: string[];
  queries: string[];
  runs: CaseRun[];
}

export function parseCase(text: string, file: string): QueryCase {
  const c: QueryCase = { schema: "", data: [], queries: [], runs: [] };
  const lines = text.split("\n");
  let section: { head: string; line: number; body: string[] } | undefined;
  const close = () => {
    if (!section) return;
    const body = section.body.join("\n").trim();
    const [kind, ...rest] = section.head.split(/\s+/);
    const where = `${file}:${section.line}`;
    switch (kind) {
      case "schema":
        c.schema += body + "\n";
        break;
      case "data":
        c.data.push(...section.body.map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("#")));
        break;
      case "query":
        c.queries.push(body);
        break;
      case "run": {
        const head = section.head.slice("run".length).trim();
        const m = /^(\S+)\s*(.*)$/.exec(head);
        if (!m) throw new Error(`${where}: 'run' needs a query name`);
        const { args, options } = parseRunArgs(m[2], where);
        c.runs.push({ query: m[1], args, options, ordered: false, line: section.line });
        break;
      }
      case "expect": {
        const run = c.runs[c.runs.length - 1];
        if (!run) throw new Error(`${where}: 'expect' without a run`);
        run.ordered = rest[0] === "ordered";
        run.expect = JSON.parse(body, bigintReviver);
        break;
      }
      case "expect-error": {
        const run = c.runs[c.runs.length - 1];
        if (!run) throw new Error(`${where}: 'expect-error' without a run`);
        run.error = { kind: rest[0] ?? "error", ...(body ? { message: body } : {}) };
        break;
      }
      default:
        throw new Error(`${where}: unknown section '${kind}'`);
    }
    section = undefined;
  };
  lines.forEach((line, i) => {
    const m = /^---\s+(.*)$/.exec(line);
    if (m) {
      close();
      section = { head: m[1].trim(), line: i + 1, body: [] };
    } else if (section) section.body.push(line);
    else if (line.trim() !== "" && !line.startsWith("#")) throw new Error(`${file}:${i + 1}: text outside a section`);
  });
  close();
  return c;
}

function parseRunArgs(text: string, where: string): { args: unknown[]; options: CaseRun["options"] } {
  if (text.trim() === "") return { args: [], options: {} };
  // the arguments array, then optionally an options object
  let depth = 0;
  let end = -1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "[") depth++;
    if (text[i] === "]" && --depth === 0) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error(`${where}: run arguments must be a JSON array`);
  const args = JSON.parse(text.slice(0, end + 1), bigintReviver) as unknown[];
  const rest = text.slice(end + 1).trim();
  return { args, options: rest ? JSON.parse(rest) : {} };
}

/** "123n" strings become bigints (INT arguments and attribute values). */
function bigintReviver(_key: string, value: unknown): unknown {
  return typeof value === "string" && /^-?\d+n$/.test(value) ? BigInt(value.slice(0, -1)) : value;
}

/** The data lines as one upsert batch (type names are the store keys of global types). */
export function caseData(lines: string[], schema: DatabaseSchema): UpsertBatch {
  const vertices: VertexUpsert[] = [];
  const edges: EdgeUpsert[] = [];
  for (const line of lines) {
    const m = /^(V|E)\s+(\S+)\s+(\S+)(?:\s+(\S+))?\s*(\{.*\})?$/.exec(line);
    if (!m) throw new Error(`bad data line: ${line}`);
    const attrs = m[5] ? (JSON.parse(m[5], bigintReviver) as Record<string, unknown>) : {};
    const attributes = Object.entries(attrs).map(([name, value]) => ({ name, value }));
    if (m[1] === "V") {
      vertices.push({ type: m[2], id: m[3], attributes });
      continue;
    }
    const et = schema.edgeTypes.find((t) => t.name === m[2]);
    if (!et) throw new Error(`unknown edge type in: ${line}`);
    const end = (text: string, side: "from" | "to") => {
      const colon = text.indexOf(":");
      if (colon > 0) return { type: text.slice(0, colon), id: text.slice(colon + 1) };
      const types = [...new Set(et.pairs.map((p) => p[side]))];
      if (types.length !== 1) throw new Error(`give the ${side} type in: ${line}`);
      return { type: types[0], id: text };
    };
    edges.push({ type: m[2], from: end(m[3], "from"), to: end(m[4]!, "to"), attributes });
  }
  return { vertices, edges };
}
