// Statements that change the catalog or the schema run one at a time across all sessions:
// each plans against the state it sees and may wait (compiling, asking a dialog) before it
// submits, so two of them must not interleave. Reading and running statements do not wait.

export class SerialLock {
  private tail: Promise<void> = Promise.resolve();

  /** Runs `work` after every earlier holder has finished. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    try {
      return await work();
    } finally {
      release();
    }
  }
}
