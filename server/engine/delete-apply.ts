// Applies the delete commands. The selection (filter, sort, limit) is evaluated against the
// current version, then the store deletes exactly those items in one atomic call; deleting
// a vertex deletes its edges. Result shapes follow compat-notes.
import type { EdgeRecord, EdgeSelector, GraphStore, Snapshot } from "../../runtime-wasm/store/index.js";
import type { JsonOut } from "../../runtime-wasm/values/index.js";
import type { DeleteEdgesCommand, DeleteVerticesByTypeCommand, DeleteVerticesCommand } from "./commands.js";
import type { Deadline } from "./deadline.js";
import { invalidRequest } from "./engine-error.js";
import type { GraphHandle } from "./engine.js";
import { selectEdges } from "./edge-read.js";
import { vertexTypeOf } from "./graph-types.js";
import { lookupLive, selectVertices } from "./vertex-read.js";

/** results of DELETE /graph/{g}/vertices/...: {v_type, deleted_vertices}. */
export function applyDeleteVertices(store: GraphStore, graph: GraphHandle, cmd: DeleteVerticesCommand, deadline: Deadline): JsonOut {
  const type = vertexTypeOf(graph, cmd.vertexType);
  if (cmd.sort.length > 0 && cmd.limit === undefined) throw invalidRequest("The sort parameter of a delete must be used together with limit.");
  const ids = store.read((snapshot) => {
    // Deleting an id that names no vertex deletes nothing (a read of it is an error).
    const absent = cmd.id !== undefined && lookupLive(snapshot, type.key, cmd.id) === undefined;
    const vids = absent ? [] : selectVertices(snapshot, graph, cmd, deadline, Infinity);
    deadline.check();
    return vids.map((vid) => snapshot.idOf(vid));
  });
  const r = store.deleteVertices(type.key, ids, { permanent: cmd.permanent });
  return { v_type: type.name, deleted_vertices: r.deletedVertices };
}

export function applyDeleteVerticesByType(store: GraphStore, graph: GraphHandle, cmd: DeleteVerticesByTypeCommand): JsonOut {
  const type = vertexTypeOf(graph, cmd.vertexType);
  const r = store.deleteAllVertices(type.key, { permanent: cmd.permanent });
  return { v_type: type.name, deleted_vertices: r.deletedVertices };
}

/** results of DELETE /graph/{g}/edges/...: [{e_type, deleted_edges}] per covered edge type. */
export function applyDeleteEdges(store: GraphStore, graph: GraphHandle, cmd: DeleteEdgesCommand, deadline: Deadline): JsonOut {
  if (cmd.sort.length > 0 && cmd.limit === undefined) throw invalidRequest("The sort parameter of a delete must be used together with limit.");
  const { types, selectors } = store.read((snapshot) => {
    const selected = selectEdges(snapshot, graph, cmd, deadline, Infinity);
    deadline.check();
    return { types: selected.types, selectors: selected.edges.map((e) => exactSelector(snapshot, e)) };
  });
  const r = selectors.length > 0 ? store.deleteEdges(selectors) : { deletedEdges: {} as Record<string, number> };
  return types.map((t) => ({ e_type: t.name, deleted_edges: r.deletedEdges[t.key] ?? 0 }));
}

/** A selector naming exactly one edge: its type, both ends, and its discriminator values. */
function exactSelector(snapshot: Snapshot, e: EdgeRecord): EdgeSelector {
  const edgeType = snapshot.schema.edgeTypes.find((t) => t.key === e.type);
  const fromType = snapshot.typeOf(e.from);
  const toType = snapshot.typeOf(e.to);
  const selector: EdgeSelector = {
    from: { type: fromType, id: snapshot.idOf(e.from) },
    type: e.type,
    toType,
    to: { type: toType, id: snapshot.idOf(e.to) },
  };
  if (edgeType && edgeType.discriminator.length > 0) {
    selector.discriminator = Object.fromEntries(edgeType.discriminator.map((name) => [name, snapshot.edgeAttribute(e, name)]));
  }
  return selector;
}
