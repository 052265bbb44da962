// Checks upsert items against a graph's schema and turns them into the store's form: vertex
// and edge types by key (source, edge and target type must exist and connect), operators as
// symbols, values converted to the attribute's type, unknown attribute names dropped. The
// first problem, in item order (vertices, then edges), rejects the whole upsert. Used for
// upserts given as items (UpsertCommand); the body reader (upsert-body.ts) converts as it
// reads with the same checks, and falls back on this for the error of a bad body.
import type { AttrType, AttributeDef, TupleType } from "../../runtime-wasm/schema/types.js";
import { UPSERT_OP_BY_NAME, type AttrWrite, type EdgeColumns, type IdValue, type UpsertOp, type VertexUpsert } from "../../runtime-wasm/store/index.js";
import { ConversionFailure, attrValueFromJson } from "./attribute-values.js";
import type { UpsertAttribute, UpsertEdge, UpsertVertex } from "./commands.js";
import { invalidRequest } from "./engine-error.js";
import type { GraphHandle } from "./engine.js";
import { edgeConnects, vertexTypeOf } from "./graph-types.js";
import { clip } from "./clip-text.js";
import type { JsonValue } from "../http/json-body.js";

const OP_SYMBOLS = new Set<string>(Object.values(UPSERT_OP_BY_NAME));

/** An upsert in the store's form (UpsertBatchCommand without its graph and flags). */
export interface UpsertBatch {
  vertices: VertexUpsert[];
  edgeColumns: EdgeColumns[];
}

/** A vertex type as upserts use it: its store key and its attributes by name. */
export interface ResolvedVertexType {
  key: string;
  attributes: ReadonlyMap<string, AttributeDef>;
}

export interface ResolvedEdgeTypes {
  type: string;
  from: string;
  to: string;
  attributes: ReadonlyMap<string, AttributeDef>;
}

export function upsertBatchOfItems(graph: GraphHandle, tuples: readonly TupleType[], items: { vertices: readonly UpsertVertex[]; edges: readonly UpsertEdge[] }): UpsertBatch {
  const vertexTypes = new Map<string, ResolvedVertexType>();
  const vertices: VertexUpsert[] = items.vertices.map((v, i) => {
    let t = vertexTypes.get(v.type);
    if (!t) {
      t = resolveVertexType(graph, v.type);
      vertexTypes.set(v.type, t);
    }
    const attributes = v.attributes.length === 0 ? undefined : writes(v.attributes, t.attributes, tuples, () => describeVertex(i, v));
    return { type: t.key, id: v.id, attributes };
  });
  return { vertices, edgeColumns: edgeGroups(items.edges, graph, tuples) };
}

export function resolveVertexType(graph: GraphHandle, name: string): ResolvedVertexType {
  const def = vertexTypeOf(graph, name);
  return { key: def.key, attributes: new Map(def.attributes.map((a) => [a.name, a])) };
}

/**
 * The edge items as edge columns, in body order: one group per run of items with one (source
 * type, edge type, target type) — bodies list a source's edges together, so runs are long and
 * the store gets id lists instead of an object per end of every edge.
 */
function edgeGroups(items: readonly UpsertEdge[], graph: GraphHandle, tuples: readonly TupleType[]): EdgeColumns[] {
  const groups: EdgeColumns[] = [];
  // Each triple is resolved once, and not even looked up while it stays the same.
  const resolved = new Map<string, ResolvedEdgeTypes>();
  let last: UpsertEdge | undefined;
  let r: ResolvedEdgeTypes | undefined;
  let from: IdValue[] = [];
  let to: IdValue[] = [];
  let attributes: (AttrWrite[] | undefined)[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const e = items[i]!;
    if (!last || last.sourceType !== e.sourceType || last.edgeType !== e.edgeType || last.targetType !== e.targetType) {
      const triple = `${e.sourceType}\n${e.edgeType}\n${e.targetType}`;
      r = resolved.get(triple);
      if (!r) {
        r = resolveEdgeTypes(graph, e.sourceType, e.edgeType, e.targetType, () => describeEdge(i, e));
        resolved.set(triple, r);
      }
      last = e;
      from = [];
      to = [];
      attributes = undefined;
      groups.push({ type: r.type, fromType: r.from, toType: r.to, from, to });
    }
    if (e.attributes.length > 0) {
      if (attributes === undefined) {
        attributes = new Array<AttrWrite[] | undefined>(from.length).fill(undefined);
        groups[groups.length - 1]!.attributes = attributes;
      }
      attributes.push(writes(e.attributes, r!.attributes, tuples, () => describeEdge(i, e)));
    } else if (attributes !== undefined) attributes.push(undefined);
    from.push(e.sourceId);
    to.push(e.targetId);
  }
  return groups;
}

export function resolveEdgeTypes(graph: GraphHandle, sourceType: string, edgeType: string, targetType: string, where: () => string): ResolvedEdgeTypes {
  const source = graph.view.vertexType(sourceType);
  if (!source) throw invalidRequest(`Invalid source vertex type '${sourceType}' in ${where()}: no such vertex type in graph '${graph.name}'.`);
  const t = graph.view.edgeType(edgeType);
  if (!t) throw invalidRequest(`Invalid edge type '${edgeType}' in ${where()}: no such edge type in graph '${graph.name}'.`);
  const target = graph.view.vertexType(targetType);
  if (!target) throw invalidRequest(`Invalid target vertex type '${targetType}' in ${where()}: no such vertex type in graph '${graph.name}'.`);
  if (!edgeConnects(graph, t, source.name, target.name)) {
    throw invalidRequest(`Invalid vertex types in ${where()}: edge type '${t.name}' does not connect ${source.name} to ${target.name}.`);
  }
  return { type: t.key, from: source.key, to: target.key, attributes: new Map(t.attributes.map((a) => [a.name, a])) };
}

export const describeVertex = (i: number, v: { type: string; id: string }) => `vertices[${i}] (${v.type} '${clip(v.id)}')`;
export const describeEdge = (i: number, e: Omit<UpsertEdge, "attributes">) =>
  `edges[${i}] (${e.edgeType} from ${e.sourceType} '${clip(e.sourceId)}' to ${e.targetType} '${clip(e.targetId)}')`;

/** Attribute writes with their values converted to the schema type; unknown names are dropped. */
function writes(attrs: readonly UpsertAttribute[], defs: ReadonlyMap<string, AttributeDef>, tuples: readonly TupleType[], where: () => string): AttrWrite[] {
  const out: AttrWrite[] = [];
  for (const a of attrs) {
    const write = attributeWrite(a.name, a.value, a.op, defs, tuples, where);
    if (write !== undefined) out.push(write);
  }
  return out;
}

/**
 * One attribute of an item in the store's form, or undefined for a name the type does not
 * have (ignored, interface.md upsert rule 3; its operator must still be valid). `where()`
 * names the item, only in an error message.
 */
export function attributeWrite(name: string, value: JsonValue, op: string, defs: ReadonlyMap<string, AttributeDef>, tuples: readonly TupleType[], where: () => string): AttrWrite | undefined {
  const symbol = parseOp(op, name, where);
  const def = defs.get(name);
  if (!def) return undefined;
  const converted = attrValueFromJson(value, def.type, tuples);
  if (converted instanceof ConversionFailure) {
    throw invalidRequest(`Invalid attribute data type for attribute '${name}' (${typeText(def.type)}) in ${where()}: ${converted.reason}.`);
  }
  return { name, value: converted, op: symbol };
}

function parseOp(op: string, attribute: string, where: () => string): UpsertOp {
  if (OP_SYMBOLS.has(op)) return op as UpsertOp;
  const byName = UPSERT_OP_BY_NAME[op] ?? UPSERT_OP_BY_NAME[op.toLowerCase()];
  if (byName) return byName;
  throw invalidRequest(
    `Invalid op '${clip(op)}' for attribute '${attribute}' in ${where()}: use overwrite (=), ignore_if_exists (~), add (+), and (&), or (|), max (>) or min (<).`,
  );
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
