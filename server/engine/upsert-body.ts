// Turns a parsed upsert body (interface.md "Upsert": vertices type → id → attribute →
// {value, op}; edges source type → source id → edge type → target type → target id →
// attribute → {value, op}) into the items of an UpsertCommand, in body order, keeping items
// that repeat a key. Only the shape is checked here; names and values are checked against
// the schema when the command is applied.
import { isJsonObject, type JsonObject, type JsonValue } from "../http/json-body.js";
import type { UpsertAttribute, UpsertEdge, UpsertVertex } from "./commands.js";
import { invalidRequest } from "./engine-error.js";

export interface UpsertItems {
  vertices: UpsertVertex[];
  edges: UpsertEdge[];
}

export function upsertItemsFromJson(body: JsonValue): UpsertItems {
  const top = objectAt(body, () => "the request body");
  const items: UpsertItems = { vertices: [], edges: [] };
  for (const [key, value] of top.entries) {
    if (key === "vertices") readVertices(value, items.vertices);
    else if (key === "edges") readEdges(value, items.edges);
    else throw invalidRequest(`Invalid upsert payload: unknown top-level key '${clip(key)}'; only 'vertices' and 'edges' are allowed.`);
  }
  return items;
}

// Descriptions of where an item sits are built only when something is wrong: bodies carry
// millions of items and the happy path must not format a message per item.

function readVertices(value: JsonValue, out: UpsertVertex[]): void {
  for (const [type, ids] of objectAt(value, () => "'vertices'").entries) {
    for (const [id, attrs] of objectAt(ids, () => `vertices of type '${clip(type)}'`).entries) {
      out.push({ type, id, attributes: readAttributes(attrs, () => `vertex '${clip(id)}' of type '${clip(type)}'`) });
    }
  }
}

function readEdges(value: JsonValue, out: UpsertEdge[]): void {
  for (const [sourceType, sources] of objectAt(value, () => "'edges'").entries) {
    for (const [sourceId, edgeTypes] of objectAt(sources, () => `edges from type '${clip(sourceType)}'`).entries) {
      const from = () => `edges from ${clip(sourceType)} '${clip(sourceId)}'`;
      for (const [edgeType, targetTypes] of objectAt(edgeTypes, from).entries) {
        for (const [targetType, targets] of objectAt(targetTypes, () => `${from()} of type '${clip(edgeType)}'`).entries) {
          for (const [targetId, attrs] of objectAt(targets, () => `${from()} of type '${clip(edgeType)}' to '${clip(targetType)}'`).entries) {
            const where = () => `edge ${clip(edgeType)} from ${clip(sourceType)} '${clip(sourceId)}' to ${clip(targetType)} '${clip(targetId)}'`;
            out.push({ sourceType, sourceId, edgeType, targetType, targetId, attributes: readAttributes(attrs, where) });
          }
        }
      }
    }
  }
}

const NO_ATTRIBUTES: UpsertAttribute[] = [];

function readAttributes(value: JsonValue, where: () => string): UpsertAttribute[] {
  const entries = objectAt(value, () => `the attributes of ${where()}`).entries;
  if (entries.length === 0) return NO_ATTRIBUTES;
  const attrs: UpsertAttribute[] = [];
  for (const [name, spec] of entries) {
    if (!isJsonObject(spec)) {
      throw invalidRequest(`Invalid upsert payload: attribute '${clip(name)}' of ${where()} must be an object {"value": ..., "op": ...}.`);
    }
    let attrValue: JsonValue | undefined;
    let op = "overwrite";
    for (const [k, v] of spec.entries) {
      if (k === "value") attrValue = v;
      else if (k === "op") {
        if (typeof v !== "string") throw invalidRequest(`Invalid upsert payload: the op of attribute '${clip(name)}' of ${where()} must be a string.`);
        op = v;
      }
    }
    if (attrValue === undefined) throw invalidRequest(`Invalid upsert payload: attribute '${clip(name)}' of ${where()} has no "value".`);
    attrs.push({ name, value: attrValue, op });
  }
  return attrs;
}

function objectAt(value: JsonValue, what: () => string): JsonObject {
  if (!isJsonObject(value)) throw invalidRequest(`Invalid upsert payload: ${what()} must be a JSON object.`);
  return value;
}

function clip(text: string): string {
  return text.length > 100 ? text.slice(0, 100) + "..." : text;
}
