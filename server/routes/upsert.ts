// POST /graph/{g}: the upsert endpoint. The body is read with a size cap and read straight
// into an upsert command (duplicate keys kept, exact integers), then applied atomically.
import type Router from "@koa/router";
import type { RestServices } from "../rest-services.js";
import { upsertItemsFromText } from "../engine/upsert-body.js";
import { readBodyAs } from "../http/json-request.js";
import { sendResults } from "../http/respond.js";
import { addEndpoint, param } from "./endpoint-route.js";
import { requestGraph } from "./graph-context.js";

export function registerUpsert(router: Router, services: RestServices): void {
  const { engine } = services;
  addEndpoint(router, services, "POST /graph/{graph_name}", async (ctx, params) => {
    const graph = requestGraph(ctx, engine, params);
    const source = { text: "", maxDepth: services.limits.jsonDepth };
    const items = await readBodyAs(ctx, services.limits, (text, options) => {
      source.text = text; // kept for the write-ahead log, which records the body itself
      return upsertItemsFromText(text, options);
    });
    const outcome = engine.apply({
      kind: "upsert",
      graph: graph.name,
      ...items,
      source,
      flags: {
        newVertexOnly: param.bool(params, "new_vertex_only"),
        updateVertexOnly: param.bool(params, "update_vertex_only"),
        vertexMustExist: param.bool(params, "vertex_must_exist"),
        sourceVertexMustExist: param.bool(params, "source_vertex_must_exist"),
        targetVertexMustExist: param.bool(params, "target_vertex_must_exist"),
      },
    });
    sendResults(ctx, [outcome.result], engine.apiVersion(graph), outcome.code);
  }, { graphOptional: true });
}
