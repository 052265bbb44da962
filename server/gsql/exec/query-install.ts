// INSTALL QUERY at the shell: the lifecycle rules pick the queries (names, * or ALL;
// -force; -OPTIMIZE without names), each is bound again from its stored text against the
// current schema, the back end compiles the batch (all or none), and the catalog records
// them as installed. Output as the shell prints it: the start line, the REST call of each
// query, a progress bar, `Query installation finished.`
import type { AstInstallQuery } from "../../../compiler/ast/index.js";
import type { CatalogQuery } from "../../catalog/catalog-state.js";
import { DEFAULT_INSTALL_LEVEL, installedChange, orderCalleesFirst, planInstall } from "../../catalog/query-lifecycle.js";
import { bindCatalogOf } from "../../catalog/catalog.js";
import { submit, workingGraph, type ExecServices, type Outcome, type StatementContext } from "./context.js";
import { printQueryDiagnostics } from "./diagnostic-text.js";
import { bindDefinition } from "./query-create.js";
import { curlParameters } from "./query-params.js";
import { unavailable, type InstallItem } from "./query-services.js";

const BAR_WIDTH = 72;
const KNOWN_FLAGS = ["force", "optimize", "distributed"];

export async function runInstallQuery(s: AstInstallQuery, ctx: StatementContext): Promise<Outcome> {
  const where = workingGraph(ctx);
  if (!where.graph) return where.outcome!;
  const graph = where.graph;
  const flags = new Set(s.flags.map((f) => f.name.toLowerCase()));
  const unknown = s.flags.find((f) => !KNOWN_FLAGS.includes(f.name.toLowerCase()));
  if (unknown) {
    ctx.out.line(`Unknown option -${unknown.name} for INSTALL QUERY; the options are -force, -OPTIMIZE and -DISTRIBUTED.`);
    return "error";
  }
  const plan = planInstall(ctx.services.catalog.state, {
    graph,
    names: s.names.map((n) => n.name),
    all: s.all !== undefined,
    force: flags.has("force"),
    optimize: flags.has("optimize"),
  });
  if (!plan.ok) {
    ctx.out.line(plan.message);
    return "error";
  }
  const { queries: selected, level } = plan.value;
  if (selected.length === 0) {
    ctx.out.line(flags.has("optimize") ? "No installed queries to optimize." : "All queries are already installed.");
    return "ok";
  }
  const install = ctx.services.queries.install;
  if (!install) {
    ctx.out.line(unavailable("INSTALL QUERY"));
    return "error";
  }
  const batch = bindForInstall(ctx, selected);
  if (!batch) {
    ctx.out.line("Query installation failed.");
    return "error";
  }
  ctx.out.line("Start installing queries, about 1 minute ...");
  const base = ctx.services.restBaseUrl();
  for (const q of selected) {
    const params = curlParameters(q.params);
    const url = `${base}/query/${graph}/${q.name}${params ? "?" + params : ""}`;
    ctx.out.line(`${q.name} query: curl -X GET '${url}'. Add -H "Authorization: Bearer TOKEN" if authentication is enabled.`);
  }
  ctx.out.line("");
  try {
    await install(batch, level, (done) => {
      if (done < batch.length) ctx.out.line(progressBar(done, batch.length));
    });
  } catch (err) {
    ctx.out.line(err instanceof Error ? err.message : String(err));
    ctx.out.line("Query installation failed.");
    return "error";
  }
  submit(ctx, [installedChange(graph, selected.map((q) => q.name), level)]);
  ctx.out.line(progressBar(batch.length, batch.length));
  ctx.out.line("Query installation finished.");
  return "ok";
}

/** Binds each selected query again from its text; undefined (with the errors printed) when one fails. */
function bindForInstall(ctx: StatementContext, selected: CatalogQuery[]): InstallItem[] | undefined {
  const items: InstallItem[] = [];
  let failed = false;
  for (const q of selected) {
    const parsed = ctx.services.parse(q.text, q.name);
    const definition = parsed.script.statements.find((st) => st.kind === "CreateQuery");
    if (!definition || parsed.diagnostics.some((d) => d.severity === "error")) {
      ctx.out.line(`The stored text of the query ${q.name} no longer parses.`);
      failed = true;
      continue;
    }
    const info = bindDefinition(ctx, definition, q.graph);
    if (info.diagnostics.some((d) => d.severity === "error") || info.bound === undefined) {
      printQueryDiagnostics(q.name, info.diagnostics, ctx.out);
      ctx.out.line(`The query ${q.name} has errors against the current schema and cannot be installed.`);
      failed = true;
      continue;
    }
    items.push({ graph: q.graph, name: q.name, bound: info.bound });
  }
  return failed ? undefined : items;
}

/** `[=====     ] 50% (1/2)`: the form the shell client redraws in place. */
export function progressBar(done: number, total: number): string {
  const filled = total === 0 ? BAR_WIDTH : Math.round((done / total) * BAR_WIDTH);
  const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
  return `[${"=".repeat(filled)}${" ".repeat(BAR_WIDTH - filled)}] ${percent}% (${done}/${total})`;
}

/**
 * Compiles every installed query again so GET /query serves it: after a restart (the log
 * and snapshots keep only the catalog). A query that no longer binds or compiles is set
 * back to `defined`, with the reason in the result.
 */
export async function reinstallInstalledQueries(exec: ExecServices): Promise<{ installed: number; failed: { graph: string; name: string; reason: string }[] }> {
  const { catalog, queries, engine } = exec;
  const failed: { graph: string; name: string; reason: string }[] = [];
  if (!queries.install || !queries.bind) return { installed: 0, failed };
  const bindCatalog = bindCatalogOf(catalog, () => engine.schema);
  const byLevel = new Map<number, InstallItem[]>();
  for (const q of orderCalleesFirst(catalog.state.queries.filter((x) => x.state === "installed"))) {
    const parsed = exec.parse(q.text, q.name);
    const definition = parsed.script.statements.find((st) => st.kind === "CreateQuery");
    const info = definition ? queries.bind(definition, bindCatalog, q.graph) : undefined;
    if (!info || info.bound === undefined || info.diagnostics.some((d) => d.severity === "error")) {
      failed.push({ graph: q.graph, name: q.name, reason: info?.diagnostics.find((d) => d.severity === "error")?.message ?? "its text no longer parses" });
      continue;
    }
    const level = q.installLevel ?? DEFAULT_INSTALL_LEVEL;
    byLevel.set(level, [...(byLevel.get(level) ?? []), { graph: q.graph, name: q.name, bound: info.bound }]);
  }
  let installed = 0;
  for (const [level, batch] of byLevel) {
    try {
      await queries.install(batch, level, () => undefined);
      installed += batch.length;
    } catch (err) {
      for (const item of batch) failed.push({ graph: item.graph, name: item.name, reason: err instanceof Error ? err.message : String(err) });
    }
  }
  const byGraph = new Map<string, string[]>();
  for (const f of failed) byGraph.set(f.graph, [...(byGraph.get(f.graph) ?? []), f.name]);
  for (const [graph, names] of byGraph) {
    engine.apply({ kind: "catalog", changes: [{ kind: "set-query-states", graph, states: names.map((name) => ({ name, state: "defined" as const })) }] });
  }
  return { installed, failed };
}
