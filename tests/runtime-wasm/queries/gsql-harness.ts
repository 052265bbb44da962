// End-to-end harness for query tests: GSQL DDL + data into a real graph store, GSQL query
// text through the whole compiler (parse, bind, lower, passes, emit), run in the worker
// pool over the store's memory, results JSON back.
import { analyzeSource } from "../../../compiler/front-end.js";
import { compileQuery, type OptimizeLevel } from "../../../compiler/back-end.js";
import { formatDiagnosticText } from "../../../compiler/diagnostics/printer.js";
import { createStore, type GraphStore, type UpsertBatch } from "../../../runtime-wasm/store/index.js";
import type { DatabaseSchema } from "../../../runtime-wasm/schema/types.js";
import { QueryRuntime, type QueryArgument, type QueryResult, type RunQueryOptions } from "../../../runtime-wasm/query/query-runtime.js";

let runtime: QueryRuntime | undefined;

export function sharedRuntime(): QueryRuntime {
  runtime ??= new QueryRuntime({ workers: 2, graceMs: 500 });
  return runtime;
}

export async function closeSharedRuntime(): Promise<void> {
  await runtime?.close();
  runtime = undefined;
}

export interface TestDatabase {
  ddl: string;
  schema: DatabaseSchema;
  store: GraphStore;
  graph: string;
}

/** A store with the schema the DDL creates (its last CREATE GRAPH is the graph) and the data. */
export function createDatabase(ddl: string, data: UpsertBatch = {}): TestDatabase {
  const fe = analyzeSource(ddl, "schema.gsql");
  const errors = fe.log.diagnostics.filter((d) => d.severity === "error");
  if (errors.length) throw new Error("schema has errors:\n" + errors.map((d) => formatDiagnosticText(d, fe.source.text)).join("\n"));
  const schema = fe.bound!.schema;
  const graph = schema.graphs[schema.graphs.length - 1].name;
  const store = createStore(schema);
  store.upsert(data);
  return { ddl, schema, store, graph };
}

export interface CompiledForTest {
  module: WebAssembly.Module;
  manifest: import("../../../runtime-wasm/query/manifest.js").QueryManifest;
  ir: import("../../../compiler/ir/ir.js").IrQuery;
}

/** Compiles the (last) query in `text` against the database's schema. */
export async function compileGsql(db: TestDatabase, text: string, level: OptimizeLevel = 1): Promise<CompiledForTest> {
  const fe = analyzeSource(db.ddl + "\n" + text, "query.gsql");
  const errors = fe.log.diagnostics.filter((d) => d.severity === "error");
  if (errors.length) throw new Error("query has errors:\n" + errors.map((d) => formatDiagnosticText(d, fe.source.text)).join("\n"));
  const queries = fe.bound!.queries;
  const bound = queries[queries.length - 1];
  // every other query of the text is available to be called
  const compiled = compileQuery(bound, fe.bound!.schema, level, false, queries.slice(0, -1));
  const module = await WebAssembly.compile(compiled.bytes as Uint8Array<ArrayBuffer>);
  return { module, manifest: compiled.manifest, ir: compiled.ir };
}

/** Compiles and runs a query; returns the result (results parsed as `json` when ok). */
export async function runGsql(db: TestDatabase, text: string, args: QueryArgument[] = [], options: RunQueryOptions & { level?: OptimizeLevel } = {}): Promise<QueryResult & { json?: unknown }> {
  const q = await compileGsql(db, text, options.level);
  const r = await sharedRuntime().run(db.store, db.graph, q, args, { timeoutMs: 20000, ...options });
  return r.ok ? { ...r, json: JSON.parse(r.results) } : r;
}
