// The REST application (conventionally port 9000): composes middleware and routes once.
// Route handlers translate HTTP to engine calls and back; they hold no engine logic.
// Middleware, as few layers as the features on need (server/http/request-pipeline.ts): the
// front door (statistics, the error envelope, the not-found answer), authentication and
// access (when on), then the dispatch (the route found by a precomputed table,
// server/http/route-table.ts, run inside the durable-writes context when a data directory
// is used and the request may write).
import Koa from "koa";
import Router from "@koa/router";
import { frontDoor, routeDispatch } from "./http/request-pipeline.js";
import { createRestServices, type RestServiceOptions, type RestServices } from "./rest-services.js";
import { registerDiagnostics } from "./routes/diagnostics.js";
import { registerVertices } from "./routes/vertices.js";
import { registerEdges } from "./routes/edges.js";
import { registerUpsert } from "./routes/upsert.js";
import { registerBuiltins } from "./routes/builtins.js";
import { registerDdl } from "./routes/ddl.js";
import { registerQueries, type QueryEndpointServices } from "./routes/query.js";
import { registerRunningQueries } from "./routes/running-queries.js";
import type { AuthService } from "./auth/auth-service.js";
import { restAuthMiddleware } from "./auth/rest-auth.js";
import { isTokenPath, registerTokenRoutes } from "./auth/token-routes.js";
import { routeTableFor } from "./http/route-table.js";

export interface RestAppOptions extends RestServiceOptions {
  log?: (line: string) => void;
  /** Authentication (server/auth); absent or disabled: no checks and no /requesttoken. */
  auth?: AuthService;
  /** Holds each answer until the request's writes are durable (server/persist); absent: memory only. */
  durableWrites?: Koa.Middleware;
  /** The installed queries GET|POST /query/{graph}/{name} runs; absent: no query endpoints. */
  queries?: QueryEndpointServices;
}

export interface RestApp {
  app: Koa;
  services: RestServices;
}

export function createRestApp(options: RestAppOptions = {}): RestApp {
  const log = options.log ?? ((line: string) => process.stderr.write(line + "\n"));
  const services = createRestServices(options);
  const app = new Koa();
  const router = new Router();
  registerDiagnostics(router, services);
  registerVertices(router, services);
  registerEdges(router, services);
  registerUpsert(router, services);
  registerBuiltins(router, services);
  registerDdl(router, services);
  registerRunningQueries(router, services, services.running);
  if (options.queries) registerQueries(router, services, options.queries);
  const auth = options.auth?.enabled ? options.auth : undefined;
  if (auth) registerTokenRoutes(router, auth);
  const routes = routeTableFor(router, { mayWrite: requestMayWrite });
  app.use(frontDoor(services.statistics, log));
  if (auth) app.use(restAuthMiddleware(auth, router));
  // Only requests that can write get the write-tracking context (reads skip its cost).
  app.use(routeDispatch(routes, router, options.durableWrites));
  return { app, services };
}

/**
 * Whether a request may change data: every method but GET and HEAD, and GET on the installed
 * query routes (a query may write) and the token route. The other GET endpoints only read.
 */
function requestMayWrite(method: string, routePath: string): boolean {
  if (method !== "GET" && method !== "HEAD") return true;
  return routePath.toLowerCase().startsWith("/query/") || isTokenPath(routePath);
}
