// The demo graph of a first start: runs social.gsql (schema, loading job over the CSV files
// next to it, example queries, INSTALL) through the GSQL executor, exactly as a user's script
// would run. The script and data stay in the source tree; this module finds them from its
// own place in the build output. With a data directory, a marker file stands while the demo
// is being made, so a first start stopped part-way (killed, power lost) does not leave a
// half-made demo for good: the next start drops what it made and makes the demo again.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BufferShellOutput } from "../shell-output.js";
import { runGsql } from "../exec/run-script.js";
import type { ExecServices } from "../exec/context.js";

/** The folder holding social.gsql and its CSV files (dist/server/gsql/demo -> server/gsql/demo). */
export const DEMO_DIR = fileURLToPath(new URL("../../../../server/gsql/demo/", import.meta.url));

export interface DemoResult {
  returnCode: number;
  /** Everything the script printed, as a shell would show it. */
  output: string;
}

/** True when the database has nothing yet: the demo is made only then. */
export function isEmptyDatabase(exec: ExecServices): boolean {
  const { schema } = exec.engine;
  return schema.graphs.length === 0 && schema.vertexTypes.length === 0 && schema.edgeTypes.length === 0;
}

export async function createDemoGraph(exec: ExecServices): Promise<DemoResult> {
  const dataDir = DEMO_DIR.replace(/[\\/]$/, "");
  const text = readFileSync(join(DEMO_DIR, "social.gsql"), "utf8").replaceAll("{{DEMO_DATA}}", dataDir);
  const out = new BufferShellOutput();
  const result = await runGsql({ text, mode: "file", session: { parameters: {}, clientFields: {} }, file: "social.gsql" }, exec, out);
  return { returnCode: result.returnCode, output: out.text() };
}

/** Stands in the data directory from before the demo's first write until all of it is durable. */
export const DEMO_PENDING_FILE = "demo-pending";

/**
 * Makes the demo graph when the database is empty, or when a start that was making it
 * stopped part-way (its marker is still there: what it made is dropped first, DROP ALL).
 * `durable` resolves once every write so far is durable. Undefined: nothing was made.
 */
export async function makeDemoGraphIfNew(exec: ExecServices, dataDir: string | undefined, durable: () => Promise<void>): Promise<DemoResult | undefined> {
  const marker = dataDir === undefined ? undefined : join(dataDir, DEMO_PENDING_FILE);
  if (marker !== undefined && existsSync(marker) && !isEmptyDatabase(exec)) {
    await runGsql({ text: "DROP ALL", mode: "file", session: { parameters: {}, clientFields: {} } }, exec, new BufferShellOutput());
    await durable();
  }
  if (!isEmptyDatabase(exec)) return undefined;
  if (marker !== undefined) writeDurably(marker);
  const demo = await createDemoGraph(exec);
  await durable();
  // The script ran to its end (its problems, if any, are in the output): the demo is settled.
  if (marker !== undefined) rmSync(marker, { force: true });
  return demo;
}

/** Creates an empty file and syncs it, so it is on disk before the writes it stands for. */
function writeDurably(path: string): void {
  const fd = openSync(path, "w");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
