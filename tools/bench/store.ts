// Bench: the graph store. Batch-ingest throughput (edges/s and vertices/s through upsert
// batches), bytes of WebAssembly memory per edge for a 4-million-edge R-MAT graph without
// attributes (both directions stored), image size, serialize and restart (load) time, and
// read rates — with a plain-JavaScript adjacency map ingesting the same edges as the peer.
// Run: `npm run bench store` or `node dist/tools/bench/store.js [scale] [edges]`.
import { rmSync, writeFileSync, readFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createStore, loadStore, type EdgeUpsert, type GraphStore, type VertexUpsert } from "../../runtime-wasm/store/index.js";
import type { DatabaseSchema } from "../../runtime-wasm/schema/types.js";
import { machineBanner } from "./machine.js";
import { rmat, type EdgeList } from "./rmat.js";
import type { BenchReport, BenchSuite } from "./run.js";

const BATCH = 10_000;

function schema(): DatabaseSchema {
  const v = (name: string, attributes: DatabaseSchema["vertexTypes"][number]["attributes"]) => ({
    key: name,
    name,
    primaryId: { name: "id", type: "INT" as const },
    primaryIdAsAttribute: false,
    attributes,
    stats: "OUTDEGREE_BY_EDGETYPE",
  });
  return {
    tuples: [],
    vertexTypes: [
      v("V", []),
      { ...v("S", []), primaryId: { name: "id", type: "STRING" as const } },
      v("Person", [
        { name: "age", type: { kind: "scalar", name: "INT" } },
        { name: "name", type: { kind: "scalar", name: "STRING" } },
        { name: "score", type: { kind: "scalar", name: "DOUBLE" } },
      ]),
    ],
    edgeTypes: [
      { key: "E", name: "E", directed: true, pairs: [{ from: "V", to: "V" }], discriminator: [], attributes: [] },
      { key: "F", name: "F", directed: true, pairs: [{ from: "S", to: "S" }], discriminator: [], attributes: [] },
    ],
    graphs: [{ name: "g", vertexTypes: ["V", "S", "Person"], edgeTypes: ["E", "F"], version: 0 }],
    globalVersion: 0,
  };
}

/** A forced garbage collection, so heap figures of the peer mean something. */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

function cpuMillis(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Time inside `upsert` only (the batch objects are built outside the clock); `names` gives STRING ids. */
function ingestEdges(store: GraphStore, g: EdgeList, names?: string[]): { wall: number; cpu: number } {
  let wall = 0;
  let cpu = 0;
  const [type, vertexType] = names ? ["F", "S"] : ["E", "V"];
  for (let i = 0; i < g.src.length; i += BATCH) {
    const edges: EdgeUpsert[] = [];
    for (let j = i; j < Math.min(g.src.length, i + BATCH); j++) {
      edges.push({ type, from: { type: vertexType, id: names ? names[g.src[j]] : g.src[j] }, to: { type: vertexType, id: names ? names[g.dst[j]] : g.dst[j] } });
    }
    const c = cpuMillis();
    const t = performance.now();
    store.upsert({ edges });
    wall += performance.now() - t;
    cpu += cpuMillis() - c;
  }
  return { wall, cpu };
}

/** The same edges as parallel id lists per batch (EdgeColumns), the loaders' path. */
function ingestEdgeColumns(store: GraphStore, g: EdgeList): { wall: number; cpu: number } {
  let wall = 0;
  let cpu = 0;
  for (let i = 0; i < g.src.length; i += BATCH) {
    const end = Math.min(g.src.length, i + BATCH);
    const from = g.src.subarray(i, end);
    const to = g.dst.subarray(i, end);
    const c = cpuMillis();
    const t = performance.now();
    store.upsert({ edgeColumns: [{ type: "E", fromType: "V", toType: "V", from, to }] });
    wall += performance.now() - t;
    cpu += cpuMillis() - c;
  }
  return { wall, cpu };
}

function ingestVertices(store: GraphStore, count: number): { wall: number; cpu: number } {
  let wall = 0;
  let cpu = 0;
  for (let i = 0; i < count; i += BATCH) {
    const vertices: VertexUpsert[] = [];
    for (let j = i; j < Math.min(count, i + BATCH); j++) {
      vertices.push({ type: "Person", id: j, attributes: [{ name: "age", value: j % 90 }, { name: "name", value: `person-${j}` }, { name: "score", value: j / 7 }] });
    }
    const c = cpuMillis();
    const t = performance.now();
    store.upsert({ vertices });
    wall += performance.now() - t;
    cpu += cpuMillis() - c;
  }
  return { wall, cpu };
}

/** The peer: what a JavaScript program would write — Map of id → Set of neighbour ids, both directions, same dedup rule. */
function peerIngest(g: EdgeList): { wall: number; heapBytes: number; edges: number } {
  collectGarbage();
  const heapBefore = process.memoryUsage().heapUsed;
  const out = new Map<number, Set<number>>();
  const inn = new Map<number, Set<number>>();
  let edges = 0;
  const t = performance.now();
  for (let i = 0; i < g.src.length; i += BATCH) {
    const batch: EdgeUpsert[] = [];
    for (let j = i; j < Math.min(g.src.length, i + BATCH); j++) batch.push({ type: "E", from: { type: "V", id: g.src[j] }, to: { type: "V", id: g.dst[j] } });
    for (const e of batch) {
      const from = e.from.id as number;
      const to = e.to.id as number;
      let set = out.get(from);
      if (!set) out.set(from, (set = new Set()));
      if (set.has(to)) continue;
      set.add(to);
      let back = inn.get(to);
      if (!back) inn.set(to, (back = new Set()));
      back.add(from);
      edges++;
    }
  }
  const wall = performance.now() - t;
  collectGarbage();
  const heapBytes = process.memoryUsage().heapUsed - heapBefore;
  if (out.size + inn.size < 0) throw new Error("unreachable");
  return { wall, heapBytes, edges };
}

export async function runStoreBench(report: BenchReport, scale = 18, edgeCount = 4_000_000): Promise<void> {
  report.note(`R-MAT scale ${scale} (${2 ** scale} vertex ids), ${edgeCount} edges, INT ids, no attributes; batches of ${BATCH}; load average at start ${(await import("node:os")).loadavg().map((x) => x.toFixed(1)).join(" ")}`);
  const g = rmat({ scale, edges: edgeCount, seed: 1 });

  const store = createStore(schema());
  const ingest = ingestEdges(store, g);
  const stored = store.read((s) => ({ edges: s.storedEdgeCount("E"), vertices: s.vertexCount("V") }));
  report.note(`stored ${stored.edges} distinct edges on ${stored.vertices} vertices`);
  report.line("edge ingest (wall, inside upsert)", edgeCount / (ingest.wall / 1000), "edges/s");
  report.line("edge ingest (CPU time of this process)", edgeCount / (ingest.cpu / 1000), "edges/s");
  const columnStore = createStore(schema());
  const columns = ingestEdgeColumns(columnStore, g);
  report.line("edge ingest as edge columns (wall, inside upsert)", edgeCount / (columns.wall / 1000), "edges/s");
  report.line("edge ingest as edge columns (CPU time)", edgeCount / (columns.cpu / 1000), "edges/s");
  const names = Array.from({ length: 2 ** scale }, (_, i) => `user-${i}`);
  const stringStore = createStore(schema());
  const strings = ingestEdges(stringStore, g, names);
  report.line("edge ingest with STRING ids (wall, inside upsert)", edgeCount / (strings.wall / 1000), "edges/s");
  report.line("edge ingest with STRING ids (CPU time)", edgeCount / (strings.cpu / 1000), "edges/s");
  const peer = peerIngest(g);
  report.ratio("edge ingest speed-up vs JS Map<id, Set> adjacency (wall ms)", ingest.wall, peer.wall, "js-map-set");

  const before = store.memoryStats();
  report.line("memory after ingest: WebAssembly memory size / edge", before.memoryBytes / stored.edges, "bytes");
  report.line("memory after ingest: live bytes / edge", before.liveBytes / stored.edges, "bytes");
  const compaction = store.compact();
  const after = store.memoryStats();
  report.line("compaction of both directions", compaction.millis, "ms");
  report.line("after compaction: live bytes / edge (all data)", after.liveBytes / stored.edges, "bytes");
  report.line("after compaction: edge lists + heads / edge", after.adjacencyBytes / stored.edges, "bytes");
  report.ratio("memory saving per edge vs JS Map<id, Set> heap (bytes/edge)", after.liveBytes / stored.edges, peer.heapBytes / peer.edges, "js-map-set");

  const dir = mkdtempSync(join(tmpdir(), "wasmgraph-bench-"));
  try {
    const chunks: Uint8Array[] = [];
    const written = await store.serialize((c) => {
      chunks.push(c);
    });
    const file = join(dir, "store.img");
    writeFileSync(file, Buffer.concat(chunks));
    report.line("image size / edge", written.bytes / stored.edges, "bytes");
    report.line("serialize", written.millis, "ms");
    const t = performance.now();
    const loaded = await loadStore(readFileSync(file));
    report.line("restart: read image file + load", performance.now() - t, "ms");
    report.line("loaded store: WebAssembly memory size / edge", loaded.memoryStats().memoryBytes / stored.edges, "bytes");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const people = 2 ** scale;
  const vertexIngest = ingestVertices(store, people);
  report.line("vertex ingest, 3 attributes (wall, inside upsert)", people / (vertexIngest.wall / 1000), "vertices/s");

  store.read((s) => {
    let t = performance.now();
    let found = 0;
    for (let i = 0; i < people; i++) if (s.attributes(s.lookup("Person", (i * 7919) % people)!).age !== undefined) found++;
    report.line("vertex read by id (lookup + attributes)", found / ((performance.now() - t) / 1000), "reads/s");
    t = performance.now();
    let seen = 0;
    for (const v of s.vertices("V")) for (const e of s.edges(v)) seen += e.to >= 0 ? 1 : 0;
    report.line("edge iteration through the snapshot API", seen / ((performance.now() - t) / 1000), "edges/s");
  });
}

export const suite: BenchSuite = {
  name: "store",
  description: "graph store: batch ingest, memory per edge, image size, restart, reads",
  run: (report) => runStoreBench(report),
};

const isEntry = import.meta.url === `file://${process.argv[1]}`;
if (isEntry) {
  console.log(machineBanner());
  const report: BenchReport = {
    line: (label, value, unit, note) => console.log(`[store] ${label}: ${value >= 100 ? value.toFixed(0) : value.toPrecision(3)} ${unit}${note ? `  (${note})` : ""}`),
    ratio: (label, ours, peer, peerName) => console.log(`[store] ${label}: ${(peer / ours).toPrecision(3)}x vs ${peerName} (ours ${ours.toPrecision(4)}, ${peerName} ${peer.toPrecision(4)})`),
    note: (text) => console.log(`[store] ${text}`),
  };
  const [scale, edges] = process.argv.slice(2).map(Number);
  runStoreBench(report, scale || 18, edges || 4_000_000).catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
