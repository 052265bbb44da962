// Starts our worker threads (query workers, the snapshot writer). A worker inherits the
// process's Node flags, and `--input-type` (present when the program itself is an `--eval`
// script, as when wasmgraph is embedded with `node --input-type=module -e ...`) makes a worker
// started from a file fail at once. So, only when that flag is present, the worker gets the
// other flags explicitly; Node refuses some flags in an explicit list (V8 and process-wide
// ones such as --expose-gc), and then the worker starts with none.
import { Worker, type WorkerOptions } from "node:worker_threads";

export function startWorker(file: URL, argv: readonly string[] = process.execArgv, options: WorkerOptions = {}): Worker {
  const kept = withoutInputType(argv);
  if (kept.length === argv.length) return new Worker(file, options);
  try {
    return new Worker(file, { ...options, execArgv: kept });
  } catch {
    return new Worker(file, { ...options, execArgv: [] });
  }
}

/** `argv` without `--input-type=X` and `--input-type X`. */
export function withoutInputType(argv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === "--input-type") i++; // its value is the next word
    else if (!flag.startsWith("--input-type=")) kept.push(flag);
  }
  return kept;
}
