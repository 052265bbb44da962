// How the threads of a split SELECT share its source positions: in slots, fixed before the
// job starts. The positions are cut into chunks, and slot k owns chunks k, k + slots,
// k + 2 * slots, ... (interleaved, so a slot's share of a skewed graph's heavy vertices is
// even). A thread claims a whole slot (an atomic counter), runs its chunks in order into that
// slot's partial accumulators and result sets, then claims the next. Each slot's partials are
// therefore the same whichever thread ran it and whenever, and the fold adds slot after slot:
// a floating-point sum comes out the same from run to run (for the same number of threads),
// while a thread that is slow to join still only costs speed (another takes its slot).
import { Board } from "./abi.js";

/** "No more slots": beyond any slot count, with room for every thread's last claim. */
export const EXHAUSTED = 0x40000000;

/**
 * Claims slots of the job on the board at `board` until none is left, running each claimed
 * slot's chunks with `run(lo, hi, slot)`; returns how many chunks this thread ran.
 */
export function runSlots(words: Int32Array, board: number, count: number, chunk: number, slots: number, run: (lo: number, hi: number, slot: number) => void): number {
  let chunks = 0;
  for (;;) {
    const slot = Atomics.add(words, (board + Board.next) >> 2, 1);
    if (slot >= slots) return chunks;
    for (let lo = slot * chunk; lo < count; lo += slots * chunk) {
      // a failed thread stops the others at their next chunk
      if (Atomics.load(words, (board + Board.next) >> 2) >= EXHAUSTED) return chunks;
      run(lo, Math.min(count, lo + chunk), slot);
      chunks++;
    }
  }
}
