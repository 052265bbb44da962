// Binds the engine to the persistence layer: what a snapshot holds of it (the catalog as
// JSON text and the store's binary image, serialised from a version pinned in the same
// turn), how it is restored, how logged commands are replayed (Engine.apply, with no log
// attached), and, once recovery is done, the log attached so every later apply() is
// recorded in its turn.
import { isDeepStrictEqual } from "node:util";
import { emptySchema } from "../../runtime-wasm/schema/types.js";
import type { Engine } from "../engine/engine.js";
import type { EngineCommand } from "../engine/commands.js";
import { decodeCommand, encodeCommand, type CommandValue } from "./command-codec.js";
import type { PersistenceOptions, Persistence } from "./persistence.js";
import type { PersistentState, PinnedState } from "./persistent-state.js";
import { recover, type RecoveryReport } from "./recovery.js";
import { chunkStream } from "./snapshot/chunk-stream.js";
import type { LoadedSnapshot, SnapshotSection } from "./snapshot/snapshot-store.js";
import { loadStore, type LoadStore, type StoreOptions } from "../../runtime-wasm/store/index.js";

const CATALOG_SECTION = "catalog.json";
const STORE_SECTION = "store.bin";

export interface EngineStateOptions {
  /** Rebuilds the store from its image (default: runtime-wasm/store's loadStore). */
  loadStore?: LoadStore;
  storeOptions?: StoreOptions;
  /**
   * Runs after replay, before the server answers: installs every installed query again.
   * The query lifecycle plugs in here; without it there is nothing to reinstall.
   */
  reinstallQueries?: () => void | Promise<void>;
}

export class EngineState implements PersistentState {
  constructor(
    private readonly engine: Engine,
    private readonly options: EngineStateOptions = {},
  ) {}

  pin(): PinnedState {
    // Encoding now is the pin: the text is the catalog of this very turn.
    const sections: SnapshotSection[] = [{ name: CATALOG_SECTION, data: encodeCommand(this.engine.catalogImage() as unknown as CommandValue) }];
    const store = this.engine.storeIfCreated;
    const meta = { catalogEncoding: "command-codec", store: Boolean(store) };
    if (!store) return { sections, meta };
    if (typeof store.pinImage === "function") {
      // The version current now stays as it is until released; the writer thread reads it
      // from the shared memory, so the main thread spends nothing on the image.
      const { release, ...storeImage } = store.pinImage();
      sections.push({ name: STORE_SECTION, data: { storeImage } });
      return { sections, meta, release };
    }
    // A store without pinImage: serialize() pins the version when called, i.e. now; its
    // chunks then flow into the snapshot file while writes go on.
    const image = chunkStream((sink) => store.serialize(sink));
    sections.push({ name: STORE_SECTION, data: image });
    return { sections, meta, release: () => image.abort() };
  }

  async restore(snapshot: LoadedSnapshot): Promise<void> {
    const catalog = snapshot.sections.get(CATALOG_SECTION);
    if (!catalog) throw new Error(`snapshot ${snapshot.dir} holds no ${CATALOG_SECTION}`);
    const image = snapshot.sections.get(STORE_SECTION);
    let store;
    if (image) {
      store = await (this.options.loadStore ?? loadStore)(image.stream(), this.options.storeOptions);
    }
    this.engine.restoreState(decodeCommand(await catalog.read()) as unknown as ReturnType<Engine["catalogImage"]>, store);
  }

  replay(command: CommandValue): void {
    this.engine.apply(command as unknown as EngineCommand);
  }

  async afterRecovery(): Promise<void> {
    await this.options.reinstallQueries?.();
  }
}

/**
 * Recovers the engine from the data directory `dir` and attaches the log, so that from now
 * on every applied command is recorded before its request is answered.
 */
export async function openDurableEngine(
  dir: string,
  engine: Engine,
  options: PersistenceOptions & EngineStateOptions = {},
): Promise<{ persistence: Persistence; report: RecoveryReport }> {
  if (engine.commandLog) throw new Error("the engine already has a command log attached");
  if (engine.storeIfCreated || !engine.catalogIsEmpty || !isDeepStrictEqual(engine.schema, emptySchema())) {
    // Recovery would mix the two histories, and those changes would never reach the log.
    throw new Error("the engine already holds a schema or data: attach the data directory before making changes");
  }
  const recovered = await recover(dir, new EngineState(engine, options), options);
  const { persistence } = recovered;
  engine.commandLog = { prepare: (command) => persistence.prepare(command as unknown as CommandValue) };
  return recovered;
}
