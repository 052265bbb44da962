import { expect } from "chai";
import { rmat, mulberry32 } from "../../tools/bench/rmat.js";

describe("bench data: R-MAT generator", () => {
  it("is deterministic for a seed and stays inside the vertex range", () => {
    const a = rmat({ scale: 10, edges: 5000, seed: 7 });
    const b = rmat({ scale: 10, edges: 5000, seed: 7 });
    expect(Buffer.from(a.src.buffer).equals(Buffer.from(b.src.buffer))).to.equal(true);
    expect(Buffer.from(a.dst.buffer).equals(Buffer.from(b.dst.buffer))).to.equal(true);
    expect(a.vertexCount).to.equal(1024);
    expect(Math.max(...a.src, ...a.dst)).to.be.below(1024);
  });
  it("is skewed: vertex 0's quadrant gets far more than a uniform share", () => {
    const g = rmat({ scale: 12, edges: 20000, seed: 3 });
    const degree = new Uint32Array(g.vertexCount);
    for (const u of g.src) degree[u]!++;
    const max = Math.max(...degree);
    expect(max).to.be.greaterThan((20000 / 4096) * 20);
  });
  it("drops self loops when asked", () => {
    const g = rmat({ scale: 6, edges: 3000, seed: 1, noSelfLoops: true });
    for (let i = 0; i < g.src.length; i++) expect(g.src[i]).to.not.equal(g.dst[i]);
  });
  it("mulberry32 gives values in [0, 1)", () => {
    const r = mulberry32(42);
    for (let i = 0; i < 1000; i++) {
      const x = r();
      expect(x).to.be.at.least(0).and.below(1);
    }
  });
});
