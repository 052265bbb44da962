// After a schema change, a loading job that no longer fits the schema of its graph (a type
// or attribute it loads was dropped or altered, or the graph is gone) is dropped, as the
// established server does (gsql-ddl-loading-shell §6, §13.11).
import type { DatabaseSchema } from "../../runtime-wasm/schema/types.js";
import { graphView } from "../../runtime-wasm/schema/lookup.js";
import type { LoadingJobPlan } from "./plan.js";
import { LoadError } from "./errors.js";
import { compileJob } from "./compile/job.js";

/**
 * Why the job does not fit the schema, or undefined when it compiles against it (columns
 * named by a file's own header line are checked when the job runs).
 */
export function loadingJobProblem(plan: LoadingJobPlan, schema: DatabaseSchema): string | undefined {
  const view = graphView(schema, plan.graph);
  if (!view) return `Graph '${plan.graph}' does not exist.`;
  try {
    compileJob(plan, view);
    return undefined;
  } catch (err) {
    if (err instanceof LoadError) return err.message;
    throw err;
  }
}

export function loadingJobFits(plan: LoadingJobPlan, schema: DatabaseSchema): boolean {
  return loadingJobProblem(plan, schema) === undefined;
}
