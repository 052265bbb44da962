// The demo graph of a first start: runs social.gsql (schema, loading job over the CSV files
// next to it, example queries, INSTALL) through the GSQL executor, exactly as a user's script
// would run. The script and data stay in the source tree; this module finds them from its
// own place in the build output.
import { readFileSync } from "node:fs";
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
