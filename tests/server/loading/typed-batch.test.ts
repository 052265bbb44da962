// The reader thread's filling batch (worker/typed-batch.ts): chunks moved in one after another
// must give the batch that appending them in order gives (appendBatch, what an in-thread read
// holds), with runs of number ids and no attributes in typed columns and every other run as it was.
import { expect } from "chai";
import { appendBatch, batchSize, emptyBatch, pushEdge, type AttributeWrite, type LoadBatch, type VertexId } from "../../../server/loading/sink.js";
import { TypedBatch } from "../../../server/loading/worker/typed-batch.js";
import { mulberry32 } from "../../../tools/bench/rmat.js";

/** A batch with every id column as a plain array (what the comparison looks at). */
function plain(batch: LoadBatch): LoadBatch {
  return { ...batch, edgeRuns: batch.edgeRuns.map((r) => ({ ...r, from: Array.from(r.from), to: Array.from(r.to) })) };
}

/** A random chunk: edges of two types and two flags, ids numbers (and in some chunks a few strings or bigints), a few with attributes; vertices and deletes now and then. */
function randomChunk(random: () => number, edges: number): LoadBatch {
  const chunk = emptyBatch();
  // Some chunks name a few vertices by string or bigint ids: their runs stay plain arrays.
  const mixed = random() < 0.3;
  const id = (): VertexId => {
    const r = mixed ? random() : 0.02 + 0.98 * random();
    if (r < 0.02) return `s${Math.floor(random() * 50)}`;
    if (r < 0.03) return BigInt(2 ** 60) + BigInt(Math.floor(random() * 9));
    return r < 0.04 ? -0 : Math.floor(random() * 1000);
  };
  // Long stretches of one kind, as a load statement writes them.
  let type = random() < 0.7 ? "E" : "F";
  let mustExist = false;
  for (let i = 0; i < edges; i++) {
    if (random() < 0.01) type = type === "E" ? "F" : "E";
    if (random() < 0.005) mustExist = !mustExist;
    const writes: AttributeWrite[] = random() < 0.002 ? [{ name: "w", value: Math.floor(random() * 9), op: "=" }] : [];
    pushEdge(chunk, type, "V", "V", mustExist, id(), id(), writes);
  }
  if (random() < 0.3) chunk.vertices.push({ type: "V", id: Math.floor(random() * 1000), attributes: [], newVertexOnly: false });
  if (random() < 0.1) chunk.vertexDeletes.push({ type: "V", id: 7 });
  if (random() < 0.1) chunk.edgeDeletes.push({ type: "E", from: { type: "V", id: 1 } });
  return chunk;
}

const copy = (b: LoadBatch): LoadBatch => structuredClone(b);

describe("loader: the reader thread's typed batch", () => {
  it("random chunks taken in batches equal appending the chunks in order; runs of numbers without attributes are typed", () => {
    let typedRuns = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const random = mulberry32(seed);
      const typed = new TypedBatch();
      let expected = emptyBatch();
      const check = () => {
        const size = typed.size;
        const got = typed.take();
        expect(size).to.equal(batchSize(expected));
        for (const run of got.edgeRuns) if (run.from instanceof Float64Array) typedRuns++;
        expect(plain(got)).to.deep.equal(plain(expected));
        expect(typed.size).to.equal(0);
        expected = emptyBatch();
      };
      const chunks = 1 + Math.floor(random() * 12);
      for (let c = 0; c < chunks; c++) {
        const chunk = randomChunk(random, Math.floor(random() * 3000));
        appendBatch(expected, copy(chunk));
        typed.add(chunk);
        if (random() < 0.3) check();
      }
      check();
    }
    expect(typedRuns).to.be.greaterThan(40);
  });

  it("a typed run keeps -0 and large safe integers exactly, and grows past its first room", () => {
    const typed = new TypedBatch();
    const from: number[] = [];
    const to: number[] = [];
    for (let c = 0; c < 5; c++) {
      const chunk = emptyBatch();
      for (let i = 0; i < 20000; i++) {
        const a = i % 3 === 0 ? -0 : Number.MAX_SAFE_INTEGER - i;
        const b = c * 20000 + i;
        pushEdge(chunk, "E", "V", "V", false, a, b, []);
        from.push(a);
        to.push(b);
      }
      typed.add(chunk);
    }
    const batch = typed.take();
    expect(batch.edgeRuns).to.have.length(1);
    const run = batch.edgeRuns[0]!;
    expect(run.from).to.be.instanceOf(Float64Array);
    expect(run.from.length).to.equal(100000);
    expect(Array.from(run.from).every((x, i) => Object.is(x, from[i]))).to.equal(true);
    expect(Array.from(run.to)).to.deep.equal(to);
  });
});
