// Applies an upsert command: every item is checked against the graph's schema first
// (vertex, edge, source and target types, operators, attribute value types; unknown
// attribute names are ignored), and only then handed to the store as one atomic batch, so a
// single bad item changes nothing. The result has the shapes clients expect (compat-notes).
import type { AttrType, AttributeDef, TupleType } from "../../runtime-wasm/schema/types.js";
import { isStoreError, StoreError, UPSERT_OP_BY_NAME, type AttrWrite, type EdgeColumns, type GraphStore, type IdValue, type UpsertOp, type UpsertResult, type VertexUpsert } from "../../runtime-wasm/store/index.js";
import { formatDatetime, type JsonOut } from "../../runtime-wasm/values/index.js";
import { ConversionFailure, attrValueFromJson } from "./attribute-values.js";
import type { UpsertAttribute, UpsertCommand, UpsertEdge, UpsertVertex } from "./commands.js";
import { invalidRequest } from "./engine-error.js";
import type { GraphHandle } from "./engine.js";
import { edgeConnects, vertexTypeOf } from "./graph-types.js";
import { clip } from "./clip-text.js";

const OP_SYMBOLS = new Set<string>(Object.values(UPSERT_OP_BY_NAME));

export interface UpsertOutcome {
  /** The results item: accepted counts, and what was skipped when flags skipped items. */
  result: { [key: string]: JsonOut };
  /** REST-0001 vertices only, REST-0002 edges only, REST-0003 both. */
  code: string;
}

export function applyUpsert(store: GraphStore, graph: GraphHandle, cmd: UpsertCommand): UpsertOutcome {
  const tuples = store.schema.tuples;
  const vertexTypes = new Map<string, { key: string; attributes: Map<string, AttributeDef> }>();
  const vertices: VertexUpsert[] = cmd.vertices.map((v, i) => {
    let t = vertexTypes.get(v.type);
    if (!t) {
      const def = vertexTypeOf(graph, v.type);
      t = { key: def.key, attributes: new Map(def.attributes.map((a) => [a.name, a])) };
      vertexTypes.set(v.type, t);
    }
    const attributes = v.attributes.length === 0 ? undefined : writes(v.attributes, t.attributes, tuples, describeVertex, i, v);
    return { type: t.key, id: v.id, attributes };
  });
  const { groups, starts } = edgeGroups(cmd.edges, graph, tuples);
  const f = cmd.flags;
  let result: UpsertResult;
  try {
    result = store.upsert(
      { vertices, edgeColumns: groups },
      {
        newVertexOnly: f.newVertexOnly,
        updateVertexOnly: f.updateVertexOnly,
        vertexMustExist: f.vertexMustExist,
        sourceVertexMustExist: f.sourceVertexMustExist,
        targetVertexMustExist: f.targetVertexMustExist,
      },
    );
  } catch (e) {
    throw isStoreError(e) ? namedAsEdges(e, starts) : e;
  }
  return { result: resultShape(result, graph), code: successCode(result) };
}

/**
 * The edge items as edge columns, in body order: one group per run of items with one (source
 * type, edge type, target type) — bodies list a source's edges together, so runs are long and
 * the store gets id lists instead of an object per end of every edge. `starts[g]` is the
 * index of group g's first item.
 */
function edgeGroups(items: readonly UpsertEdge[], graph: GraphHandle, tuples: readonly TupleType[]): { groups: EdgeColumns[]; starts: number[] } {
  const groups: EdgeColumns[] = [];
  const starts: number[] = [];
  // Each triple is resolved once, and not even looked up while it stays the same.
  const resolved = new Map<string, ResolvedEdgeTypes>();
  let last: UpsertEdge | undefined;
  let r: ResolvedEdgeTypes | undefined;
  let from: IdValue[] = [];
  let to: IdValue[] = [];
  let attributes: (AttrWrite[] | undefined)[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const e = items[i];
    if (!last || last.sourceType !== e.sourceType || last.edgeType !== e.edgeType || last.targetType !== e.targetType) {
      const triple = `${e.sourceType}\n${e.edgeType}\n${e.targetType}`;
      r = resolved.get(triple);
      if (!r) {
        r = resolveEdgeTypes(graph, e, () => describeEdge(i, e));
        resolved.set(triple, r);
      }
      last = e;
      from = [];
      to = [];
      attributes = undefined;
      groups.push({ type: r.type, fromType: r.from, toType: r.to, from, to });
      starts.push(i);
    }
    if (e.attributes.length > 0) {
      if (attributes === undefined) {
        attributes = new Array<AttrWrite[] | undefined>(from.length).fill(undefined);
        groups[groups.length - 1].attributes = attributes;
      }
      attributes.push(writes(e.attributes, r!.attributes, tuples, describeEdge, i, e));
    } else if (attributes !== undefined) attributes.push(undefined);
    from.push(e.sourceId);
    to.push(e.targetId);
  }
  return { groups, starts };
}

/** A store refusal that names an item of the edge columns, reworded to name the body's edge item. */
function namedAsEdges(e: StoreError, starts: readonly number[]): StoreError {
  const rename = (text: string) => text.replace(/edgeColumns\[(\d+)\](?:\[(\d+)\])?/g, (_m, g: string, i: string | undefined) => `edges[${(starts[Number(g)] ?? 0) + Number(i ?? 0)}]`);
  return new StoreError(e.code, rename(e.message), e.detail.path === undefined ? e.detail : { ...e.detail, path: rename(e.detail.path) });
}

interface ResolvedEdgeTypes {
  type: string;
  from: string;
  to: string;
  attributes: ReadonlyMap<string, AttributeDef>;
}

function resolveEdgeTypes(graph: GraphHandle, e: UpsertCommand["edges"][number], where: () => string): ResolvedEdgeTypes {
  const source = graph.view.vertexType(e.sourceType);
  if (!source) throw invalidRequest(`Invalid source vertex type '${e.sourceType}' in ${where()}: no such vertex type in graph '${graph.name}'.`);
  const t = graph.view.edgeType(e.edgeType);
  if (!t) throw invalidRequest(`Invalid edge type '${e.edgeType}' in ${where()}: no such edge type in graph '${graph.name}'.`);
  const target = graph.view.vertexType(e.targetType);
  if (!target) throw invalidRequest(`Invalid target vertex type '${e.targetType}' in ${where()}: no such vertex type in graph '${graph.name}'.`);
  if (!edgeConnects(graph, t, source.name, target.name)) {
    throw invalidRequest(`Invalid vertex types in ${where()}: edge type '${t.name}' does not connect ${source.name} to ${target.name}.`);
  }
  return { type: t.key, from: source.key, to: target.key, attributes: new Map(t.attributes.map((a) => [a.name, a])) };
}

const describeVertex = (i: number, v: UpsertVertex) => `vertices[${i}] (${v.type} '${clip(v.id)}')`;
const describeEdge = (i: number, e: UpsertEdge) => `edges[${i}] (${e.edgeType} from ${e.sourceType} '${clip(e.sourceId)}' to ${e.targetType} '${clip(e.targetId)}')`;

/**
 * Attribute writes with their values converted to the schema type; unknown names are dropped.
 * The item's description is built only for an error message.
 */
function writes<T>(attrs: readonly UpsertAttribute[], defs: ReadonlyMap<string, AttributeDef>, tuples: readonly TupleType[], describe: (i: number, item: T) => string, index: number, item: T): AttrWrite[] {
  const where = () => describe(index, item);
  const out: AttrWrite[] = [];
  for (const a of attrs) {
    const op = parseOp(a.op, a.name, where);
    const def = defs.get(a.name);
    if (!def) continue; // unknown attribute names are ignored (interface.md, upsert rule 3)
    const converted = attrValueFromJson(a.value, def.type, tuples);
    if (converted instanceof ConversionFailure) {
      throw invalidRequest(`Invalid attribute data type for attribute '${a.name}' (${typeText(def.type)}) in ${where()}: ${converted.reason}.`);
    }
    out.push({ name: a.name, value: converted, op });
  }
  return out;
}

function parseOp(op: string, attribute: string, where: () => string): UpsertOp {
  if (OP_SYMBOLS.has(op)) return op as UpsertOp;
  const byName = UPSERT_OP_BY_NAME[op] ?? UPSERT_OP_BY_NAME[op.toLowerCase()];
  if (byName) return byName;
  throw invalidRequest(
    `Invalid op '${clip(op)}' for attribute '${attribute}' in ${where()}: use overwrite (=), ignore_if_exists (~), add (+), and (&), or (|), max (>) or min (<).`,
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
