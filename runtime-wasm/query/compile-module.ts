// Compiling a query module's bytes into a WebAssembly.Module, the one way the runtime, the
// server and the tools do it. A query's hot loops run inside the first call of a SELECT
// function (one call per SELECT execution), and V8 moves a function from its baseline tier
// (Liftoff) to optimised code only for later calls: a WCC or BFS round, or a whole one-shot
// query, would run entirely as baseline code, 2-6x slower. So query modules are compiled
// with the optimising tier from the start (V8's --no-liftoff; functions still compile
// lazily, at their first call). The flag is process-wide and read whenever WebAssembly is
// compiled, so the compiler's own WebAssembly (Binaryen) compiled after it gets the same
// treatment: its first query takes longer, the following ones far less (measured on this
// machine: 1.5 s, 1.0 s, 0.3 s for three library queries by default; 2.2 s, 0.04 s, 0.1 s).

import { setFlagsFromString } from "node:v8";

let optimisingTier = false;

/** Compiles query module bytes, with V8's optimising tier from the first call. */
export function compileQueryModule(bytes: Uint8Array): Promise<WebAssembly.Module> {
  if (!optimisingTier) {
    setFlagsFromString("--no-liftoff");
    optimisingTier = true;
  }
  return WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>);
}
