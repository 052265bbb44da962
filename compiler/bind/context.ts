// The state of binding one query: the catalog view of its graph, the declarations made so
// far (block scopes), where the current statement sits (query body, ACCUM, POST-ACCUM...)
// and the SELECT being bound. Helpers here are shared by the expression, statement and
// SELECT binders.
import { GraphView } from "../../runtime-wasm/schema/lookup.js";
import type { DiagnosticCode, DiagnosticLog, MessageArgs, SourceRange } from "../diagnostics/index.js";
import type { AccumDecl, AliasDecl, Decl, ExceptionDecl, VarDecl, VertexSetDecl } from "./bound.js";
import type { BindCatalog, QuerySignature } from "./catalog.js";
import { tupleTypeToGType, type GType, type TupleGType } from "./types.js";

/** Where a statement or expression is bound; decides what it may do. */
export type Level = "query" | "accum" | "postAccum" | "update";

export type Clause = "from" | "sample" | "where" | "accum" | "postAccum" | "having" | "orderBy" | "limit" | "set";

/** The SELECT (or UPDATE / DELETE) whose clauses are being bound. */
export interface SelectScope {
  aliases: Map<string, AliasDecl>;
  vertexAliases: AliasDecl[];
  clause: Clause;
  /** Aliases referenced while binding the current statement or condition (for V1 POST-ACCUM and HAVING rules). */
  used: Set<AliasDecl>;
  /** DML-level locals referenced while binding the current statement (V1 POST-ACCUM: one alias per local). */
  usedLocals: Set<VarDecl>;
}

export class Scope {
  readonly names = new Map<string, Decl>();
  constructor(readonly parent?: Scope) {}

  lookup(name: string): Decl | undefined {
    for (let s: Scope | undefined = this; s; s = s.parent) {
      const d = s.names.get(name);
      if (d) return d;
    }
    return undefined;
  }
}

export class QueryContext {
  readonly view: GraphView;
  private nextId = 1;
  readonly accums: AccumDecl[] = [];
  readonly vertexSets = new Map<string, VertexSetDecl>();
  readonly exceptions = new Map<string, ExceptionDecl>();
  readonly tuples = new Map<string, TupleGType>();
  readonly calls: QuerySignature[] = [];
  scope = new Scope();
  level: Level = "query";
  /** Depth of WHILE/FOREACH at query-body level (vertex accumulators may not be declared inside). */
  queryLoops = 0;
  /** Depth of loops at the current level (BREAK/CONTINUE). */
  loops = 0;
  select?: SelectScope;
  /** Inside PRINT: a vertex-set name may stand for each of its vertices (`S.name`, `S.@x`). */
  inPrint = false;
  /** Inside a WHERE clause (of SELECT, UPDATE, DELETE or PRINT): the only place LIKE may appear. */
  inWhere = false;

  constructor(
    readonly catalog: BindCatalog,
    readonly graphName: string,
    readonly log: DiagnosticLog,
    readonly syntax: "v1" | "v2",
    readonly self: QuerySignature,
  ) {
    const g = catalog.schema.graphs.find((x) => x.name === graphName)!;
    this.view = new GraphView(catalog.schema, g);
    for (const t of catalog.schema.tuples) this.tuples.set(t.name, tupleTypeToGType(t, catalog.schema.tuples));
  }

  newId(): number {
    return this.nextId++;
  }

  error(code: DiagnosticCode, range: SourceRange, args?: MessageArgs): void {
    this.log.report(code, range, args);
  }

  /** Run `fn` in a nested block scope. */
  inBlock<T>(fn: () => T): T {
    const saved = this.scope;
    this.scope = new Scope(saved);
    try {
      return fn();
    } finally {
      this.scope = saved;
    }
  }

  /** Run `fn` as (or not as) a WHERE clause. */
  inWhereClause<T>(inWhere: boolean, fn: () => T): T {
    const saved = this.inWhere;
    this.inWhere = inWhere;
    try {
      return fn();
    } finally {
      this.inWhere = saved;
    }
  }

  /** Run `fn` at another level (ACCUM, POST-ACCUM...) with its own loop count. */
  atLevel<T>(level: Level, fn: () => T): T {
    const saved = [this.level, this.loops] as const;
    this.level = level;
    this.loops = 0;
    try {
      return fn();
    } finally {
      [this.level, this.loops] = saved;
    }
  }

  /** Declare `decl` in the current block; a second declaration of a name in one block is an error. */
  declare(key: string, decl: Decl, range: SourceRange): void {
    if (this.scope.names.has(key)) this.error("GSQL2011", range, { name: key });
    else this.scope.names.set(key, decl);
  }

  allVertexTypeNames(): string[] {
    return [...this.view.vertexByName.keys()];
  }

  allEdgeTypeNames(): string[] {
    return [...this.view.edgeByName.keys()];
  }

  lookupTuple(name: string): TupleGType | undefined {
    return this.tuples.get(name);
  }
}

export function isDml(level: Level): boolean {
  return level !== "query";
}

export const LEVEL_NAMES: Record<Level, string> = {
  query: "at query-body level", accum: "in ACCUM", postAccum: "in POST-ACCUM", update: "in UPDATE ... SET",
};

export type { GType };
