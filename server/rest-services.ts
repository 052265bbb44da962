// What the REST routes share: the engine they translate requests into, the endpoint
// registry, the request statistics and the server's limits. Built once per app.
import { Engine } from "./engine/engine.js";
import { EndpointRegistry } from "./endpoints/registry.js";
import { DEFAULT_BODY_LIMIT_BYTES } from "./http/read-body.js";
import { DEFAULT_MAX_DEPTH } from "./http/json-body.js";
import { RequestStatistics } from "./statistics/request-statistics.js";
import { RunningQueries } from "./routes/running-queries.js";

export interface RestLimits {
  /** Largest accepted request body (413 above). */
  bodyBytes: number;
  /** Deepest accepted JSON nesting. */
  jsonDepth: number;
}

export interface RestServices {
  engine: Engine;
  endpoints: EndpointRegistry;
  statistics: RequestStatistics;
  /** The queries running now (GET /showprocesslist, GET /abortquery). */
  running: RunningQueries;
  limits: RestLimits;
}

export interface RestServiceOptions {
  engine?: Engine;
  endpoints?: EndpointRegistry;
  limits?: Partial<RestLimits>;
  /** Clock in milliseconds (statistics windows); tests may pass their own. */
  now?: () => number;
}

export function createRestServices(options: RestServiceOptions = {}): RestServices {
  return {
    engine: options.engine ?? new Engine(),
    endpoints: options.endpoints ?? new EndpointRegistry(),
    statistics: new RequestStatistics(options.now),
    running: new RunningQueries(options.now),
    limits: { bodyBytes: DEFAULT_BODY_LIMIT_BYTES, jsonDepth: DEFAULT_MAX_DEPTH, ...options.limits },
  };
}
