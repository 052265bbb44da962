// `ls`: the catalog as the shell lists it (gsql-ddl-loading-shell §10.7). In global scope:
// global types, every graph and the global jobs. In a graph: its types (global and local),
// the graph, its jobs and its queries with their states.
import type { DatabaseSchema, GraphSchema } from "../../../runtime-wasm/schema/types.js";
import type { Catalog } from "../../catalog/catalog.js";
import type { CatalogQuery } from "../../catalog/catalog-state.js";
import { edgeTypeText, graphText, tupleText, vertexTypeText } from "./schema-lines.js";

export interface LsContext {
  schema: DatabaseSchema;
  catalog: Catalog;
  /** undefined: global scope. */
  graph?: string;
  jsonApi: string;
  syntaxVersion: string;
  sessionParameters: Record<string, string>;
}

export function lsText({ schema, catalog, graph, jsonApi, syntaxVersion, sessionParameters }: LsContext): string[] {
  const g = graph === undefined ? undefined : schema.graphs.find((x) => x.name === graph);
  const out: string[] = [];
  if (!g) {
    out.push("---- Global vertices, edges, and all graphs");
    out.push("Vertex Types:", ...schema.vertexTypes.filter((v) => v.graph === undefined).map((v) => "  - " + vertexTypeText(v)));
    out.push("Edge Types:", ...schema.edgeTypes.filter((e) => e.graph === undefined).map((e) => "  - " + edgeTypeText(e)));
    out.push("");
    out.push("Graphs:", ...schema.graphs.map((x) => "  - " + graphText(x)));
    out.push("Jobs:", ...jobLines(catalog.schemaChangeJobs(undefined).map((j) => j.text)));
    if (schema.tuples.length > 0) out.push("", "Tuples:", ...schema.tuples.map((t) => "  - " + tupleText(t)));
    out.push("", "");
    out.push(`JSON API version: ${jsonApi}`, `Syntax version: ${syntaxVersion}`);
    out.push(...sessionLines(sessionParameters));
    return out;
  }
  out.push(`---- Graph ${g.name}`);
  out.push("Vertex Types:", ...graphVertexTypes(schema, g).map((v) => "  - " + vertexTypeText(v)));
  out.push("Edge Types:", ...graphEdgeTypes(schema, g).map((e) => "  - " + edgeTypeText(e)));
  out.push("");
  out.push("Graphs:", "  - " + graphText(g));
  out.push("Jobs:", ...jobLines([...catalog.loadingJobs(g.name), ...catalog.schemaChangeJobs(g.name)].map((j) => j.text)));
  out.push("Queries:", ...catalog.queries(g.name).map((q) => "  - " + queryLine(q, jsonApi)));
  out.push(...sessionLines(sessionParameters));
  out.push("", "");
  return out;
}

/** `name(params) [(status)]`: a valid uninstalled query shows no status. */
export function queryLine(q: CatalogQuery, jsonApi: string): string {
  const head = `${q.name}(${q.paramText})`;
  switch (q.state) {
    case "installed":
      return `${head} (installed ${q.api ?? jsonApi})`;
    case "defined":
      return head;
    default:
      return `${head} (${q.state})`;
  }
}

export function graphVertexTypes(schema: DatabaseSchema, g: GraphSchema) {
  return g.vertexTypes
    .map((name) => schema.vertexTypes.find((v) => v.name === name && v.graph === g.name) ?? schema.vertexTypes.find((v) => v.name === name && v.graph === undefined))
    .filter((v) => v !== undefined);
}

export function graphEdgeTypes(schema: DatabaseSchema, g: GraphSchema) {
  return g.edgeTypes
    .map((name) => schema.edgeTypes.find((e) => e.name === name && e.graph === g.name) ?? schema.edgeTypes.find((e) => e.name === name && e.graph === undefined))
    .filter((e) => e !== undefined);
}

/** A job's text, normalised as `ls` shows it: `  - CREATE ... {`, body lines at 6 spaces, `}` at 4. */
function jobLines(texts: string[]): string[] {
  const out: string[] = [];
  for (const text of texts) {
    const lines = text.replace(/\r\n?/g, "\n").split("\n").map((l) => l.trim()).filter((l) => l !== "");
    out.push("  - " + (lines[0] ?? ""));
    for (const l of lines.slice(1)) out.push((l === "}" ? "    " : "      ") + l);
    out.push("");
  }
  return out;
}

function sessionLines(parameters: Record<string, string>): string[] {
  const names = Object.keys(parameters);
  if (names.length === 0) return [];
  return ["SessionParameters:", ...names.map((n) => `  - ${n}: ${parameters[n]}`)];
}
