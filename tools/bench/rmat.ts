// Seeded R-MAT graph generator shared by the bench lab (and by tests that want skewed
// random graphs). R-MAT recursively picks one quadrant of the adjacency matrix with
// probabilities a, b, c, d, which yields the power-law degrees of real graphs.

export interface RmatOptions {
  /** log2 of the vertex count. */
  scale: number;
  edges: number;
  seed?: number;
  a?: number;
  b?: number;
  c?: number;
  /** Drop self loops (u == v). Duplicates are kept; callers dedupe if they need to. */
  noSelfLoops?: boolean;
}

export interface EdgeList {
  vertexCount: number;
  src: Uint32Array;
  dst: Uint32Array;
}

/** Small fast PRNG (mulberry32): deterministic for a seed, good enough for data generation. */
export function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function rmat(options: RmatOptions): EdgeList {
  const { scale, edges } = options;
  const a = options.a ?? 0.57;
  const b = options.b ?? 0.19;
  const c = options.c ?? 0.19;
  const random = mulberry32(options.seed ?? 1);
  const src = new Uint32Array(edges);
  const dst = new Uint32Array(edges);
  let n = 0;
  while (n < edges) {
    let u = 0;
    let v = 0;
    for (let bit = scale - 1; bit >= 0; bit--) {
      const r = random();
      if (r < a) continue;
      if (r < a + b) v |= 1 << bit;
      else if (r < a + b + c) u |= 1 << bit;
      else {
        u |= 1 << bit;
        v |= 1 << bit;
      }
    }
    if (options.noSelfLoops && u === v) continue;
    src[n] = u >>> 0;
    dst[n] = v >>> 0;
    n++;
  }
  return { vertexCount: 2 ** scale, src, dst };
}
