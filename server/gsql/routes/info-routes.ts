// Catalog information as JSON for clients: the schema of a graph in the shape the
// interface's clients read, tuple types, and query metadata. Envelope: {error, message,
// results}; an unknown graph or query is a 400 with error true (clients raise a typed error
// for any non-2xx status other than 404, so a bad parameter must not answer 404).
import type Router from "@koa/router";
import type { Context } from "koa";
import { authorized, type GsqlAppContext } from "../gsql-app.js";
import { graphSchemaJson, tupleListJson } from "../schema-json.js";

export function registerInfoRoutes(router: Router, app: GsqlAppContext): void {
  router.get("/gsqlserver/gsql/schema", (ctx) => {
    if (!authorized(ctx, app)) return;
    const graph = requiredGraph(ctx, app);
    if (graph === undefined) return;
    const schema = app.exec.engine.schema;
    answer(ctx, graphSchemaJson(schema, schema.graphs.find((g) => g.name === graph)!));
  });

  router.get("/gsqlserver/gsql/udtlist", (ctx) => {
    if (!authorized(ctx, app)) return;
    if (ctx.query.graph !== undefined && requiredGraph(ctx, app) === undefined) return;
    answer(ctx, tupleListJson(app.exec.engine.schema.tuples));
  });

  router.get("/gsqlserver/gsql/queryinfo", (ctx) => {
    if (!authorized(ctx, app)) return;
    const graph = requiredGraph(ctx, app);
    if (graph === undefined) return;
    const name = singleParam(ctx, "query");
    const all = app.exec.catalog.queries(graph);
    const chosen = name === undefined ? all : all.filter((q) => q.name === name);
    if (name !== undefined && chosen.length === 0) {
      refuse(ctx, `The query ${name} does not exist on the graph '${graph}'.`);
      return;
    }
    answer(ctx, chosen.map((q) => ({
      queryname: q.name,
      graphname: q.graph,
      status: q.state,
      installed: q.state === "installed",
      endpoint: `GET /query/${q.graph}/${q.name}`,
      input: q.params.map((p) => (p.default === undefined ? { name: p.name, type: p.type } : { name: p.name, type: p.type, default: p.default })),
      callees: q.callees,
    })));
  });
}

function singleParam(ctx: Context, name: string): string | undefined {
  const v = ctx.query[name];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

/** The `graph` parameter, which must name an existing graph; answers the refusal otherwise. */
function requiredGraph(ctx: Context, app: GsqlAppContext): string | undefined {
  const graph = singleParam(ctx, "graph");
  if (graph === undefined || graph === "") {
    refuse(ctx, "The graph parameter is required, as in ?graph=<graph_name>.");
    return undefined;
  }
  if (!app.exec.engine.schema.graphs.some((g) => g.name === graph)) {
    refuse(ctx, `Graph '${graph}' does not exist.`);
    return undefined;
  }
  return graph;
}

function answer(ctx: Context, results: unknown): void {
  ctx.type = "application/json";
  ctx.body = { error: false, message: "", results };
}

function refuse(ctx: Context, message: string): void {
  ctx.status = 400;
  ctx.type = "application/json";
  ctx.body = { error: true, message, results: [] };
}
