// Per-endpoint request statistics for GET /statistics: completed requests and their
// latencies, kept in one-second segments for the last 60 seconds. Timed-out requests are
// counted apart (TimeoutRequests) and stay out of QPS and the latency figures.

/** Longest window GET /statistics accepts, in seconds. */
export const MAX_WINDOW_SECONDS = 60;
/** Latency samples kept per endpoint and second; beyond it a uniform sample is kept. */
const MAX_SAMPLES_PER_SECOND = 20000;

interface SecondSegment {
  second: number;
  completed: number;
  timeouts: number;
  latencySum: number;
  latencyMin: number;
  latencyMax: number;
  samples: number[];
}

export interface EndpointStatistics {
  CompletedRequests: number;
  QPS: number;
  TimeoutRequests: number;
  AverageLatency: number;
  MaxLatency: number;
  MinLatency: number;
  LatencyPercentile: number[];
}

export class RequestStatistics {
  /** graph ("" for none) → endpoint key → ring of segments indexed by second modulo the ring size. */
  private readonly byGraph = new Map<string, Map<string, SecondSegment[]>>();
  private readonly ringSize = MAX_WINDOW_SECONDS + 1;

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Records one finished request of an endpoint (on a graph, if any); latency in milliseconds.
   * Allocates only the first time an endpoint is seen: a second's segment is reset in place.
   */
  record(endpointKey: string, graph: string | undefined, latencyMs: number, timedOut: boolean): void {
    const second = Math.floor(this.now() / 1000);
    const graphKey = graph ?? "";
    let byEndpoint = this.byGraph.get(graphKey);
    if (!byEndpoint) {
      byEndpoint = new Map();
      this.byGraph.set(graphKey, byEndpoint);
    }
    let ring = byEndpoint.get(endpointKey);
    if (!ring) {
      ring = Array.from({ length: this.ringSize }, () => emptySegment(-1));
      byEndpoint.set(endpointKey, ring);
    }
    const seg = ring[second % this.ringSize]!;
    if (seg.second !== second) resetSegment(seg, second);
    if (timedOut) {
      seg.timeouts++;
      return;
    }
    seg.completed++;
    seg.latencySum += latencyMs;
    if (latencyMs < seg.latencyMin) seg.latencyMin = latencyMs;
    if (latencyMs > seg.latencyMax) seg.latencyMax = latencyMs;
    if (seg.samples.length < MAX_SAMPLES_PER_SECOND) seg.samples.push(latencyMs);
    else {
      // Reservoir sampling keeps the percentiles unbiased under very high load.
      const j = Math.floor(Math.random() * seg.completed);
      if (j < MAX_SAMPLES_PER_SECOND) seg.samples[j] = latencyMs;
    }
  }

  /**
   * Statistics over the last `seconds` seconds (the current one included), per endpoint
   * called in that window (on `graph` only, when given; on graphs `visible` accepts, when
   * that is given); `segments` equal percentile groups. Empty object when nothing ran.
   */
  report(seconds: number, segments: number, graph?: string, visible?: (graph: string) => boolean): Record<string, EndpointStatistics> {
    const nowSecond = Math.floor(this.now() / 1000);
    const windows = new Map<string, SecondSegment[]>();
    for (const [graphKey, byEndpoint] of this.byGraph) {
      if (graph !== undefined && graphKey !== graph) continue;
      if (visible && graphKey !== "" && !visible(graphKey)) continue;
      for (const [key, ring] of byEndpoint) {
        const list = windows.get(key) ?? [];
        for (const s of ring) if (s.second > nowSecond - seconds && s.second <= nowSecond) list.push(s);
        windows.set(key, list);
      }
    }
    const out: Record<string, EndpointStatistics> = {};
    for (const key of [...windows.keys()].sort()) {
      const inWindow = windows.get(key)!;
      const completed = sum(inWindow.map((s) => s.completed));
      const timeouts = sum(inWindow.map((s) => s.timeouts));
      if (completed === 0 && timeouts === 0) continue;
      const samples = inWindow.flatMap((s) => s.samples).sort((a, b) => a - b);
      out[key] = {
        CompletedRequests: completed,
        QPS: round(completed / seconds),
        TimeoutRequests: timeouts,
        AverageLatency: completed ? round(sum(inWindow.map((s) => s.latencySum)) / completed) : 0,
        MaxLatency: completed ? round(Math.max(...inWindow.map((s) => s.latencyMax))) : 0,
        MinLatency: completed ? round(Math.min(...inWindow.map((s) => s.latencyMin))) : 0,
        LatencyPercentile: percentiles(samples, segments),
      };
    }
    return out;
  }
}

function emptySegment(second: number): SecondSegment {
  return { second, completed: 0, timeouts: 0, latencySum: 0, latencyMin: Infinity, latencyMax: 0, samples: [] };
}

/** Starts a ring slot over for a new second, keeping its sample array's storage. */
function resetSegment(seg: SecondSegment, second: number): void {
  seg.second = second;
  seg.completed = 0;
  seg.timeouts = 0;
  seg.latencySum = 0;
  seg.latencyMin = Infinity;
  seg.latencyMax = 0;
  seg.samples.length = 0;
}

/** Latency at the end of each of `segments` equal groups (nearest rank): e.g. 10 → p10, p20, …, p100. */
function percentiles(sorted: number[], segments: number): number[] {
  if (sorted.length === 0) return [];
  const out: number[] = [];
  for (let i = 1; i <= segments; i++) {
    const rank = Math.ceil((i / segments) * sorted.length);
    out.push(round(sorted[Math.max(0, rank - 1)]!));
  }
  return out;
}

function sum(xs: number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}

/** Latencies in milliseconds with microsecond resolution. */
function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
