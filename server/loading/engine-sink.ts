// The loader's sink in the running server: batches become engine commands ("load-batch"),
// so they take the same path as every other change (one place to log them for recovery).
import type { Engine } from "../engine/engine.js";
import type { LoadSink } from "./sink.js";

export function engineSink(engine: Engine, graph: string): LoadSink {
  return {
    schema: () => engine.schema,
    get logged() {
      return engine.commandLog !== undefined;
    },
    apply: (batch) => {
      engine.apply({ kind: "load-batch", graph, batch });
    },
  };
}
