// Shared by the graph-data routes: resolves the graph a request addresses (single-graph
// deployments may omit it), remembers it for statistics and the error envelope's version.
import type { Context } from "koa";
import type { Engine, GraphHandle } from "../engine/engine.js";
import type { ParamValues } from "../endpoints/validate-params.js";
import { parseFilter, parseSort } from "../engine/read-spec.js";
import { param } from "./endpoint-route.js";

export function requestGraph(ctx: Context, engine: Engine, params: ParamValues): GraphHandle {
  const graph = engine.resolveGraph(param.string(params, "graph_name"));
  ctx.state.graph = graph.name;
  ctx.state.apiVersion = engine.apiVersion(graph);
  return graph;
}

/** filter, sort and limit as the read and delete endpoints share them. */
export function selectionParams(params: ParamValues) {
  return {
    filter: parseFilter(param.string(params, "filter")),
    sort: parseSort(param.string(params, "sort")),
    limit: param.number(params, "limit"),
  };
}
