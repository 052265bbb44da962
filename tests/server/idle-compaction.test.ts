// Idle-time compaction: once the store has gone unchanged for the idle period, the edge
// types whose lists are not packed (or whose entry-ordered attribute copies are missing)
// are compacted; every read answers the same before and after.
import { expect } from "chai";
import { IdleCompaction } from "../../server/engine/idle-compaction.js";
import { startTestServer } from "../helpers/http.js";
import { socialEngine } from "./graph-fixture.js";

/** knows (undirected, DOUBLE strength) and follows (directed) edges over n people, upserted in small batches. */
function upsertEdges(engine: ReturnType<typeof socialEngine>, n: number, batch: number): void {
  const person = (i: number) => ({ type: "Person", id: `p${i}` });
  for (let start = 0; start < n; start += batch) {
    const edges = [];
    for (let i = start; i < Math.min(n, start + batch); i++) {
      edges.push({ type: "knows", from: person(i), to: person((i * 7 + 3) % n), attributes: [{ name: "strength", value: i / 4 }] });
      edges.push({ type: "follows", from: person(i), to: person((i * 13 + 5) % n), attributes: [{ name: "weight", value: i % 5 }] });
    }
    engine.store.upsert({ edges }, { vertexMustExist: false });
  }
}

/** Every edge of the store as sorted text: what no compaction may change. */
function edgeDump(engine: ReturnType<typeof socialEngine>): string[] {
  return engine.store.read((s) => {
    const out: string[] = [];
    for (const v of s.vertices("Person")) for (const e of s.edges(v, {})) out.push(`${s.idText(v)} ${JSON.stringify(s.edgeAttributes(e))}`);
    return out.sort();
  });
}

describe("idle compaction", function () {
  this.timeout(30000);

  it("compacts the due edge types only after the idle period, once, and changes no answer", () => {
    const engine = socialEngine();
    upsertEdges(engine, 3000, 50);
    expect(engine.store.compactionDue().sort()).to.deep.equal(["follows", "knows"]);
    const watcher = new IdleCompaction(() => engine.store, { idleMs: 1000 });
    expect(watcher.check(0)).to.equal(undefined); // first look: the version is new
    expect(watcher.check(900)).to.equal(undefined); // not idle long enough
    upsertEdges(engine, 10, 10); // a write restarts the wait
    expect(watcher.check(950)).to.equal(undefined);
    expect(watcher.check(1900)).to.equal(undefined);
    const before = edgeDump(engine);
    expect(before.length).to.be.greaterThan(9000);
    const versionBefore = engine.store.version;
    const stats = watcher.check(1960);
    expect(stats?.adjacencies).to.be.greaterThan(0);
    expect(engine.store.version).to.equal(versionBefore + 1);
    expect(engine.store.compactionDue()).to.deep.equal([]);
    expect(watcher.check(100_000)).to.equal(undefined); // nothing left to do
    expect(engine.store.version).to.equal(versionBefore + 1);
    expect(edgeDump(engine)).to.deep.equal(before);
  });

  it("an edge type with attributes is due until compacted, and again after any change to it", () => {
    const engine = socialEngine();
    const person = (i: number) => ({ type: "Person", id: `p${i}` });
    const knows = (a: number, b: number) => ({ type: "knows", from: person(a), to: person(b), attributes: [{ name: "strength", value: a + b }] });
    for (let i = 0; i < 400; i += 20) engine.store.upsert({ edges: Array.from({ length: 20 }, (_, k) => knows(i + k, (i + k + 1) % 400)) }, { vertexMustExist: false });
    expect(engine.store.compactionDue()).to.deep.equal(["knows"]);
    engine.store.compact();
    expect(engine.store.compactionDue()).to.deep.equal([]);
    engine.store.upsert({ edges: [{ type: "lives_in", from: person(1), to: { type: "City", id: "7" } }] }, { vertexMustExist: false });
    expect(engine.store.compactionDue()).to.not.include("knows"); // another type's change leaves it
    engine.store.upsert({ edges: [knows(1, 3)] }, { vertexMustExist: false });
    expect(engine.store.compactionDue()).to.include("knows");
  });

  it("a served store is compacted after its writes stop, and answers the same", async () => {
    const engine = socialEngine();
    const t = await startTestServer({ engine, idleCompactionMs: 300 });
    try {
      const lines = Array.from({ length: 200 }, (_, i) => i);
      for (const chunk of [lines.slice(0, 100), lines.slice(100)]) {
        const edges: Record<string, unknown> = {};
        for (const i of chunk) edges[`p${i}`] = { knows: { Person: { [`p${(i * 7 + 3) % 200}`]: { strength: { value: i / 2 } } } } };
        const r = await t.request("POST", "/graph/social", JSON.stringify({ edges: { Person: edges } }));
        expect(r.status).to.equal(200);
      }
      const before = (await t.get("/graph/social/edges/Person/p7")).json;
      expect(before.results.length).to.be.greaterThan(0);
      const deadline = Date.now() + 10_000;
      while (engine.store.compactionDue().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(engine.store.compactionDue()).to.deep.equal([]);
      expect((await t.get("/graph/social/edges/Person/p7")).json).to.deep.equal(before);
    } finally {
      await t.close();
    }
  });

  it("idleCompactionMs: 0 turns it off", async () => {
    const engine = socialEngine();
    upsertEdges(engine, 500, 50);
    const t = await startTestServer({ engine, idleCompactionMs: 0 });
    try {
      await new Promise((r) => setTimeout(r, 2600));
      expect(engine.store.compactionDue().sort()).to.deep.equal(["follows", "knows"]);
    } finally {
      await t.close();
    }
  });
});
