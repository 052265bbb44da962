// Crash tests: `wasmgraph serve --data DIR` as a child process, written to by concurrent
// writers over HTTP (upserts, POST /ddl loads, deletes; in some rounds a schema change job or
// a query install over the GSQL server) and killed with SIGKILL at a random moment, over and over (and sometimes
// while it is still recovering). After every restart the database must hold every
// acknowledged write, no request half-applied, and each writer's lost requests must be the
// last ones it sent (crash-workload.ts holds the model and the rules). Snapshots are taken
// every 10 KiB of log, so kills also land during snapshots.
import { expect } from "chai";
import type { ChildProcess } from "node:child_process";
import { promises as fsp } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Engine } from "../../../server/engine/engine.js";
import { openDurableEngine } from "../../../server/persist/engine-state.js";
import { UPSERT_BODY_FORMAT } from "../../../server/persist/upsert-body-codec.js";
import { scanSegment } from "../../../server/persist/wal/segment-scan.js";
import { mulberry32 } from "../../../tools/bench/rmat.js";
import {
  CRASH_SCHEMA, CrashModel, GRAPH, LOAD_JOB, WRITERS, catalogText, counterId, createBody, loadBody,
  type CatalogOp, type CreateOp, type InstallOp, type DeleteOp, type Observation,
} from "./crash-workload.js";
import { listAllItems } from "./crash-listing.js";
import { startServerProcess, type ServerProcess } from "./server-process.js";
import { col, job } from "../loading/fixtures.js";

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 100);
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 100_000);
const SERVER_ARGS = (dir: string) => ["--data", dir, "--snapshot-every-mb", "0.01"];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Reply {
  status: number;
  json: any;
}

async function call(base: string, method: string, url: string, body?: string, form = false): Promise<Reply> {
  const headers = form ? { "content-type": "application/x-www-form-urlencoded" } : undefined;
  const res = await fetch(base + url, { method, body, headers });
  return { status: res.status, json: await res.json() };
}

async function observe(server: ServerProcess, sources: string[], runQueries: boolean): Promise<Observation> {
  const base = server.base;
  // Past 10240 Items one GET would show only the first 10240 (the interface's read cap).
  const vertices = await listAllItems(base);
  const edgeSources = new Set(sources.filter((s) => vertices.has(s)));
  const edges = new Map<string, number>();
  for (const source of edgeSources) {
    const r = await call(base, "GET", `/graph/${GRAPH}/edges/Item/${source}/link`);
    if (r.json.error) throw new Error(`reading edges of ${source} failed: ${r.json.message}`);
    for (const e of r.json.results) edges.set(`${e.from_id}>${e.to_id}`, e.attributes.w);
  }
  const stats = await call(base, "POST", `/builtins/${GRAPH}`, JSON.stringify({ function: "stat_edge_number", type: "link" }));
  const schema = await call(server.gsqlBase, "GET", `/gsqlserver/gsql/schema?graph=${GRAPH}`);
  const schemaVersion: number = stats.json.version.schema;
  if (schema.json.results.Version !== schemaVersion) throw new Error(`GSQL schema version ${schema.json.results.Version}, REST ${schemaVersion}`);
  const addedTypes = new Set<string>(schema.json.results.VertexTypes.map((t: { Name: string }) => t.Name).filter((n: string) => n !== "Item"));
  const info = await call(server.gsqlBase, "GET", `/gsqlserver/gsql/queryinfo?graph=${GRAPH}`);
  const installed = new Map<string, number | undefined>();
  for (const q of info.json.results.filter((q: { installed: boolean }) => q.installed)) {
    installed.set(q.queryname, undefined);
    // An installed query must answer after the restart, not only be listed (run in some
    // rounds: the first run starts the query worker threads, a second on a busy machine).
    if (!runQueries) continue;
    const run = await call(base, "GET", `/query/${GRAPH}/${q.queryname}`);
    if (run.json.error) throw new Error(`installed query ${q.queryname} failed after the restart: ${run.json.message}`);
    installed.set(q.queryname, run.json.results[0].n);
  }
  return { vertices, edgeSources, edges, edgeTotal: stats.json.results[0].count, schemaVersion, addedTypes, installed };
}

/** The catalog op of a round, if it has one: a schema change every 4th round, an install every 10th. */
function catalogOpOf(round: number): CatalogOp | undefined {
  if (round % 10 === 5) return { kind: "install", name: `count_${round}` };
  if (round % 4 === 0) return { kind: "add-type", type: `T${round}` };
  return undefined;
}

/** Sends a round's catalog op to the GSQL server; acknowledged once the answer ends with return code 0. */
async function catalogWriter(server: ServerProcess, op: CatalogOp, model: CrashModel, problems: string[]): Promise<void> {
  model.catalogPending.push(op);
  let text: string;
  try {
    const res = await fetch(`${server.gsqlBase}/gsqlserver/gsql/file`, { method: "POST", body: encodeURIComponent(catalogText(op)) });
    text = await res.text();
  } catch {
    op.outcome = "unknown"; // the server died during the request or its streamed answer
    return;
  }
  const code = /__GSQL__RETURN__CODE__,(\d+)/.exec(text);
  if (!code) {
    op.outcome = "unknown";
    return;
  }
  if (code[1] !== "0") problems.push(`${op.kind} refused: ${text}`);
  op.outcome = code[1] === "0" ? "acked" : "unknown";
}

/** One writer: sends requests one after another until the server dies under it. */
/** Answers received in the current round, across writers (the kill waits for a random number of them). */
const progress = { answers: 0 };

async function writer(base: string, w: number, round: number, model: CrashModel, random: () => number, problems: string[]): Promise<void> {
  for (let seq = 0; ; seq++) {
    const choice = random();
    const retired = [...model.retired];
    let request: { method: string; url: string; body?: string; form?: boolean };
    let op: CreateOp | DeleteOp | undefined;
    const target = choice >= 0.6 && choice < 0.85 ? model.deletable(random) : undefined;
    if (target !== undefined) {
      const permanent = random() < 0.3;
      op = { kind: "delete", writer: w, seq, id: target, permanent };
      model.doomed.add(target);
      request = { method: "DELETE", url: `/graph/${GRAPH}/vertices/Item/${target}${permanent ? "?permanent=true" : ""}` };
    } else if (choice >= 0.85 && retired.length > 0) {
      // An upsert of a permanently deleted id: acknowledged, but must change nothing.
      const id = retired[Math.floor(random() * retired.length)]!;
      request = { method: "POST", url: `/graph/${GRAPH}`, body: JSON.stringify({ vertices: { Item: { [id]: { n: { value: 1 }, round: { value: round } } } } }) };
    } else {
      const count = 1 + Math.floor(random() * 4);
      const ids = Array.from({ length: count }, (_, j) => `r${round}w${w}s${seq}v${j}`);
      const via = random() < 0.25 ? "load" : "upsert";
      op = { kind: "create", via, writer: w, seq, ids, n: seq * 10 + w, round, counterDelta: via === "load" ? 0 : 1 + Math.floor(random() * 9) };
      const ackNone = random() < 0.1;
      const ack = ackNone ? "ack=none" : "ack=all";
      request =
        via === "load"
          ? { method: "POST", url: `/ddl/${GRAPH}?tag=${LOAD_JOB}&filename=f&${ack}`, body: loadBody(op), form: true }
          : { method: "POST", url: `/graph/${GRAPH}?${ack}`, body: createBody(op) };
      if (ackNone) op.outcome = "unknown";
    }
    if (op) model.pending.push(op);
    let reply: Reply;
    try {
      reply = await call(base, request.method, request.url, request.body, request.form);
    } catch {
      if (op) op.outcome = "unknown";
      return; // the server is gone
    }
    if (reply.status !== 200 || reply.json.error) {
      problems.push(`${request.method} ${request.url} refused: ${JSON.stringify(reply.json)}`);
      if (op) op.outcome = "unknown";
      return;
    }
    progress.answers++;
    if (op && op.outcome === undefined) op.outcome = "acked";
    if (op?.kind === "create" && op.via === "load" && reply.json.results[0].statistics.vertex[0].validObject !== op.ids.length) {
      problems.push(`load of ${op.ids.length} lines did not load them all: ${JSON.stringify(reply.json)}`);
    }
    if (!op && reply.json.results[0].skipped_vertices !== 1) {
      problems.push(`upsert of a permanently deleted id was not skipped: ${JSON.stringify(reply.json)}`);
    }
  }
}

/** Every server process started, so none outlives a failed test. */
const spawned: ChildProcess[] = [];

function startServer(args: string[]): Promise<ServerProcess> {
  return startServerProcess(args, (child) => spawned.push(child));
}

/**
 * Servers started ahead of time with --wait-for-lock: each waits for the data directory and
 * takes it over the moment its holder dies, so a restart costs recovery, not a Node.js
 * start-up. Two wait at any time, so the one that takes over has finished loading.
 */
class StandbyPool {
  private waiting: Array<{ child: ChildProcess; ready: Promise<ServerProcess | undefined> }> = [];

  constructor(private readonly dir: string) {}

  fill(): void {
    while (this.waiting.length < 2) {
      let child!: ChildProcess;
      const ready = startServerProcess([...SERVER_ARGS(this.dir), "--wait-for-lock"], (c) => {
        child = c;
        spawned.push(c);
      }).catch(() => undefined);
      this.waiting.push({ child, ready });
    }
  }

  /** Kills the waiting server with this pid (the one that took the lock) and forgets it. */
  kill(pid: number): boolean {
    const index = this.waiting.findIndex((w) => w.child.pid === pid);
    if (index < 0) return false;
    this.waiting[index]!.child.kill("SIGKILL");
    this.waiting.splice(index, 1);
    return true;
  }

  /** The next server to listen: the one that took the lock over. */
  async next(): Promise<ServerProcess> {
    while (this.waiting.length > 0) {
      const { index, server } = await Promise.race(this.waiting.map((w, index) => w.ready.then((server) => ({ index, server }))));
      this.waiting.splice(index, 1);
      if (server) return server;
    }
    throw new Error("every standby server exited before listening");
  }
}

/** Waits until a live process other than `previous` holds the lock; returns its pid. */
async function lockHolder(dir: string, previous: number): Promise<number> {
  for (;;) {
    const pid = Number((await fsp.readFile(path.join(dir, "LOCK"), "utf8").catch(() => "")).trim());
    if (pid > 0 && pid !== previous) return pid;
    await sleep(1);
  }
}

/**
 * REST upserts ('U' records) in the log a kill left behind, for the check that the kills
 * did land on them. A lower bound: the standby taking over may trim or extend the log while
 * it is read, and what cannot be read then is not counted.
 */
async function upsertRecordsInLog(dir: string): Promise<number> {
  const wal = path.join(dir, "wal");
  const names = (await fsp.readdir(wal).catch(() => [] as string[])).filter((n) => n.endsWith(".wal")).sort();
  let count = 0;
  for (const name of names) {
    try {
      const bytes = await fsp.readFile(path.join(wal, name));
      const scan = scanSegment(bytes, name, Number(name.slice(0, -4)), true);
      count += scan.records.filter((r) => r.payload[0] === UPSERT_BODY_FORMAT).length;
    } catch {
      // Removed or being written by the server that took over: not counted.
    }
  }
  return count;
}

describe("persist: crash tests (SIGKILL at random moments)", function () {
  // About a minute on an idle 2-core machine; generous so a loaded machine does not fail it.
  this.timeout(600_000);
  let root: string;
  before(async () => {
    root = await fsp.mkdtemp(path.join(os.tmpdir(), "wasmgraph-crash-"));
  });
  // CRASH_KEEP=1 keeps the data directory (its log and snapshots) for a look after a failure.
  after(() => (process.env.CRASH_KEEP ? console.log(`data directory kept in ${root}`) : fsp.rm(root, { recursive: true, force: true })));

  it(`keeps every acknowledged write and never half a request, over ${ROUNDS} kills (seed in the title of a failure)`, async () => {
    const dir = path.join(root, "data");
    const random = mulberry32(SEED);
    const model = new CrashModel();
    const seeded = new Engine();
    const { persistence } = await openDurableEngine(dir, seeded);
    seeded.apply({ kind: "define-schema", schema: CRASH_SCHEMA });
    seeded.apply({ kind: "create-loading-job", plan: job([{ kind: "vertex", type: "Item", values: [col(0), col(1), col(2)] }], {}, { name: LOAD_JOB, graph: GRAPH }) });
    await persistence.close();

    let server: ServerProcess | undefined = await startServer(SERVER_ARGS(dir));
    let kills = 0;
    const takeover: number[] = [];
    let killsWhileStarting = 0;
    let upsertRecordsAtKills = 0;
    const problems: string[] = [];
    try {
      const counters = Object.fromEntries(Array.from({ length: WRITERS }, (_, w) => [counterId(w), { n: { value: 0 }, round: { value: -1 } }]));
      const setup = await call(server.base, "POST", `/graph/${GRAPH}`, JSON.stringify({ vertices: { Item: counters } }));
      if (setup.json.error) throw new Error(`creating the counters failed: ${setup.json.message}`);
      const first: InstallOp = { kind: "install", name: "count_items" };
      await catalogWriter(server, first, model, problems);
      if (first.outcome !== "acked") throw new Error(`installing count_items failed: ${problems.join("\n")}`);
      server.child.kill("SIGTERM");
      expect(await server.exited).to.equal(0);

      let current = await startServer(SERVER_ARGS(dir));
      server = current;
      const pool = new StandbyPool(dir);
      pool.fill();
      for (let round = 1; round <= ROUNDS; round++) {
        const started = performance.now();
        const full = round % 25 === 0;
        const runQueries = full || round % 5 === 1 || model.catalogPending.length > 0;
        model.settle(await observe(current, full ? model.allSources() : model.pendingSources(), runQueries));
        const observed = performance.now();
        progress.answers = 0;
        const writers = Array.from({ length: WRITERS }, (_, w) => writer(current.base, w, round, model, random, problems));
        const catalogOp = catalogOpOf(round);
        const catalog = catalogOp ? catalogWriter(current, catalogOp, model, problems) : undefined;
        // Half the catalog ops are let finish before the kill (a compile takes a while), so
        // both acknowledged and cut-off ones are checked; the first install of the loop always
        // is, so that every run has an acknowledged install to check whatever its seed.
        const letFinish = random() < 0.5 || round === 5;
        if (catalog && letFinish) await catalog;
        // The kill lands a random time after a random number of answers, so every round
        // has some acknowledged and some cut-off requests however fast the machine is.
        const answers = Math.floor(random() * 8);
        const waitUntil = performance.now() + 5000;
        while (progress.answers < answers && performance.now() < waitUntil) await sleep(1);
        await sleep(random() * 15);
        current.child.kill("SIGKILL");
        await current.exited;
        upsertRecordsAtKills += await upsertRecordsInLog(dir);
        await Promise.all([...writers, catalog]);
        kills++;
        if (problems.length) throw new Error(problems.join("\n"));
        const killed = performance.now();
        if (round === 2 || random() < 0.1) {
          // Kill the successor too, while it recovers (or snapshots right after recovery).
          const successor = await lockHolder(dir, current.child.pid!);
          await sleep(random() * 30);
          if (pool.kill(successor)) killsWhileStarting++;
          pool.fill();
        }
        server = current = await pool.next();
        takeover.push(performance.now() - killed);
        pool.fill();
        if (process.env.CRASH_TRACE) {
          console.log(`round ${round}: catalog acked ${model.catalogAcked}, unknown applied ${model.catalogUnknownApplied}, lost ${model.catalogUnknownLost}; observe ${(observed - started).toFixed(0)} ms, takeover ${takeover[takeover.length - 1]!.toFixed(0)} ms, round ${(performance.now() - started).toFixed(0)} ms; acked ${model.acked}, unknown applied ${model.unknownApplied}, lost ${model.unknownLost}, vertices ${model.vertices.size}, retired ${model.retired.size}; ${current.stderr().trim().split("\n").pop()}`);
        }
      }
      for (const child of spawned) if (child !== current.child) child.kill("SIGKILL");
      // A clean stop after the last restart: a snapshot, then a start that replays nothing.
      model.settle(await observe(server, model.allSources(), true));
      server.child.kill("SIGTERM");
      expect(await server.exited).to.equal(0);
      server = await startServer(SERVER_ARGS(dir));
      expect(server.stderr()).to.match(/recovered snapshot at log position \d+ \+ 0 log records/);
      model.settle(await observe(server, model.allSources(), true));
      server.child.kill("SIGKILL");
      await server.exited;
    } catch (err) {
      throw new Error(`crash test (CRASH_SEED=${SEED}) failed after ${kills} kills: ${(err as Error).message}\nserver stderr:\n${server?.stderr()}`);
    } finally {
      for (const child of spawned) child.kill("SIGKILL");
    }
    expect(kills).to.equal(ROUNDS);
    // The run must have exercised every kind of outcome, or it proved little.
    expect(model.acked, "acknowledged requests").to.be.greaterThan(ROUNDS);
    expect(model.unknownApplied + model.unknownLost, "requests cut off by a kill").to.be.greaterThan(ROUNDS / 4);
    expect(model.retired.size, "permanently deleted ids").to.be.greaterThan(0);
    expect(killsWhileStarting, "kills during start-up").to.be.greaterThan(0);
    expect(upsertRecordsAtKills, "REST upsert records in the log at the kills").to.be.greaterThan(ROUNDS);
    if (ROUNDS >= 20) {
      expect(model.catalogAcked, "acknowledged catalog changes").to.be.greaterThan(0);
      expect(model.addedTypes.size, "schema changes kept").to.be.greaterThan(0);
      expect(model.installed.size, "installed queries kept").to.be.greaterThan(1);
    }
  });
});
