// All endpoints the REST server knows, by kind: the built-in table, plus endpoints added at
// run time (dynamic ones when a query is installed, static ones installed by the user).
// GET /endpoints lists from here; query installation registers and removes entries here.
import { BUILTIN_ENDPOINTS } from "./builtin-endpoints.js";
import type { EndpointDescriptor, EndpointKind } from "./descriptor.js";

interface AddedEndpoint {
  kind: "dynamic" | "static";
  /** Graph the endpoint belongs to; listed by /endpoints/{graph} only for that graph. */
  graph?: string;
  descriptor: EndpointDescriptor;
}

export class EndpointRegistry {
  private readonly added = new Map<string, AddedEndpoint>();

  /** Registration hook for query installation: key is "METHOD /path". Replaces an existing entry. */
  register(key: string, kind: "dynamic" | "static", descriptor: EndpointDescriptor, graph?: string): void {
    if (key in BUILTIN_ENDPOINTS) throw new Error(`endpoint ${key} is built in`);
    this.added.set(key, { kind, descriptor, graph });
  }

  unregister(key: string): boolean {
    return this.added.delete(key);
  }

  descriptor(key: string): EndpointDescriptor | undefined {
    if (Object.hasOwn(BUILTIN_ENDPOINTS, key)) return BUILTIN_ENDPOINTS[key];
    return this.added.get(key)?.descriptor;
  }

  /**
   * The listing object: kinds restricts to those kinds (all when empty); graph restricts
   * added endpoints to that graph's (built-ins are listed for every graph); `visible`, when
   * given, keeps only the added endpoints of graphs it accepts (the caller's graphs).
   */
  list(kinds: readonly EndpointKind[], graph?: string, visible?: (graph: string) => boolean): Record<string, EndpointDescriptor> {
    const want = (k: EndpointKind) => kinds.length === 0 || kinds.includes(k);
    const out: Record<string, EndpointDescriptor> = {};
    if (want("builtin")) Object.assign(out, BUILTIN_ENDPOINTS);
    const keys = [...this.added.keys()].sort();
    for (const key of keys) {
      const e = this.added.get(key)!;
      if (!want(e.kind)) continue;
      if (graph !== undefined && e.graph !== undefined && e.graph !== graph) continue;
      if (visible && e.graph !== undefined && !visible(e.graph)) continue;
      out[key] = e.descriptor;
    }
    return out;
  }
}
