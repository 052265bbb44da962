// A GSQL shell session as the client carries it: the GSQL-Cookie header is a JSON object the
// client sends with every request, and the server replaces it with a `__GSQL__COOKIES__`
// line when the session changes (USE GRAPH, CREATE GRAPH, SET of a session parameter). So
// the session lives in the client, and each request starts from the cookie it brings.

/** Session parameters a script may SET (gsql-ddl-loading-shell §10.4), by lower-case name. */
export const SESSION_PARAMETERS: Record<string, { describe: string; check(value: string): string | undefined }> = {
  "sys.data_root": { describe: "a directory path", check: () => undefined },
  gsql_src_dir: { describe: "a directory path", check: () => undefined },
  syntax_version: {
    describe: "v1 or v2",
    check: (v) => (/^v[12]$/i.test(v) ? undefined : "syntax_version must be v1 or v2"),
  },
  query_timeout: { describe: "milliseconds", check: (v) => (/^[0-9]{1,12}$/.test(v) ? undefined : "query_timeout must be a number of milliseconds") },
  export_timeout: { describe: "milliseconds", check: (v) => (/^[0-9]{1,12}$/.test(v) ? undefined : "export_timeout must be a number of milliseconds") },
  single_gpr: { describe: "true or false", check: (v) => (/^(true|false)$/i.test(v) ? undefined : "single_gpr must be true or false") },
};

export interface Session {
  /** The working graph; undefined in global scope. */
  graph?: string;
  /** SET name = value for the session parameters above, by lower-case name. */
  parameters: Record<string, string>;
  /** The other fields the client sent (clientPath, terminalWidth, fromGsqlClient, ...), kept as they were. */
  clientFields: Record<string, unknown>;
}

const MAX_COOKIE_LENGTH = 8 * 1024;

/**
 * The session a request's GSQL-Cookie describes. A missing, oversize or malformed cookie
 * means a fresh global session: the cookie is client state, never a reason to fail.
 */
export function sessionFromCookie(header: string | undefined): Session {
  const session: Session = { parameters: {}, clientFields: {} };
  if (!header || header.length > MAX_COOKIE_LENGTH) return session;
  // Older clients append "; GSQLCookie=<json>" to a cookie they were given: the last JSON wins.
  const marker = header.lastIndexOf("GSQLCookie=");
  const text = marker >= 0 ? header.slice(marker + "GSQLCookie=".length) : header;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return session;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return session;
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (key === "graph") {
      if (typeof value === "string" && value !== "") session.graph = value;
    } else if (key === "sessionParameters") {
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
          if (typeof v === "string" && Object.prototype.hasOwnProperty.call(SESSION_PARAMETERS, name)) {
            session.parameters[name] = v;
          }
        }
      }
    } else if (key !== "__proto__") {
      session.clientFields[key] = value;
    }
  }
  return session;
}

/** The cookie text that carries `session` back to the client. */
export function cookieOfSession(session: Session): string {
  const out: Record<string, unknown> = { ...session.clientFields };
  if (session.graph !== undefined) out.graph = session.graph;
  else delete out.graph;
  if (Object.keys(session.parameters).length > 0) out.sessionParameters = session.parameters;
  else delete out.sessionParameters;
  return JSON.stringify(out);
}

export function copySession(session: Session): Session {
  return { graph: session.graph, parameters: { ...session.parameters }, clientFields: { ...session.clientFields } };
}
