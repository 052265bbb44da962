// Endpoint descriptors (interface.md "Endpoint listing"): what GET /endpoints shows and what
// every request's parameters are checked against. Plain data, keyed "METHOD /path pattern".

export type ParamType = "BOOL" | "STRING" | "INT32" | "INT64" | "UINT32" | "UINT64" | "TYPENAME";
/** Types only query parameters have (dynamic endpoints). */
export type QueryParamType = ParamType | "FLOAT" | "DOUBLE" | "DATETIME";

export interface ParamDescriptor {
  type: ParamType | QueryParamType;
  default?: string;
  min_count?: number;
  max_count?: number;
  min_length?: number;
  max_length?: number;
  min?: string;
  max?: string;
  options?: string[];
  is_id?: boolean;
  id_type?: string;
}

/**
 * null: the endpoint takes no parameters. Dynamic (query) endpoints also say how they are
 * dispatched (interface.md "Dynamic endpoint definition").
 */
export type EndpointDescriptor = ({ parameters: Record<string, ParamDescriptor> } & Partial<DispatchFields>) | null;

export interface DispatchFields {
  method: string;
  function: string;
  action: string;
  target: string;
  payload: { rule: string }[];
  graph_name: string;
  summary: string;
}

export type EndpointKind = "builtin" | "dynamic" | "static";

/** Splits "GET /graph/{graph_name}/vertices" into method and path pattern. */
export function splitEndpointKey(key: string): { method: string; pattern: string } {
  const space = key.indexOf(" ");
  return { method: key.slice(0, space), pattern: key.slice(space + 1) };
}

/** Names of the `{...}` segments of a path pattern, in order. */
export function pathParamNames(pattern: string): string[] {
  return [...pattern.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}
