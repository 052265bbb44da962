// Applies a loader batch to the graph store: type names become store keys, operators become
// the store's symbols, and the batch goes to the store as one upsert (or one delete per
// kind). Loading folds values into what is stored, but a reducer on an item that does not
// exist yet simply sets the value (a REDUCE(add) on a new vertex stores the value itself):
// the store refuses operators on missing items, so those items are written with '=' here.
import type { GraphView } from "../../runtime-wasm/schema/lookup.js";
import type { AttrWrite, EdgeSelector, EdgeUpsert, GraphStore, Snapshot, UpsertOp, UpsertResult, VertexUpsert } from "../../runtime-wasm/store/index.js";
import type { AttributeWrite, EdgeWrite, LoadBatch, VertexWrite, WriteOp } from "./sink.js";

const OP_SYMBOL: Record<WriteOp, UpsertOp> = {
  overwrite: "=",
  ignore_if_exists: "~",
  add: "+",
  and: "&",
  or: "|",
  max: ">",
  min: "<",
  put: "+",
};

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
  if (batch.vertices.length > 0 || batch.edges.length > 0) upsert(store, view, batch, outcome);
  if (batch.vertexDeletes.length > 0) {
    const byType = new Map<string, (string | number | bigint)[]>();
    for (const d of batch.vertexDeletes) {
      const key = view.vertexType(d.type)!.key;
      const ids = byType.get(key) ?? [];
      ids.push(d.id);
      byType.set(key, ids);
    }
    for (const [type, ids] of byType) outcome.deletedVertices += store.deleteVertices(type, ids).deletedVertices;
  }
  if (batch.edgeDeletes.length > 0) {
    const selectors: EdgeSelector[] = batch.edgeDeletes.map((d) => {
      const et = d.type === "*" ? undefined : view.edgeType(d.type)!;
      const from = { type: view.vertexType(d.from.type)!.key, id: d.from.id };
      const to = d.to ? { type: view.vertexType(d.to.type)!.key, id: d.to.id } : undefined;
      const discriminator = et && d.discriminator ? Object.fromEntries(et.discriminator.map((name, i) => [name, d.discriminator![i]])) : undefined;
      return { from, type: et?.key, toType: to?.type, to, discriminator };
    });
    const r = store.deleteEdges(selectors);
    for (const n of Object.values(r.deletedEdges)) outcome.deletedEdges += n;
  }
  return outcome;
}

function upsert(store: GraphStore, view: GraphView, batch: LoadBatch, outcome: BatchOutcome): void {
  const needsExistence = batch.vertices.some(hasFoldingOp) || batch.edges.some(hasFoldingOp);
  const existing = needsExistence ? new ExistenceCheck(store.snapshot()) : undefined;
  try {
    // Items are grouped by their flags (one group in practice: flags come from the source's USING).
    const groups = new Map<string, { vertices: VertexUpsert[]; edges: EdgeUpsert[]; newVertexOnly: boolean; vertexMustExist: boolean }>();
    const group = (newVertexOnly: boolean, vertexMustExist: boolean) => {
      const key = `${newVertexOnly}/${vertexMustExist}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { vertices: [], edges: [], newVertexOnly, vertexMustExist }));
      return g;
    };
    const first = batch.vertices[0]?.newVertexOnly ?? false;
    const firstMust = batch.edges[0]?.vertexMustExist ?? false;
    for (const v of batch.vertices) {
      const type = view.vertexType(v.type)!.key;
      const isNew = existing !== undefined && hasFoldingOp(v) && !existing.vertex(type, v.id);
      group(v.newVertexOnly, firstMust).vertices.push({ type, id: v.id, attributes: writes(v.attributes, isNew) });
      existing?.noteVertex(type, v.id);
    }
    for (const e of batch.edges) {
      const type = view.edgeType(e.type)!.key;
      const from = { type: view.vertexType(e.from.type)!.key, id: e.from.id };
      const to = { type: view.vertexType(e.to.type)!.key, id: e.to.id };
      const isNew = existing !== undefined && hasFoldingOp(e) && !existing.edge(type, from, to);
      group(first, e.vertexMustExist).edges.push({ type, from, to, attributes: e.attributes.length ? writes(e.attributes, isNew) : undefined });
      existing?.noteEdge(type, from, to);
    }
    for (const g of groups.values()) {
      const r: UpsertResult = store.upsert({ vertices: g.vertices, edges: g.edges }, { newVertexOnly: g.newVertexOnly, vertexMustExist: g.vertexMustExist });
      outcome.acceptedVertices += r.acceptedVertices;
      outcome.acceptedEdges += r.acceptedEdges;
      outcome.skippedEdges += r.skippedEdges.length;
    }
  } finally {
    existing?.release();
  }
}

function hasFoldingOp(item: VertexWrite | EdgeWrite): boolean {
  for (const a of item.attributes) if (a.op !== "overwrite" && a.op !== "ignore_if_exists") return true;
  return false;
}

function writes(attributes: AttributeWrite[], isNew: boolean): AttrWrite[] {
  return attributes.map((a) => ({ name: a.name, value: a.value, op: isNew && a.op !== "ignore_if_exists" ? "=" : OP_SYMBOL[a.op] }));
}

/** Whether items exist before the batch, or are created by an earlier item of it. */
class ExistenceCheck {
  private readonly seenVertices = new Set<string>();
  private readonly seenEdges = new Set<string>();
  constructor(private readonly snapshot: Snapshot) {}

  vertex(type: string, id: string | number | bigint): boolean {
    return this.seenVertices.has(vertexKey(type, id)) || this.snapshot.lookup(type, id) !== undefined;
  }

  noteVertex(type: string, id: string | number | bigint): void {
    this.seenVertices.add(vertexKey(type, id));
  }

  edge(type: string, from: { type: string; id: string | number | bigint }, to: { type: string; id: string | number | bigint }): boolean {
    if (this.seenEdges.has(edgeKey(type, from, to))) return true;
    const f = this.snapshot.lookup(from.type, from.id);
    const t = this.snapshot.lookup(to.type, to.id);
    if (f === undefined || t === undefined) return false;
    for (const _ of this.snapshot.edges(f, { type, to: t })) return true;
    return false;
  }

  noteEdge(type: string, from: { type: string; id: string | number | bigint }, to: { type: string; id: string | number | bigint }): void {
    this.seenEdges.add(edgeKey(type, from, to));
    this.noteVertex(from.type, from.id);
    this.noteVertex(to.type, to.id);
  }

  release(): void {
    this.snapshot.release();
  }
}

const vertexKey = (type: string, id: string | number | bigint) => `${type}\u0000${typeof id}\u0000${String(id)}`;
const edgeKey = (type: string, from: { type: string; id: string | number | bigint }, to: { type: string; id: string | number | bigint }) =>
  `${type}\u0000${vertexKey(from.type, from.id)}\u0001${vertexKey(to.type, to.id)}`;
