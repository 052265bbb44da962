// CREATE [OR REPLACE] QUERY at the shell: bind the text against the catalog, then let the
// lifecycle rules decide (new, replaced, draft, or refused), and report as the shell does:
// `Successfully created queries: [q].` or the errors and `Saved as draft query with
// type/semantic error: [q].`
import type { AstCreateQuery, AstQueryDefinition } from "../../../compiler/ast/index.js";
import { bindCatalogOf } from "../../catalog/catalog.js";
import type { CatalogChange, CatalogQuery } from "../../catalog/catalog-state.js";
import { planCreate } from "../../catalog/query-lifecycle.js";
import { nameList, submit, workingGraph, type Outcome, type StatementContext } from "./context.js";
import { printQueryDiagnostics } from "./diagnostic-text.js";
import { paramListText, paramsOf } from "./query-params.js";
import type { BoundQueryInfo } from "./query-services.js";

export function runCreateQuery(s: AstCreateQuery, ctx: StatementContext): Outcome {
  const where = workingGraph(ctx, s.graph?.name);
  if (!where.graph) return where.outcome!;
  const graph = where.graph;
  const info = bindDefinition(ctx, s, graph);
  const hasErrors = info.diagnostics.some((d) => d.severity === "error");
  const params = paramsOf(s.params, ctx.source);
  const query: CatalogQuery = {
    name: s.name.name,
    graph,
    text: s.text,
    paramText: paramListText(params),
    params,
    state: "defined",
    callees: info.callees,
  };
  if (info.signature) query.signature = info.signature;
  if (s.api) query.api = s.api.value;
  const { catalog } = ctx.services;
  const plan = planCreate(catalog.state, query, s.orReplace, hasErrors);
  printQueryDiagnostics(query.name, info.diagnostics, ctx.out);
  if (!plan.ok) {
    ctx.out.line(plan.message);
    return "error";
  }
  const changes: CatalogChange[] = [...plan.value.changes];
  if (plan.value.result !== "draft") changes.push(...reviveCallers(ctx, graph, query.name));
  if (plan.value.uninstalled) ctx.services.queries.uninstall?.(graph, query.name);
  submit(ctx, changes);
  if (plan.value.result === "draft") {
    ctx.out.line(`Saved as draft query with type/semantic error: ${nameList([query.name])}.`);
    return "error";
  }
  ctx.out.line(`Successfully created queries: ${nameList([query.name])}.`);
  return "ok";
}

/** Binds a definition; without a binder in this build the query is kept unchecked. */
export function bindDefinition(ctx: StatementContext, definition: AstQueryDefinition, graph: string): BoundQueryInfo {
  const { queries, catalog, engine } = ctx.services;
  if (!queries.bind) return { diagnostics: [], callees: [] };
  return queries.bind(definition, bindCatalogOf(catalog, () => engine.schema), graph);
}

/** Queries disabled because they call `name` become valid again once it exists and they bind. */
function reviveCallers(ctx: StatementContext, graph: string, name: string): CatalogChange[] {
  const revived: string[] = [];
  for (const q of ctx.services.catalog.queries(graph)) {
    if (q.state !== "disabled" || !q.callees.includes(name)) continue;
    const others = q.callees.filter((c) => c !== name);
    if (others.some((c) => !ctx.services.catalog.query(graph, c))) continue;
    revived.push(q.name);
  }
  return revived.length === 0 ? [] : [{ kind: "set-query-states", graph, states: revived.map((n) => ({ name: n, state: "defined" as const })) }];
}
