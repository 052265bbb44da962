// The response envelope shared by the query, graph-data and built-in endpoints
// (interface.md "Response envelope"; compat-notes "Envelope and errors").

export interface ApiVersion {
  edition: string;
  api: "v1" | "v2";
  schema: number;
}

export interface Envelope {
  version?: ApiVersion;
  error: boolean;
  message: string;
  results: unknown;
  code?: string;
}

export function successEnvelope(results: unknown, version?: ApiVersion, code?: string): Envelope {
  const env: Envelope = { error: false, message: "", results };
  if (version) env.version = version;
  if (code) env.code = code;
  return env;
}

export function errorEnvelope(message: string, code?: string, version?: ApiVersion): Envelope {
  const env: Envelope = { error: true, message, results: [] };
  if (version) env.version = version;
  if (code) env.code = code;
  return env;
}
