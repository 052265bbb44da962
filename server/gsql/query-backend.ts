// The back end behind INSTALL QUERY: each bound query compiled by compileQuery (lower ->
// passes -> one WebAssembly module with its manifest), the module compiled by the
// WebAssembly engine, and the batch made live in `InstalledQueries` only when every query
// of it compiled. GET /query/{graph}/{name} runs what InstalledQueries holds.
import { compileQuery, type OptimizeLevel } from "../../compiler/back-end.js";
import type { BoundQuery } from "../../compiler/bind/bound.js";
import { QueryRuntime, type CompiledQuery } from "../../runtime-wasm/query/query-runtime.js";

import { queryArguments } from "./query-arguments.js";
import type { Engine } from "../engine/engine.js";
import type { InstallItem, QueryRunOptions, QueryServices } from "./exec/query-services.js";

export interface InstalledQuery extends CompiledQuery {
  graph: string;
  name: string;
  level: number;
}

/** The compiled, runnable form of every installed query, by graph and name. */
export class InstalledQueries {
  private readonly byKey = new Map<string, InstalledQuery>();

  get(graph: string, name: string): InstalledQuery | undefined {
    return this.byKey.get(key(graph, name));
  }

  set(query: InstalledQuery): void {
    this.byKey.set(key(query.graph, query.name), query);
  }

  delete(graph: string, name: string): void {
    this.byKey.delete(key(graph, name));
  }

  /** Every installed query of a graph, for GET /endpoints?dynamic=true. */
  ofGraph(graph: string): InstalledQuery[] {
    return [...this.byKey.values()].filter((q) => q.graph === graph);
  }
}

function key(graph: string, name: string): string {
  return `${graph}\u0000${name}`;
}

/** The worker pool that runs compiled queries, started on first use (it holds threads). */
export class LazyQueryRuntime {
  private runtime: QueryRuntime | undefined;

  get(): QueryRuntime {
    return (this.runtime ??= new QueryRuntime());
  }

  async close(): Promise<void> {
    await this.runtime?.close();
    this.runtime = undefined;
  }
}

export function backendQueryServices(engine: Engine, installed: InstalledQueries, runtime: LazyQueryRuntime): Omit<QueryServices, "bind"> {
  return {
    interpret: (graph, bound, parameters, options) => interpret(engine, runtime, graph, bound as BoundQuery, parameters, options),
    install: async (batch: InstallItem[], level: number, compiled: (done: number) => void) => {
      const ready: InstalledQuery[] = [];
      for (const item of batch) {
        let module: WebAssembly.Module;
        let manifest;
        try {
          const out = compileQuery(item.bound as BoundQuery, engine.schema, level as OptimizeLevel);
          module = await WebAssembly.compile(out.bytes as Uint8Array<ArrayBuffer>);
          manifest = out.manifest;
        } catch (err) {
          throw new Error(`The query ${item.name} could not be compiled: ${err instanceof Error ? err.message : String(err)}`);
        }
        ready.push({ graph: item.graph, name: item.name, level, module, manifest });
        compiled(ready.length);
      }
      for (const q of ready) installed.set(q);
    },
    uninstall: (graph, name) => installed.delete(graph, name),
  };
}

/** INTERPRET QUERY: compiled at the default level and run once, without being installed. */
async function interpret(engine: Engine, runtime: LazyQueryRuntime, graph: string, bound: BoundQuery, parameters: URLSearchParams, options: QueryRunOptions): Promise<string> {
  const version = engine.apiVersion(engine.resolveGraph(graph));
  const envelope = (error: boolean, message: string, results: string) =>
    `{${version ? `"version":${JSON.stringify(version)},` : ""}"error":${error},"message":${JSON.stringify(message)},"results":${results}}`;
  let compiled: CompiledQuery;
  try {
    const out = compileQuery(bound, engine.schema, 1);
    compiled = { module: await WebAssembly.compile(out.bytes as Uint8Array<ArrayBuffer>), manifest: out.manifest };
  } catch (err) {
    return envelope(true, `The query could not be compiled: ${err instanceof Error ? err.message : String(err)}`, "[]");
  }
  const args = queryArguments(compiled.manifest.params, parameters);
  if (!args.ok) return envelope(true, args.message, "[]");
  const result = await runtime.get().run(engine.store, graph, compiled, args.args, { timeoutMs: options.timeoutMs || engine.defaultTimeoutMs });
  if (!result.ok) return envelope(true, result.message, "[]");
  return envelope(false, result.warnings.join("\n"), result.results);
}

