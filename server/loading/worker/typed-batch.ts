// The reader thread's batch while it fills, chunk by chunk: the objects of each parsed chunk
// (a small LoadBatch, read into plain arrays) move in at the chunk's end, and edge runs whose
// ids are all numbers and that write no attribute go into typed columns with room to grow.
// A batch of 393216 edges in plain arrays is megabytes of arrays that outlive many young
// collections and are regrown as they fill: the thread's collector copied them and its heap
// grew and shrank by tens of megabytes a batch (about a third of a 4M-edge load's page faults).
// Typed columns live outside the heap and are handed to the applying thread whole. The batch
// taken equals the one the chunks' objects appended in order would make (appendBatch).
import { appendBatch, batchSize, emptyBatch, type EdgeRun, type LoadBatch, type VertexId } from "../sink.js";

/** An edge run of number ids without attributes, filling: its ids are the first `count` of each column. */
interface TypedRun {
  run: EdgeRun;
  from: Float64Array;
  to: Float64Array;
  count: number;
}

/** Room of a new typed run: a chunk's worth of edges, doubled as it fills. */
const FIRST_ROOM = 1 << 15;

export class TypedBatch {
  private batch = emptyBatch();
  /** The batch's last edge run, when it is a typed one. */
  private open: TypedRun | undefined;
  /** Objects in the batch (batchSize). */
  size = 0;

  /** Moves a chunk's objects in, after those already held. */
  add(chunk: LoadBatch): void {
    this.size += batchSize(chunk);
    const runs = chunk.edgeRuns;
    chunk.edgeRuns = [];
    appendBatch(this.batch, chunk);
    for (const run of runs) {
      const edgeRuns = this.batch.edgeRuns;
      const last = edgeRuns.length > 0 ? edgeRuns[edgeRuns.length - 1]! : undefined;
      const typed = typedIds(run);
      if (typed && this.open !== undefined && last === this.open.run && sameKind(last, run)) {
        append(this.open, run.from as number[], run.to as number[]);
        continue;
      }
      this.close();
      if (typed && (last === undefined || !sameKind(last, run))) {
        const room = Math.max(FIRST_ROOM, run.from.length);
        this.open = { run, from: new Float64Array(room), to: new Float64Array(room), count: 0 };
        edgeRuns.push(run);
        append(this.open, run.from as number[], run.to as number[]);
      } else {
        // Goes on from (or after) a run of plain arrays, as appending the chunk would.
        appendBatch(this.batch, { ...emptyBatch(), edgeRuns: [run] });
      }
    }
  }

  /** The batch held so far (typed runs cut to their length); the holder is empty again. */
  take(): LoadBatch {
    this.close();
    const batch = this.batch;
    this.batch = emptyBatch();
    this.size = 0;
    return batch;
  }

  /** Ends the typed run: its columns, cut to their length, become the run's ids. */
  private close(): void {
    const open = this.open;
    if (open === undefined) return;
    open.run.from = open.from.subarray(0, open.count);
    open.run.to = open.to.subarray(0, open.count);
    this.open = undefined;
  }
}

function append(open: TypedRun, from: readonly number[], to: readonly number[]): void {
  const n = from.length;
  if (open.count + n > open.from.length) {
    const room = Math.max(open.count + n, open.from.length * 2);
    open.from = grown(open.from, room, open.count);
    open.to = grown(open.to, room, open.count);
  }
  const at = open.count;
  for (let i = 0; i < n; i++) {
    open.from[at + i] = from[i]!;
    open.to[at + i] = to[i]!;
  }
  open.count = at + n;
}

function grown(column: Float64Array, room: number, used: number): Float64Array {
  const next = new Float64Array(room);
  next.set(column.subarray(0, used));
  return next;
}

/** Whether a run of plain arrays can go into typed columns: no attributes, every id a number. */
function typedIds(run: EdgeRun): boolean {
  return run.attributes === undefined && Array.isArray(run.from) && Array.isArray(run.to) && allNumbers(run.from) && allNumbers(run.to);
}

function allNumbers(ids: readonly VertexId[]): boolean {
  for (let i = 0; i < ids.length; i++) if (typeof ids[i] !== "number") return false;
  return true;
}

function sameKind(a: EdgeRun, b: EdgeRun): boolean {
  return a.type === b.type && a.fromType === b.fromType && a.toType === b.toType && a.vertexMustExist === b.vertexMustExist;
}
