// Vertex endpoints: GET|DELETE /graph/{g}/vertices/{type}[/{id}] and
// DELETE /graph/{g}/delete_by_type/vertices/{type}. Reads run on a pinned snapshot; deletes
// are engine commands.
import type Router from "@koa/router";
import type { Context } from "koa";
import type { RestServices } from "../rest-services.js";
import type { ParamValues } from "../endpoints/validate-params.js";
import { parseSelect } from "../engine/read-spec.js";
import { readVertices } from "../engine/vertex-read.js";
import { sendResults } from "../http/respond.js";
import { addEndpoint, param } from "./endpoint-route.js";
import { requestGraph, selectionParams } from "./graph-context.js";

const PATH = "/graph/{graph_name}/vertices/{vertex_type}";

export function registerVertices(router: Router, services: RestServices): void {
  const { engine } = services;
  const opts = { graphOptional: true };

  // Registered before the vertex routes: without a graph segment its path would read as a graph named "delete_by_type".
  addEndpoint(router, services, "DELETE /graph/{graph_name}/delete_by_type/vertices/{vertex_type}", (ctx, params) => {
    const graph = requestGraph(ctx, engine, params);
    const results = engine.apply({
      kind: "delete-vertices-by-type",
      graph: graph.name,
      vertexType: param.string(params, "vertex_type")!,
      permanent: param.bool(params, "permanent"),
    });
    sendResults(ctx, results, engine.apiVersion(graph));
  }, opts);

  const get = (ctx: Context, params: ParamValues) => {
    const graph = requestGraph(ctx, engine, params);
    const deadline = engine.deadline(param.number(params, "timeout"));
    const results = engine.read((snapshot) =>
      readVertices(snapshot, graph, {
        vertexType: param.string(params, "vertex_type")!,
        id: param.string(params, "vertex_id"),
        select: parseSelect(param.string(params, "select")),
        countOnly: param.bool(params, "count_only"),
        ...selectionParams(params),
      }, deadline),
    );
    sendResults(ctx, results, engine.apiVersion(graph));
  };
  addEndpoint(router, services, `GET ${PATH}`, get, opts);
  addEndpoint(router, services, `GET ${PATH}/{vertex_id}`, get, opts);

  const remove = (ctx: Context, params: ParamValues) => {
    const graph = requestGraph(ctx, engine, params);
    const results = engine.apply(
      {
        kind: "delete-vertices",
        graph: graph.name,
        vertexType: param.string(params, "vertex_type")!,
        id: param.string(params, "vertex_id"),
        permanent: param.bool(params, "permanent"),
        ...selectionParams(params),
      },
      { deadline: engine.deadline(param.number(params, "timeout")) },
    );
    sendResults(ctx, results, engine.apiVersion(graph));
  };
  addEndpoint(router, services, `DELETE ${PATH}`, remove, opts);
  addEndpoint(router, services, `DELETE ${PATH}/{vertex_id}`, remove, opts);
}
