// The back end behind INSTALL QUERY: each bound query compiled by compileQuery (lower ->
// passes -> one WebAssembly module with its manifest), the module compiled by the
// WebAssembly engine, and the batch made live in `InstalledQueries` only when every query
// of it compiled. GET /query/{graph}/{name} runs what InstalledQueries holds.
import { createHash } from "node:crypto";
import { compileQueryModule } from "../../runtime-wasm/query/compile-module.js";
import type { OptimizeLevel } from "../../compiler/back-end.js";
import type { DatabaseSchema } from "../../runtime-wasm/schema/types.js";
import type { QueryManifest } from "../../runtime-wasm/query/manifest.js";
import type { BoundQuery } from "../../compiler/bind/bound.js";
import { QueryRuntime, type CompiledQuery } from "../../runtime-wasm/query/query-runtime.js";

import { queryArguments } from "./query-arguments.js";
import type { EndpointRegistry } from "../endpoints/registry.js";
import { queryEndpointDescriptor, queryEndpointKey } from "../endpoints/query-endpoint.js";
import type { Engine } from "../engine/engine.js";
import type { InstallItem, QueryRunOptions, QueryServices } from "./exec/query-services.js";

export interface InstalledQuery extends CompiledQuery {
  graph: string;
  name: string;
  level: number;
  /** The bound tree it was compiled from: a later caller compiles it into its own module. */
  bound?: BoundQuery;
}

/** The compiled, runnable form of every installed query, by graph and name. */
export class InstalledQueries {
  private readonly byKey = new Map<string, InstalledQuery>();
  private endpoints: EndpointRegistry | undefined;

  get(graph: string, name: string): InstalledQuery | undefined {
    return this.byKey.get(key(graph, name));
  }

  set(query: InstalledQuery): void {
    this.byKey.set(key(query.graph, query.name), query);
    this.endpoints?.register(queryEndpointKey(query.graph, query.name), "dynamic", queryEndpointDescriptor(query.manifest), query.graph);
  }

  delete(graph: string, name: string): void {
    this.byKey.delete(key(graph, name));
    this.endpoints?.unregister(queryEndpointKey(graph, name));
  }

  /** Lists every installed query (now and later) as a dynamic endpoint of `registry` (GET /endpoints). */
  publishTo(registry: EndpointRegistry): void {
    this.endpoints = registry;
    for (const q of this.byKey.values()) registry.register(queryEndpointKey(q.graph, q.name), "dynamic", queryEndpointDescriptor(q.manifest), q.graph);
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

/**
 * The back end (binaryen: about a second to load) is loaded on the first compile, so a server
 * that compiles nothing, e.g. one restarting, does not wait for it.
 */
let backEnd: Promise<typeof import("../../compiler/back-end.js")> | undefined;
function loadBackEnd(): Promise<typeof import("../../compiler/back-end.js")> {
  return (backEnd ??= import("../../compiler/back-end.js"));
}

/** A compiled module as kept across restarts. */
export interface StoredQueryModule {
  bytes: Uint8Array;
  manifest: QueryManifest;
}

/**
 * Where compiled modules are kept across restarts, by a key naming everything the module is
 * made from (server/persist's ModuleStore, in the data directory). Absent: always compiled.
 */
export interface QueryModuleStore {
  get(key: string): Promise<StoredQueryModule | undefined>;
  put(key: string, module: StoredQueryModule): Promise<void>;
}

export function backendQueryServices(engine: Engine, installed: InstalledQueries, runtime: LazyQueryRuntime, modules?: QueryModuleStore): Omit<QueryServices, "bind"> {
  return {
    interpret: (graph, bound, parameters, options) => interpret(engine, runtime, graph, bound as BoundQuery, parameters, options),
    install: async (batch: InstallItem[], level: number, compiled: (done: number) => void) => {
      const ready: InstalledQuery[] = [];
      for (const item of batch) {
        let module: WebAssembly.Module;
        let manifest;
        try {
          const bound = item.bound as BoundQuery;
          const callees = calleesOf(bound, item.graph, (name) => boundIn(batch, installed, item.graph, name));
          const out = await compileOrReuse(modules, bound, callees, engine.schema, level as OptimizeLevel);
          module = await compileQueryModule(out.bytes);
          manifest = out.manifest;
        } catch (err) {
          throw new Error(`The query ${item.name} could not be compiled: ${err instanceof Error ? err.message : String(err)}`);
        }
        ready.push({ graph: item.graph, name: item.name, level, module, manifest, bound: item.bound as BoundQuery });
        compiled(ready.length);
      }
      for (const q of ready) installed.set(q);
    },
    uninstall: (graph, name) => installed.delete(graph, name),
  };
}

/** The module of a query with its callees: from the module store when it holds it, else compiled (and stored). */
async function compileOrReuse(modules: QueryModuleStore | undefined, bound: BoundQuery, callees: BoundQuery[], schema: DatabaseSchema, level: OptimizeLevel): Promise<StoredQueryModule> {
  const key = modules ? moduleKey(bound, callees, schema, level) : undefined;
  const stored = key ? await modules!.get(key).catch(() => undefined) : undefined;
  if (stored) return stored;
  const { compileQuery } = await loadBackEnd();
  const out = compileQuery(bound, schema, level, false, callees);
  // A module that could not be stored is compiled again at the next start: nothing more.
  if (key) await modules!.put(key, { bytes: out.bytes, manifest: out.manifest }).catch(() => undefined);
  return { bytes: out.bytes, manifest: out.manifest };
}

/** Everything a compiled module is made from besides the compiler: level, schema, the bound trees. */
function moduleKey(bound: BoundQuery, callees: BoundQuery[], schema: DatabaseSchema, level: OptimizeLevel): string | undefined {
  try {
    const text = JSON.stringify([level, schema, bound, callees], (_key, value: unknown) => (typeof value === "bigint" ? `\u0000n:${value}` : value));
    return createHash("sha256").update(text).digest("hex");
  } catch {
    return undefined; // not plain data: compile every time
  }
}

/** A query's bound tree: from the batch being installed, else from what is installed already. */
function boundIn(batch: InstallItem[], installed: InstalledQueries, graph: string, name: string): BoundQuery | undefined {
  const inBatch = batch.find((b) => b.graph === graph && b.name === name);
  return (inBatch?.bound as BoundQuery | undefined) ?? installed.get(graph, name)?.bound;
}

/** Every query `root` calls, directly or not (each once): the back end compiles them into its module. */
function calleesOf(root: BoundQuery, graph: string, lookup: (name: string) => BoundQuery | undefined): BoundQuery[] {
  const found = new Map<string, BoundQuery>();
  const visit = (q: BoundQuery) => {
    for (const call of q.calls) {
      if (call.graph !== graph || call.name === root.name || found.has(call.name)) continue;
      const callee = lookup(call.name);
      if (!callee) continue; // the compiler then reports the missing callee
      found.set(call.name, callee);
      visit(callee);
    }
  };
  visit(root);
  return [...found.values()];
}

/** INTERPRET QUERY: compiled at the default level and run once, without being installed. */
async function interpret(engine: Engine, runtime: LazyQueryRuntime, graph: string, bound: BoundQuery, parameters: URLSearchParams, options: QueryRunOptions): Promise<string> {
  const version = engine.apiVersion(engine.resolveGraph(graph));
  const envelope = (error: boolean, message: string, results: string) =>
    `{${version ? `"version":${JSON.stringify(version)},` : ""}"error":${error},"message":${JSON.stringify(message)},"results":${results}}`;
  let compiled: CompiledQuery;
  try {
    const { compileQuery } = await loadBackEnd();
    const out = compileQuery(bound, engine.schema, 1);
    compiled = { module: await compileQueryModule(out.bytes), manifest: out.manifest };
  } catch (err) {
    return envelope(true, `The query could not be compiled: ${err instanceof Error ? err.message : String(err)}`, "[]");
  }
  const args = queryArguments(compiled.manifest.params, parameters);
  if (!args.ok) return envelope(true, args.message, "[]");
  const result = await runtime.get().run(engine.store, graph, compiled, args.args, {
    timeoutMs: options.timeoutMs || engine.defaultTimeoutMs,
    // Its writes are one logged command, as those of an installed query.
    applyWrites: (steps) => engine.apply({ kind: "query-writes", graph, query: compiled.manifest.name, steps }),
  });
  if (!result.ok) return envelope(true, result.message, "[]");
  return envelope(false, result.warnings.join("\n"), result.results);
}

