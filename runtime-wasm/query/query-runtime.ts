// Running an installed (compiled) query against the graph store: the host side of a run,
// on the main thread. It pins a snapshot, resolves the module's schema bindings and vertex
// arguments against it, hands the run to the worker pool, and formats the output as the
// `results` JSON from the same snapshot, so a run sees one consistent version of the graph
// however many writes happen meanwhile.
import { jsonText, parseJson } from "./host-json.js";
import type { GraphStore, Snapshot } from "../store/api.js";
import { graphView } from "../schema/lookup.js";
import { decodeOutput } from "../output/decode-output.js";
import type { FloatStyle } from "../values/index.js";
import { RunFlags } from "./abi.js";
import type { ManifestParam, QueryManifest } from "./manifest.js";
import { encodeParamBlock, NO_VERTEX, type ParamValue } from "./param-block.js";
import { QueryPool, type QueryPoolOptions } from "./query-pool.js";
import { invalidVertexIdsWarning, type ParallelStats, type SelectTiming } from "./run-types.js";
import { resolveBindings, SnapshotGraphReader, storeLender, vidBound } from "./store-bridge.js";
import { applyDmlSteps, decodeDml, type DmlStep, type DmlSummary } from "./apply-dml.js";
import { writeMonitorLog } from "./monitor-log.js";
import { FileWrites } from "./file-writes.js";

export interface CompiledQuery {
  module: WebAssembly.Module;
  manifest: QueryManifest;
}

/** A vertex argument: its primary id, and its type name when the parameter is a plain VERTEX. */
export interface VertexArgument {
  id: string | number | bigint;
  type?: string;
}

/**
 * An argument as the caller has parsed it for the parameter's type: bigint for INT/UINT,
 * number for FLOAT/DOUBLE and DATETIME (epoch seconds), boolean, string, a vertex, an array
 * for SET/BAG/LIST; undefined when not given (the default applies, else NULL).
 */
export type QueryArgument = bigint | number | boolean | string | VertexArgument | QueryArgument[] | undefined;

export interface RunQueryOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** `__GQUERY__USING_ALL_ACTIVE_MODE=true` */
  allActive?: boolean;
  /** `__GQUERY__monitor=true`: per-SELECT timings come back in `monitor`, and are written
   * to a log file in `monitorLogDir` when one is given (`monitorLog` names it). */
  monitor?: boolean;
  monitorLogDir?: string;
  /** Internal: the SELECT result limit in bytes, instead of the interface's 2 GB. */
  selectResultLimitBytes?: number;

  floatStyle?: FloatStyle;
  /**
   * Applies the query's graph writes once it has ended (default: straight to the store).
   * A server passes its own, so the writes go through its write-ahead log as one command.
   */
  applyWrites?: (steps: DmlStep[]) => DmlSummary;
}

export type QueryResult =
  /** `files`: absolute paths of the FILE outputs the run wrote. */
  | { ok: true; results: string; ms: number; warnings: string[]; logs: string[]; monitor?: SelectTiming[]; monitorLog?: string; changes?: DmlSummary; files?: string[]; parallel?: ParallelStats }
  | { ok: false; kind: "exception"; message: string; code: number }
  | { ok: false; kind: "error" | "bad-argument"; message: string }
  | { ok: false; kind: "timeout" | "aborted"; message: string };

export class QueryRuntime {
  readonly pool: QueryPool;
  private readonly registered = new WeakSet<object>();

  constructor(options: QueryPoolOptions & { pool?: QueryPool } = {}) {
    this.pool = options.pool ?? new QueryPool(options);
  }

  async run(store: GraphStore, graph: string, query: CompiledQuery, args: QueryArgument[], options: RunQueryOptions = {}): Promise<QueryResult> {
    const memory = store.memory as unknown as WebAssembly.Memory;
    if (!this.registered.has(memory)) {
      this.pool.registerMemory(memory, storeLender(store));
      this.registered.add(memory);
    }
    const snapshot = store.snapshot();
    try {
      const warnings: string[] = [];
      const values: ParamValue[] = [];
      const params = query.manifest.params;
      for (let i = 0; i < params.length; i++) {
        const converted = toParamValue(snapshot, graph, params[i], args[i] ?? defaultOf(params[i]), warnings);
        if (typeof converted === "object" && converted !== null && "error" in converted) return { ok: false, kind: "bad-argument", message: converted.error };
        values.push(converted as ParamValue);
      }
      const block = encodeParamBlock(resolveBindings(snapshot, query.manifest.bindings), params, values);
      const flags = (options.allActive ? RunFlags.AllActive : 0) | (options.monitor ? RunFlags.Monitor : 0);
      const outcome = await this.pool.run(
        memory,
        { module: query.module, manifest: query.manifest, params: block, snapshot: snapshot.headerAddress, vidBound: vidBound(snapshot), flags, selectResultLimit: options.selectResultLimitBytes },
        { timeoutMs: options.timeoutMs, signal: options.signal },
      );
      switch (outcome.kind) {
        case "ok": {
          const reader = new SnapshotGraphReader(snapshot, snapshot.schema, options.floatStyle);
          const results = decodeOutput(outcome.output, query.manifest, { reader, floatStyle: options.floatStyle });
          // The query's writes become visible now that it has ended successfully.
          let changes: DmlSummary | undefined;
          let files: string[] | undefined;
          if (outcome.dml && outcome.dml.length > 0) {
            const writes = new FileWrites();
            try {
              const steps = decodeDml(store, snapshot, query.manifest, outcome.dml, writes, options.floatStyle);
              if (steps.length > 0) changes = (options.applyWrites ?? ((s) => applyDmlSteps(store, s)))(steps);
            } catch (e) {
              return { ok: false, kind: "error", message: `Runtime Error: the query's data modification failed: ${(e as Error).message}` };
            }
            try {
              if (writes.size > 0) files = writes.write();
            } catch (e) {
              return { ok: false, kind: "error", message: `Runtime Error: the query's output file could not be written: ${(e as Error).message}` };
            }
          }
          const monitorLog = options.monitor && options.monitorLogDir ? writeMonitorLog(options.monitorLogDir, query.manifest.name, outcome.monitor ?? [], outcome.ms) : undefined;
          return { ok: true, results, ms: outcome.ms, warnings: [...warnings, ...(outcome.warnings ?? [])], logs: outcome.logs, monitor: outcome.monitor, ...(monitorLog ? { monitorLog } : {}), changes, ...(files ? { files } : {}), ...(outcome.parallel ? { parallel: outcome.parallel } : {}) };
        }
        case "exception":
          return { ok: false, kind: "exception", message: outcome.message, code: outcome.code };
        case "error":
          return { ok: false, kind: "error", message: outcome.message };
        case "timeout":
          return { ok: false, kind: "timeout", message: "The query timed out." };
        case "aborted":
          return { ok: false, kind: "aborted", message: "The query was aborted." };
      }
    } finally {
      snapshot.release();
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

function defaultOf(p: ManifestParam): QueryArgument {
  if (p.default === undefined) return undefined;
  if ((p.type.base === "INT" || p.type.base === "UINT" || p.type.base === "DATETIME") && typeof p.default === "string") return BigInt(p.default);
  return p.default;
}

/** A JSONOBJECT/JSONARRAY argument (its text, or the value itself from a JSON body) as canonical text. */
function jsonParam(p: ManifestParam, arg: QueryArgument): ParamValue | { error: string } {
  const kind = p.type.base === "JSONOBJECT" ? "object" : "array";
  const one = (a: QueryArgument): string | undefined => {
    const text = typeof a === "string" ? a : JSON.stringify(a, (_k, v: unknown) => (typeof v === "bigint" ? Number(v) : v));
    const v = text === undefined ? undefined : parseJson(text);
    return v !== undefined && v.k === kind ? jsonText(v) : undefined;
  };
  const items = p.type.collection && Array.isArray(arg) ? arg : [arg];
  const texts = items.map(one);
  const bad = texts.findIndex((t) => t === undefined);
  if (bad >= 0) {
    const shown = typeof items[bad] === "string" ? (items[bad] as string) : JSON.stringify(items[bad]);
    return { error: `Values of parameter ${p.name} must be ${p.type.base} type, invalid value [${String(shown).slice(0, 200)}] provided.` };
  }
  return p.type.collection ? (texts as string[]) : texts[0]!;
}

/** Resolves vertex arguments to internal ids in the snapshot; other values pass through. */
function toParamValue(snapshot: Snapshot, graph: string, p: ManifestParam, arg: QueryArgument, warnings: string[]): ParamValue | { error: string } {
  if (arg === undefined) return undefined;
  if (p.type.base === "JSONOBJECT" || p.type.base === "JSONARRAY") return jsonParam(p, arg);
  if (p.type.base !== "VERTEX") {
    if (p.type.base === "DATETIME") return Array.isArray(arg) ? arg.map((x) => BigInt(x as number | bigint)) : BigInt(arg as number | bigint);
    return arg as ParamValue;
  }
  const view = graphView(snapshot.schema, graph);
  const lookup = (a: QueryArgument): number | undefined => {
    // a typed VERTEX parameter may be given its id alone
    const v = (typeof a === "object" && a !== null && !Array.isArray(a) ? a : { id: a }) as VertexArgument;
    const typeName = p.type.vertexType ?? v.type;
    if (typeName === undefined) return undefined;
    const t = view?.vertexType(typeName);
    if (t === undefined) return undefined;
    return snapshot.lookup(t.key, v.id as string);
  };
  if (p.type.collection) {
    const items = arg as QueryArgument[];
    const out: number[] = [];
    let invalid = 0;
    for (const item of items) {
      const vid = lookup(item);
      if (vid === undefined) invalid++;
      else out.push(vid);
    }
    if (invalid > 0) warnings.push(invalidVertexIdsWarning(invalid, p.type.vertexType));
    return out;
  }
  const vid = lookup(arg);
  if (vid === undefined) {
    const v = (typeof arg === "object" && arg !== null && !Array.isArray(arg) ? arg : { id: arg }) as VertexArgument;
    return { error: `Failed to convert user vertex id for parameter ${p.name}: '${String(v.id)}' is not a valid ${p.type.vertexType ?? v.type ?? "vertex"} vertex id.` };
  }
  return vid === NO_VERTEX ? undefined : vid;
}
