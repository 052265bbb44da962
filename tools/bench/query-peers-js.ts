// Plain JavaScript versions of the bench algorithms over typed-array CSR: the baseline a
// developer would write by hand without a database.

export interface Csr {
  n: number;
  offsets: Uint32Array;
  targets: Uint32Array;
}

/** CSR of the directed edges (or, with `undirected`, of both directions, each pair once). */
export function toCsr(n: number, src: Uint32Array, dst: Uint32Array, undirected: boolean): Csr {
  let from = src;
  let to = dst;
  if (undirected) {
    const seen = new Set<number>();
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < src.length; i++) {
      const [x, y] = src[i] < dst[i] ? [src[i], dst[i]] : [dst[i], src[i]];
      const key = x * n + y;
      if (x === y || seen.has(key)) continue;
      seen.add(key);
      a.push(x, y);
      b.push(y, x);
    }
    from = Uint32Array.from(a);
    to = Uint32Array.from(b);
  }
  const offsets = new Uint32Array(n + 1);
  for (let i = 0; i < from.length; i++) offsets[from[i] + 1]++;
  for (let v = 0; v < n; v++) offsets[v + 1] += offsets[v];
  const fill = offsets.slice(0, n);
  const targets = new Uint32Array(from.length);
  for (let i = 0; i < from.length; i++) targets[fill[from[i]]++] = to[i];
  return { n, offsets, targets };
}

/** PageRank as the GSQL query defines it: `iterations` passes, sources with no out-edges keep their score. */
export function jsPageRank(g: Csr, iterations: number, damping = 0.85): { iterationMs: number[]; scores: Float64Array } {
  const { n, offsets, targets } = g;
  const score = new Float64Array(n).fill(1);
  const recvd = new Float64Array(n);
  const iterationMs: number[] = [];
  for (let it = 0; it < iterations; it++) {
    const t0 = performance.now();
    for (let v = 0; v < n; v++) {
      const start = offsets[v];
      const end = offsets[v + 1];
      if (start === end) continue;
      const share = score[v] / (end - start);
      for (let i = start; i < end; i++) recvd[targets[i]] += share;
    }
    let maxDiff = 0;
    for (let v = 0; v < n; v++) {
      if (offsets[v] === offsets[v + 1]) continue;
      const next = 1 - damping + damping * recvd[v];
      recvd[v] = 0;
      maxDiff = Math.max(maxDiff, Math.abs(next - score[v]));
      score[v] = next;
    }
    void maxDiff;
    iterationMs.push(performance.now() - t0);
  }
  return { iterationMs, scores: score };
}

export function jsBfs(g: Csr, src: number): { ms: number; reached: number } {
  const t0 = performance.now();
  const dist = new Int32Array(g.n).fill(-1);
  const queue = new Uint32Array(g.n);
  let head = 0;
  let tail = 0;
  dist[src] = 0;
  queue[tail++] = src;
  while (head < tail) {
    const v = queue[head++];
    for (let i = g.offsets[v]; i < g.offsets[v + 1]; i++) {
      const t = g.targets[i];
      if (dist[t] < 0) {
        dist[t] = dist[v] + 1;
        queue[tail++] = t;
      }
    }
  }
  return { ms: performance.now() - t0, reached: tail - 1 };
}

/** Components by min-label propagation over the undirected CSR (the GSQL query's algorithm). */
export function jsWcc(g: Csr): { ms: number; components: number } {
  const t0 = performance.now();
  const label = new Uint32Array(g.n);
  for (let v = 0; v < g.n; v++) label[v] = v;
  let active = new Uint8Array(g.n).fill(1);
  let any = true;
  while (any) {
    any = false;
    const next = new Uint8Array(g.n);
    const proposed = label.slice();
    for (let v = 0; v < g.n; v++) {
      if (!active[v]) continue;
      for (let i = g.offsets[v]; i < g.offsets[v + 1]; i++) {
        const t = g.targets[i];
        if (label[v] < label[t] && label[v] < proposed[t]) {
          proposed[t] = label[v];
          next[t] = 1;
          any = true;
        }
      }
    }
    label.set(proposed);
    active = next;
  }
  const components = new Set(label).size;
  return { ms: performance.now() - t0, components };
}

/** Triangles with each edge oriented from the lower id to the higher, as the GSQL query counts them. */
export function jsTriangles(g: Csr): { ms: number; triangles: number } {
  const t0 = performance.now();
  const fwd: Uint32Array[] = new Array(g.n);
  for (let v = 0; v < g.n; v++) {
    const out: number[] = [];
    for (let i = g.offsets[v]; i < g.offsets[v + 1]; i++) if (g.targets[i] > v) out.push(g.targets[i]);
    fwd[v] = Uint32Array.from(out).sort();
  }
  const sets = fwd.map((a) => new Set(a));
  let count = 0;
  for (let s = 0; s < g.n; s++) for (const t of fwd[s]) for (const x of fwd[t]) if (sets[s].has(x)) count++;
  return { ms: performance.now() - t0, triangles: count };
}
