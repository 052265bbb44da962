// SHOW QUERY and DROP QUERY at the shell. SHOW prints the stored text, after a `# <status>`
// line for a query that has one; a glob or regex that matches none prints nothing (like SHOW
// JOB), a plain name that is not a query is an error. DROP follows the lifecycle rules (a query an installed
// query calls goes only together with its caller) and prints
// `Successfully dropped queries on the graph 'G': [q].`
import type { AstDrop, AstShow } from "../../../compiler/ast/index.js";
import { planDrop } from "../../catalog/query-lifecycle.js";
import { nameList, submit, workingGraph, NO_GRAPH_MESSAGE, type Outcome, type StatementContext } from "./context.js";
import { globMatcher } from "./glob.js";

export function runShowQuery(s: AstShow, ctx: StatementContext): Outcome {
  const where = workingGraph(ctx);
  if (!where.graph) return where.outcome!;
  const graph = where.graph;
  const match = s.regex ? regexMatcher(s.regex.value) : globMatcher(s.pattern ?? "*");
  if (!match) {
    ctx.out.line(`The regular expression "${s.regex!.value}" is not valid.`);
    return "error";
  }
  const found = ctx.services.catalog.queries(graph).filter((q) => match(q.name));
  // A glob or regex matching no query prints nothing, as SHOW JOB does; only a plain name must exist.
  if (found.length === 0 && s.pattern !== undefined && !s.regex && !/[*?]/.test(s.pattern)) {
    ctx.out.line(`The query ${s.pattern} does not exist on the graph '${graph}'.`);
    return "error";
  }
  for (const q of found) {
    if (q.state === "installed") ctx.out.line(`# installed ${q.api ?? ctx.services.engine.outputApi}`);
    else if (q.state !== "defined") ctx.out.line(`# ${q.state}`);
    const hidden = ctx.services.access?.mayReadQueryText(ctx, graph, q.name) === false;
    ctx.out.line(hidden ? "/******* Query Content is Hidden. Require ACL privilege READ *******/" : q.text);
  }
  return "ok";
}

export function runDropQuery(s: AstDrop, ctx: StatementContext): Outcome {
  const all = s.all !== undefined;
  // DROP QUERY ALL in global scope drops the queries of every graph.
  if (all && ctx.session.graph === undefined) {
    const graphs = ctx.services.engine.schema.graphs.map((g) => g.name);
    if (graphs.length === 0) {
      ctx.out.line(NO_GRAPH_MESSAGE);
      return "no-graph";
    }
    for (const g of graphs) {
      const outcome = dropOnGraph(ctx, g, [], true);
      if (outcome !== "ok") return outcome;
    }
    return "ok";
  }
  const where = workingGraph(ctx);
  if (!where.graph) return where.outcome!;
  return dropOnGraph(ctx, where.graph, s.names.map((n) => n.name), all);
}

function dropOnGraph(ctx: StatementContext, graph: string, names: string[], all: boolean): Outcome {
  const { catalog, queries } = ctx.services;
  const plan = planDrop(catalog.state, graph, names, all);
  if (!plan.ok) {
    ctx.out.line(plan.message);
    return "error";
  }
  if (plan.value.dropped.length === 0) {
    ctx.out.line("All queries are dropped.");
    return "ok";
  }
  const installed = plan.value.dropped.filter((n) => catalog.query(graph, n)?.state === "installed");
  submit(ctx, plan.value.changes);
  for (const n of installed) queries.uninstall?.(graph, n);
  ctx.out.line(`Successfully dropped queries on the graph '${graph}': ${nameList(plan.value.dropped)}.`);
  if (all) ctx.out.line(`All queries on the graph '${graph}' are dropped.`);
  return "ok";
}

function regexMatcher(source: string): ((name: string) => boolean) | undefined {
  try {
    const re = new RegExp(`^(?:${source})$`);
    return (name) => re.test(name);
  } catch {
    return undefined;
  }
}
