// Warming the loader up when the server starts. JavaScript runs slowly until the engine has
// compiled its hot functions, and for the loader those are spread over three threads (the
// reader thread parses, this thread plans and links, the merge thread sorts and merges): a
// first 4M-edge load in a fresh process spent about 0.4 s of CPU compiling and took 10-15%
// longer than one after this warm-up. So the server runs a small load of its own right after it
// starts, in the background: 600k skewed edges (hubs, repeats, lists long enough for the edge
// filter and the key index) from a CSV file through the reader thread into a throwaway
// in-memory store. Nothing of it is kept but the compiled code and the warm reader thread.
import { existsSync, statSync } from "node:fs";
import { rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStore } from "../../runtime-wasm/store/index.js";
import type { DatabaseSchema } from "../../runtime-wasm/schema/types.js";
import { Engine } from "../engine/engine.js";
import { engineSink } from "./engine-sink.js";
import type { LoadingJobPlan } from "./plan.js";
import { runLoad } from "./run.js";
import type { LoadSink } from "./sink.js";
import { warmReaderThread } from "./worker/read-in-thread.js";

/** Edges of the warm-up load: enough for every hot function to be compiled with its final feedback. */
const WARM_UP_EDGES = 600_000;
const WARM_UP_VERTICES = 1 << 16;
/** The file is the same for every start (the generator is seeded): made once, then reused. */
const FILE_NAME = "wasmgraph-loader-warm-up-v1.csv";

/**
 * A plain edge list's graph and job: vertex type V with INT ids, directed edge type E, and one
 * LOAD of columns 0 and 1 of file variable f as E edges (the warm-up's, and the load bench's).
 */
export function edgeListLoad(graph: string, job: string): { schema: DatabaseSchema; plan: LoadingJobPlan } {
  const schema: DatabaseSchema = {
    tuples: [],
    globalVersion: 0,
    vertexTypes: [{ key: "V", name: "V", primaryId: { name: "id", type: "INT" }, primaryIdAsAttribute: false, attributes: [], stats: "OUTDEGREE_BY_EDGETYPE" }],
    edgeTypes: [{ key: "E", name: "E", directed: true, pairs: [{ from: "V", to: "V" }], discriminator: [], attributes: [] }],
    graphs: [{ name: graph, vertexTypes: ["V"], edgeTypes: ["E"], version: 0 }],
  };
  const plan: LoadingJobPlan = {
    name: job,
    graph,
    files: [{ name: "f" }],
    headers: [],
    lineFilters: [],
    statements: [{ kind: "load", source: { kind: "file", variable: "f" }, destinations: [{ kind: "edge", type: "E", from: { id: { kind: "column", index: 0 } }, to: { id: { kind: "column", index: 1 } }, values: [] }], using: {} }],
  };
  return { schema, plan };
}

let warming: Promise<void> | undefined;

/**
 * Runs the warm-up load once per process (later calls share it; after a failure, such as no
 * room for its file in `directory`, the next call tries again); resolves when it is done.
 */
export function warmLoader(directory = tmpdir()): Promise<void> {
  warming ??= runWarmUp(directory).catch((err: unknown) => {
    warming = undefined;
    throw err;
  });
  return warming;
}

async function runWarmUp(directory: string): Promise<void> {
  const { schema, plan } = edgeListLoad("warm_up", "warm_up");
  const path = await warmUpFileIn(directory);
  await warmReaderThread();
  const engine = new Engine({ createStore, storeOptions: { initialBytes: 32 << 20 } });
  engine.apply({ kind: "define-schema", schema });
  const inner = engineSink(engine, plan.graph);
  // Logged, as a durable server's loads are: the reader thread then encodes each batch's log
  // record too (this in-memory engine has no log to write it to).
  const sink: LoadSink = { schema: () => inner.schema(), logged: true, apply: (batch) => inner.apply(batch) };
  // Two jobs, each reading half of the file: a load compiles its job into closures of its own,
  // and code that only ever saw one job's closures is compiled for those alone (and thrown
  // away when the next job's arrive). The second half also lands on lists the first filled.
  const half = WARM_UP_EDGES / 2;
  await runLoad(plan, new Map([["f", { kind: "path", path }]]), sink, { reader: "thread", lineRange: { first: 1, last: half } });
  await runLoad({ ...plan, name: "warm_up_again" }, new Map([["f", { kind: "path", path }]]), sink, { reader: "thread", lineRange: { first: half + 1 } });
}

/**
 * The warm-up CSV in `directory`, written (to a temporary name, then renamed whole) when
 * missing. A file of that name but another size is not ours (the directory may be shared):
 * it is replaced, so the warm-up never loads more than its own few megabytes.
 */
export async function warmUpFileIn(directory: string): Promise<string> {
  const path = join(directory, FILE_NAME);
  // The size is counted without making the text (that takes a fifth of a second): a server
  // that finds its file from an earlier start does no more.
  if (existsSync(path) && statSync(path).size === warmUpCsvBytes()) return path;
  const partial = `${path}.${process.pid}.partial`;
  try {
    await writeFile(partial, warmUpCsv());
    await rename(partial, path);
  } finally {
    await rm(partial, { force: true });
  }
  return path;
}

/**
 * Seeded skewed edges "a,b": both ends drawn with a density falling as a power of the id, so
 * vertex 0 is a hub of thousands of edges, a few hundred lists pass the edge filter's length,
 * and repeated edges occur, as in real graphs.
 */
export function warmUpCsv(edges = WARM_UP_EDGES, vertices = WARM_UP_VERTICES): string {
  const lines: string[] = [];
  forEachWarmUpEdge(edges, vertices, (a, b) => lines.push(`${a},${b}`));
  return lines.join("\n") + "\n";
}

/** The length in bytes of warmUpCsv's text (ASCII: digits, a comma and a newline per edge). */
function warmUpCsvBytes(edges = WARM_UP_EDGES, vertices = WARM_UP_VERTICES): number {
  let bytes = 0;
  forEachWarmUpEdge(edges, vertices, (a, b) => (bytes += digits(a) + digits(b) + 2));
  return bytes;
}

function forEachWarmUpEdge(edges: number, vertices: number, visit: (a: number, b: number) => void): void {
  let seed = 0x2545f491;
  const next = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
  for (let i = 0; i < edges; i++) {
    const a = Math.floor(vertices * next() ** 3);
    const b = Math.floor(vertices * next() ** 2);
    visit(a, b);
  }
}

/** Decimal digits of a non-negative integer. */
function digits(n: number): number {
  let count = 1;
  while (n >= 10) {
    n = Math.floor(n / 10);
    count++;
  }
  return count;
}
