// A query's writes as store steps, and applying them all or nothing. The steps run as one
// engine command that is logged only once it succeeded, so no step may fail after an earlier
// one changed the graph: every step is validated against the store first (the store's own
// upsert planner, which changes nothing; type checks for deletes), and the one write whose
// success depends on what earlier steps did — an attribute write to an edge, which a DELETE
// earlier in the same run may have removed — is made to skip an edge that is gone instead of
// failing on it (or bringing it back), like a vertex attribute write skips a deleted vertex.
// Validation and application see the same graph but for what the steps themselves change, and
// those changes only remove edges the edge writes would then skip; what is left to fail is the
// store running out of memory.
import type { EdgeSelector, EdgeUpsert, GraphStore, Snapshot, UpsertBatch, UpsertOptions, VertexKey } from "../store/api.js";
import { StoreError } from "../store/errors.js";

export interface DmlSummary {
  upsertedVertices: number;
  upsertedEdges: number;
  deletedVertices: number;
  deletedEdges: number;
}

/** One store call of a query's writes, as plain data. */
export type DmlStep =
  /** `updateOnly`: attribute writes, which only touch vertices that still exist. */
  | { kind: "upsert"; batch: UpsertBatch; updateOnly: boolean }
  /** Attribute writes to edges (discriminator first): edges that no longer exist are skipped. */
  | { kind: "update-edges"; edges: EdgeUpsert[] }
  | { kind: "delete-vertex"; vertex: VertexKey }
  | { kind: "delete-edge"; selector: Omit<EdgeSelector, "where"> };

const UPDATE_ONLY: UpsertOptions = { updateVertexOnly: true };
const ENDS_MUST_EXIST: UpsertOptions = { vertexMustExist: true };

/**
 * Applies the steps in order (deterministic given the store's state: a logged command replays
 * it). Throws a StoreError, having changed nothing, when a step would be refused.
 */
export function applyDmlSteps(store: GraphStore, steps: readonly DmlStep[]): DmlSummary {
  checkDmlSteps(store, steps);
  const summary: DmlSummary = { upsertedVertices: 0, upsertedEdges: 0, deletedVertices: 0, deletedEdges: 0 };
  for (const step of steps) {
    switch (step.kind) {
      case "upsert": {
        const result = store.upsert(step.batch, step.updateOnly ? UPDATE_ONLY : undefined);
        summary.upsertedVertices += result.acceptedVertices;
        summary.upsertedEdges += result.acceptedEdges;
        break;
      }
      case "update-edges": {
        const edges = store.read((s) => existingEdges(store, s, step.edges));
        if (edges.length > 0) summary.upsertedEdges += store.upsert({ edges }, ENDS_MUST_EXIST).acceptedEdges;
        break;
      }
      case "delete-vertex":
        summary.deletedVertices += store.deleteVertices(step.vertex.type, [step.vertex.id]).deletedVertices;
        break;
      case "delete-edge":
        for (const n of Object.values(store.deleteEdges([step.selector]).deletedEdges)) summary.deletedEdges += n;
        break;
    }
  }
  return summary;
}

/** Throws the StoreError some step would throw, before any step runs. */
function checkDmlSteps(store: GraphStore, steps: readonly DmlStep[]): void {
  const vertexTypes = new Set(store.schema.vertexTypes.map((t) => t.key));
  const edgeTypes = new Set(store.schema.edgeTypes.map((t) => t.key));
  const vertexType = (type: string) => {
    if (!vertexTypes.has(type)) throw new StoreError("UNKNOWN_VERTEX_TYPE", `invalid vertex type ${type}`, { type });
  };
  for (const step of steps) {
    switch (step.kind) {
      case "upsert":
        store.checkUpsert(step.batch, step.updateOnly ? UPDATE_ONLY : undefined);
        break;
      case "update-edges": {
        const edges = store.read((s) => existingEdges(store, s, step.edges));
        if (edges.length > 0) store.checkUpsert({ edges }, ENDS_MUST_EXIST);
        break;
      }
      case "delete-vertex":
        vertexType(step.vertex.type);
        break;
      case "delete-edge": {
        const { from, to, type } = step.selector;
        vertexType(from.type);
        if (to !== undefined) vertexType(to.type);
        if (type !== undefined && !edgeTypes.has(type)) throw new StoreError("UNKNOWN_EDGE_TYPE", `invalid edge type ${type}`, { type });
        break;
      }
    }
  }
}

/** The writes whose edge (type, ends and discriminator) exists in the snapshot. */
function existingEdges(store: GraphStore, s: Snapshot, edges: readonly EdgeUpsert[]): EdgeUpsert[] {
  return edges.filter((e) => {
    const from = s.lookup(e.from.type, e.from.id);
    const to = s.lookup(e.to.type, e.to.id);
    if (from === undefined || to === undefined) return false;
    const names = store.schema.edgeTypes.find((t) => t.key === e.type)?.discriminator ?? [];
    const wanted = names.map((name) => valueText(e.attributes?.find((a) => a.name === name)?.value));
    for (const edge of s.edges(from, { type: e.type, to })) {
      if (names.every((name, i) => valueText(s.edgeAttribute(edge, name)) === wanted[i])) return true;
    }
    return false;
  });
}

/** A value as comparable text (bigint kept apart from numbers). */
function valueText(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : v)) ?? "undefined";
}
