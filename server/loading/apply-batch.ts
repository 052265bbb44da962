// Applies a loader batch to the graph store. Batch items already have the store's shape
// (type keys, operator symbols), so in the common case they pass through uncopied, as one
// atomic upsert. With reducers two things are done here first: a reducer on an item that
// does not exist yet simply stores the value (the store refuses operators on missing items,
// so such writes become '='), and several items of one vertex in a batch are folded into
// one (the store evaluates a vertex created earlier in the same batch as new, so a second
// "+" would overwrite instead of add).
import type { EdgeSelector, EdgeUpsert, GraphStore, Snapshot, UpsertOp, VertexUpsert } from "../../runtime-wasm/store/index.js";
import { applyOperator } from "../../runtime-wasm/store/values/operators.js";
import type { AttrType } from "../../runtime-wasm/schema/types.js";
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
  if (batch.vertices.length > 0 || batch.edges.length > 0) upsert(store, view, batch, outcome);
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

function upsert(store: GraphStore, view: GraphView, batch: LoadBatch, outcome: BatchOutcome): void {
  const folding = batch.vertices.some(hasFoldingOp) || batch.edges.some(hasFoldingOp);
  const existing = folding ? new ExistenceCheck(store.snapshot(), view) : undefined;
  try {
    let vertices: VertexWrite[] = batch.vertices;
    let edges: EdgeWrite[] = batch.edges;
    let spill: VertexWrite[] = [];
    if (existing) {
      ({ merged: vertices, spill } = mergeVertexWrites(batch.vertices, existing, view));
      edges = batch.edges.map((e) => {
        const isNew = hasFoldingOp(e) && !existing.edge(e.type, e.from, e.to);
        existing.noteEdge(e.type, e.from, e.to);
        return isNew ? { ...e, attributes: asNew(e.attributes) } : e;
      });
    }
    send(store, vertices, edges, outcome);
    // Writes that could not be folded into one item (two different reducers on one attribute
    // of one vertex within a batch) follow in a second call.
    if (spill.length > 0) send(store, spill, [], outcome);
  } finally {
    existing?.release();
  }
}

/**
 * Hands items to the store: one call, or two when items of the batch differ in a flag (flags
 * come from each source's USING, so in practice they agree). Each item goes in exactly one call.
 */
function send(store: GraphStore, vertices: VertexWrite[], edges: EdgeWrite[], outcome: BatchOutcome): void {
  const vertexGroups = groupByFlag(vertices, (v) => v.newVertexOnly);
  const edgeGroups = groupByFlag(edges, (e) => e.vertexMustExist);
  for (let i = 0; i < Math.max(vertexGroups.length, edgeGroups.length); i++) {
    const vs = vertexGroups[i] ?? { flag: false, items: [] };
    const es = edgeGroups[i] ?? { flag: false, items: [] };
    const r = store.upsert({ vertices: vs.items as VertexUpsert[], edges: es.items as EdgeUpsert[] }, { newVertexOnly: vs.flag, vertexMustExist: es.flag });
    outcome.acceptedVertices += r.acceptedVertices;
    outcome.acceptedEdges += r.acceptedEdges;
    outcome.skippedEdges += r.skippedEdges.length;
  }
}

/**
 * One item per vertex: later items of the same vertex are folded into the first with the
 * store's own operators, so "+10 after =5" in one batch gives 15 whatever order the store
 * evaluates items in. A vertex new to the store has its folding operators turned into '='.
 */
function mergeVertexWrites(items: VertexWrite[], existing: ExistenceCheck, view: GraphView): { merged: VertexWrite[]; spill: VertexWrite[] } {
  const merged: VertexWrite[] = [];
  const spill: VertexWrite[] = [];
  const at = new Map<string, number>();
  for (const v of items) {
    const key = vertexKey(v.type, v.id);
    const index = at.get(key);
    if (index === undefined) {
      const isNew = !existing.vertex(v.type, v.id);
      existing.noteVertex(v.type, v.id);
      at.set(key, merged.length);
      merged.push({ ...v, attributes: isNew ? asNew(v.attributes) : [...v.attributes] });
      continue;
    }
    const into = merged[index]!;
    if (v.newVertexOnly) continue; // the vertex exists by now: left untouched
    const types = view.schema.vertexTypes.find((t) => t.key === v.type)!;
    const leftover: AttributeWrite[] = [];
    for (const w of v.attributes) {
      const i = into.attributes.findIndex((x) => x.name === w.name);
      if (i < 0) {
        into.attributes.push(w);
        continue;
      }
      const type = types.attributes.find((a) => a.name === w.name)!.type;
      const folded = foldWrites(into.attributes[i]!, w, type);
      if (folded) into.attributes[i] = folded;
      else leftover.push(w);
    }
    if (leftover.length > 0) spill.push({ ...v, attributes: leftover });
  }
  return { merged, spill };
}

/** The single write equal to `first` then `second` on one attribute, or undefined when there is none. */
function foldWrites(first: AttributeWrite, second: AttributeWrite, type: AttrType): AttributeWrite | undefined {
  if (second.op === "=") return second;
  if (second.op === "~") return first;
  if (first.op === "=") return { name: first.name, op: "=", value: applyOperator(second.op, type, first.value, second.value) };
  if (first.op === second.op) return { name: first.name, op: first.op, value: applyOperator(first.op, type, first.value, second.value) };
  return undefined;
}

/** Items split by a flag, in first-seen order; the array itself when all agree (no copy). */
function groupByFlag<T>(items: T[], flag: (item: T) => boolean): { flag: boolean; items: T[] }[] {
  if (items.length === 0) return [];
  const first = flag(items[0]!);
  if (items.every((item) => flag(item) === first)) return [{ flag: first, items }];
  return [
    { flag: first, items: items.filter((item) => flag(item) === first) },
    { flag: !first, items: items.filter((item) => flag(item) !== first) },
  ];
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
  /** Keys of undirected edge types: (A,B) and (B,A) are one edge. */
  private readonly undirected: Set<string>;
  constructor(
    private readonly snapshot: Snapshot,
    view: GraphView,
  ) {
    this.undirected = new Set(view.schema.edgeTypes.filter((t) => !t.directed).map((t) => t.key));
  }

  vertex(type: string, id: VertexId): boolean {
    return this.seenVertices.has(vertexKey(type, id)) || this.snapshot.lookup(type, id) !== undefined;
  }

  noteVertex(type: string, id: VertexId): void {
    this.seenVertices.add(vertexKey(type, id));
  }

  edge(type: string, from: EndpointRef, to: EndpointRef): boolean {
    if (this.seenEdges.has(this.edgeKey(type, from, to))) return true;
    const f = this.snapshot.lookup(from.type, from.id);
    const t = this.snapshot.lookup(to.type, to.id);
    if (f === undefined || t === undefined) return false;
    for (const _ of this.snapshot.edges(f, { type, to: t })) return true;
    return false;
  }

  noteEdge(type: string, from: EndpointRef, to: EndpointRef): void {
    this.seenEdges.add(this.edgeKey(type, from, to));
    this.noteVertex(from.type, from.id);
    this.noteVertex(to.type, to.id);
  }

  release(): void {
    this.snapshot.release();
  }

  private edgeKey(type: string, from: EndpointRef, to: EndpointRef): string {
    const [a, b] = [vertexKey(from.type, from.id), vertexKey(to.type, to.id)];
    return this.undirected.has(type) && b < a ? `${type}\u0000${b}\u0001${a}` : `${type}\u0000${a}\u0001${b}`;
  }
}

const vertexKey = (type: string, id: VertexId) => `${type}\u0000${String(id)}`;
