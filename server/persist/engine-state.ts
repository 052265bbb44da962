// Binds the engine to the persistence layer: what a snapshot holds of it (the catalog as
// JSON text), how it is restored, how logged commands are replayed (Engine.apply, with no
// log attached), and, once recovery is done, the log attached so every later apply()
// is recorded in its turn.
import type { Engine } from "../engine/engine.js";
import type { EngineCommand } from "../engine/commands.js";
import { decodeCommand, encodeCommand, type CommandValue } from "./command-codec.js";
import type { PersistenceOptions, Persistence } from "./persistence.js";
import type { PersistentState, PinnedState } from "./persistent-state.js";
import { recover, type RecoveryReport } from "./recovery.js";
import type { LoadedSnapshot } from "./snapshot/snapshot-store.js";

const CATALOG_SECTION = "catalog.json";

export interface EngineStateOptions {
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
    const catalog = encodeCommand(this.engine.catalogImage() as unknown as CommandValue);
    return { sections: [{ name: CATALOG_SECTION, data: catalog }], meta: { catalogEncoding: "command-codec" } };
  }

  restore(snapshot: LoadedSnapshot): void {
    const catalog = snapshot.sections.get(CATALOG_SECTION);
    if (!catalog) throw new Error(`snapshot ${snapshot.dir} holds no ${CATALOG_SECTION}`);
    this.engine.restoreState(decodeCommand(catalog) as unknown as ReturnType<Engine["catalogImage"]>);
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
  const recovered = await recover(dir, new EngineState(engine, options), options);
  const { persistence } = recovered;
  engine.commandLog = { record: (command) => void persistence.append(command as unknown as CommandValue) };
  return recovered;
}
