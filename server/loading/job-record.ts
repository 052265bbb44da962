// A loading job as the catalog keeps it: the plan, the normalised text `ls` and SHOW JOB
// print, and the types it writes (a schema change that drops or alters one drops the job).
// Both doors that create jobs (CREATE LOADING JOB at the shell, the engine's
// create-loading-job command) build the record here, so the catalog holds one form.
import type { CatalogLoadingJob } from "../catalog/catalog-state.js";
import { formatLoadingJob } from "./plan-text.js";
import type { LoadingJobPlan } from "./plan.js";

export function loadingJobRecord(plan: LoadingJobPlan): CatalogLoadingJob {
  // The catalog stores the text without the listing's indentation and dashes.
  const text = formatLoadingJob(plan).map((line) => line.trim().replace(/^- /, "")).join("\n");
  return { name: plan.name, graph: plan.graph, text, plan, types: typesWritten(plan) };
}

/** Vertex and edge types a plan writes or deletes. */
function typesWritten(plan: LoadingJobPlan): string[] {
  const types = new Set<string>();
  for (const st of plan.statements) {
    if (st.kind === "load") {
      for (const d of st.destinations) if (d.kind === "vertex" || d.kind === "edge") types.add(d.type);
    } else {
      types.add(st.type);
    }
  }
  return [...types];
}
