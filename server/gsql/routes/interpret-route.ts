// POST /gsqlserver/interpreted_query: the body is a query text (INTERPRET QUERY () ... or a
// CREATE QUERY), its parameters are in the URL; the query runs without being installed and
// the answer is the query response envelope.
import type Router from "@koa/router";
import type { Context } from "koa";
import { bindCatalogOf } from "../../catalog/catalog.js";
import { authorized, type GsqlAppContext } from "../gsql-app.js";
import { readGsqlText } from "../request-text.js";
import { unavailable } from "../exec/query-services.js";
import type { Principal } from "../../auth/access.js";

export function registerInterpretRoute(router: Router, app: GsqlAppContext): void {
  router.post("/gsqlserver/interpreted_query", async (ctx) => {
    if (!authorized(ctx, app)) return;
    const text = await readGsqlText(ctx, app.bodyLimitBytes, "plain");
    const { exec } = app;
    if (!exec.queries.bind || !exec.queries.interpret) return refuse(ctx, 400, unavailable("Interpreting a query"));
    const parsed = exec.parse(text, "interpreted_query");
    const syntax = parsed.diagnostics.find((d) => d.severity === "error");
    if (syntax) return refuse(ctx, 400, `line ${syntax.range.start.line}:${syntax.range.start.column - 1} ${syntax.message}`);
    const definition = parsed.script.statements.find((s) => s.kind === "InterpretAnonymousQuery" || s.kind === "CreateQuery");
    if (!definition || parsed.script.statements.length !== 1) {
      return refuse(ctx, 400, "The body must hold exactly one query: INTERPRET QUERY () FOR GRAPH g { ... } or CREATE QUERY.");
    }
    const params = new URLSearchParams(ctx.querystring);
    const graph = definition.graph?.name ?? params.get("graph") ?? undefined;
    if (graph === undefined) return refuse(ctx, 400, "Name the graph with FOR GRAPH in the query or ?graph= in the URL.");
    if (!exec.engine.schema.graphs.some((g) => g.name === graph)) return refuse(ctx, 400, `Graph '${graph}' does not exist.`);
    const access = exec.access?.checkInterpret((ctx.state.gsqlAuth as { principal?: Principal } | undefined)?.principal, definition, graph);
    if (access && !access.ok) return refuse(ctx, 403, access.message);
    params.delete("graph");
    const info = exec.queries.bind(definition, bindCatalogOf(exec.catalog, () => exec.engine.schema), graph);
    const error = info.diagnostics.find((d) => d.severity === "error");
    if (error || info.bound === undefined) {
      return refuse(ctx, 400, error ? `line ${error.range.start.line}, col ${error.range.start.column - 1}: ${error.message}` : "The query could not be bound.");
    }
    const timeout = Number(ctx.get("GSQL-TIMEOUT") || "0");
    const body = await exec.queries.interpret(graph, info.bound, params, { api: exec.engine.outputApi, timeoutMs: Number.isFinite(timeout) ? timeout : 0 });
    ctx.type = "application/json";
    ctx.body = body;
  });
}

function refuse(ctx: Context, status: number, message: string): void {
  ctx.status = status;
  ctx.type = "application/json";
  ctx.body = { error: true, message, results: [] };
}
