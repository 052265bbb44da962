// Schema DDL at the shell: CREATE VERTEX/EDGE/GRAPH, TYPEDEF TUPLE, DROP VERTEX/EDGE/TUPLE/
// GRAPH/ALL, USE GRAPH/GLOBAL, CLEAR GRAPH STORE. The binder's pure DDL functions compute
// the new schema; the engine applies it together with the catalog changes it implies, as
// one command. Messages as gsql-ddl-loading-shell §5 and §10.5 give them.
import type { AstClearGraphStore, AstCreateEdge, AstCreateGraph, AstCreateVertex, AstDrop, AstTypedefTuple, AstUseGraph } from "../../../compiler/ast/index.js";
import { DiagnosticLog } from "../../../compiler/diagnostics/index.js";
import { applyDdl } from "../../../compiler/bind/ddl/apply.js";
import { ddlFromAst } from "../../../compiler/bind/ddl/from-ast.js";
import type { CatalogChange } from "../../catalog/catalog-state.js";
import { nameList, submit, type Outcome, type StatementContext } from "./context.js";
import { printDdlDiagnostics } from "./diagnostic-text.js";

type CreateStatement = AstCreateVertex | AstCreateEdge | AstTypedefTuple | AstCreateGraph;

export function runCreateType(s: CreateStatement, ctx: StatementContext): Outcome {
  const log = new DiagnosticLog();
  const command = ddlFromAst(s, log);
  const result = command && !log.hasErrors() ? applyDdl(ctx.services.engine.schema, command, log) : undefined;
  if (!result?.ok) {
    printDdlDiagnostics(log.diagnostics, ctx.out);
    ctx.out.line(createFailureLine(s));
    return "error";
  }
  submit(ctx, [], { schema: result.schema });
  const e = result.effect;
  if (e.createdVertexTypes.length > 0) ctx.out.line(`Successfully created vertex types: ${nameList(e.createdVertexTypes)}.`);
  if (e.createdEdgeTypes.length > 0) ctx.out.line(`Successfully created edge types: ${nameList(e.createdEdgeTypes)}.`);
  if (e.createdReverseEdgeTypes.length > 0) ctx.out.line(`Successfully created reverse edge types: ${nameList(e.createdReverseEdgeTypes)}.`);
  if (e.createdTuples.length > 0) ctx.out.line(`Successfully created tuple types: ${nameList(e.createdTuples)}.`);
  for (const g of e.createdGraphs) {
    ctx.out.line(`The graph ${g} is created.`);
    // CREATE GRAPH makes the new graph the working graph.
    ctx.session.graph = g;
    ctx.sessionChanged();
  }
  return "ok";
}

function createFailureLine(s: CreateStatement): string {
  switch (s.kind) {
    case "CreateVertex":
      return `Failed to create vertex types: ${nameList([s.name.name])}.`;
    case "CreateEdge":
      return `Failed to create edge types: ${nameList([s.name.name])}.`;
    case "TypedefTuple":
      return `Failed to create tuple types: ${nameList([s.name.name])}.`;
    case "CreateGraph":
      return `The graph ${s.name.name} could not be created!`;
  }
}

/** DROP VERTEX/EDGE/TUPLE/GRAPH and DROP ALL. */
export function runDropSchema(s: AstDrop, ctx: StatementContext): Outcome {
  const { engine, catalog } = ctx.services;
  const log = new DiagnosticLog();
  const names = s.names.map((n) => n.name);
  if (s.target === "GRAPH") {
    // Without CASCADE a graph that still has queries or jobs is kept (gsql-ddl-loading-shell §5).
    for (const g of names) {
      if (!s.cascade && (catalog.queries(g).length > 0 || catalog.jobNames(g).length > 0)) {
        ctx.out.line(`Semantic Check Fails: The graph ${g} still has queries or jobs; drop them first or use DROP GRAPH ${g} CASCADE.`);
        ctx.out.line(`The graph ${g} could not be dropped!`);
        return "error";
      }
    }
  }
  const command = ddlFromAst(s, log);
  const result = command && !log.hasErrors() ? applyDdl(engine.schema, command, log) : undefined;
  if (!result?.ok) {
    printDdlDiagnostics(log.diagnostics, ctx.out);
    ctx.out.line(dropFailureLine(s, names));
    return "error";
  }
  const changes: CatalogChange[] = s.target === "ALL" ? [{ kind: "clear" }]
    : result.effect.droppedGraphs.map((graph) => ({ kind: "drop-graph-objects" as const, graph }));
  if (s.target === "ALL") {
    for (const g of engine.schema.graphs) uninstallAll(ctx, g.name);
    ctx.out.line("Dropping all, about 1 minute ...");
    ctx.out.line("Abort all active loading jobs");
    ctx.out.line("[ABORT_SUCCESS] No active Loading Job to abort.");
    ctx.out.line("Resetting GPE...");
    ctx.out.line("Successfully reset GPE and GSE");
    submit(ctx, changes, { schema: result.schema, clearData: true });
    ctx.out.line("Clearing graph store...");
    ctx.out.line("Successfully cleared graph store");
    ctx.out.line("Everything is dropped.");
    if (ctx.session.graph !== undefined) {
      ctx.session.graph = undefined;
      ctx.sessionChanged();
    }
    return "ok";
  }
  for (const g of result.effect.droppedGraphs) uninstallAll(ctx, g);
  submit(ctx, changes, { schema: result.schema });
  const e = result.effect;
  if (e.droppedVertexTypes.length > 0) ctx.out.line(`Successfully dropped vertex types: ${nameList(e.droppedVertexTypes)}.`);
  if (e.droppedEdgeTypes.length > 0) ctx.out.line(`Successfully dropped edge types: ${nameList(e.droppedEdgeTypes)}.`);
  if (e.droppedTuples.length > 0) ctx.out.line(`Successfully dropped tuple types: ${nameList(e.droppedTuples)}.`);
  for (const g of e.droppedGraphs) {
    ctx.out.line(`The graph ${g} is dropped.`);
    if (ctx.session.graph === g) {
      ctx.session.graph = undefined;
      ctx.sessionChanged();
    }
  }
  return "ok";
}

function dropFailureLine(s: AstDrop, names: string[]): string {
  switch (s.target) {
    case "VERTEX":
      return `Failed to drop vertex types: ${nameList(names)}.`;
    case "EDGE":
      return `Failed to drop edge types: ${nameList(names)}.`;
    case "TUPLE":
      return `Failed to drop tuple types: ${nameList(names)}.`;
    case "GRAPH":
      return names.map((g) => `The graph ${g} could not be dropped!`).join("\n");
    default:
      return "Failed to drop all.";
  }
}

/** Installed queries of a graph that goes away stop being served. */
function uninstallAll(ctx: StatementContext, graph: string): void {
  for (const q of ctx.services.catalog.queries(graph)) {
    if (q.state === "installed") ctx.services.queries.uninstall?.(graph, q.name);
  }
}

export function runUseGraph(s: AstUseGraph, ctx: StatementContext): Outcome {
  const name = s.name.name;
  if (!ctx.services.engine.schema.graphs.some((g) => g.name === name)) {
    ctx.out.line(`Graph '${name}' does not exist.`);
    return "error";
  }
  ctx.session.graph = name;
  ctx.sessionChanged();
  ctx.out.line(`Using graph '${name}'`);
  return "ok";
}

export function runUseGlobal(ctx: StatementContext): Outcome {
  if (ctx.session.graph !== undefined) {
    ctx.session.graph = undefined;
    ctx.sessionChanged();
  }
  return "ok";
}

/**
 * CLEAR GRAPH STORE -HARD deletes all data and keeps the schema; without -HARD the person at
 * the shell confirms first (the ClearStoreQb dialog).
 */
export async function runClearGraphStore(s: AstClearGraphStore, ctx: StatementContext): Promise<Outcome> {
  const hard = s.flags.some((f) => f.name === "HARD");
  const unknown = s.flags.find((f) => f.name !== "HARD");
  if (unknown) {
    ctx.out.line(`Unknown option -${unknown.name} for CLEAR GRAPH STORE; the only option is -HARD (in capitals).`);
    return "error";
  }
  if (!hard) {
    if (ctx.mode !== "interactive") {
      ctx.out.line("CLEAR GRAPH STORE asks for a confirmation; in a script write CLEAR GRAPH STORE -HARD.");
      return "error";
    }
    const dialog = ctx.services.dialogs.open(ctx.principal);
    ctx.out.interact("ClearStoreQb", dialog.id);
    let answer: string;
    try {
      answer = await dialog.answer;
    } catch (err) {
      ctx.out.line(err instanceof Error ? err.message : String(err));
      return "error";
    }
    if (answer.trim().toLowerCase() !== "y") {
      ctx.out.line("Clearing the graph store was cancelled.");
      return "ok";
    }
  }
  ctx.out.line("Stopping GPE GSE RESTPP");
  ctx.out.line("Successfully stopped GPE GSE RESTPP");
  ctx.out.line("Clearing graph store...");
  submit(ctx, [], { clearData: true });
  ctx.out.line("Successfully cleared graph store");
  ctx.out.line("Starting GPE GSE RESTPP");
  ctx.out.line("Successfully started GPE GSE RESTPP");
  return "ok";
}
