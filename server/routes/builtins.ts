// POST /builtins/{g}: the built-in statistics functions. The body is a JSON object whose
// key `function` names the function; `type`, `from_type` and `to_type` default to `*`.
import type Router from "@koa/router";
import type { RestServices } from "../rest-services.js";
import { runBuiltin, BUILTIN_FUNCTIONS } from "../engine/builtin-stats.js";
import { invalidRequest } from "../engine/engine-error.js";
import { isJsonObject, lastByKey } from "../http/json-body.js";
import { readJsonBody } from "../http/json-request.js";
import { sendResults } from "../http/respond.js";
import { addEndpoint } from "./endpoint-route.js";
import { requestGraph } from "./graph-context.js";

export function registerBuiltins(router: Router, services: RestServices): void {
  const { engine } = services;
  addEndpoint(router, services, "POST /builtins/{graph_name}", async (ctx, params) => {
    const graph = requestGraph(ctx, engine, params);
    const body = await readJsonBody(ctx, services.limits);
    if (!isJsonObject(body)) throw invalidRequest('The body of /builtins must be a JSON object such as {"function":"stat_vertex_number","type":"*"}.');
    const fields = lastByKey(body);
    const text = (name: string, fallback?: string): string => {
      const v = fields.get(name);
      if (v === undefined && fallback !== undefined) return fallback;
      if (typeof v !== "string") {
        throw invalidRequest(v === undefined ? `The body of /builtins needs "${name}" (one of ${BUILTIN_FUNCTIONS.join(", ")}).` : `"${name}" must be a string.`);
      }
      return v;
    };
    const request = { function: text("function"), type: text("type", "*"), fromType: text("from_type", "*"), toType: text("to_type", "*") };
    const deadline = engine.deadline(0);
    const results = engine.read((snapshot) => runBuiltin(snapshot, graph, request, deadline));
    sendResults(ctx, results, engine.apiVersion(graph));
  }, { graphOptional: true });
}
