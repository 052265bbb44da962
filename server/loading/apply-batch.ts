// Applies a loader batch to the graph store. Batch items already have the store's shape
// (type keys, operator symbols): vertex items pass through uncopied, edge runs go over as
// the store's edge columns (their id lists uncopied, the store's fast path), as one atomic
// upsert. The store applies the items of a batch in order, each seeing the earlier
// ones; the one thing done here is the loader's rule for reducers: a reducer on an item that
// does not exist yet (before the batch, or created by an earlier item of it) simply stores
// its value, where the store would refuse an operator on a missing item.
import type { AttrWrite, EdgeColumns, EdgeSelector, ExternalId, GraphStore, Snapshot, UpsertOp, VertexUpsert } from "../../runtime-wasm/store/index.js";
import type { GraphView } from "../../runtime-wasm/schema/lookup.js";
import { edgeRunsOf, type AttributeWrite, type EdgeRun, type EdgeWrite, type EndpointRef, type LoadBatch, type VertexId, type VertexWrite } from "./sink.js";

export interface BatchOutcome {
  acceptedVertices: number;
  acceptedEdges: number;
  /** Edges skipped because VERTEX_MUST_EXIST and an endpoint was missing. */
  skippedEdges: number;
  deletedVertices: number;
  deletedEdges: number;
}

/** A batch as logged before edges were columns: edge items as objects. */
interface ItemBatch {
  vertices: VertexWrite[];
  edges: EdgeWrite[];
  vertexDeletes: LoadBatch["vertexDeletes"];
  edgeDeletes: LoadBatch["edgeDeletes"];
}

export function applyLoadBatch(store: GraphStore, view: GraphView, logged: LoadBatch | ItemBatch): BatchOutcome {
  const batch: LoadBatch = "edgeRuns" in logged ? logged : { ...logged, edgeRuns: edgeRunsOf(logged.edges ?? []) };
  const outcome: BatchOutcome = { acceptedVertices: 0, acceptedEdges: 0, skippedEdges: 0, deletedVertices: 0, deletedEdges: 0 };
  if (batch.vertices.length > 0 || batch.edgeRuns.length > 0) upsert(store, view, batch, outcome);
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
  const calls = splitByFlags(batch.vertices, batch.edgeRuns);
  const reducing = batch.vertices.some(hasReducer) || batch.edgeRuns.some(runHasReducer);
  const existing = reducing ? new ExistenceCheck(store.snapshot(), view) : undefined;
  try {
    for (const call of calls) {
      // The store applies a call's vertex items, then its edge items, each in order: the
      // existence check follows the same order (and sees what earlier calls created).
      const vertices = existing ? call.vertices.map((v) => existing.vertexWrite(v)) : call.vertices;
      const edgeColumns = call.edges.map((run) => (existing ? existing.edgeColumns(run) : asColumns(run)));
      const r = store.upsert({ vertices: vertices as VertexUpsert[], edgeColumns }, { newVertexOnly: call.newVertexOnly, vertexMustExist: call.vertexMustExist });
      outcome.acceptedVertices += r.acceptedVertices;
      outcome.acceptedEdges += r.acceptedEdges;
      outcome.skippedEdges += r.skippedEdges.length;
    }
  } finally {
    existing?.release();
  }
}

interface StoreCall {
  vertices: VertexWrite[];
  edges: EdgeRun[];
  newVertexOnly: boolean;
  vertexMustExist: boolean;
}

/**
 * The store calls of a batch, in item order: one per run of consecutive items that agree in
 * their flag (flags come from each source's USING, so a batch has one run or very few). The
 * store applies a call's vertex items before its edge items, so the last vertex run and the
 * first edge run share a call.
 */
function splitByFlags(vertices: VertexWrite[], edgeRuns: EdgeRun[]): StoreCall[] {
  const vertexRuns = runsByFlag(vertices, (v) => v.newVertexOnly);
  const edgeFlagRuns = runsByFlag(edgeRuns, (e) => e.vertexMustExist);
  const calls: StoreCall[] = vertexRuns.map((r) => ({ vertices: r.items, edges: [], newVertexOnly: r.flag, vertexMustExist: false }));
  for (const r of edgeFlagRuns) calls.push({ vertices: [], edges: r.items, newVertexOnly: false, vertexMustExist: r.flag });
  if (vertexRuns.length > 0 && edgeFlagRuns.length > 0) {
    const last = calls[vertexRuns.length - 1]!;
    const first = calls.splice(vertexRuns.length, 1)[0]!;
    last.edges = first.edges;
    last.vertexMustExist = first.vertexMustExist;
  }
  return calls;
}

/** Runs of consecutive items with one flag value; the array itself when all agree (no copy). */
function runsByFlag<T>(items: T[], flag: (item: T) => boolean): { flag: boolean; items: T[] }[] {
  const runs: { flag: boolean; items: T[] }[] = [];
  if (items.length === 0) return runs;
  let start = 0;
  let current = flag(items[0]!);
  for (let i = 1; i <= items.length; i++) {
    const next = i < items.length ? flag(items[i]!) : !current;
    if (next === current) continue;
    runs.push({ flag: current, items: start === 0 && i === items.length ? items : items.slice(start, i) });
    start = i;
    current = next;
  }
  return runs;
}

/** A run as the store's edge columns: its id lists as they are (the store does not keep them). */
function asColumns(run: EdgeRun, attributes: (AttrWrite[] | undefined)[] | undefined = run.attributes): EdgeColumns {
  const columns: EdgeColumns = { type: run.type, fromType: run.fromType, toType: run.toType, from: run.from as ArrayLike<ExternalId>, to: run.to as ArrayLike<ExternalId> };
  if (attributes !== undefined) columns.attributes = attributes;
  return columns;
}

const REDUCERS: ReadonlySet<UpsertOp> = new Set(["+", "&", "|", ">", "<"]);

function hasReducer(item: { attributes: AttributeWrite[] }): boolean {
  return writesReduce(item.attributes);
}

function writesReduce(attributes: AttributeWrite[]): boolean {
  for (const a of attributes) if (REDUCERS.has(a.op)) return true;
  return false;
}

function runHasReducer(run: EdgeRun): boolean {
  if (run.attributes === undefined) return false;
  // One load statement writes a run: its items share their operators, but check them all.
  for (const writes of run.attributes) if (writesReduce(writes)) return true;
  return false;
}

/** The writes of an item that does not exist yet: a reducer simply stores its value. */
function asNew(attributes: AttributeWrite[]): AttributeWrite[] {
  return attributes.map((a) => (REDUCERS.has(a.op) ? { ...a, op: "=" } : a));
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

  /** The item as the store must get it: reducers become '=' when its vertex does not exist by then. */
  vertexWrite(v: VertexWrite): VertexWrite {
    const isNew = !this.vertex(v.type, v.id);
    this.noteVertex(v.type, v.id);
    return isNew && hasReducer(v) ? { ...v, attributes: asNew(v.attributes) } : v;
  }

  /** A run as the store must get it: the attribute writes of each item through edgeWrite. */
  edgeColumns(run: EdgeRun): EdgeColumns {
    const attributes: AttributeWrite[][] = [];
    for (let i = 0; i < run.from.length; i++) {
      const from = { type: run.fromType, id: run.from[i]! };
      const to = { type: run.toType, id: run.to[i]! };
      attributes.push(this.edgeWrite(run.type, from, to, run.attributes?.[i] ?? [], run.vertexMustExist));
    }
    return asColumns(run, run.attributes === undefined ? undefined : attributes);
  }

  /** The attribute writes the store must get for an edge item; an edge the store will skip (a missing end it may not create) creates nothing. */
  edgeWrite(type: string, from: EndpointRef, to: EndpointRef, attributes: AttributeWrite[], vertexMustExist: boolean): AttributeWrite[] {
    if (vertexMustExist && !(this.vertex(from.type, from.id) && this.vertex(to.type, to.id))) return attributes;
    const isNew = writesReduce(attributes) && !this.edge(type, from, to);
    this.noteEdge(type, from, to);
    return isNew ? asNew(attributes) : attributes;
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
