// POST /graph/{g}: the upsert endpoint. The body is read with a size cap straight into the
// store's form (upsert-reader.ts: duplicate keys kept, exact integers, checked against the
// schema as it is read) and applied atomically in the same turn, so the schema it was
// checked against is the one it meets. The command carries the body text too: that is what
// the write-ahead log records.
import type Router from "@koa/router";
import type { RestServices } from "../rest-services.js";
import type { UpsertFlags } from "../engine/commands.js";
import { upsertBatchFromText } from "../engine/upsert-reader.js";
import { readBodyAs } from "../http/json-request.js";
import { sendResults } from "../http/respond.js";
import { addEndpoint, param } from "./endpoint-route.js";
import { requestGraph } from "./graph-context.js";

export function registerUpsert(router: Router, services: RestServices): void {
  const { engine } = services;
  addEndpoint(router, services, "POST /graph/{graph_name}", async (ctx, params) => {
    const name = requestGraph(ctx, engine, params).name;
    const flags: UpsertFlags = {
      newVertexOnly: param.bool(params, "new_vertex_only"),
      updateVertexOnly: param.bool(params, "update_vertex_only"),
      vertexMustExist: param.bool(params, "vertex_must_exist"),
      sourceVertexMustExist: param.bool(params, "source_vertex_must_exist"),
      targetVertexMustExist: param.bool(params, "target_vertex_must_exist"),
    };
    const maxDepth = services.limits.jsonDepth;
    const outcome = await readBodyAs(ctx, services.limits, (text) => {
      // The graph again: its schema may have changed while the body arrived.
      const graph = engine.resolveGraph(name);
      const batch = upsertBatchFromText(text, graph, engine.schema.tuples, { maxDepth });
      return { graph, ...engine.apply({ kind: "upsert-batch", graph: name, ...batch, flags, source: { text, maxDepth } }) };
    });
    sendResults(ctx, [outcome.result], engine.apiVersion(outcome.graph), outcome.code);
  }, { graphOptional: true });
}
