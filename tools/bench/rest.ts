// REST bench (not a test): upsert throughput through POST /graph in batches (vertices/s,
// edges/s), GET vertex-by-id requests/s under concurrent load, and store memory per edge.
// The server runs in its own process (rest-server.ts); the load comes from this process, or
// from `wrk` when it is installed. Prints the machine's details with the numbers.
//   node dist/tools/bench/rest.js [--vertices N] [--edges N] [--seconds S] [--connections C]
import { fork, execFileSync, type ChildProcess } from "node:child_process";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { Agent, request } from "node:http";
import type { BenchReport, BenchSuite } from "./run.js";
import { finishedChildrenCpuMillis, machineBanner, processCpuMillis } from "./machine.js";

interface BenchOptions {
  vertices: number;
  edges: number;
  seconds: number;
  connections: number;
}

/** The suite `npm run bench` runs: 400k vertices, 4M edges, 5 s of reads at 32 connections. */
export const suite: BenchSuite = {
  name: "rest",
  description: "REST upserts through POST /graph in batches, GET vertex by id under load, memory per edge",
  run: (report) => runRestBench({ vertices: 400_000, edges: 4_000_000, seconds: 5, connections: 32 }, report),
};

export async function runRestBench(o: BenchOptions, out: BenchReport = consoleReport()): Promise<void> {
  const report = (what: string, rate: number, unit: string, seconds: number) => out.line(what, rate, unit, `${seconds.toFixed(2)} s`);
  const { child, port } = await startServerProcess();
  const base = `http://127.0.0.1:${port}`;
  try {
    // Bodies are written before the clock starts: building them is the client's work, not the server's.
    const vertexBatch = 10_000;
    const vertexBodies: string[] = [];
    for (let i = 0; i < o.vertices; i += vertexBatch) {
      const n = Math.min(vertexBatch, o.vertices - i);
      const body = { vertices: { Person: Object.fromEntries(Array.from({ length: n }, (_, k) => [`p${i + k}`, { age: { value: (i + k) % 90 }, score: { value: (i + k) / 7 } }])) } };
      vertexBodies.push(JSON.stringify(body));
    }
    let start = performance.now();
    let cpuStart = processCpuMillis(child.pid!);
    for (const body of vertexBodies) await post(`${base}/graph/bench`, body);
    const vertexSeconds = (performance.now() - start) / 1000;
    const vertexCpu = cpuSeconds(child, cpuStart);
    report("upsert vertices (2 attributes, batches of 10k)", o.vertices / vertexSeconds, "vertices/s", vertexSeconds);
    if (vertexCpu) out.line("  the same per second of server CPU (every thread; steadier on a busy machine)", o.vertices / vertexCpu, "vertices/s", `${vertexCpu.toFixed(2)} s CPU`);

    const edgeBatch = 100_000;
    const fanout = 10;
    const edgeBodies: string[] = [];
    for (let made = 0; made < o.edges; made += edgeBatch) edgeBodies.push(edgeBatchText(made, Math.min(edgeBatch, o.edges - made), fanout, o.vertices));
    start = performance.now();
    cpuStart = processCpuMillis(child.pid!);
    for (const body of edgeBodies) await post(`${base}/graph/bench`, body);
    const edgeSeconds = (performance.now() - start) / 1000;
    const edgeCpu = cpuSeconds(child, cpuStart);
    edgeBodies.length = 0;
    report("upsert edges without attributes (batches of 100k, 10 per source)", o.edges / edgeSeconds, "edges/s", edgeSeconds);
    if (edgeCpu) out.line("  the same per second of server CPU (every thread; steadier on a busy machine)", o.edges / edgeCpu, "edges/s", `${edgeCpu.toFixed(2)} s CPU`);

    const memory = await askMemory(child);
    if (memory) {
      out.line("store adjacency memory per edge (both directions)", memory.adjacencyBytes / Math.max(1, memory.edgeCount), "bytes", `${memory.edgeCount} edges, ${(memory.memoryBytes / 2 ** 20).toFixed(1)} MiB memory in all`);
    }

    const weighted = Math.min(o.edges, 200_000);
    start = performance.now();
    for (let made2 = 0; made2 < weighted; made2 += 50_000) {
      await post(`${base}/graph/bench`, edgeBatchText(made2, Math.min(50_000, weighted - made2), fanout, o.vertices, "rated"));
    }
    const weightedSeconds = (performance.now() - start) / 1000;
    report("upsert edges with a DOUBLE attribute (batches of 50k)", weighted / weightedSeconds, "edges/s", weightedSeconds);

    // CPU per request: the server's (every thread) and the load generator's, which shares the machine's cores.
    const cpuLine = (r: LoadResult) => {
      if (r.serverCpuMicros === undefined) return;
      const generator = r.generatorCpuMicros === undefined ? "" : `; load generator ${r.generatorCpuMicros.toFixed(1)} us`;
      out.line("  server CPU per request (every thread)", r.serverCpuMicros, "us", `${o.connections} connections${generator}`);
    };
    // Reads are measured on a settled server: the snapshots the bulk loads made due run on
    // the same cores, and a real server takes them once after a load, not under every read.
    const settled = await askSettle(child);
    if (settled !== undefined) out.note(`background snapshot after the loads finished before reads were measured (${settled.toFixed(1)} s)`);
    // A short untimed run first: the server may still be collecting the garbage of the bulk loads.
    await loadGet(base, "/echo", { ...o, seconds: 2 });
    const echo = await loadGet(base, "/echo", o, child.pid);
    report(`GET /echo (the server's floor), ${echo.tool}`, echo.perSecond, "requests/s", o.seconds);
    cpuLine(echo);
    const reads = await loadGetById(base, o, child.pid);
    report(`GET vertex by id, ${o.connections} connections, ${reads.tool}`, reads.perSecond, "requests/s", o.seconds);
    cpuLine(reads);
    out.ratio("GET /echo vs GET vertex by id", reads.perSecond, echo.perSecond, "echo");
    // The floor under both: a bare node:http server with the same answer, in the same run.
    const bare = await startServerProcess(["--bare"]);
    try {
      const floor = await loadGet(`http://127.0.0.1:${bare.port}`, "/graph/bench/vertices/Person/p12345", o, bare.child.pid);
      report(`bare node:http answering the same body, ${floor.tool}`, floor.perSecond, "requests/s", o.seconds);
      cpuLine(floor);
      out.ratio("GET vertex by id vs bare node:http", reads.perSecond, floor.perSecond, "bare node:http");
      out.note(`GET vertex by id runs at ${(reads.perSecond / floor.perSecond).toFixed(2)} of bare node:http`);
    } finally {
      stop(bare.child);
    }

    // The peer runs in a fresh process of its own, after the server is done.
    stop(child);
    const raw = await runPeer(o);
    if (raw) {
      out.ratio("vertex upserts, store called directly vs through REST", o.vertices / vertexSeconds, raw.verticesPerSecond, "direct store");
      out.ratio("edge upserts, store called directly vs through REST", o.edges / edgeSeconds, raw.edgesPerSecond, "direct store");
      // The same by CPU time (the server's every thread; the peer's process): what a busy machine distorts least.
      if (vertexCpu) out.ratio("vertex upserts by CPU time, store called directly vs through REST", o.vertices / vertexCpu, raw.verticesPerCpuSecond, "direct store");
      if (edgeCpu) out.ratio("edge upserts by CPU time, store called directly vs through REST", o.edges / edgeCpu, raw.edgesPerCpuSecond, "direct store");
    }
  } finally {
    stop(child);
  }
}

function edgeBatchText(first: number, n: number, fanout: number, vertices: number, type = "follows"): string {
  // Edge j runs from p(j / fanout) to a pseudo-random vertex; each source's edges are grouped as clients send them.
  const parts: string[] = [];
  const end = first + n;
  for (let j = first; j < end; ) {
    const group = Math.floor(j / fanout);
    const groupEnd = Math.min(end, (group + 1) * fanout);
    const targets: string[] = [];
    for (; j < groupEnd; j++) {
      const dst = (Math.imul(j, 2654435761) >>> 0) % vertices;
      targets.push(type === "rated" ? `"p${dst}":{"weight":{"value":${(j % 100) / 8}}}` : `"p${dst}":{}`);
    }
    parts.push(`"p${group % vertices}":{"${type}":{"Person":{${targets.join(",")}}}}`);
  }
  return `{"edges":{"Person":{${parts.join(",")}}}}`;
}

async function loadGetById(base: string, o: BenchOptions, serverPid?: number) {
  return loadGet(base, "/graph/bench/vertices/Person/p12345", o, serverPid);
}

interface LoadResult {
  perSecond: number;
  tool: string;
  /** Server CPU time per request (every thread), where /proc tells. */
  serverCpuMicros?: number;
  /** The load generator's CPU time per request, where it runs as a child process and /proc tells. */
  generatorCpuMicros?: number;
}

async function loadGet(base: string, path: string, o: BenchOptions, serverPid?: number): Promise<LoadResult> {
  const serverStart = serverPid === undefined ? undefined : processCpuMillis(serverPid);
  const perRequest = (millis: number | undefined, requests: number) => (millis === undefined ? undefined : (millis * 1000) / Math.max(1, requests));
  const serverMillis = () => {
    const now = serverPid === undefined ? undefined : processCpuMillis(serverPid);
    return now === undefined || serverStart === undefined ? undefined : now - serverStart;
  };
  if (hasWrk()) {
    const childrenStart = finishedChildrenCpuMillis();
    const out = execFileSync("wrk", ["-t1", `-c${o.connections}`, `-d${o.seconds}s`, base + path], { encoding: "utf8" });
    const childrenEnd = finishedChildrenCpuMillis();
    const m = /Requests\/sec:\s*([\d.]+)/.exec(out);
    const done = /(\d+) requests in/.exec(out);
    if (m) {
      const requests = done ? Number(done[1]) : Number(m[1]) * o.seconds;
      const generatorMillis = childrenStart === undefined || childrenEnd === undefined ? undefined : childrenEnd - childrenStart;
      return { perSecond: Number(m[1]), tool: "wrk -t1", serverCpuMicros: perRequest(serverMillis(), requests), generatorCpuMicros: perRequest(generatorMillis, requests) };
    }
  }
  const agent = new Agent({ keepAlive: true, maxSockets: o.connections });
  const deadline = performance.now() + o.seconds * 1000;
  let done = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      await get(base + path, agent);
      done++;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: o.connections }, worker));
  agent.destroy();
  return { perSecond: done / ((performance.now() - start) / 1000), tool: "Node keep-alive client in the bench process", serverCpuMicros: perRequest(serverMillis(), done) };
}

function hasWrk(): boolean {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
    return true;
  } catch (e) {
    return (e as { status?: number }).status !== undefined && (e as { code?: string }).code !== "ENOENT";
  }
}

function get(url: string, agent: Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      res.resume();
      res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(`GET ${url}: ${res.statusCode}`))));
    });
    req.on("error", reject);
    req.end();
  });
}

async function post(url: string, body: string): Promise<void> {
  const r = await fetch(url, { method: "POST", body });
  const text = await r.text();
  if (r.status !== 200) throw new Error(`POST ${url}: ${r.status} ${text.slice(0, 300)}`);
}

function stop(child: ChildProcess): void {
  if (child.connected && child.exitCode === null) child.send("stop");
  child.disconnect?.();
}

/** CPU seconds `child` used since `startMillis` (undefined where /proc is not available). */
function cpuSeconds(child: ChildProcess, startMillis: number | undefined): number | undefined {
  const now = processCpuMillis(child.pid!);
  return now === undefined || startMillis === undefined ? undefined : Math.max(0.01, (now - startMillis) / 1000);
}

interface PeerRates {
  verticesPerSecond: number;
  edgesPerSecond: number;
  verticesPerCpuSecond: number;
  edgesPerCpuSecond: number;
}

function runPeer(o: BenchOptions): Promise<PeerRates | undefined> {
  const script = fileURLToPath(new URL("./rest-server.js", import.meta.url));
  const peer = fork(script, ["--peer", String(o.vertices), String(o.edges)], { stdio: "inherit" });
  return new Promise((resolve) => {
    peer.on("message", (msg: { rawStore?: PeerRates }) => resolve(msg.rawStore));
    peer.on("exit", () => resolve(undefined));
  });
}

function startServerProcess(args: string[] = []): Promise<{ child: ChildProcess; port: number }> {
  const script = fileURLToPath(new URL("./rest-server.js", import.meta.url));
  const child = fork(script, args, { stdio: "inherit" });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.on("message", (msg: { port?: number }) => {
      if (msg.port !== undefined) resolve({ child, port: msg.port });
    });
  });
}

function askMemory(child: ChildProcess): Promise<{ memoryBytes: number; adjacencyBytes: number; edgeCount: number } | undefined> {
  return new Promise((resolve) => {
    const onMessage = (msg: { memory?: { memoryBytes: number; adjacencyBytes: number; edgeCount: number } }) => {
      if (msg.memory) {
        child.off("message", onMessage);
        resolve(msg.memory);
      }
    };
    child.on("message", onMessage);
    child.send("memory");
    setTimeout(() => resolve(undefined), 5000).unref();
  });
}

/** Seconds until the server had no snapshot running (undefined: no answer within a minute). */
function askSettle(child: ChildProcess): Promise<number | undefined> {
  return new Promise((resolve) => {
    const onMessage = (msg: { settled?: number }) => {
      if (msg.settled !== undefined) {
        child.off("message", onMessage);
        resolve(msg.settled);
      }
    };
    child.on("message", onMessage);
    child.send("settle");
    setTimeout(() => resolve(undefined), 60_000).unref();
  });
}

function consoleReport(): BenchReport {
  return {
    line: (label, value, unit, note) => console.log(`${label}: ${Math.round(value).toLocaleString("en-US")} ${unit}${note ? `  (${note})` : ""}`),
    ratio: (label, ours, peer, peerName) => console.log(`${label}: ${(peer / ours).toFixed(2)}x vs ${peerName}`),
    note: (text) => console.log(text),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      vertices: { type: "string", default: "400000" },
      edges: { type: "string", default: "4000000" },
      seconds: { type: "string", default: "5" },
      connections: { type: "string", default: "32" },
    },
  });
  console.log(machineBanner());
  await runRestBench({ vertices: Number(values.vertices), edges: Number(values.edges), seconds: Number(values.seconds), connections: Number(values.connections) });
}
