// A whole GSQL text, statement by statement, as a shell session would run it: DDL changes
// the schema as it goes, USE GRAPH / CREATE GRAPH set the working graph, queries are bound
// against the schema of their moment and may call queries created before them, loading
// jobs are checked, and shell commands get their static checks (INSTALL -OPTIMIZE names...).
// This is what `gsqlc check` runs; the server binds statement by statement with the same
// functions against its live catalog.
import type { AstCreateSchemaChangeJob, AstScript, AstTopStatement } from "../ast/index.js";
import type { DiagnosticLog } from "../diagnostics/index.js";
import type { DatabaseSchema } from "../../runtime-wasm/schema/types.js";
import type { BoundQuery } from "./bound.js";
import type { BindCatalog, QuerySignature } from "./catalog.js";
import { applyDdl } from "./ddl/apply.js";
import { ddlFromAst, schemaChangeJobFromAst } from "./ddl/from-ast.js";
import { applySchemaChangeJob } from "./ddl/schema-change.js";
import { bindQuery } from "./bind-query.js";
import { bindLoadingJob } from "./loading/bind-loading.js";
import type { BoundLoadingJob } from "./loading/bound-loading.js";

export interface BoundScript {
  /** The schema after every DDL statement of the script. */
  schema: DatabaseSchema;
  queries: BoundQuery[];
  loadingJobs: BoundLoadingJob[];
  /** The working graph after the last statement (USE GRAPH, CREATE GRAPH). */
  workingGraph?: string;
}

export interface BindScriptOptions {
  workingGraph?: string;
  defaultSyntax?: "v1" | "v2";
}

/** The catalog as the script has changed it so far, over the one it started from. */
class ScriptCatalog implements BindCatalog {
  readonly queries = new Map<string, QuerySignature>();
  readonly dropped = new Set<string>();
  constructor(public schema: DatabaseSchema, private readonly base: BindCatalog) {}

  private key(graph: string, name: string) {
    return `${graph}\u0000${name}`;
  }

  querySignature(graph: string, name: string): QuerySignature | undefined {
    const k = this.key(graph, name);
    return this.queries.get(k) ?? (this.dropped.has(k) ? undefined : this.base.querySignature(graph, name));
  }

  add(sig: QuerySignature): void {
    this.queries.set(this.key(sig.graph, sig.name), sig);
    this.dropped.delete(this.key(sig.graph, sig.name));
  }

  drop(graph: string, name: string): void {
    this.queries.delete(this.key(graph, name));
    this.dropped.add(this.key(graph, name));
  }

  dropGraph(graph: string): void {
    for (const q of [...this.queries.values()]) if (q.graph === graph) this.drop(graph, q.name);
  }
}

/** Bind every statement of `script` in order. Errors go to `log`; binding always completes. */
export function bind(script: AstScript, catalog: BindCatalog, log: DiagnosticLog, opts: BindScriptOptions = {}): BoundScript {
  const cat = new ScriptCatalog(catalog.schema, catalog);
  const state: ScriptState = { cat, log, graph: opts.workingGraph, syntax: opts.defaultSyntax, jobs: new Map(), out: { schema: cat.schema, queries: [], loadingJobs: [] } };
  for (const s of script.statements) bindTop(state, s);
  state.out.schema = cat.schema;
  if (state.graph) state.out.workingGraph = state.graph;
  return state.out;
}

interface ScriptState {
  cat: ScriptCatalog;
  log: DiagnosticLog;
  graph?: string;
  syntax?: "v1" | "v2";
  jobs: Map<string, AstCreateSchemaChangeJob>;
  out: BoundScript;
}

function bindTop(st: ScriptState, s: AstTopStatement): void {
  const { cat, log } = st;
  switch (s.kind) {
    case "CreateVertex": case "CreateEdge": case "CreateGraph": case "TypedefTuple": case "Drop": {
      if (s.kind === "Drop" && !["VERTEX", "EDGE", "TUPLE", "GRAPH", "ALL"].includes(s.target)) {
        dropOther(st, s);
        return;
      }
      const cmd = ddlFromAst(s, log);
      if (!cmd) return;
      const r = applyDdl(cat.schema, cmd, log);
      cat.schema = r.schema;
      if (r.effect.createdGraphs.length > 0) st.graph = r.effect.createdGraphs[0];
      for (const g of r.effect.droppedGraphs) {
        cat.dropGraph(g);
        if (st.graph === g) st.graph = undefined;
      }
      if (r.effect.droppedAll) {
        for (const q of [...cat.queries.values()]) cat.drop(q.graph, q.name);
        st.jobs.clear();
        st.graph = undefined;
      }
      return;
    }
    case "UseGraph":
      if (!cat.schema.graphs.some((g) => g.name === s.name.name)) log.report("GSQL2001", s.name.range, { name: s.name.name });
      else st.graph = s.name.name;
      return;
    case "UseGlobal":
      st.graph = undefined;
      return;
    case "CreateSchemaChangeJob":
      if (!s.global && !s.graph) log.report("GSQL5004", s.range);
      st.jobs.set(s.name.name, s);
      return;
    case "RunSchemaChangeJob": {
      const job = st.jobs.get(s.name.name);
      if (!job) {
        log.report("GSQL5003", s.name.range, { kind: "schema change job", name: s.name.name });
        return;
      }
      const cmd = schemaChangeJobFromAst(job, log);
      if (cmd) cat.schema = applySchemaChangeJob(cat.schema, cmd, log).schema;
      return;
    }
    case "CreateLoadingJob": {
      const job = bindLoadingJob(s, cat.schema, log, st.graph);
      if (job) st.out.loadingJobs.push(job);
      return;
    }
    case "CreateQuery":
    case "InterpretAnonymousQuery": {
      const graph = s.graph?.name ?? st.graph;
      if (s.kind === "CreateQuery" && graph && !s.orReplace && cat.querySignature(graph, s.name.name)) {
        log.report("GSQL5002", s.name.range, { name: s.name.name, graph });
      }
      const q = bindQuery(s, cat, log, { ...(st.graph ? { workingGraph: st.graph } : {}), ...(st.syntax ? { defaultSyntax: st.syntax } : {}) });
      if (!q) return;
      st.out.queries.push(q);
      if (s.kind === "CreateQuery") cat.add(q.signature);
      return;
    }
    case "InstallQuery": {
      const optimize = s.flags.some((f) => f.name.toUpperCase() === "OPTIMIZE");
      if (optimize && (s.names.length > 0 || s.all)) log.report("GSQL5001", s.names[0]?.range ?? s.all!.range);
      return;
    }
    case "RunQuery":
    case "InterpretQuery": {
      // Offline, a query the script does not define may well exist on the server: only
      // queries this script knows are checked.
      const q = st.graph ? st.cat.querySignature(st.graph, s.name.name) : undefined;
      if (q && s.args.length > q.params.length) log.report("GSQL3033", s.range, { name: q.name, max: q.params.length, actual: s.args.length });
      return;
    }
    case "Set":
      if (s.name.toLowerCase() === "syntax_version") {
        const v = s.value.kind === "Ident" ? s.value.name : s.value.kind === "StringLiteral" ? s.value.value : "";
        if (/^v[12]$/i.test(v)) st.syntax = v.toLowerCase() as "v1" | "v2";
      }
      return;
    case "ShellBlock":
      if (!s.aborted) for (const inner of s.statements) bindTop(st, inner);
      return;
    default:
      return;
  }
}

/** DROP QUERY / DROP JOB in a script: forget them so later statements see the change. */
function dropOther(st: ScriptState, s: Extract<AstTopStatement, { kind: "Drop" }>): void {
  if (s.target === "QUERY" && st.graph) {
    const graph = st.graph;
    const names = s.all ? [...st.cat.queries.values()].filter((q) => q.graph === graph).map((q) => q.name) : s.names.map((n) => n.name);
    // A query still called by another one that stays cannot be dropped.
    const staying = st.out.queries.filter((q) => q.graph === graph && !names.includes(q.name) &&
      st.cat.querySignature(graph, q.name) === q.signature);
    for (const n of names) {
      const callers = staying.filter((q) => q.calls.some((c) => c.name === n)).map((q) => q.name);
      const at = s.names.find((x) => x.name === n)?.range ?? s.range;
      if (callers.length > 0) st.log.report("GSQL5005", at, { name: n, callers: callers.join(", ") });
      else st.cat.drop(graph, n);
    }
  } else if (s.target === "JOB") {
    if (s.all) st.jobs.clear();
    for (const n of s.names) st.jobs.delete(n.name);
  }
}
