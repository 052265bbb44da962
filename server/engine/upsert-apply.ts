// Applies an upsert command: every item is checked against the graph's schema first
// (vertex, edge, source and target types, operators, attribute value types; unknown
// attribute names are ignored), and only then handed to the store as one atomic batch, so a
// single bad item changes nothing. The result has the shapes clients expect (compat-notes).
import type { AttrType, AttributeDef, TupleType } from "../../runtime-wasm/schema/types.js";
import { UPSERT_OP_BY_NAME, type AttrWrite, type EdgeUpsert, type GraphStore, type IdValue, type UpsertOp, type UpsertResult, type VertexUpsert } from "../../runtime-wasm/store/index.js";
import { formatDatetime, type JsonOut } from "../../runtime-wasm/values/index.js";
import { attrValueFromJson } from "./attribute-values.js";
import type { UpsertAttribute, UpsertCommand } from "./commands.js";
import { invalidRequest } from "./engine-error.js";
import type { GraphHandle } from "./engine.js";
import { edgeConnects, vertexTypeOf } from "./graph-types.js";

const OP_SYMBOLS = new Set<string>(Object.values(UPSERT_OP_BY_NAME));

export interface UpsertOutcome {
  /** The results item: accepted counts, and what was skipped when flags skipped items. */
  result: { [key: string]: JsonOut };
  /** REST-0001 vertices only, REST-0002 edges only, REST-0003 both. */
  code: string;
}

export function applyUpsert(store: GraphStore, graph: GraphHandle, cmd: UpsertCommand): UpsertOutcome {
  const tuples = store.schema.tuples;
  const vertices: VertexUpsert[] = cmd.vertices.map((v, i) => {
    const t = vertexTypeOf(graph, v.type);
    return { type: t.key, id: v.id, attributes: writes(v.attributes, t.attributes, tuples, `vertices[${i}] (${v.type} '${clip(v.id)}')`) };
  });
  const edges: EdgeUpsert[] = cmd.edges.map((e, i) => {
    const where = `edges[${i}] (${e.edgeType} from ${e.sourceType} '${clip(e.sourceId)}' to ${e.targetType} '${clip(e.targetId)}')`;
    const source = graph.view.vertexType(e.sourceType);
    if (!source) throw invalidRequest(`Invalid source vertex type '${e.sourceType}' in ${where}: no such vertex type in graph '${graph.name}'.`);
    const t = graph.view.edgeType(e.edgeType);
    if (!t) throw invalidRequest(`Invalid edge type '${e.edgeType}' in ${where}: no such edge type in graph '${graph.name}'.`);
    const target = graph.view.vertexType(e.targetType);
    if (!target) throw invalidRequest(`Invalid target vertex type '${e.targetType}' in ${where}: no such vertex type in graph '${graph.name}'.`);
    if (!edgeConnects(graph, t, source.name, target.name)) {
      throw invalidRequest(`Invalid vertex types in ${where}: edge type '${t.name}' does not connect ${source.name} to ${target.name}.`);
    }
    return {
      type: t.key,
      from: { type: source.key, id: e.sourceId },
      to: { type: target.key, id: e.targetId },
      attributes: writes(e.attributes, t.attributes, tuples, where),
    };
  });
  const f = cmd.flags;
  const result = store.upsert(
    { vertices, edges },
    {
      newVertexOnly: f.newVertexOnly,
      updateVertexOnly: f.updateVertexOnly,
      vertexMustExist: f.vertexMustExist,
      sourceVertexMustExist: f.sourceVertexMustExist,
      targetVertexMustExist: f.targetVertexMustExist,
    },
  );
  return { result: resultShape(result, graph), code: successCode(result) };
}

/** Attribute writes with their values converted to the schema type; unknown names are dropped. */
function writes(attrs: readonly UpsertAttribute[], defs: readonly AttributeDef[], tuples: readonly TupleType[], where: string): AttrWrite[] {
  const out: AttrWrite[] = [];
  for (const a of attrs) {
    const op = parseOp(a.op, a.name, where);
    const def = defs.find((d) => d.name === a.name);
    if (!def) continue; // unknown attribute names are ignored (interface.md, upsert rule 3)
    const converted = attrValueFromJson(a.value, def.type, tuples);
    if (!converted.ok) {
      throw invalidRequest(`Invalid attribute data type for attribute '${a.name}' (${typeText(def.type)}) in ${where}: ${converted.reason}.`);
    }
    out.push({ name: a.name, value: converted.value, op });
  }
  return out;
}

function parseOp(op: string, attribute: string, where: string): UpsertOp {
  if (OP_SYMBOLS.has(op)) return op as UpsertOp;
  const byName = UPSERT_OP_BY_NAME[op.toLowerCase()];
  if (byName) return byName;
  throw invalidRequest(
    `Invalid op '${clip(op)}' for attribute '${attribute}' in ${where}: use overwrite (=), ignore_if_exists (~), add (+), and (&), or (|), max (>) or min (<).`,
  );
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

function typeText(t: AttrType): string {
  switch (t.kind) {
    case "scalar":
      return t.name;
    case "list":
    case "set":
      return `${t.kind.toUpperCase()}<${typeText(t.element)}>`;
    case "map":
      return `MAP<${typeText(t.key)}, ${typeText(t.value)}>`;
    case "tuple":
      return t.name;
  }
}

function clip(text: string): string {
  return text.length > 100 ? text.slice(0, 100) + "..." : text;
}
