// Applies an upsert: items given by name are first checked against the graph's schema and
// converted (upsert-convert.ts: a single bad item rejects everything), then the store's form
// goes to the store as one atomic batch. The result has the shapes clients expect
// (compat-notes).
import { isStoreError, StoreError, type EdgeColumns, type GraphStore, type IdValue, type UpsertResult } from "../../runtime-wasm/store/index.js";
import { formatDatetime, type JsonOut } from "../../runtime-wasm/values/index.js";
import type { UpsertBatchCommand, UpsertCommand } from "./commands.js";
import type { GraphHandle } from "./engine.js";
import { upsertBatchOfItems } from "./upsert-convert.js";

export interface UpsertOutcome {
  /** The results item: accepted counts, and what was skipped when flags skipped items. */
  result: { [key: string]: JsonOut };
  /** REST-0001 vertices only, REST-0002 edges only, REST-0003 both. */
  code: string;
}

/** An upsert given as items: checked and converted (upsert-convert.ts), then applied. */
export function applyUpsert(store: GraphStore, graph: GraphHandle, cmd: UpsertCommand): UpsertOutcome {
  const batch = upsertBatchOfItems(graph, store.schema.tuples, cmd);
  return applyUpsertBatch(store, { kind: "upsert-batch", graph: cmd.graph, ...batch, flags: cmd.flags }, graph);
}

/** An upsert in the store's form, as one atomic store batch. */
export function applyUpsertBatch(store: GraphStore, cmd: UpsertBatchCommand, graph: GraphHandle): UpsertOutcome {
  const f = cmd.flags;
  let result: UpsertResult;
  try {
    result = store.upsert(
      { vertices: cmd.vertices, edgeColumns: cmd.edgeColumns },
      {
        newVertexOnly: f.newVertexOnly,
        updateVertexOnly: f.updateVertexOnly,
        vertexMustExist: f.vertexMustExist,
        sourceVertexMustExist: f.sourceVertexMustExist,
        targetVertexMustExist: f.targetVertexMustExist,
      },
    );
  } catch (e) {
    throw isStoreError(e) ? namedAsEdges(e, cmd.edgeColumns) : e;
  }
  return { result: resultShape(result, graph), code: successCode(result) };
}

/** A store refusal that names an item of the edge columns, reworded to name the body's edge item. */
function namedAsEdges(e: StoreError, groups: readonly EdgeColumns[]): StoreError {
  const starts: number[] = [];
  let at = 0;
  for (const g of groups) {
    starts.push(at);
    at += g.from.length;
  }
  const rename = (text: string) => text.replace(/edgeColumns\[(\d+)\](?:\[(\d+)\])?/g, (_m, g: string, i: string | undefined) => `edges[${(starts[Number(g)] ?? 0) + Number(i ?? 0)}]`);
  return new StoreError(e.code, rename(e.message), e.detail.path === undefined ? e.detail : { ...e.detail, path: rename(e.detail.path) });
}

function resultShape(r: UpsertResult, graph: GraphHandle): { [key: string]: JsonOut } {
  const vertexRef = (key: string, id: IdValue) => {
    const t = [...graph.view.vertexByName.values()].find((x) => x.key === key);
    const text = t?.primaryId.type === "DATETIME" && typeof id === "number" ? formatDatetime(id) : idText(id);
    return { v_type: t?.name ?? key, v_id: text };
  };
  const out: { [key: string]: JsonOut } = { accepted_vertices: r.acceptedVertices };
  if (r.skippedVertices.length > 0) {
    out.skipped_vertices = r.skippedVertices.length;
    const byReason = (reason: string) => r.skippedVertices.filter((s) => s.reason === reason).map((s) => vertexRef(s.type, s.id));
    const exist = byReason("already_exists");
    const missing = byReason("not_exists");
    const retired = byReason("retired");
    if (exist.length) out.vertices_already_exist = exist;
    if (missing.length) out.vertices_not_exist = missing;
    if (retired.length) out.vertices_permanently_deleted = retired;
  }
  out.accepted_edges = r.acceptedEdges;
  if (r.skippedEdges.length > 0) {
    out.skipped_edges = r.skippedEdges.length;
    const seen = new Set<string>();
    const missing: JsonOut[] = [];
    for (const s of r.skippedEdges) {
      for (const m of s.missing) {
        const ref = vertexRef(m.type, m.id);
        const key = `${ref.v_type}\n${ref.v_id}`;
        if (!seen.has(key)) {
          seen.add(key);
          missing.push(ref);
        }
      }
    }
    out.edge_vertices_not_exist = missing;
  }
  return out;
}

function successCode(r: UpsertResult): string {
  if (r.acceptedEdges > 0 && r.acceptedVertices > 0) return "REST-0003";
  return r.acceptedEdges > 0 ? "REST-0002" : "REST-0001";
}

/** Ids come back as strings: integers in decimal, composite keys joined by ",". */
function idText(id: IdValue): string {
  return Array.isArray(id) ? id.map(String).join(",") : String(id);
}
