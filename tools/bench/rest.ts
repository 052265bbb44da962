// REST bench (not a test): upsert throughput through POST /graph in batches (vertices/s,
// edges/s), GET vertex-by-id requests/s under concurrent load, and store memory per edge.
// The server runs in its own process (rest-server.ts); the load comes from this process, or
// from `wrk` when it is installed. Prints the machine's details with the numbers.
//   node dist/tools/bench/rest.js [--vertices N] [--edges N] [--seconds S] [--connections C]
import { fork, execFileSync, type ChildProcess } from "node:child_process";
import { parseArgs } from "node:util";
import { cpus, totalmem, platform, release } from "node:os";
import { fileURLToPath } from "node:url";
import { Agent, request } from "node:http";

interface BenchOptions {
  vertices: number;
  edges: number;
  seconds: number;
  connections: number;
}

export async function runRestBench(o: BenchOptions): Promise<void> {
  printMachine();
  const { child, port } = await startServerProcess();
  const base = `http://127.0.0.1:${port}`;
  try {
    const vertexBatch = 10_000;
    let start = performance.now();
    for (let i = 0; i < o.vertices; i += vertexBatch) {
      const n = Math.min(vertexBatch, o.vertices - i);
      const body = { vertices: { Person: Object.fromEntries(Array.from({ length: n }, (_, k) => [`p${i + k}`, { age: { value: (i + k) % 90 }, score: { value: (i + k) / 7 } }])) } };
      await post(`${base}/graph/bench`, JSON.stringify(body));
    }
    const vertexSeconds = (performance.now() - start) / 1000;
    report("upsert vertices (2 attributes, batches of 10k)", o.vertices / vertexSeconds, "vertices/s", vertexSeconds);

    start = performance.now();
    const edgeBatch = 100_000;
    const fanout = 10;
    let made = 0;
    let parseSeconds = 0;
    for (let i = 0; made < o.edges; i++) {
      const n = Math.min(edgeBatch, o.edges - made);
      const text = edgeBatchText(made, n, fanout, o.vertices);
      const t0 = performance.now();
      await post(`${base}/graph/bench`, text);
      parseSeconds += (performance.now() - t0) / 1000;
      made += n;
    }
    const edgeSeconds = (performance.now() - start) / 1000;
    report("upsert edges without attributes (batches of 100k, 10 per source)", o.edges / edgeSeconds, "edges/s", edgeSeconds);
    report("  of which server time (request sent to answer)", o.edges / parseSeconds, "edges/s", parseSeconds);

    const memory = await askMemory(child);
    if (memory) {
      console.log(`  store memory: ${(memory.memoryBytes / 2 ** 20).toFixed(1)} MiB total, ${(memory.adjacencyBytes / 2 ** 20).toFixed(1)} MiB adjacency for ${memory.edgeCount} edges = ${(memory.adjacencyBytes / Math.max(1, memory.edgeCount)).toFixed(2)} bytes/edge (both directions)`);
    }

    const weighted = Math.min(o.edges, 200_000);
    start = performance.now();
    for (let made2 = 0; made2 < weighted; made2 += 50_000) {
      await post(`${base}/graph/bench`, edgeBatchText(made2, Math.min(50_000, weighted - made2), fanout, o.vertices, "rated"));
    }
    const weightedSeconds = (performance.now() - start) / 1000;
    report("upsert edges with a DOUBLE attribute (batches of 50k)", weighted / weightedSeconds, "edges/s", weightedSeconds);

    const reads = await loadGetById(base, o);
    report(`GET vertex by id, ${o.connections} connections, ${reads.tool}`, reads.perSecond, "requests/s", o.seconds);
    console.log(`  reference: a trivial Koa JSON GET measured ≈30k requests/s with wrk -t1 -c50 on this kind of machine (toolchain notes)`);
    const echo = await loadGet(base, "/echo", o);
    report(`GET /echo (server floor), ${echo.tool}`, echo.perSecond, "requests/s", o.seconds);
    console.log(`  ratio vertex read / echo: ${(reads.perSecond / echo.perSecond).toFixed(2)}`);
  } finally {
    child.send("stop");
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

async function loadGetById(base: string, o: BenchOptions) {
  return loadGet(base, "/graph/bench/vertices/Person/p12345", o);
}

async function loadGet(base: string, path: string, o: BenchOptions): Promise<{ perSecond: number; tool: string }> {
  if (hasWrk()) {
    const out = execFileSync("wrk", ["-t1", `-c${o.connections}`, `-d${o.seconds}s`, base + path], { encoding: "utf8" });
    const m = /Requests\/sec:\s*([\d.]+)/.exec(out);
    if (m) return { perSecond: Number(m[1]), tool: "wrk -t1" };
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
  return { perSecond: done / ((performance.now() - start) / 1000), tool: "Node keep-alive client in the bench process" };
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

function startServerProcess(): Promise<{ child: ChildProcess; port: number }> {
  const script = fileURLToPath(new URL("./rest-server.js", import.meta.url));
  const child = fork(script, [], { stdio: "inherit" });
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

function printMachine(): void {
  const cpu = cpus();
  console.log(`machine: ${cpu.length} × ${cpu[0]?.model ?? "unknown CPU"}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${platform()} ${release()}, Node ${process.version}`);
}

function report(what: string, rate: number, unit: string, seconds: number): void {
  console.log(`${what}: ${Math.round(rate).toLocaleString("en-US")} ${unit} (${seconds.toFixed(2)} s)`);
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
  await runRestBench({ vertices: Number(values.vertices), edges: Number(values.edges), seconds: Number(values.seconds), connections: Number(values.connections) });
}
