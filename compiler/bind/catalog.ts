// What the binder needs to know about the database: the schema and the signatures of
// queries already defined per graph (for sub-query calls). The server's catalog implements
// `BindCatalog`; `gsqlc check` uses `MemoryCatalog`, filled from DDL and earlier queries.
import type { DatabaseSchema } from "../../runtime-wasm/schema/types.js";
import type { GType } from "./types.js";

export interface QueryParamSignature {
  name: string;
  type: GType;
  /** The parameter has a default value, so a caller may leave it out. */
  hasDefault: boolean;
}

/** A query's callable shape: enough to check and lower a call without its body. */
export interface QuerySignature {
  name: string;
  graph: string;
  params: QueryParamSignature[];
  /** RETURNS (type); undefined for a query that returns nothing. */
  returns?: GType;
  distributed: boolean;
}

export interface BindCatalog {
  readonly schema: DatabaseSchema;
  /** A query defined on `graph` (created before the query being bound), if any. */
  querySignature(graph: string, name: string): QuerySignature | undefined;
}

/** An in-memory catalog: a schema plus signatures registered as queries are bound. */
export class MemoryCatalog implements BindCatalog {
  private readonly queries = new Map<string, QuerySignature>();

  constructor(public schema: DatabaseSchema) {}

  querySignature(graph: string, name: string): QuerySignature | undefined {
    return this.queries.get(`${graph}\u0000${name}`);
  }

  addQuery(sig: QuerySignature): void {
    this.queries.set(`${sig.graph}\u0000${sig.name}`, sig);
  }

  dropQuery(graph: string, name: string): void {
    this.queries.delete(`${graph}\u0000${name}`);
  }

  queryNames(graph: string): string[] {
    return [...this.queries.values()].filter((q) => q.graph === graph).map((q) => q.name);
  }
}
