// The Node flags our worker threads (query workers, the snapshot writer) start with. A worker
// inherits the process's flags by default, and `--input-type` (set when the program itself is
// an `--eval` script, as when wasmgraph is embedded with `node --input-type=module -e ...`)
// makes a worker started from a file fail at once; every other flag is kept.
export function workerExecArgv(argv: readonly string[] = process.execArgv): string[] {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === "--input-type") i++; // its value is the next word
    else if (!flag.startsWith("--input-type=")) kept.push(flag);
  }
  return kept;
}
