// Schema-change jobs at the shell: CREATE [GLOBAL] SCHEMA_CHANGE JOB stores the job;
// RUN [GLOBAL] SCHEMA_CHANGE JOB applies it atomically (the binder's pure function), and
// in the same engine command records its effects: queries that no longer bind become
// `deprecated`, loading jobs that write a dropped or altered type are dropped. Installed
// queries that still bind are compiled again against the new schema (unless -N).
import type { AstCreateSchemaChangeJob, AstRunSchemaChangeJob } from "../../../compiler/ast/index.js";
import { DiagnosticLog } from "../../../compiler/diagnostics/index.js";
import { schemaChangeJobFromAst } from "../../../compiler/bind/ddl/from-ast.js";
import { applySchemaChangeJob } from "../../../compiler/bind/ddl/schema-change.js";
import type { DdlSchemaChangeJob } from "../../../compiler/bind/ddl/commands.js";
import type { DatabaseSchema } from "../../../runtime-wasm/schema/types.js";
import { bindCatalogOf } from "../../catalog/catalog.js";
import type { CatalogChange, CatalogQuery } from "../../catalog/catalog-state.js";
import { DEFAULT_INSTALL_LEVEL, loadingJobsToDrop, planSchemaChangeEffects } from "../../catalog/query-lifecycle.js";
import { touchedTypes } from "../../catalog/schema-diff.js";
import { nameList, statementText, submit, workingGraph, type Outcome, type StatementContext } from "./context.js";
import { printDdlDiagnostics } from "./diagnostic-text.js";
import { jobNameTaken } from "./job-names.js";
import { progressBar } from "./query-install.js";

export function runCreateSchemaChangeJob(s: AstCreateSchemaChangeJob, ctx: StatementContext): Outcome {
  const name = s.name.name;
  let graph: string | undefined;
  if (!s.global) {
    if (!s.graph) {
      ctx.out.line("Semantic Check Fails: A schema change job needs FOR GRAPH <graph>.");
      ctx.out.line(`Failed to create schema change jobs: ${nameList([name])}.`);
      return "error";
    }
    const where = workingGraph(ctx, s.graph.name);
    if (!where.graph) return where.outcome!;
    graph = where.graph;
  }
  const log = new DiagnosticLog();
  const job = schemaChangeJobFromAst(s, log);
  if (!job || log.hasErrors()) {
    printDdlDiagnostics(log.diagnostics, ctx.out);
    ctx.out.line(`Failed to create schema change jobs: ${nameList([name])}.`);
    return "error";
  }
  if (jobNameTaken(ctx, graph, name)) {
    ctx.out.line(`Semantic Check Fails: The job name ${name} is used by another object! Please use a different name.`);
    ctx.out.line(`Failed to create schema change jobs: ${nameList([name])}.`);
    return "error";
  }
  const change: CatalogChange = { kind: "put-schema-change-job", job: { name, text: statementText(ctx, s), statements: job } };
  if (graph !== undefined) change.job.graph = graph;
  submit(ctx, [change]);
  ctx.out.line(`Successfully created schema change jobs: ${nameList([name])}.`);
  return "ok";
}

export async function runRunSchemaChangeJob(s: AstRunSchemaChangeJob, ctx: StatementContext): Promise<Outcome> {
  const started = performance.now();
  const name = s.name.name;
  let graph: string | undefined;
  if (!s.global) {
    const where = workingGraph(ctx);
    if (!where.graph) return where.outcome!;
    graph = where.graph;
  }
  const { catalog, engine } = ctx.services;
  const stored = catalog.schemaChangeJob(graph, name);
  if (!stored) {
    ctx.out.line(`Semantic Check Fails: The job ${name} does not exist!`);
    return "error";
  }
  const before = engine.schema;
  const log = new DiagnosticLog();
  const result = applySchemaChangeJob(before, stored.statements as DdlSchemaChangeJob, log);
  ctx.out.line(s.global ? `Kick off global schema change job ${name}` : `Kick off schema change job ${name}`);
  if (!result.ok) {
    printDdlDiagnostics(log.diagnostics, ctx.out);
    ctx.out.line(s.global ? "Global schema change failed." : "Local schema change failed.");
    return "error";
  }
  const skipReinstall = s.flags.some((f) => f.name === "N");
  const changes: CatalogChange[] = [];
  const toRecompile: CatalogQuery[] = [];
  const uninstall: { graph: string; name: string }[] = [];
  for (const g of result.effect.changedGraphs) {
    const oldVersion = before.graphs.find((x) => x.name === g)?.version ?? 0;
    ctx.out.line(`Doing schema change on graph '${g}' (current version: ${oldVersion})`);
    const effects = queryEffects(ctx, result.schema, g);
    changes.push(...effects.changes);
    for (const q of effects.deprecated) {
      ctx.out.line(`Query ${q} becomes invalid after schema update, please update it.`);
      if (catalog.query(g, q)?.state === "installed") uninstall.push({ graph: g, name: q });
    }
    if (skipReinstall && effects.reinstall.length > 0) {
      changes.push({ kind: "set-query-states", graph: g, states: effects.reinstall.map((q) => ({ name: q.name, state: "defined" as const })) });
      for (const q of effects.reinstall) uninstall.push({ graph: g, name: q.name });
    } else {
      toRecompile.push(...effects.reinstall);
    }
    const dropped = loadingJobsToDrop(catalog.state, g, touchedTypes(before, result.schema, g));
    if (dropped.length > 0) {
      changes.push({ kind: "drop-jobs", graph: g, names: dropped });
      for (const j of dropped) ctx.out.line(`The loading job ${j} is dropped because it loads a type this change dropped or altered.`);
    }
    ctx.out.line("");
    ctx.out.line(`Graph ${g} updated to new version ${oldVersion + 1}`);
  }
  if (s.global) ctx.out.line(`Doing schema change on the global schema (current version: ${before.globalVersion})`);
  for (const u of uninstall) ctx.services.queries.uninstall?.(u.graph, u.name);
  submit(ctx, changes, { schema: result.schema });
  if (toRecompile.length > 0) await recompile(ctx, toRecompile, result.schema);
  const seconds = ((performance.now() - started) / 1000).toFixed(3);
  ctx.out.line(`The job ${name} completes in ${seconds} seconds!`);
  ctx.out.line(s.global ? "Global schema change succeeded." : "Local schema change succeeded.");
  return "ok";
}

/** Binds every query of `graph` against the new schema to see which still hold. */
function queryEffects(ctx: StatementContext, schema: DatabaseSchema, graph: string) {
  const { catalog, queries } = ctx.services;
  const bindCatalog = bindCatalogOf(catalog, () => schema);
  return planSchemaChangeEffects(catalog.state, graph, (q) => {
    if (!queries.bind) return { ok: true };
    const parsed = ctx.services.parse(q.text, q.name);
    const definition = parsed.script.statements.find((st) => st.kind === "CreateQuery");
    if (!definition) return { ok: false };
    return { ok: !queries.bind(definition, bindCatalog, graph).diagnostics.some((d) => d.severity === "error") };
  });
}

/** Installed queries that still bind are compiled again against the new schema. */
async function recompile(ctx: StatementContext, list: CatalogQuery[], schema: DatabaseSchema): Promise<void> {
  const { queries, catalog } = ctx.services;
  if (!queries.install || !queries.bind) return;
  ctx.out.line("Validating existing queries ...");
  const bindCatalog = bindCatalogOf(catalog, () => schema);
  const batch = list.map((q) => {
    const definition = ctx.services.parse(q.text, q.name).script.statements.find((st) => st.kind === "CreateQuery")!;
    return { graph: q.graph, name: q.name, bound: queries.bind!(definition, bindCatalog, q.graph).bound };
  });
  try {
    await queries.install(batch, DEFAULT_INSTALL_LEVEL, () => undefined);
    ctx.out.line(progressBar(batch.length, batch.length));
    ctx.out.line("Query installation finished.");
  } catch (err) {
    // The queries stay in the catalog; they can be reinstalled once the problem is fixed.
    ctx.out.line(err instanceof Error ? err.message : String(err));
    const byGraph = new Map<string, string[]>();
    for (const q of list) byGraph.set(q.graph, [...(byGraph.get(q.graph) ?? []), q.name]);
    submit(ctx, [...byGraph].map(([graph, names]) => ({ kind: "set-query-states" as const, graph, states: names.map((n) => ({ name: n, state: "defined" as const })) })));
    for (const q of list) queries.uninstall?.(q.graph, q.name);
    ctx.out.line(`Reinstalling queries failed; install them again with INSTALL QUERY: ${nameList(list.map((q) => q.name))}.`);
  }
}
