// Diagnostics endpoints (interface.md "Diagnostics"): GET|POST /echo, GET /version,
// GET /endpoints[/{graph}] (the endpoint listing) and GET /statistics[/{graph}].
import type Router from "@koa/router";
import type { Context } from "koa";
import { addEndpoint, param } from "./endpoint-route.js";
import type { RestServices } from "../rest-services.js";
import type { EndpointKind } from "../endpoints/descriptor.js";
import type { ParamValues } from "../endpoints/validate-params.js";
import { sendJsonText } from "../http/respond.js";
import { PRODUCT_VERSION, componentVersionLines } from "../version.js";

/** The echo answer, written once. */
const ECHO_TEXT = JSON.stringify({ error: false, message: "Hello GSQL" });

export function registerDiagnostics(router: Router, services: RestServices): void {
  const echo = async (ctx: Context, params: ParamValues) => {
    const sleep = param.number(params, "sleep") ?? 0;
    if (sleep > 0) await new Promise((resolve) => setTimeout(resolve, sleep * 1000));
    sendJsonText(ctx, ECHO_TEXT);
  };
  addEndpoint(router, services, "GET /echo", echo);
  addEndpoint(router, services, "POST /echo", echo);
  addEndpoint(router, services, "GET /version", (ctx) => {
    ctx.body = { error: "false", message: versionMessage() };
  });

  const listing = (ctx: Context, params: ParamValues) => {
    const kinds = (["builtin", "dynamic", "static"] as EndpointKind[]).filter((k) => param.bool(params, k));
    const graph = param.string(params, "graph_name");
    if (graph !== undefined) services.engine.resolveGraph(graph);
    // With authentication on, the caller sees the endpoints of the graphs it may read the schema of.
    ctx.body = services.endpoints.list(kinds, graph, ctx.state.graphVisible as ((graph: string) => boolean) | undefined);
  };
  addEndpoint(router, services, "GET /endpoints", listing);
  addEndpoint(router, services, "GET /endpoints/{graph_name}", listing);

  const statistics = (ctx: Context, params: ParamValues) => {
    const graph = param.string(params, "graph_name");
    if (graph !== undefined) services.engine.resolveGraph(graph);
    // With authentication on, the caller sees the requests on the graphs it may read the schema of.
    const visible = ctx.state.graphVisible as ((graph: string) => boolean) | undefined;
    ctx.body = services.statistics.report(param.number(params, "seconds")!, param.number(params, "segments")!, graph, visible);
  };
  addEndpoint(router, services, "GET /statistics", statistics);
  addEndpoint(router, services, "GET /statistics/{graph_name}", statistics);
}

/** Multi-line text clients parse: banner, "--- Version ---", product version, one line per component. */
function versionMessage(): string {
  return [`wasmgraph RESTPP:`, ` --- Version ---`, `wasmgraph version: ${PRODUCT_VERSION}`, ...componentVersionLines(), ""].join("\n");
}
