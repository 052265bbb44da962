// Listing commands: `ls`, SHOW VERTEX|EDGE|GRAPH|JOB [name | glob | -r "regex"], HELP.
// Results are limited to the current scope (a graph's types, or the global ones).
import type { AstShow } from "../../../compiler/ast/index.js";
import { runShowLoadingStatus } from "./loading-runs.js";
import { SESSION_PARAMETERS } from "../session.js";
import { workingGraph, type Outcome, type StatementContext } from "./context.js";
import { globMatcher } from "./glob.js";
import { graphEdgeTypes, graphVertexTypes, lsText } from "./ls.js";
import { runShowQuery } from "./query-show-drop.js";
import { edgeTypeText, graphText, vertexTypeText } from "./schema-lines.js";

export function runLs(ctx: StatementContext): Outcome {
  const { engine, catalog } = ctx.services;
  const graph = ctx.session.graph;
  if (graph !== undefined && !engine.schema.graphs.some((g) => g.name === graph)) {
    ctx.out.line(`Graph '${graph}' does not exist.`);
    return "error";
  }
  const lines = lsText({
    schema: engine.schema,
    catalog,
    graph,
    jsonApi: engine.outputApi,
    syntaxVersion: ctx.session.parameters.syntax_version ?? "v1",
    sessionParameters: ctx.session.parameters,
  });
  for (const l of lines) ctx.out.line(l);
  return "ok";
}

export function runShow(s: AstShow, ctx: StatementContext): Outcome {
  switch (s.target) {
    case "QUERY":
      return runShowQuery(s, ctx);
    case "VERTEX":
    case "EDGE":
    case "GRAPH":
      return showSchemaItems(s, ctx);
    case "JOB":
      return showJobs(s, ctx);
    case "LOADING STATUS":
      return runShowLoadingStatus(s, ctx);
    default:
      ctx.out.line(`SHOW ${s.target} is not available in this server.`);
      return "error";
  }
}

function matcher(s: AstShow): ((name: string) => boolean) | undefined {
  if (!s.regex) return globMatcher(s.pattern ?? "*");
  try {
    const re = new RegExp(`^(?:${s.regex.value})$`);
    return (name) => re.test(name);
  } catch {
    return undefined;
  }
}

function showSchemaItems(s: AstShow, ctx: StatementContext): Outcome {
  const match = matcher(s);
  if (!match) {
    ctx.out.line(`The regular expression "${s.regex!.value}" is not valid.`);
    return "error";
  }
  const schema = ctx.services.engine.schema;
  const g = ctx.session.graph === undefined ? undefined : schema.graphs.find((x) => x.name === ctx.session.graph);
  if (ctx.session.graph !== undefined && !g) {
    ctx.out.line(`Graph '${ctx.session.graph}' does not exist.`);
    return "error";
  }
  let lines: string[];
  if (s.target === "VERTEX") {
    const types = g ? graphVertexTypes(schema, g) : schema.vertexTypes.filter((v) => v.graph === undefined);
    lines = types.filter((v) => match(v.name)).map((v) => "  - " + vertexTypeText(v));
  } else if (s.target === "EDGE") {
    const types = g ? graphEdgeTypes(schema, g) : schema.edgeTypes.filter((e) => e.graph === undefined);
    lines = types.filter((e) => match(e.name)).map((e) => "  - " + edgeTypeText(e));
  } else {
    const graphs = g ? [g] : schema.graphs;
    lines = graphs.filter((x) => match(x.name)).map((x) => "  - " + graphText(x));
  }
  if (lines.length === 0 && s.pattern !== undefined && !/[*?]/.test(s.pattern)) {
    ctx.out.line(`The ${s.target.toLowerCase()} ${s.pattern} does not exist.`);
    return "error";
  }
  for (const l of lines) ctx.out.line(l);
  return "ok";
}

function showJobs(s: AstShow, ctx: StatementContext): Outcome {
  const match = matcher(s);
  if (!match) {
    ctx.out.line(`The regular expression "${s.regex!.value}" is not valid.`);
    return "error";
  }
  const { catalog } = ctx.services;
  const graph = ctx.session.graph;
  if (graph !== undefined) {
    const where = workingGraph(ctx);
    if (!where.graph) return where.outcome!;
  }
  const jobs = [...(graph === undefined ? [] : catalog.loadingJobs(graph)), ...catalog.schemaChangeJobs(graph)].filter((j) => match(j.name));
  if (jobs.length === 0 && s.pattern !== undefined && !/[*?]/.test(s.pattern)) {
    ctx.out.line(`The job ${s.pattern} does not exist.`);
    return "error";
  }
  for (const j of jobs) ctx.out.line(j.text);
  return "ok";
}

export function runHelp(ctx: StatementContext): Outcome {
  const lines = [
    "GSQL commands (keywords in any case; names are case-sensitive):",
    "  ls                                   list the catalog of the current scope",
    "  USE GRAPH g | USE GLOBAL             change the scope",
    "  CREATE VERTEX/EDGE/GRAPH ..., TYPEDEF TUPLE <...> name",
    "  DROP VERTEX/EDGE/TUPLE/GRAPH name [CASCADE] | DROP ALL",
    "  CREATE [GLOBAL] SCHEMA_CHANGE JOB j ... { ... }, RUN [GLOBAL] SCHEMA_CHANGE JOB j",
    "  CREATE LOADING JOB j [FOR GRAPH g] { ... }, RUN LOADING JOB j [USING f=\"path\"], DROP JOB j|*|ALL",
    "  CREATE [OR REPLACE] QUERY q(...) [FOR GRAPH g] { ... }",
    "  INSTALL QUERY [-force] q[, q2] | * | ALL, INSTALL QUERY -OPTIMIZE",
    "  RUN QUERY [-av] [-d] q(args), INTERPRET QUERY q(args), INTERPRET QUERY () { ... }",
    "  SHOW QUERY|VERTEX|EDGE|GRAPH|JOB [name | glob | -r \"regex\"], DROP QUERY q|*|ALL",
    "  SET json_api = v1|v2, SET exit_on_error = true|false, SET " + Object.keys(SESSION_PARAMETERS).join("|") + " = value",
    "  SHOW LOADING STATUS jobid|ALL, ABORT LOADING JOB jobid|ALL, RESUME LOADING JOB jobid",
    "  CLEAR GRAPH STORE [-HARD]",
    "  BEGIN ... END (several lines as one command at the prompt), @file.gsql, exit, quit",
  ];
  for (const l of lines) ctx.out.line(l);
  return "ok";
}
