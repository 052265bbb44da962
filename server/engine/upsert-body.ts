// Turns a parsed upsert body (interface.md "Upsert": vertices type → id → attribute →
// {value, op}; edges source type → source id → edge type → target type → target id →
// attribute → {value, op}) into the items of an UpsertCommand, in body order, keeping items
// that repeat a key. Only the shape is checked here; names and values are checked against
// the schema when the command is applied.
import { isJsonObject, type JsonValue } from "../http/json-body.js";
import type { UpsertAttribute, UpsertEdge, UpsertVertex } from "./commands.js";
import { invalidRequest } from "./engine-error.js";

export interface UpsertItems {
  vertices: UpsertVertex[];
  edges: UpsertEdge[];
}

export function upsertItemsFromJson(body: JsonValue): UpsertItems {
  if (!isJsonObject(body)) throw shapeError("the request body");
  const top = body;
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
  if (!isJsonObject(value)) throw shapeError("'vertices'");
  for (const [type, ids] of value.entries) {
    if (!isJsonObject(ids)) throw shapeError(`vertices of type '${clip(type)}'`);
    for (const [id, attrs] of ids.entries) {
      const attributes = isEmptyObject(attrs) ? NO_ATTRIBUTES : readAttributes(attrs, () => `vertex '${clip(id)}' of type '${clip(type)}'`);
      out.push({ type, id, attributes });
    }
  }
}

function readEdges(value: JsonValue, out: UpsertEdge[]): void {
  if (!isJsonObject(value)) throw shapeError("'edges'");
  for (const [sourceType, sources] of value.entries) {
    if (!isJsonObject(sources)) throw shapeError(`edges from type '${clip(sourceType)}'`);
    for (const [sourceId, edgeTypes] of sources.entries) {
      const from = () => describeSource(sourceType, sourceId);
      if (!isJsonObject(edgeTypes)) throw shapeError(from());
      for (const [edgeType, targetTypes] of edgeTypes.entries) {
        if (!isJsonObject(targetTypes)) throw shapeError(`${from()} of type '${clip(edgeType)}'`);
        for (const [targetType, targets] of targetTypes.entries) {
          if (!isJsonObject(targets)) throw shapeError(`${from()} of type '${clip(edgeType)}' to '${clip(targetType)}'`);
          for (const [targetId, attrs] of targets.entries) {
            const attributes = isEmptyObject(attrs)
              ? NO_ATTRIBUTES
              : readAttributes(attrs, () => `edge ${clip(edgeType)} from ${clip(sourceType)} '${clip(sourceId)}' to ${clip(targetType)} '${clip(targetId)}'`);
            out.push({ sourceType, sourceId, edgeType, targetType, targetId, attributes });
          }
        }
      }
    }
  }
}

function describeSource(sourceType: string, sourceId: string): string {
  return `edges from ${clip(sourceType)} '${clip(sourceId)}'`;
}

function isEmptyObject(v: JsonValue): boolean {
  return isJsonObject(v) && v.entries.length === 0;
}

function shapeError(what: string): Error {
  return invalidRequest(`Invalid upsert payload: ${what} must be a JSON object.`);
}

const NO_ATTRIBUTES: UpsertAttribute[] = [];

function readAttributes(value: JsonValue, where: () => string): UpsertAttribute[] {
  if (!isJsonObject(value)) throw shapeError(`the attributes of ${where()}`);
  const entries = value.entries;
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

function clip(text: string): string {
  return text.length > 100 ? text.slice(0, 100) + "..." : text;
}
