// The one table of what each REST endpoint, GSQL-server endpoint and GSQL command needs
// (gsql-ddl-loading-shell §11, compat-notes "Authentication"). Both servers look their
// requests up here; a REST route with no entry is open to superusers only, so a new endpoint
// is closed until someone writes down what it needs.
import type { AstDrop, AstShow, AstTopStatement } from "../../compiler/ast/index.js";
import { WRITE_DATA, type Privilege } from "./privileges.js";
import { scriptWritesData } from "./query-writes.js";

/**
 * What a request needs:
 * - `open`: nothing (login, version);
 * - `authenticated`: any valid credentials;
 * - `graph`: the privileges on the graph the request addresses;
 * - `global`: the privileges at the global scope;
 * - `run-query`: READ_DATA on the graph, the data-writing privileges too when the query
 *   writes data, and the query's EXECUTE ACL.
 */
export type AccessRule =
  | { kind: "open" }
  | { kind: "authenticated" }
  | { kind: "graph"; privileges: readonly Privilege[] }
  | { kind: "global"; privileges: readonly Privilege[] }
  | { kind: "run-query" };

const open: AccessRule = { kind: "open" };
const authenticated: AccessRule = { kind: "authenticated" };
const onGraph = (...privileges: Privilege[]): AccessRule => ({ kind: "graph", privileges });
const runQuery: AccessRule = { kind: "run-query" };

/**
 * REST endpoints by endpoint key (`METHOD /path` with `{graph_name}` for the graph). A key
 * with `/{graph_name}` also covers the form without it (single-graph deployments), which
 * addresses the one graph.
 */
export const REST_ACCESS: Readonly<Record<string, AccessRule>> = {
  "GET /echo": authenticated,
  "POST /echo": authenticated,
  "GET /version": authenticated,
  "GET /endpoints": authenticated,
  "GET /endpoints/{graph_name}": onGraph("READ_SCHEMA"),
  "GET /statistics": authenticated,
  "GET /statistics/{graph_name}": onGraph("READ_SCHEMA"),
  "GET /graph/{graph_name}/vertices/{vertex_type}": onGraph("READ_DATA"),
  "GET /graph/{graph_name}/vertices/{vertex_type}/{vertex_id}": onGraph("READ_DATA"),
  "DELETE /graph/{graph_name}/vertices/{vertex_type}": onGraph("DELETE_DATA"),
  "DELETE /graph/{graph_name}/vertices/{vertex_type}/{vertex_id}": onGraph("DELETE_DATA"),
  "DELETE /graph/{graph_name}/delete_by_type/vertices/{vertex_type}": onGraph("DELETE_DATA"),
  "GET /graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}": onGraph("READ_DATA"),
  "GET /graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}/{edge_type}": onGraph("READ_DATA"),
  "GET /graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}/{edge_type}/{target_vertex_type}": onGraph("READ_DATA"),
  "GET /graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}/{edge_type}/{target_vertex_type}/{target_vertex_id}": onGraph("READ_DATA"),
  "DELETE /graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}": onGraph("DELETE_DATA"),
  "DELETE /graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}/{edge_type}": onGraph("DELETE_DATA"),
  "DELETE /graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}/{edge_type}/{target_vertex_type}": onGraph("DELETE_DATA"),
  "DELETE /graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}/{edge_type}/{target_vertex_type}/{target_vertex_id}": onGraph("DELETE_DATA"),
  // Upserts create and update.
  "POST /graph/{graph_name}": onGraph("CREATE_DATA", "UPDATE_DATA"),
  "POST /builtins/{graph_name}": onGraph("READ_DATA"),
  // Running a loading job needs no data privileges (§11).
  "POST /ddl/{graph_name}": onGraph("EXECUTE_LOADINGJOB"),
  "GET /query/{graph_name}/{query_name}": runQuery,
  "POST /query/{graph_name}/{query_name}": runQuery,
  "GET /showprocesslist/{graph_name}": onGraph("READ_DATA"),
  "GET /abortquery/{graph_name}": onGraph("WRITE_QUERY"),
  "GET /query_status": onGraph("READ_DATA"),
  "GET /query_result": onGraph("READ_DATA"),
};

/** GSQL-server endpoints by `METHOD /path`; the graph comes from the `graph` parameter. */
export const GSQL_HTTP_ACCESS: Readonly<Record<string, AccessRule>> = {
  "POST /gsqlserver/gsql/login": open,
  "POST /gsqlserver/gsql/version": open,
  "GET /gsqlserver/gsql/getinfo": open,
  "POST /gsqlserver/gsql/abortclientsession": open,
  // Each statement is checked as it runs (statementAccess below).
  "POST /gsqlserver/gsql/file": authenticated,
  "POST /gsqlserver/gsql/command": authenticated,
  "POST /gsql/v1/statements": authenticated,
  "POST /gsqlserver/gsql/dialog": authenticated,
  "GET /gsqlserver/gsql/schema": onGraph("READ_SCHEMA"),
  "GET /gsqlserver/gsql/udtlist": onGraph("READ_SCHEMA"),
  "GET /gsqlserver/gsql/queryinfo": onGraph("READ_QUERY"),
  // The query text names its graph: checked as INTERPRET QUERY once it is parsed.
  "POST /gsqlserver/interpreted_query": authenticated,
};

/** The REST rule of an endpoint key, also for the form without `/{graph_name}`. */
export function restRule(key: string): AccessRule | undefined {
  return REST_ACCESS[key] ?? graphlessForms.get(key);
}

const graphlessForms = new Map<string, AccessRule>(
  Object.entries(REST_ACCESS)
    .filter(([key]) => key.includes("/{graph_name}") && !REST_ACCESS[key.replace("/{graph_name}", "")])
    .map(([key, rule]) => [key.replace("/{graph_name}", ""), rule]),
);

/**
 * What a GSQL statement needs, given the session's graph. `graph: undefined` with
 * `scope: "global"` means the global scope; `scope: "missing"` means the statement needs a
 * graph and has none (its handler reports that, and changes nothing).
 */
export type StatementNeed =
  | { kind: "none" }
  /** Checked by the auth statement handlers themselves (users, roles, secrets, ACLs). */
  | { kind: "handler" }
  | { kind: "privileges"; privileges: readonly Privilege[]; scope: "graph"; graph: string }
  | { kind: "privileges"; privileges: readonly Privilege[]; scope: "global" }
  | { kind: "missing-graph" }
  /** USE GRAPH: any role on the graph. */
  | { kind: "reach"; graph: string }
  | { kind: "run-query"; graph: string; query: string };

export function statementAccess(s: AstTopStatement, sessionGraph: string | undefined): StatementNeed {
  const inScope = (...privileges: Privilege[]): StatementNeed =>
    sessionGraph === undefined ? { kind: "privileges", privileges, scope: "global" } : { kind: "privileges", privileges, scope: "graph", graph: sessionGraph };
  const onGraphOf = (graph: string | undefined, ...privileges: Privilege[]): StatementNeed =>
    graph === undefined ? { kind: "missing-graph" } : { kind: "privileges", privileges, scope: "graph", graph };
  const global = (...privileges: Privilege[]): StatementNeed => ({ kind: "privileges", privileges, scope: "global" });

  switch (s.kind) {
    case "CreateVertex":
    case "CreateEdge":
    case "TypedefTuple":
    case "CreateGraph":
      return global("WRITE_SCHEMA");
    case "Drop":
      return dropAccess(s, sessionGraph, inScope, global);
    case "UseGraph":
      return { kind: "reach", graph: s.name.name };
    case "UseGlobal":
    case "Help":
    case "ShellBlock":
      return { kind: "none" };
    case "ClearGraphStore":
      return global("CLEAR_GRAPHSTORE");
    case "CreateSchemaChangeJob":
      return s.global ? global("WRITE_SCHEMA") : onGraphOf(s.graph?.name, "WRITE_SCHEMA");
    case "RunSchemaChangeJob":
      return s.global ? global("WRITE_SCHEMA") : onGraphOf(sessionGraph, "WRITE_SCHEMA");
    case "CreateLoadingJob":
      return onGraphOf(s.graph?.name ?? sessionGraph, "WRITE_LOADINGJOB");
    case "RunLoadingJob":
    case "AbortLoadingJob":
    case "ResumeLoadingJob":
      return onGraphOf(sessionGraph, "EXECUTE_LOADINGJOB");
    case "CreateQuery":
      return onGraphOf(s.graph?.name ?? sessionGraph, "WRITE_QUERY");
    case "InstallQuery":
      return inScope("WRITE_QUERY");
    case "RunQuery":
    case "InterpretQuery":
      return sessionGraph === undefined ? { kind: "missing-graph" } : { kind: "run-query", graph: sessionGraph, query: s.name.name };
    case "InterpretAnonymousQuery":
      return onGraphOf(s.graph?.name ?? sessionGraph, "READ_DATA", ...(scriptWritesData({ kind: "Script", statements: [s], range: s.range }) ? WRITE_DATA : []));
    case "Show":
      return showAccess(s, sessionGraph, inScope);
    case "Ls":
      return inScope("READ_SCHEMA");
    case "Set":
      // json_api changes how every result prints: a server-wide schema setting. The others last for the session.
      return s.name.toLowerCase() === "json_api" ? global("WRITE_SCHEMA") : { kind: "none" };
    case "CreateSecret":
    case "CreateUser":
    case "AlterPassword":
    case "AlterAclPassword":
    case "ChangeOwner":
    case "CreateRole":
    case "GrantRole":
    case "RevokeRole":
    case "GrantPrivilege":
    case "RevokePrivilege":
    case "GrantAcl":
    case "RevokeAcl":
      return { kind: "handler" };
  }
}

function dropAccess(
  s: AstDrop,
  sessionGraph: string | undefined,
  inScope: (...p: Privilege[]) => StatementNeed,
  global: (...p: Privilege[]) => StatementNeed,
): StatementNeed {
  switch (s.target) {
    case "VERTEX":
    case "EDGE":
    case "TUPLE":
      return global("WRITE_SCHEMA");
    case "GRAPH":
      return { kind: "privileges", privileges: ["DROP_GRAPH"], scope: "graph", graph: s.names[0]!.name };
    case "ALL":
      return global("DROP_ALL");
    case "QUERY":
      // DROP QUERY ALL in global scope covers every graph.
      return sessionGraph === undefined && s.all === undefined ? { kind: "missing-graph" } : inScope("WRITE_QUERY");
    case "JOB":
      // Graph jobs are loading or schema-change jobs; global ones are schema-change jobs.
      return sessionGraph === undefined ? global("WRITE_SCHEMA") : inScope("WRITE_LOADINGJOB", "WRITE_SCHEMA");
    case "USER":
    case "ROLE":
    case "SECRET":
      return { kind: "handler" };
  }
}

function showAccess(s: AstShow, sessionGraph: string | undefined, inScope: (...p: Privilege[]) => StatementNeed): StatementNeed {
  switch (s.target) {
    case "QUERY":
    case "PACKAGE":
      return sessionGraph === undefined ? { kind: "missing-graph" } : inScope("READ_QUERY");
    case "VERTEX":
    case "EDGE":
    case "GRAPH":
      return inScope("READ_SCHEMA");
    case "JOB":
      return sessionGraph === undefined ? inScope("READ_SCHEMA") : inScope("READ_LOADINGJOB");
    case "LOADING STATUS":
      return sessionGraph === undefined ? { kind: "missing-graph" } : inScope("EXECUTE_LOADINGJOB");
    case "USER":
    case "SECRET":
    case "ROLE":
    case "PRIVILEGE":
    case "ACL PRIVILEGE":
      return { kind: "handler" };
  }
}
