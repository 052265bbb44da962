// The workload of the crash tests and the model it is checked against. Writers send
// upserts (new vertices + edges + an `add` to their own counter vertex, so one request
// touches old and new data), deletes (some permanent) and upserts of permanently deleted ids
// to a server that is killed at a random moment. Each request is acknowledged (answer
// received, ack=all), refused, or unknown (no answer, or ack=none). After a restart the model
// checks: acknowledged = present; unknown = all or nothing, and a writer's lost requests
// form a suffix of what it sent (the log keeps order); then it adopts what it observed.
// Beside them, some rounds run one catalog change over the GSQL server: a schema-change job
// adding a vertex type (the graph's schema version goes up by one), or a query created and
// installed. After a restart the schema version, the types and the installed queries must
// be those acknowledged (plus, all or nothing, the one cut off), and every installed query
// must answer, counting exactly the vertices the listing shows.
import type { DatabaseSchema } from "../../../runtime-wasm/schema/types.js";

export const GRAPH = "crash";
export const WRITERS = 3;

export const CRASH_SCHEMA: DatabaseSchema = {
  tuples: [],
  vertexTypes: [
    {
      key: "Item",
      name: "Item",
      primaryId: { name: "id", type: "STRING" },
      primaryIdAsAttribute: false,
      attributes: [
        { name: "n", type: { kind: "scalar", name: "INT" } },
        { name: "round", type: { kind: "scalar", name: "INT" } },
      ],
      stats: "OUTDEGREE_BY_EDGETYPE",
    },
  ],
  edgeTypes: [
    { key: "link", name: "link", directed: true, pairs: [{ from: "Item", to: "Item" }], discriminator: [], attributes: [{ name: "w", type: { kind: "scalar", name: "INT" } }] },
  ],
  graphs: [{ name: GRAPH, vertexTypes: ["Item"], edgeTypes: ["link"], version: 0 }],
  globalVersion: 0,
};

export type Outcome = "acked" | "unknown";

export interface CreateOp {
  kind: "create";
  /** upsert: vertices, edges from ids[0] to every other id, and the counter's add.
   *  load: the vertices only, as lines of an atomic POST /ddl load. */
  via: "upsert" | "load";
  writer: number;
  seq: number;
  ids: string[];
  n: number;
  round: number;
  counterDelta: number;
  outcome?: Outcome;
}

export interface DeleteOp {
  kind: "delete";
  writer: number;
  seq: number;
  id: string;
  permanent: boolean;
  outcome?: Outcome;
}

export type Op = CreateOp | DeleteOp;

/** RUN SCHEMA_CHANGE JOB adding the vertex type `T<k>` to the graph. */
export interface AddTypeOp {
  kind: "add-type";
  type: string;
  outcome?: Outcome;
}

/** CREATE QUERY + INSTALL QUERY of a query counting the Item vertices. */
export interface InstallOp {
  kind: "install";
  name: string;
  outcome?: Outcome;
}

export type CatalogOp = AddTypeOp | InstallOp;

/** The query every install op creates (under its own name): the number of Item vertices. */
export function countQuery(name: string): string {
  return `CREATE QUERY ${name}() FOR GRAPH ${GRAPH} { S = {Item.*}; PRINT S.size() AS n; }`;
}

/** The GSQL text of a catalog op. */
export function catalogText(op: CatalogOp): string {
  if (op.kind === "install") return `USE GRAPH ${GRAPH}\n${countQuery(op.name)}\nINSTALL QUERY ${op.name}`;
  const job = `add_${op.type.toLowerCase()}`;
  return `USE GRAPH ${GRAPH}\nCREATE SCHEMA_CHANGE JOB ${job} FOR GRAPH ${GRAPH} { ADD VERTEX ${op.type} (PRIMARY_ID id STRING, x INT); }\nRUN SCHEMA_CHANGE JOB ${job}`;
}

export interface VertexState {
  n: number;
  round: number;
}

export const counterId = (writer: number) => `ctr${writer}`;

/** What a restarted server holds: every vertex, the edges of some sources, the edge total. */
export interface Observation {
  vertices: Map<string, VertexState>;
  /** Sources whose edges were read; `edges` holds exactly theirs ("from>to" → w). */
  edgeSources: Set<string>;
  edges: Map<string, number>;
  edgeTotal: number;
  /** The graph's schema version (REST `version.schema`, equal to the GSQL schema's Version). */
  schemaVersion: number;
  /** Vertex types besides Item. */
  addedTypes: Set<string>;
  /** Installed queries, each with the count it answered (undefined: not run this time). */
  installed: Map<string, number | undefined>;
}

/** What the database must hold: the vertices, edges and counters of every op known applied. */
export class CrashModel {
  readonly vertices = new Map<string, VertexState>();
  /** Edge "from>to" → w. */
  readonly edges = new Map<string, number>();
  readonly counters = Array.from({ length: WRITERS }, () => 0);
  /** Ids deleted with permanent=true and known applied: upserts of them must be skipped. */
  readonly retired = new Set<string>();
  /** Ids a delete was sent for: never written again. */
  readonly doomed = new Set<string>();
  /** Ops of the round just run, in the order each writer sent them. */
  pending: Op[] = [];
  /** Vertex types added by acknowledged (or observed) schema changes. */
  readonly addedTypes = new Set<string>();
  readonly installed = new Set<string>();
  /** The catalog op of the round just run, if any. */
  catalogPending: CatalogOp[] = [];
  catalogAcked = 0;
  catalogUnknownApplied = 0;
  catalogUnknownLost = 0;
  acked = 0;
  unknownApplied = 0;
  unknownLost = 0;

  /** Picks a live, non-counter vertex no delete was sent for yet. */
  deletable(random: () => number): string | undefined {
    const candidates = [...this.vertices.keys()].filter((id) => !id.startsWith("ctr") && !this.doomed.has(id));
    return candidates.length ? candidates[Math.floor(random() * candidates.length)] : undefined;
  }

  /**
   * Checks the database after a restart against the model plus the pending ops, decides each
   * unknown op from what is there, and adopts the result. Throws with a precise message on
   * any acknowledged write missing, any half-applied request, or a lost op followed by an
   * applied one of the same writer.
   */
  settle(observation: Observation): void {
    const applied = new Map<Op, boolean>();
    for (const op of this.pending) applied.set(op, this.decide(op, observation.vertices));
    for (let w = 0; w < WRITERS; w++) {
      const ops = this.pending.filter((op) => op.writer === w);
      const firstLost = ops.findIndex((op) => !applied.get(op));
      if (firstLost >= 0) {
        const later = ops.slice(firstLost + 1).find((op) => applied.get(op));
        if (later) throw new Error(`writer ${w}: request ${ops[firstLost]!.seq} was lost but the later request ${later.seq} is present`);
      }
    }
    for (const op of this.pending) {
      if (!applied.get(op)) {
        this.unknownLost++;
        continue;
      }
      if (op.outcome === "acked") this.acked++;
      else this.unknownApplied++;
      this.adopt(op);
    }
    this.pending = [];
    this.settleCatalog(observation);
    this.compare(observation);
  }

  private settleCatalog(o: Observation): void {
    for (const op of this.catalogPending) {
      const present = op.kind === "add-type" ? o.addedTypes.has(op.type) : o.installed.has(op.name);
      if (op.outcome === "acked" && !present) throw new Error(`acknowledged ${op.kind === "add-type" ? `schema change adding ${op.type}` : `install of ${op.name}`} lost`);
      if (!present) {
        this.catalogUnknownLost++;
        continue;
      }
      if (op.outcome === "acked") this.catalogAcked++;
      else this.catalogUnknownApplied++;
      if (op.kind === "add-type") this.addedTypes.add(op.type);
      else this.installed.add(op.name);
    }
    this.catalogPending = [];
    const types = [...o.addedTypes].sort();
    if (types.join() !== [...this.addedTypes].sort().join()) throw new Error(`vertex types ${types.join(", ")} found, ${[...this.addedTypes].sort().join(", ")} expected`);
    // Each schema change job run raised the version by one, from 0.
    if (o.schemaVersion !== this.addedTypes.size) throw new Error(`schema version ${o.schemaVersion}, ${this.addedTypes.size} expected`);
    const installed = [...o.installed.keys()].sort();
    if (installed.join() !== [...this.installed].sort().join()) throw new Error(`installed queries ${installed.join(", ")}, ${[...this.installed].sort().join(", ")} expected`);
    for (const [name, n] of o.installed) if (n !== undefined && n !== o.vertices.size) throw new Error(`installed query ${name} counted ${n} Item vertices, the listing shows ${o.vertices.size}`);
  }

  /** Sources whose edges the next observation should read: those of the pending creates. */
  pendingSources(): string[] {
    return this.pending.filter((op): op is CreateOp => op.kind === "create" && op.via === "upsert" && op.ids.length > 1).map((op) => op.ids[0]!);
  }

  /** Every source with edges in the model (for a full check). */
  allSources(): string[] {
    return [...new Set([...this.edges.keys()].map((key) => key.split(">")[0]!))];
  }

  private decide(op: Op, observed: Map<string, VertexState>): boolean {
    if (op.kind === "create") {
      const present = op.ids.filter((id) => observed.has(id));
      if (present.length !== 0 && present.length !== op.ids.length) {
        throw new Error(`half-applied upsert (writer ${op.writer}, request ${op.seq}, ${op.outcome}): ${present.length} of ${op.ids.length} vertices present`);
      }
      if (op.outcome === "acked" && present.length === 0) {
        throw new Error(`acknowledged upsert lost (writer ${op.writer}, request ${op.seq}): ${op.ids.join(", ")}`);
      }
      return present.length > 0;
    }
    const gone = !observed.has(op.id);
    if (op.outcome === "acked" && !gone) throw new Error(`acknowledged delete of ${op.id} undone (writer ${op.writer}, request ${op.seq})`);
    return gone;
  }

  private adopt(op: Op): void {
    if (op.kind === "create") {
      for (const id of op.ids) this.vertices.set(id, { n: op.n, round: op.round });
      if (op.via === "load") return;
      for (const to of op.ids.slice(1)) this.edges.set(`${op.ids[0]}>${to}`, op.n);
      this.counters[op.writer]! += op.counterDelta;
      return;
    }
    this.vertices.delete(op.id);
    for (const key of [...this.edges.keys()]) {
      const [from, to] = key.split(">");
      if (from === op.id || to === op.id) this.edges.delete(key);
    }
    if (op.permanent) this.retired.add(op.id);
  }

  /** After adopting, the database must equal the model exactly: nothing extra, nothing missing. */
  private compare(o: Observation): void {
    const expected = new Map(this.vertices);
    for (let w = 0; w < WRITERS; w++) expected.set(counterId(w), { n: this.counters[w]!, round: -1 });
    for (const [id, state] of expected) {
      const got = o.vertices.get(id);
      if (!got) throw new Error(`vertex ${id} missing`);
      if (got.n !== state.n || got.round !== state.round) {
        throw new Error(`vertex ${id}: expected n=${state.n} round=${state.round}, found n=${got.n} round=${got.round}`);
      }
    }
    for (const id of o.vertices.keys()) if (!expected.has(id)) throw new Error(`vertex ${id} present but never acknowledged or pending`);
    for (const [key, w] of this.edges) {
      if (o.edgeSources.has(key.split(">")[0]!) && o.edges.get(key) !== w) throw new Error(`edge ${key}: expected w=${w}, found ${o.edges.get(key)}`);
    }
    for (const key of o.edges.keys()) if (!this.edges.has(key)) throw new Error(`edge ${key} present but not expected`);
    if (o.edgeTotal !== this.edges.size) throw new Error(`${o.edgeTotal} edges stored, ${this.edges.size} expected`);
  }
}

/** The loading job POST /ddl runs for load ops: one Item per line "id,n,round". */
export const LOAD_JOB = "load_items";

/** The CSV body of a load op. */
export function loadBody(op: CreateOp): string {
  return op.ids.map((id) => `${id},${op.n},${op.round}\n`).join("");
}

/** The upsert body of a create op (new vertices, edges, counter increment). */
export function createBody(op: CreateOp): string {
  const vertices: Record<string, unknown> = {};
  for (const id of op.ids) vertices[id] = { n: { value: op.n }, round: { value: op.round } };
  vertices[counterId(op.writer)] = { n: { value: op.counterDelta, op: "add" } };
  const targets: Record<string, unknown> = {};
  for (const to of op.ids.slice(1)) targets[to] = { w: { value: op.n } };
  const edges = op.ids.length > 1 ? { Item: { [op.ids[0]!]: { link: { Item: targets } } } } : undefined;
  return JSON.stringify({ vertices: { Item: vertices }, ...(edges ? { edges } : {}) });
}
