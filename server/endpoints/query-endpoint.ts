// The dynamic endpoint of an installed query (interface.md "Dynamic endpoint definition"):
// GET /query/{graph}/{name}, dispatched to the query engine with its parameters read as a
// query string, one descriptor per query parameter (INT as INT64, a vertex as a STRING id
// of its vertex type, min_count 0 when it may be left out) plus `query`, defaulting to the
// query's name.
import type { ManifestParam, QueryManifest } from "../../runtime-wasm/query/manifest.js";
import type { EndpointDescriptor, ParamDescriptor, QueryParamType } from "./descriptor.js";

const TYPE_OF: Record<ManifestParam["type"]["base"], QueryParamType> = {
  INT: "INT64",
  UINT: "UINT64",
  FLOAT: "FLOAT",
  DOUBLE: "DOUBLE",
  BOOL: "BOOL",
  STRING: "STRING",
  DATETIME: "DATETIME",
  VERTEX: "STRING",
  JSONOBJECT: "STRING",
  JSONARRAY: "STRING",
};

export function queryEndpointKey(graph: string, name: string): string {
  return `GET /query/${graph}/${name}`;
}

export function queryEndpointDescriptor(manifest: QueryManifest): EndpointDescriptor {
  const parameters: Record<string, ParamDescriptor> = { query: { type: "STRING", default: manifest.name, min_count: 0, max_count: 1 } };
  for (const p of manifest.params) Object.assign(parameters, paramDescriptors(p));
  return {
    method: "GET",
    function: "queryDispatcher",
    action: "query",
    target: "GPE",
    payload: [{ rule: "AS_QUERY_STRING" }],
    graph_name: manifest.graph,
    parameters,
    summary: `Runs the installed query ${manifest.name} of the graph ${manifest.graph}${manifest.params.length ? `; parameters: ${manifest.params.map(paramText).join(", ")}` : ""}.`,
  };
}

function paramDescriptors(p: ManifestParam): Record<string, ParamDescriptor> {
  const { base, vertexType, collection } = p.type;
  const d: ParamDescriptor = { type: TYPE_OF[base], min_count: p.default !== undefined || collection ? 0 : 1 };
  if (!collection) d.max_count = 1;
  if (p.default !== undefined) d.default = String(p.default);
  if (base !== "VERTEX") return { [p.name]: d };
  d.is_id = true;
  if (vertexType) {
    d.id_type = vertexType;
    return { [p.name]: d };
  }
  // A vertex of any type: its type rides in `p.type` (`p[i].type` for each vertex of a set).
  const typeName = collection ? `${p.name}[i].type` : `${p.name}.type`;
  d.id_type = `$${typeName}`;
  const name = collection ? `${p.name}[i]` : p.name;
  return { [name]: d, [typeName]: { type: "TYPENAME", min_count: d.min_count, ...(collection ? {} : { max_count: 1 }) } };
}

function paramText(p: ManifestParam): string {
  const { base, vertexType, collection } = p.type;
  const element = base === "VERTEX" && vertexType ? `VERTEX<${vertexType}>` : base;
  return `${collection ? `${collection}<${element}>` : element} ${p.name}${p.default !== undefined ? ` = ${String(p.default)}` : ""}`;
}
