// Registers a REST endpoint from its key in the endpoint table ("GET /graph/{graph_name}/
// vertices/{vertex_type}"): one parametric Koa route per path form (plus the graph-less form
// single-graph deployments accept, and a trailing-slash form), parameter validation against
// the descriptor before the handler runs, and the endpoint key for statistics.
import type Router from "@koa/router";
import type { Context } from "koa";
import { pathParamNames, splitEndpointKey } from "../endpoints/descriptor.js";
import { validateParams, type ParamValues, type RawParams } from "../endpoints/validate-params.js";
import type { RestServices } from "../rest-services.js";

export type EndpointHandler = (ctx: Context, params: ParamValues) => Promise<void> | void;

export interface EndpointOptions {
  /** Also answer the path without its {graph_name} segment (single-graph deployments). */
  graphOptional?: boolean;
}

const GRAPH_SEGMENT = "/{graph_name}";

export function addEndpoint(router: Router, services: RestServices, key: string, handler: EndpointHandler, options: EndpointOptions = {}): void {
  const { method, pattern } = splitEndpointKey(key);
  const descriptor = services.endpoints.descriptor(key);
  if (descriptor === undefined) throw new Error(`no descriptor for endpoint ${key}`);
  const patterns = [pattern];
  if (options.graphOptional && pattern.includes(GRAPH_SEGMENT)) patterns.push(pattern.replace(GRAPH_SEGMENT, ""));
  const paths = patterns.flatMap((p) => {
    const koaPath = p.replace(/\{([^}]+)\}/g, ":$1");
    return [koaPath]; // the router accepts a trailing slash by itself
  });
  const optionalNames = options.graphOptional ? ["graph_name"] : [];
  const segmentNames = pathParamNames(pattern);
  // Not async: a handler's promise (or nothing, for a handler that answers in the turn) is
  // passed on, so a request costs no promise of its own here.
  const run = (ctx: Context) => {
    ctx.state.endpointKey = key;
    // Path segments come from the path only: a query parameter cannot stand in for an omitted
    // segment. Without a query string the path's parameters are all there is (no copy).
    let raw = ctx.params as RawParams;
    if (ctx.querystring !== "") {
      raw = { ...(ctx.query as RawParams) };
      for (const name of segmentNames) delete raw[name];
      Object.assign(raw, ctx.params as RawParams);
    }
    return handler(ctx, validateParams(descriptor, raw, optionalNames));
  };
  router.register(paths, [method], run);
}

/** Query parameter helpers for handlers (after validation the types are known). */
export const param = {
  bool: (p: ParamValues, name: string) => p[name] === true,
  string: (p: ParamValues, name: string) => p[name] as string | undefined,
  number: (p: ParamValues, name: string) => (p[name] === undefined ? undefined : Number(p[name])),
};
