// Reads an upsert body (interface.md "Upsert": vertices type → id → attribute → {value, op};
// edges source type → source id → edge type → target type → target id → attribute →
// {value, op}) straight into the items of an UpsertCommand, in body order, keeping items that
// repeat a key. The fixed outer levels are walked as the text is read (no JSON tree is built
// for bodies of millions of items); only attribute specs are parsed as values. Only the shape
// is checked here; names and values are checked against the schema when the command applies.
import { JsonSyntaxError, parseJsonBody, readJsonBody, type JsonParseOptions, type JsonReader, type JsonValue } from "../http/json-body.js";
import type { UpsertAttribute, UpsertEdge, UpsertVertex } from "./commands.js";
import { invalidRequest } from "./engine-error.js";
import { clip } from "./clip-text.js";

export interface UpsertItems {
  vertices: UpsertVertex[];
  edges: UpsertEdge[];
}

/** Items of an upsert body; JsonSyntaxError for malformed text, EngineError for a wrong shape. */
export function upsertItemsFromText(text: string, options: JsonParseOptions = {}): UpsertItems {
  try {
    return walkBody(text, options);
  } catch (e) {
    // A shape error may come before a syntax error further on; malformed text is reported as such.
    if (!(e instanceof JsonSyntaxError)) parseJsonBody(text, options);
    throw e;
  }
}

function walkBody(text: string, options: JsonParseOptions): UpsertItems {
  return readJsonBody(text, options, (r) => {
    const items: UpsertItems = { vertices: [], edges: [] };
    if (!r.atObject()) {
      r.value(0); // a syntax error in it is reported as such
      throw shapeError("the request body");
    }
    r.entries(1, (key) => {
      if (key === "vertices") readVertices(r, items.vertices);
      else if (key === "edges") readEdges(r, items.edges);
      else throw invalidRequest(`Invalid upsert payload: unknown top-level key '${clip(key)}'; only 'vertices' and 'edges' are allowed.`);
    });
    return items;
  });
}

// Descriptions of where an item sits are built only when something is wrong: bodies carry
// millions of items and the happy path must not format a message per item.

function readVertices(r: JsonReader, out: UpsertVertex[]): void {
  level(r, 2, () => "'vertices'", (type) => {
    level(r, 3, () => `vertices of type '${clip(type)}'`, (id) => {
      out.push({ type, id, attributes: readAttributes(r, 4, describeVertex, type, id) });
    });
  });
}

function readEdges(r: JsonReader, out: UpsertEdge[]): void {
  level(r, 2, () => "'edges'", (sourceType) => {
    level(r, 3, () => `edges from type '${clip(sourceType)}'`, (sourceId) => {
      const from = () => `edges from ${clip(sourceType)} '${clip(sourceId)}'`;
      level(r, 4, from, (edgeType) => {
        level(r, 5, () => `${from()} of type '${clip(edgeType)}'`, (targetType) => {
          level(r, 6, () => `${from()} of type '${clip(edgeType)}' to '${clip(targetType)}'`, (targetId) => {
            const edge: UpsertEdge = { sourceType, sourceId, edgeType, targetType, targetId, attributes: NO_ATTRIBUTES };
            edge.attributes = readAttributes(r, 7, describeEdge, edge, undefined);
            out.push(edge);
          });
        });
      });
    });
  });
}

const describeVertex = (type: string, id: string | undefined) => `vertex '${clip(id!)}' of type '${clip(type)}'`;
const describeEdge = (e: UpsertEdge) =>
  `edge ${clip(e.edgeType)} from ${clip(e.sourceType)} '${clip(e.sourceId)}' to ${clip(e.targetType)} '${clip(e.targetId)}'`;

/** One fixed level of the body: an object whose every key leads one level deeper. */
function level(r: JsonReader, depth: number, what: () => string, onKey: (key: string) => void): void {
  if (!r.atObject()) throw shapeError(what());
  r.entries(depth, onKey);
}

function shapeError(what: string): Error {
  return invalidRequest(`Invalid upsert payload: ${what} must be a JSON object.`);
}

const NO_ATTRIBUTES: UpsertAttribute[] = [];

/**
 * The attribute object of an item: name → {"value": v, "op": o}. Walked, not built: only the
 * values themselves become JSON values. `describe(a, b)` names the item in error messages.
 */
function readAttributes<A, B>(r: JsonReader, depth: number, describe: (a: A, b: B) => string, a: A, b: B): UpsertAttribute[] {
  if (!r.atObject()) throw shapeError(`the attributes of ${describe(a, b)}`);
  let attrs = NO_ATTRIBUTES;
  r.entries(depth, (name) => {
    if (!r.atObject()) {
      throw invalidRequest(`Invalid upsert payload: attribute '${clip(name)}' of ${describe(a, b)} must be an object {"value": ..., "op": ...}.`);
    }
    let attrValue: JsonValue | undefined;
    let op = "overwrite";
    r.entries(depth + 1, (k) => {
      const v = r.value(depth + 1);
      if (k === "value") attrValue = v;
      else if (k === "op") {
        if (typeof v !== "string") throw invalidRequest(`Invalid upsert payload: the op of attribute '${clip(name)}' of ${describe(a, b)} must be a string.`);
        op = v;
      }
    });
    if (attrValue === undefined) throw invalidRequest(`Invalid upsert payload: attribute '${clip(name)}' of ${describe(a, b)} has no "value".`);
    if (attrs === NO_ATTRIBUTES) attrs = [];
    attrs.push({ name, value: attrValue, op });
  });
  return attrs;
}
