// The table of built-in endpoints: every path pattern the REST server answers, with the
// full descriptor of each parameter (path segments included). The same table drives the
// listing of GET /endpoints and the validation of every request.
import type { EndpointDescriptor, ParamDescriptor } from "./descriptor.js";

/** Most items a vertex or edge read returns, with or without `limit`. */
export const RESULT_CAP = 10240;
/** Longest select, filter and sort text, and longest vertex id in a vertex path. */
export const LONG_TEXT_LIMIT = 2560;
/** Longest vertex id in an edge path. */
export const EDGE_PATH_ID_LIMIT = 256;

const optional = (p: ParamDescriptor): ParamDescriptor => ({ min_count: 0, max_count: 1, ...p });
const required = (p: ParamDescriptor): ParamDescriptor => ({ min_count: 1, max_count: 1, ...p });
const flag = (): ParamDescriptor => optional({ type: "BOOL", default: "false" });

const graphName = required({ type: "STRING", max_length: 256 });
const longText = () => optional({ type: "STRING", max_length: LONG_TEXT_LIMIT });
const limit = () => optional({ type: "UINT64", min: "0", max: String(RESULT_CAP) });
const timeout = () => optional({ type: "UINT32", default: "0" });
const ack = () => optional({ type: "STRING", default: "all", options: ["all", "none"] });

const vertexPath = { graph_name: graphName, vertex_type: required({ type: "TYPENAME" }) };
const vertexId = required({ type: "STRING", max_length: LONG_TEXT_LIMIT, is_id: true, id_type: "$vertex_type" });

const vertexGet = { ...vertexPath, count_only: flag(), select: longText(), filter: longText(), limit: limit(), sort: longText(), timeout: timeout() };
const vertexDelete = { ...vertexPath, filter: longText(), limit: limit(), sort: longText(), timeout: timeout(), permanent: flag() };

const edgeSource = {
  graph_name: graphName,
  source_vertex_type: required({ type: "TYPENAME" }),
  source_vertex_id: required({ type: "STRING", max_length: EDGE_PATH_ID_LIMIT, is_id: true, id_type: "$source_vertex_type" }),
};
const edgeType = required({ type: "STRING", max_length: LONG_TEXT_LIMIT });
const targetType = required({ type: "TYPENAME" });
const targetId = required({ type: "STRING", max_length: EDGE_PATH_ID_LIMIT, is_id: true, id_type: "$target_vertex_type" });
const edgeGetQuery = { count_only: flag(), not_wildcard: flag(), select: longText(), filter: longText(), limit: limit(), sort: longText(), timeout: timeout() };
const edgeDeleteQuery = { not_wildcard: flag(), select: longText(), filter: longText(), limit: limit(), sort: longText(), timeout: timeout(), permanent: flag() };

const EDGE_PATHS = [
  ["/graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}", {}],
  ["/graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}/{edge_type}", { edge_type: edgeType }],
  ["/graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}/{edge_type}/{target_vertex_type}", { edge_type: edgeType, target_vertex_type: targetType }],
  [
    "/graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}/{edge_type}/{target_vertex_type}/{target_vertex_id}",
    { edge_type: edgeType, target_vertex_type: targetType, target_vertex_id: targetId },
  ],
] as const;

function edgeEndpoints(): Record<string, EndpointDescriptor> {
  const out: Record<string, EndpointDescriptor> = {};
  for (const [path, segments] of EDGE_PATHS) {
    out[`GET ${path}`] = { parameters: { ...edgeSource, ...segments, ...edgeGetQuery } };
    out[`DELETE ${path}`] = { parameters: { ...edgeSource, ...segments, ...edgeDeleteQuery } };
  }
  return out;
}

const echo: EndpointDescriptor = { parameters: { sleep: optional({ type: "INT32", default: "0", max: "3600" }) } };
const listing = { builtin: flag(), dynamic: flag(), static: flag() };
const statistics = {
  seconds: optional({ type: "UINT32", default: "10", min: "1", max: "60" }),
  segments: optional({ type: "UINT32", default: "10", min: "1", max: "100" }),
};

/** Every built-in endpoint, keyed "METHOD /path pattern". */
export const BUILTIN_ENDPOINTS: Readonly<Record<string, EndpointDescriptor>> = {
  "GET /echo": echo,
  "POST /echo": echo,
  "GET /endpoints": { parameters: listing },
  "GET /endpoints/{graph_name}": { parameters: { graph_name: graphName, ...listing } },
  "GET /statistics": { parameters: statistics },
  "GET /statistics/{graph_name}": { parameters: { graph_name: graphName, ...statistics } },
  "GET /version": null,
  "GET /graph/{graph_name}/vertices/{vertex_type}": { parameters: vertexGet },
  "GET /graph/{graph_name}/vertices/{vertex_type}/{vertex_id}": { parameters: { ...vertexGet, vertex_id: vertexId } },
  "DELETE /graph/{graph_name}/vertices/{vertex_type}": { parameters: vertexDelete },
  "DELETE /graph/{graph_name}/vertices/{vertex_type}/{vertex_id}": { parameters: { ...vertexDelete, vertex_id: vertexId } },
  "DELETE /graph/{graph_name}/delete_by_type/vertices/{vertex_type}": {
    parameters: { ...vertexPath, permanent: flag(), ack: ack() },
  },
  ...edgeEndpoints(),
  "POST /graph/{graph_name}": {
    parameters: {
      graph_name: graphName,
      ack: ack(),
      new_vertex_only: flag(),
      update_vertex_only: flag(),
      vertex_must_exist: flag(),
      source_vertex_must_exist: flag(),
      target_vertex_must_exist: flag(),
    },
  },
  "POST /builtins/{graph_name}": { parameters: { graph_name: graphName } },
  "POST /ddl/{graph_name}": {
    parameters: {
      graph_name: graphName,
      tag: required({ type: "STRING", max_length: 256 }),
      filename: optional({ type: "STRING", max_length: 4096 }),
      sep: optional({ type: "STRING", min_length: 1, max_length: 4 }),
      eol: optional({ type: "STRING", min_length: 1, max_length: 4 }),
      ack: ack(),
      timeout: timeout(),
      concise: flag(),
    },
  },
  // The queries running on a graph, and stopping them (by request id, repeated, or `all`).
  "GET /showprocesslist/{graph_name}": { parameters: { graph_name: graphName } },
  // Detached runs (GSQL-ASYNC): their state, and their answer once they ended.
  "GET /query_status": { parameters: { graph_name: optional({ type: "STRING", max_length: 256 }), requestid: required({ type: "STRING", max_length: 256 }) } },
  "GET /query_result": { parameters: { graph_name: optional({ type: "STRING", max_length: 256 }), requestid: required({ type: "STRING", max_length: 256 }) } },
  "GET /abortquery/{graph_name}": { parameters: { graph_name: graphName, requestid: { type: "STRING", min_count: 1, max_count: 0, max_length: 256 } } },
};
