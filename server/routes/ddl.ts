// POST /ddl/{g}: loads the raw request body through a loading job (server/loading/post-ddl.ts).
// Clients send CSV or JSON lines with a form-urlencoded content type: the body is read as
// bytes and never parsed as a form. Answer: results [{sourceFileName, statistics}], REST-0000.
import type Router from "@koa/router";
import type { RestServices } from "../rest-services.js";
import { EngineError, invalidRequest } from "../engine/engine-error.js";
import { readBodyBytes } from "../http/read-body.js";
import { sendResults } from "../http/respond.js";
import { LoadError } from "../loading/errors.js";
import { postDdl } from "../loading/post-ddl.js";
import type { JsonOut } from "../../runtime-wasm/values/index.js";
import { addEndpoint, param } from "./endpoint-route.js";
import { requestGraph } from "./graph-context.js";

export function registerDdl(router: Router, services: RestServices): void {
  const { engine } = services;
  addEndpoint(
    router,
    services,
    "POST /ddl/{graph_name}",
    async (ctx, params) => {
      const graph = requestGraph(ctx, engine, params);
      const body = await readBodyBytes(ctx, services.limits.bodyBytes);
      try {
        const results = await postDdl(engine, {
          graph: graph.name,
          tag: param.string(params, "tag")!,
          filename: param.string(params, "filename"),
          sep: param.string(params, "sep"),
          eol: param.string(params, "eol"),
          timeoutSeconds: param.number(params, "timeout"),
          concise: param.bool(params, "concise"),
          body,
        });
        sendResults(ctx, results as unknown as JsonOut, engine.apiVersion(graph), "REST-0000");
      } catch (err) {
        throw err instanceof LoadError ? loadErrorToEngine(err) : err;
      }
    },
    { graphOptional: true },
  );
}

function loadErrorToEngine(err: LoadError): EngineError {
  if (err.kind === "timeout") return new EngineError("timeout", "REST-3000", err.message);
  return invalidRequest(err.message);
}
