// The state of emitting one query: where each variable and accumulator lives, which
// function is being built, the enclosing loops and TRY blocks, and whether statements are
// at query-body level, in an ACCUM clause or in a POST-ACCUM clause. The construct emitters
// (emit-expr, emit-stmt, emit-select, emit-print) all work through this object.
//
// Storage: query-body variables, parameters, vertex-set variables and the addresses of
// accumulator states are module globals (SELECTs are separate functions and read them);
// FROM aliases, DML-level locals and loop variables inside a SELECT are function locals.
import type { IrAccumDecl, IrExpr, IrQuery, IrVar } from "../ir/ir.js";
import type { IrAccum } from "../ir/types.js";
import { GraphView } from "../../runtime-wasm/schema/lookup.js";
import type { DatabaseSchema } from "../../runtime-wasm/schema/types.js";
import type { EmitContext } from "./context.js";
import type { Expr, FunctionScope, Local, LoopLabels, ValueType } from "./module.js";
import { wasmType } from "./wasm-types.js";

/** Thrown for a construct the back end does not compile; install reports it as an error. */
export class UnsupportedError extends Error {
  constructor(what: string) {
    super(`not supported by this version of the compiler: ${what}`);
    this.name = "UnsupportedError";
  }
}

export type VarStorage = { kind: "global"; name: string; type: ValueType } | { kind: "local"; local: Local };

/** Where statements are being emitted. */
export type Level = "query" | "accum" | "postAccum";

/** A write in an ACCUM/POST-ACCUM clause that must wait until the clause ends. */
export interface DeferredLog {
  /** Global holding the log's list of records. */
  global: string;
  /** Bytes per record. */
  recordBytes: number;
  /** Replays one record (its address, as a fresh expression per call) at the end of the clause. */
  replay: (record: () => Expr) => Expr;
}

export interface ClauseState {
  level: Level;
  /** Accumulator and variable ids whose writes are deferred to the clause end. */
  deferredAccums: Set<number>;
  deferredVars: Set<number>;
  /** Vertex accumulators the clause reads as they were before it (IrAccumPlan.snapshotAccums). */
  snapshotAccums?: Set<number>;
  logs: DeferredLog[];
  /** The vertex a POST-ACCUM clause runs for (its alias id). */
  postAlias?: number;
  /** Edge alias -> the edge match being emitted (static type, eid local, endpoints). */
  edges: Map<number, EdgeBinding>;
}

export interface EdgeBinding {
  edgeTypeKey: string;
  edgeTypeName: string;
  directed: boolean;
  eid: Local;
  from: Local;
  to: Local;
  /** Set for an edge that a list walk reached (emit-edge-walk.ts): how its attributes can be read in list order. */
  inList?: ListReads;
}

/** A list walk's entry and the entry-ordered attribute copies the walk's body reads. */
export interface ListReads {
  /** The current entry's address. */
  entry: Local;
  /** Attribute name -> the local holding, for the current list, its entry-copy delta (0: read by eid). */
  deltas: Map<string, Local>;
  /** A new i32 local of the walking function. */
  newLocal: (name: string) => Local;
}

export interface EmitOptions {
  schema: DatabaseSchema;
  /** 0: no Binaryen optimisation; 1-3: Binaryen -O1..-O3 after our passes. */
  optimizeLevel?: 0 | 1 | 2 | 3;
}

export class QueryEmitter {
  readonly view: GraphView;
  readonly vars = new Map<number, IrVar>();
  readonly accums = new Map<number, IrAccumDecl>();
  private readonly storage = new Map<number, VarStorage>();
  /** The function being built. */
  f!: FunctionScope;
  /** Enclosing loops, innermost last. */
  readonly loops: LoopLabels[] = [];
  /** Enclosing TRY blocks (their catch labels), innermost last. */
  readonly tries: string[] = [];
  clause: ClauseState = QueryEmitter.queryClause();
  /** Label of the end of the query body (RETURN at query level). */
  bodyEnd = "body_end";
  /**
   * Building a SELECT range one of several threads runs (parallel-select.ts): the column
   * base, per accumulator, of this thread's partial states its `+=` writes go to.
   */
  partialColumns?: Map<number, () => Expr>;
  /** In a parallel SELECT's range: source-side maps written in place, with room made beforehand (parallel-maps.ts). */
  reservedMaps?: Set<number>;
  /** Expressions computed once per source vertex in the SELECT being emitted (hoist.ts). */
  hoisted = new Map<IrExpr, Local>();

  /** Globals that belong to this query (saved and restored around a call of it). */
  readonly ownedGlobals = new Map<string, ValueType>();
  /** Sub-query calls: the emitter of another query of the module, by name. */
  callee: (name: string) => QueryEmitter | undefined = () => undefined;
  /** In a sub-query's function: where RETURN puts its value. */
  returnLocal?: Local;
  /** The kind of function being built: the run entry, a sub-query's body, or a SELECT. */
  functionKind: "run" | "subquery" | "select" = "run";

  constructor(
    readonly cx: EmitContext,
    readonly ir: IrQuery,
    readonly options: EmitOptions,
    /** Prefix of this query's global and function names (several queries share a module). */
    readonly prefix = "",
  ) {
    const view = new GraphView(options.schema, options.schema.graphs.find((g) => g.name === ir.graph) ?? { name: ir.graph, vertexTypes: [], edgeTypes: [], version: 0 });
    this.view = view;
    for (const v of ir.vars) this.vars.set(v.id, v);
    for (const a of ir.accums) this.accums.set(a.id, a);
  }

  static queryClause(): ClauseState {
    return { level: "query", deferredAccums: new Set(), deferredVars: new Set(), logs: [], edges: new Map() };
  }

  get m() {
    return this.cx.m;
  }

  variable(id: number): IrVar {
    const v = this.vars.get(id);
    if (v === undefined) throw new Error(`unknown variable #${id}`);
    return v;
  }

  accum(id: number): IrAccumDecl {
    const a = this.accums.get(id);
    if (a === undefined) throw new Error(`unknown accumulator #${id}`);
    return a;
  }

  /** Storage of a variable; query-body ones become globals on first use. */
  storageOf(id: number): VarStorage {
    let s = this.storage.get(id);
    if (s === undefined) {
      const v = this.variable(id);
      if (v.kind === "local" || v.kind === "alias") throw new Error(`${v.kind} ${v.name} used outside its clause`);
      s = { kind: "global", name: this.ownGlobal(`v${id}_${sanitize(v.name)}`, wasmType(v.type)), type: wasmType(v.type) };
      this.storage.set(id, s);
    }
    return s;
  }

  /** Gives a variable a local of the current function (DML-level locals, aliases, loop variables in clauses). */
  declareLocal(id: number): Local {
    const v = this.variable(id);
    const local = this.f.local(wasmType(v.type), sanitize(v.name));
    this.storage.set(id, { kind: "local", local });
    return local;
  }

  /** Binds a variable to an existing local for a while (projection variables). */
  bindLocal(id: number, local: Local): () => void {
    const before = this.storage.get(id);
    this.storage.set(id, { kind: "local", local });
    return () => {
      if (before === undefined) this.storage.delete(id);
      else this.storage.set(id, before);
    };
  }

  /** Whether the variable has storage now (a global, or a local bound in this function). */
  hasStorage(id: number): boolean {
    return this.storage.has(id);
  }

  readVar(id: number): Expr {
    const s = this.storageOf(id);
    return s.kind === "global" ? this.m.globalGet(s.name, s.type) : s.local.get();
  }

  writeVar(id: number, value: Expr): Expr {
    const s = this.storageOf(id);
    return s.kind === "global" ? this.m.globalSet(s.name, value) : s.local.set(value);
  }

  /** Global holding the address of a global accumulator's state, or a vertex accumulator's column. */
  accumGlobal(id: number): string {
    return this.ownGlobal(`acc${id}_${sanitize(this.accum(id).name)}`, "i32");
  }

  /** A global of this query (named with its prefix, saved around calls of the query). */
  ownGlobal(name: string, type: ValueType): string {
    const full = this.cx.ensureGlobal(this.prefix + name, type);
    this.ownedGlobals.set(full, type);
    return full;
  }

  /** A function name of this query. */
  fn(name: string): string {
    return this.prefix + name;
  }

  accumType(id: number): IrAccum {
    return this.accum(id).type;
  }

  /** Runs `fn` with `clause` as the current clause state. */
  inClause<T>(clause: ClauseState, fn: () => T): T {
    const saved = this.clause;
    this.clause = clause;
    try {
      return fn();
    } finally {
      this.clause = saved;
    }
  }

  /** Runs `fn` while building function `f`. */
  inFunction<T>(f: FunctionScope, fn: () => T): T {
    const saved = this.f;
    this.f = f;
    try {
      return fn();
    } finally {
      this.f = saved;
    }
  }

  /** The store key of a vertex or edge type name of this query's graph. */
  vertexTypeKey(name: string): string {
    return this.view.vertexType(name)?.key ?? name;
  }

  edgeTypeKey(name: string): string {
    return this.view.edgeType(name)?.key ?? name;
  }
}

export function sanitize(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, "_");
}
