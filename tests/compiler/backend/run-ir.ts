// Runs IR queries end to end in tests: emit (passes included) -> compile -> run in the
// worker pool over a graph memory -> results JSON.
import { emitQuery } from "../../../compiler/emit/emit-query.js";
import type { IrQuery } from "../../../compiler/ir/ir.js";
import { optimizeIr } from "../../../compiler/passes/optimize.js";
import { encodeParamBlock, type ParamValue } from "../../../runtime-wasm/query/param-block.js";
import { QueryPool } from "../../../runtime-wasm/query/query-pool.js";
import type { RunOutcome } from "../../../runtime-wasm/query/run-types.js";
import type { GraphReader } from "../../../runtime-wasm/output/graph-reader.js";
import { decodeOutput } from "../../../runtime-wasm/output/decode-output.js";
import { emptySchema, type DatabaseSchema } from "../../../runtime-wasm/schema/types.js";
import { UNBOUND } from "../../../runtime-wasm/query/manifest.js";

let sharedPool: QueryPool | undefined;

export function testPool(): QueryPool {
  sharedPool ??= new QueryPool({ workers: 2, graceMs: 500 });
  return sharedPool;
}

export async function closeTestPool(): Promise<void> {
  await sharedPool?.close();
  sharedPool = undefined;
}

const scratch = new WebAssembly.Memory({ initial: 1, maximum: 65536, shared: true });

export interface RunIrOptions {
  params?: ParamValue[];
  schema?: DatabaseSchema;
  memory?: WebAssembly.Memory;
  snapshot?: number;
  vidBound?: number;
  /** Store ordinals for the manifest's bindings. */
  resolve?: (b: import("../../../runtime-wasm/query/manifest.js").Binding) => number;
  reader?: GraphReader;
  flags?: number;
  timeoutMs?: number;
  optimizeLevel?: 0 | 1 | 2 | 3;
}

/** Emits and runs `ir`; returns the outcome (results parsed when ok). */
export async function runIr(ir: IrQuery, options: RunIrOptions = {}): Promise<(RunOutcome & { json?: unknown; results?: string })> {
  const optimized = optimizeIr(ir, 1);
  const { bytes, manifest } = emitQuery(optimized, { schema: options.schema ?? emptySchema(), optimizeLevel: options.optimizeLevel ?? 0 });
  const module = await WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>);
  const ordinals = manifest.bindings.map((b) => (options.resolve ? options.resolve(b) : UNBOUND));
  const params = encodeParamBlock(ordinals, manifest.params, options.params ?? []);
  const outcome = await testPool().run(
    options.memory ?? scratch,
    {
      module,
      manifest,
      params,
      snapshot: options.snapshot ?? 0,
      vidBound: options.vidBound ?? 0,
      flags: options.flags ?? 0,
    },
    { timeoutMs: options.timeoutMs ?? 10000 },
  );
  if (outcome.kind !== "ok") return outcome;
  const results = decodeOutput(outcome.output, manifest, { reader: options.reader });
  return { ...outcome, results, json: JSON.parse(results) };
}
