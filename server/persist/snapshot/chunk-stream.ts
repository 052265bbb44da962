// Turns a producer that pushes chunks into a sink (the store's serialize(sink)) into a
// stream the snapshot writer pulls from. The producer starts at once, so it pins its
// version in the caller's turn; each sink call resolves only when the writer has taken the
// chunk and asks for the next, so at most one chunk is in flight and the producer may reuse
// its buffer. Aborting (a failed or abandoned snapshot) makes the pending and later sink
// calls reject, so the producer stops and lets go of what it pinned.

export type ChunkSink = (chunk: Uint8Array) => Promise<void>;

export interface ChunkStream extends AsyncIterable<Uint8Array> {
  /** Stops the producer: its pending and future sink calls reject. */
  abort(reason?: string): void;
}

interface Handoff {
  chunk: Uint8Array;
  taken: () => void;
  refused: (err: Error) => void;
}

export function chunkStream(produce: (sink: ChunkSink) => Promise<unknown>): ChunkStream {
  const queue: Handoff[] = [];
  let wakeReader: (() => void) | undefined;
  let finished = false;
  let failure: unknown;
  let aborted: Error | undefined;

  const wake = () => {
    wakeReader?.();
    wakeReader = undefined;
  };
  const sink: ChunkSink = (chunk) => {
    if (aborted) return Promise.reject(aborted);
    return new Promise<void>((taken, refused) => {
      queue.push({ chunk, taken, refused });
      wake();
    });
  };
  produce(sink).then(
    () => {
      finished = true;
      wake();
    },
    (err: unknown) => {
      failure = err;
      finished = true;
      wake();
    },
  );

  const abort = (reason = "snapshot abandoned") => {
    if (aborted) return;
    aborted = new Error(reason);
    for (const pending of queue.splice(0)) pending.refused(aborted);
  };

  return {
    abort,
    async *[Symbol.asyncIterator]() {
      try {
        for (;;) {
          const next = queue.shift();
          if (next) {
            yield next.chunk;
            next.taken();
            continue;
          }
          if (finished) {
            if (failure !== undefined) throw failure;
            return;
          }
          await new Promise<void>((resolve) => (wakeReader = resolve));
        }
      } finally {
        abort();
      }
    },
  };
}
