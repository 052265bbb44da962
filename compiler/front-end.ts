// The compiler front end as one call for tools: GSQL text → parse tree → AST → bound
// script (names resolved, types checked, DDL applied in order), with every diagnostic
// collected in one log.
import { DiagnosticLog } from "./diagnostics/diagnostic-log.js";
import { parse } from "./parse/parse.js";
import { buildAst } from "./ast/build-ast.js";
import type { AstScript } from "./ast/script.js";
import type { SourceText } from "./parse/source-text.js";
import { bind, MemoryCatalog, type BindCatalog, type BoundScript } from "./bind/index.js";
import { emptySchema } from "../runtime-wasm/schema/types.js";

export interface FrontEndOptions {
  /** Collect into this log instead of a fresh one (to check several files into one report). */
  log?: DiagnosticLog;
  /** Schema DDL that runs before this text (`gsqlc check --schema`), for the bind stage. */
  schema?: AstScript;
  /** The database the text runs against (default: an empty one); `schema` applies on top. */
  catalog?: BindCatalog;
  /** The session's working graph before the text (USE GRAPH); `schema` may set it too. */
  workingGraph?: string;
  /** Stop after the AST (`gsqlc ast`). */
  astOnly?: boolean;
}

export interface FrontEndResult {
  ast: AstScript;
  source: SourceText;
  log: DiagnosticLog;
  /** True when the text had lexical or syntax errors (statements holding them are not in `ast`). */
  hasSyntaxErrors: boolean;
  /** The bind stage's result (absent with `astOnly`). */
  bound?: BoundScript;
}

interface SchemaContext {
  catalog: MemoryCatalog;
  workingGraph?: string;
}

// A schema script is bound once however many files are checked against it. Its own
// diagnostics were reported when it was checked itself, so they go to a scratch log here.
const schemaContexts = new WeakMap<AstScript, SchemaContext>();

function schemaContext(schema: AstScript, base: BindCatalog, workingGraph?: string): SchemaContext {
  const cached = schemaContexts.get(schema);
  if (cached) return cached;
  const bound = bind(schema, base, new DiagnosticLog(), workingGraph ? { workingGraph } : {});
  const catalog = new MemoryCatalog(bound.schema);
  for (const q of bound.queries) if (q.name) catalog.addQuery(q.signature);
  const ctx: SchemaContext = { catalog, ...(bound.workingGraph ? { workingGraph: bound.workingGraph } : {}) };
  schemaContexts.set(schema, ctx);
  return ctx;
}

/** Parses `text` (named `file` in diagnostics), builds its AST and binds it. Never throws on any input. */
export function analyzeSource(text: string, file: string, options: FrontEndOptions = {}): FrontEndResult {
  const log = options.log ?? new DiagnosticLog();
  const parsed = parse(text, file, log);
  const ast = buildAst(parsed, log);
  const result: FrontEndResult = { ast, source: parsed.source, log, hasSyntaxErrors: parsed.hasSyntaxErrors };
  if (options.astOnly) return result;
  let catalog: BindCatalog = options.catalog ?? new MemoryCatalog(emptySchema());
  let workingGraph = options.workingGraph;
  if (options.schema) {
    const ctx = schemaContext(options.schema, catalog, workingGraph);
    catalog = ctx.catalog;
    workingGraph = ctx.workingGraph ?? workingGraph;
  }
  result.bound = bind(ast, catalog, log, workingGraph ? { workingGraph } : {});
  return result;
}
