// Dispatches requests to the routes of a @koa/router by a table computed once: method, first
// path segment and segment count pick the few routes that can match, and only those are
// tested, in registration order, with the router's own compiled patterns (so matching rules
// such as case-insensitive literals, one optional trailing slash and parameter decoding stay
// the router's). The router still registers routes and lists them; this replaces its
// per-request walk over every layer and its per-request middleware composition.
import type Router from "@koa/router";
import type { Context, Middleware, Next } from "koa";
import compose from "koa-compose";

type Layer = Router["stack"][number];

export interface RouteMatch {
  /** The router's path of the route, `:name` parameters. */
  readonly path: string;
  /** Decoded path parameters by name. */
  readonly params: Record<string, string>;
  /** Whether the request may write (the table's `mayWrite` rule for this method and route). */
  readonly mayWrite: boolean;
}

interface Candidate {
  layer: Layer;
  run: Middleware;
  mayWrite: boolean;
}

export interface RouteTableOptions {
  /** Whether a request with this method on this route may change data; by default every one may. */
  mayWrite?: (method: string, routePath: string) => boolean;
}

/** The dispatch table of a router; rebuilt when routes were added since it was computed. */
export class RouteTable {
  private byKey = new Map<string, Candidate[]>();
  /** Routes whose segment count the table cannot tell (wildcards, optional or regexp parts): tested for every request of their method. */
  private loose = new Map<string, Candidate[]>();
  private builtFor = -1;

  constructor(private readonly router: Router, private readonly options: RouteTableOptions = {}) {}

  /** The route the router would run first for this method and path, or undefined. */
  match(method: string, path: string): RouteMatch | undefined {
    if (this.builtFor !== this.router.stack.length) this.build();
    const key = requestKey(method, path);
    // A key's list already holds the loose routes of its method, in registration order.
    const candidates = this.byKey.get(key) ?? this.loose.get(method);
    return candidates ? firstMatch(candidates, path) : undefined;
  }

  /** The match for a request, computed once per request (the guard, the write context and dispatch share it). */
  matchRequest(ctx: Context): RouteMatch | undefined {
    const state = ctx.state as { routeMatch?: RouteMatch | null };
    if (state.routeMatch === undefined) state.routeMatch = this.match(ctx.method, ctx.path) ?? null;
    return state.routeMatch ?? undefined;
  }

  /** Runs the route of `match` (a match of this table) for the request; its handler gets `next`. */
  run(ctx: Context, match: RouteMatch, next: Next): Promise<unknown> {
    ctx.params = match.params;
    (ctx as { _matchedRoute?: string })._matchedRoute = match.path;
    return (match as Found).candidate.run(ctx, next) as Promise<unknown>;
  }

  /** Koa middleware running the matched route (its handler gets `next`), or `next` when none matches. */
  middleware(): Middleware & { router: Router } {
    const dispatch = (ctx: Context, next: Next) => {
      const match = this.matchRequest(ctx);
      return match === undefined ? next() : this.run(ctx, match, next);
    };
    // Tools that list the application's routes find the router where @koa/router puts it.
    return Object.assign(dispatch, { router: this.router });
  }

  private build(): void {
    const byKey = new Map<string, Candidate[]>();
    const loose = new Map<string, Candidate[]>();
    const mayWrite = this.options.mayWrite ?? (() => true);
    const all: Array<{ candidate: Candidate; method: string; key: string | undefined }> = [];
    for (const layer of this.router.stack) {
      if (layer.methods.length === 0) throw new Error("route table: router-level middleware is not supported");
      const shape = typeof layer.path === "string" ? routeShape(layer.path) : undefined;
      // The router passes its own context type; ours is the same object with params set.
      const stack = layer.stack as unknown as Middleware[];
      const run = stack.length === 1 ? stack[0]! : compose(stack);
      for (const method of layer.methods) {
        const candidate = { layer, run, mayWrite: typeof layer.path !== "string" || mayWrite(method, layer.path) };
        all.push({ candidate, method, key: shape && `${method} ${shape}` });
      }
    }
    // Each list keeps registration order; a loose route joins every list of its method, in order.
    for (const { candidate, method, key } of all) {
      if (key === undefined) push(loose, method, candidate);
    }
    for (const { method, key } of all) {
      if (key !== undefined && !byKey.has(key)) {
        byKey.set(key, all.filter((e) => e.method === method && (e.key === key || e.key === undefined)).map((e) => e.candidate));
      }
    }
    this.byKey = byKey;
    this.loose = loose;
    this.builtFor = this.router.stack.length;
  }
}

const tables = new WeakMap<Router, RouteTable>();

/** The one dispatch table of a router (created with `options` on first use). */
export function routeTableFor(router: Router, options?: RouteTableOptions): RouteTable {
  let table = tables.get(router);
  if (!table) {
    table = new RouteTable(router, options);
    tables.set(router, table);
  }
  return table;
}

/** A match together with the route it found (what `run` runs). */
interface Found extends RouteMatch {
  readonly candidate: Candidate;
}

function firstMatch(candidates: Candidate[], path: string): Found | undefined {
  for (const candidate of candidates) {
    const m = candidate.layer.regexp.exec(path);
    if (m) return { path: candidate.layer.path as string, params: candidate.layer.params(path, m.slice(1), {}) as Record<string, string>, mayWrite: candidate.mayWrite, candidate };
  }
  return undefined;
}

/**
 * "first-literal-segment segment-count" for a plain route path (literals and `:name`
 * segments only); undefined when the count is not fixed or the first segment is a parameter.
 */
function routeShape(routePath: string): string | undefined {
  if (!routePath.startsWith("/") || /[*?()[\]{}+\\]/.test(routePath)) return undefined;
  const segments = (routePath.length > 1 && routePath.endsWith("/") ? routePath.slice(0, -1) : routePath).split("/").slice(1);
  if (segments.some((s) => s === "" && segments.length > 1) || segments[0]!.startsWith(":")) return undefined;
  if (segments.some((s) => s.startsWith(":") && !/^:[A-Za-z0-9_]+$/.test(s))) return undefined;
  return `${segments[0]!.toLowerCase()} ${segments.length}`;
}

/** The same key for a request path: literals compare case-insensitively, one trailing slash is allowed. */
function requestKey(method: string, path: string): string {
  let end = path.length;
  if (end > 1 && path.charCodeAt(end - 1) === 47) end--;
  let count = 0;
  let firstEnd = -1;
  for (let i = 0; i < end; i++) {
    if (path.charCodeAt(i) === 47) {
      if (count === 1) firstEnd = i;
      count++;
    }
  }
  const first = path.slice(1, firstEnd < 0 ? end : firstEnd);
  return `${method} ${first.toLowerCase()} ${count}`;
}

function push(map: Map<string, Candidate[]>, key: string, candidate: Candidate): void {
  const list = map.get(key);
  if (list) list.push(candidate);
  else map.set(key, [candidate]);
}
