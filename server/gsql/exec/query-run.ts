// RUN QUERY and INTERPRET QUERY at the shell. RUN QUERY turns its arguments into the
// query-string parameters of GET /query/{graph}/{name} and sends that request to the REST
// endpoints, so the shell and REST clients run queries through one path; -av and -d become
// the `__GQUERY__` options. INTERPRET QUERY binds the text and runs it without installing.
// Both print the response as indented JSON.
import type { AstInterpretAnonymousQuery, AstInterpretQuery, AstQueryDefinition, AstRunQuery } from "../../../compiler/ast/index.js";
import { workingGraph, type Outcome, type StatementContext } from "./context.js";
import { printQueryDiagnostics } from "./diagnostic-text.js";
import { prettyJson } from "./json-pretty.js";
import { bindDefinition } from "./query-create.js";
import { argumentsToParameters, paramsOf } from "./query-params.js";
import { unavailable } from "./query-services.js";

export async function runRunQuery(s: AstRunQuery, ctx: StatementContext): Promise<Outcome> {
  const where = workingGraph(ctx);
  if (!where.graph) return where.outcome!;
  const graph = where.graph;
  const name = s.name.name;
  const q = ctx.services.catalog.query(graph, name);
  if (!q) {
    ctx.out.line(`The query ${name} does not exist on the graph '${graph}'.`);
    return "error";
  }
  if (q.state !== "installed") {
    ctx.out.line(`The query ${name} is not installed. Install it with INSTALL QUERY ${name}, or run it without installing with INTERPRET QUERY ${name}(...).`);
    return "error";
  }
  const flags = s.flags.map((f) => f.name.toLowerCase());
  const unknown = flags.find((f) => f !== "av" && f !== "d");
  if (unknown) {
    ctx.out.line(`Unknown option -${unknown} for RUN QUERY; the options are -av and -d.`);
    return "error";
  }
  const args = argumentsToParameters(name, q.params, s.args);
  if (!args.ok) {
    ctx.out.line(args.message);
    return "error";
  }
  if (flags.includes("av")) args.parameters.append("__GQUERY__USING_ALL_ACTIVE_MODE", "true");
  if (flags.includes("d")) args.parameters.append("__GQUERY__monitor", "true");
  const query = args.parameters.toString();
  const headers: Record<string, string> = {};
  const timeout = ctx.session.parameters.query_timeout;
  if (timeout !== undefined) headers["GSQL-TIMEOUT"] = timeout;
  const authorization = ctx.services.access?.restAuthorization(ctx);
  if (authorization !== undefined) headers.Authorization = authorization;
  const response = await ctx.services.restFetch(`/query/${encodeURIComponent(graph)}/${encodeURIComponent(name)}${query ? "?" + query : ""}`, { headers });
  return printEnvelope(response.text, ctx);
}

/** INTERPRET QUERY name(args): a created query, run without installing. */
export async function runInterpretQuery(s: AstInterpretQuery, ctx: StatementContext): Promise<Outcome> {
  const where = workingGraph(ctx);
  if (!where.graph) return where.outcome!;
  const graph = where.graph;
  const q = ctx.services.catalog.query(graph, s.name.name);
  if (!q) {
    ctx.out.line(`The query ${s.name.name} does not exist on the graph '${graph}'.`);
    return "error";
  }
  const parsed = ctx.services.parse(q.text, q.name);
  const definition = parsed.script.statements.find((st) => st.kind === "CreateQuery");
  if (!definition) {
    ctx.out.line(`The stored text of the query ${q.name} no longer parses.`);
    return "error";
  }
  const args = argumentsToParameters(q.name, paramsOf(definition.params, q.text), s.args);
  if (!args.ok) {
    ctx.out.line(args.message);
    return "error";
  }
  return interpret(ctx, definition, graph, args.parameters);
}

/** INTERPRET QUERY () [FOR GRAPH g] { ... } */
export async function runInterpretAnonymous(s: AstInterpretAnonymousQuery, ctx: StatementContext): Promise<Outcome> {
  const where = workingGraph(ctx, s.graph?.name);
  if (!where.graph) return where.outcome!;
  return interpret(ctx, s, where.graph, new URLSearchParams());
}

async function interpret(ctx: StatementContext, definition: AstQueryDefinition, graph: string, parameters: URLSearchParams): Promise<Outcome> {
  const run = ctx.services.queries.interpret;
  if (!run || !ctx.services.queries.bind) {
    ctx.out.line(unavailable("INTERPRET QUERY"));
    return "error";
  }
  const info = bindDefinition(ctx, definition, graph);
  const name = definition.name?.name ?? "anonymous";
  if (info.diagnostics.some((d) => d.severity === "error") || info.bound === undefined) {
    printQueryDiagnostics(name, info.diagnostics, ctx.out);
    return "error";
  }
  const timeout = Number(ctx.session.parameters.query_timeout ?? "0");
  const text = await run(graph, info.bound, parameters, { api: ctx.services.engine.outputApi, timeoutMs: timeout });
  return printEnvelope(text, ctx);
}

/** Prints a response envelope; one whose `error` is true (or not JSON at all) is a failed command. */
function printEnvelope(text: string, ctx: StatementContext): Outcome {
  ctx.out.line(prettyJson(text));
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    return parsed.error === true || parsed.error === "true" ? "error" : "ok";
  } catch {
    return "error";
  }
}
