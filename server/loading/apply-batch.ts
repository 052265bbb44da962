// Applies a loader batch to the graph store. Batch items already have the store's shape
// (type keys, operator symbols), so in the common case they pass through uncopied, as one
// atomic upsert. Loading folds values into what is stored, but a reducer on an item that
// does not exist yet simply stores the value (REDUCE(add) on a new vertex stores the value
// itself); the store refuses operators on missing items, so such items are written with '='.
import type { EdgeSelector, EdgeUpsert, GraphStore, Snapshot, UpsertOp, VertexUpsert } from "../../runtime-wasm/store/index.js";
import type { GraphView } from "../../runtime-wasm/schema/lookup.js";
import type { AttributeWrite, EdgeWrite, EndpointRef, LoadBatch, VertexId, VertexWrite } from "./sink.js";

export interface BatchOutcome {
  acceptedVertices: number;
  acceptedEdges: number;
  /** Edges skipped because VERTEX_MUST_EXIST and an endpoint was missing. */
  skippedEdges: number;
  deletedVertices: number;
  deletedEdges: number;
}

export function applyLoadBatch(store: GraphStore, view: GraphView, batch: LoadBatch): BatchOutcome {
  const outcome: BatchOutcome = { acceptedVertices: 0, acceptedEdges: 0, skippedEdges: 0, deletedVertices: 0, deletedEdges: 0 };
  if (batch.vertices.length > 0 || batch.edges.length > 0) upsert(store, batch, outcome);
  if (batch.vertexDeletes.length > 0) {
    const byType = new Map<string, VertexId[]>();
    for (const d of batch.vertexDeletes) {
      const ids = byType.get(d.type) ?? [];
      ids.push(d.id);
      byType.set(d.type, ids);
    }
    for (const [type, ids] of byType) outcome.deletedVertices += store.deleteVertices(type, ids).deletedVertices;
  }
  if (batch.edgeDeletes.length > 0) {
    const selectors: EdgeSelector[] = batch.edgeDeletes.map((d) => {
      const et = d.type === "*" ? undefined : view.schema.edgeTypes.find((t) => t.key === d.type);
      const discriminator = et && d.discriminator ? Object.fromEntries(et.discriminator.map((name, i) => [name, d.discriminator![i]])) : undefined;
      return { from: d.from, type: et?.key, toType: d.to?.type, to: d.to, discriminator };
    });
    const r = store.deleteEdges(selectors);
    for (const n of Object.values(r.deletedEdges)) outcome.deletedEdges += n;
  }
  return outcome;
}

function upsert(store: GraphStore, batch: LoadBatch, outcome: BatchOutcome): void {
  const folding = batch.vertices.some(hasFoldingOp) || batch.edges.some(hasFoldingOp);
  const existing = folding ? new ExistenceCheck(store.snapshot()) : undefined;
  try {
    let vertices: VertexUpsert[] = batch.vertices;
    let edges: EdgeUpsert[] = batch.edges;
    if (existing) {
      vertices = batch.vertices.map((v) => {
        const isNew = hasFoldingOp(v) && !existing.vertex(v.type, v.id);
        existing.noteVertex(v.type, v.id);
        return isNew ? { ...v, attributes: asNew(v.attributes) } : v;
      });
      edges = batch.edges.map((e) => {
        const isNew = hasFoldingOp(e) && !existing.edge(e.type, e.from, e.to);
        existing.noteEdge(e.type, e.from, e.to);
        return isNew ? { ...e, attributes: asNew(e.attributes) } : e;
      });
    }
    // Flags come from the source's USING, so a batch has one setting of each in practice;
    // items are split by flag only when statements with different USING share a batch.
    for (const newVertexOnly of distinct(batch.vertices.map((v) => v.newVertexOnly), false)) {
      for (const vertexMustExist of distinct(batch.edges.map((e) => e.vertexMustExist), false)) {
        const vs = vertices.filter((_, i) => batch.vertices[i]!.newVertexOnly === newVertexOnly);
        const es = edges.filter((_, i) => batch.edges[i]!.vertexMustExist === vertexMustExist);
        const r = store.upsert({ vertices: vs.length === vertices.length ? vertices : vs, edges: es.length === edges.length ? edges : es }, { newVertexOnly, vertexMustExist });
        outcome.acceptedVertices += r.acceptedVertices;
        outcome.acceptedEdges += r.acceptedEdges;
        outcome.skippedEdges += r.skippedEdges.length;
      }
    }
  } finally {
    existing?.release();
  }
}

/** The distinct values, in a stable order; `fallback` alone when there are none. */
function distinct(values: boolean[], fallback: boolean): boolean[] {
  if (values.length === 0) return [fallback];
  const first = values[0]!;
  return values.some((v) => v !== first) ? [first, !first] : [first];
}

const FOLDING: ReadonlySet<UpsertOp> = new Set(["+", "&", "|", ">", "<"]);

function hasFoldingOp(item: VertexWrite | EdgeWrite): boolean {
  for (const a of item.attributes) if (FOLDING.has(a.op)) return true;
  return false;
}

function asNew(attributes: AttributeWrite[]): AttributeWrite[] {
  return attributes.map((a) => (FOLDING.has(a.op) ? { ...a, op: "=" } : a));
}

/** Whether items exist before the batch, or are created by an earlier item of it. */
class ExistenceCheck {
  private readonly seenVertices = new Set<string>();
  private readonly seenEdges = new Set<string>();
  constructor(private readonly snapshot: Snapshot) {}

  vertex(type: string, id: VertexId): boolean {
    return this.seenVertices.has(vertexKey(type, id)) || this.snapshot.lookup(type, id) !== undefined;
  }

  noteVertex(type: string, id: VertexId): void {
    this.seenVertices.add(vertexKey(type, id));
  }

  edge(type: string, from: EndpointRef, to: EndpointRef): boolean {
    if (this.seenEdges.has(edgeKey(type, from, to))) return true;
    const f = this.snapshot.lookup(from.type, from.id);
    const t = this.snapshot.lookup(to.type, to.id);
    if (f === undefined || t === undefined) return false;
    for (const _ of this.snapshot.edges(f, { type, to: t })) return true;
    return false;
  }

  noteEdge(type: string, from: EndpointRef, to: EndpointRef): void {
    this.seenEdges.add(edgeKey(type, from, to));
    this.noteVertex(from.type, from.id);
    this.noteVertex(to.type, to.id);
  }

  release(): void {
    this.snapshot.release();
  }
}

const vertexKey = (type: string, id: VertexId) => `${type}\u0000${String(id)}`;
const edgeKey = (type: string, from: EndpointRef, to: EndpointRef) => `${type}\u0000${vertexKey(from.type, from.id)}\u0001${vertexKey(to.type, to.id)}`;
