// A small state for persistence tests: string keys to integer values, changed by logged
// commands. It pins itself as a JSON section plus a binary section (the values as
// Float64Array, standing in for memory regions), so snapshots exercise both payload kinds.
import type { CommandValue } from "../../../server/persist/command-codec.js";
import type { PersistentState, PinnedState } from "../../../server/persist/persistent-state.js";
import type { LoadedSnapshot } from "../../../server/persist/snapshot/snapshot-store.js";

export type KvCommand = { op: "put"; key: string; value: number } | { op: "del"; key: string };

export class KvState implements PersistentState {
  readonly entries = new Map<string, number>();
  replayed: number[] = [];
  /** How many entries existed when afterRecovery ran (proves it runs after replay). */
  entriesAtAfterRecovery: number | undefined;

  apply(command: KvCommand): void {
    if (command.op === "put") this.entries.set(command.key, command.value);
    else this.entries.delete(command.key);
  }

  pin(): PinnedState {
    const keys = [...this.entries.keys()];
    const values = Float64Array.from(keys.map((k) => this.entries.get(k)!));
    return {
      sections: [
        { name: "keys.json", data: Buffer.from(JSON.stringify(keys)) },
        { name: "values.bin", data: new Uint8Array(values.buffer) },
      ],
      meta: { entries: keys.length },
    };
  }

  async restore(snapshot: LoadedSnapshot): Promise<void> {
    const keys = JSON.parse((await snapshot.sections.get("keys.json")!.read()).toString()) as string[];
    const chunks: Uint8Array[] = [];
    for await (const chunk of snapshot.sections.get("values.bin")!.stream()) chunks.push(chunk);
    const raw = Buffer.concat(chunks);
    const values = new Float64Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
    this.entries.clear();
    keys.forEach((k, i) => this.entries.set(k, values[i]!));
  }

  replay(command: CommandValue, lsn: number): void {
    this.replayed.push(lsn);
    const c = command as KvCommand & { fail?: boolean };
    if (c.fail) throw new Error("this command cannot be applied");
    this.apply(c);
  }

  afterRecovery(): void {
    this.entriesAtAfterRecovery = this.entries.size;
  }

  toObject(): Record<string, number> {
    return Object.fromEntries([...this.entries].sort(([a], [b]) => (a < b ? -1 : 1)));
  }
}
