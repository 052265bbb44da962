// Edge endpoints: GET|DELETE /graph/{g}/edges/{st}/{sid}[/{et}[/{tt}[/{tid}]]]. A later
// segment needs every earlier one (the path forms themselves enforce it); `_` as the edge
// type means every type unless not_wildcard=true.
import type Router from "@koa/router";
import type { Context } from "koa";
import type { RestServices } from "../rest-services.js";
import type { ParamValues } from "../endpoints/validate-params.js";
import type { EdgeSelection } from "../engine/commands.js";
import { parseSelect } from "../engine/read-spec.js";
import { readEdges } from "../engine/edge-read.js";
import { sendResults } from "../http/respond.js";
import { addEndpoint, param } from "./endpoint-route.js";
import { requestGraph, selectionParams } from "./graph-context.js";

const BASE = "/graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}";
const FORMS = [BASE, `${BASE}/{edge_type}`, `${BASE}/{edge_type}/{target_vertex_type}`, `${BASE}/{edge_type}/{target_vertex_type}/{target_vertex_id}`];

export function registerEdges(router: Router, services: RestServices): void {
  const { engine } = services;
  const get = (ctx: Context, params: ParamValues) => {
    const graph = requestGraph(ctx, engine, params);
    const deadline = engine.deadline(param.number(params, "timeout"));
    const results = engine.read((snapshot) =>
      readEdges(snapshot, graph, {
        selection: edgeSelection(params),
        select: parseSelect(param.string(params, "select")),
        countOnly: param.bool(params, "count_only"),
        ...selectionParams(params),
      }, deadline),
    );
    sendResults(ctx, results, engine.apiVersion(graph));
  };
  const remove = (ctx: Context, params: ParamValues) => {
    const graph = requestGraph(ctx, engine, params);
    const results = engine.apply(
      { kind: "delete-edges", graph: graph.name, selection: edgeSelection(params), ...selectionParams(params) },
      { deadline: engine.deadline(param.number(params, "timeout")) },
    );
    sendResults(ctx, results, engine.apiVersion(graph));
  };
  for (const form of FORMS) {
    addEndpoint(router, services, `GET ${form}`, get, { graphOptional: true });
    addEndpoint(router, services, `DELETE ${form}`, remove, { graphOptional: true });
  }
}

function edgeSelection(params: ParamValues): EdgeSelection {
  const edgeType = param.string(params, "edge_type");
  const wildcard = edgeType === "_" && !param.bool(params, "not_wildcard");
  return {
    sourceType: param.string(params, "source_vertex_type")!,
    sourceId: param.string(params, "source_vertex_id")!,
    edgeType: wildcard ? undefined : edgeType,
    targetType: param.string(params, "target_vertex_type"),
    targetId: param.string(params, "target_vertex_id"),
  };
}
