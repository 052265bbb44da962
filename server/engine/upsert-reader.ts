// Reads an upsert body (interface.md "Upsert") straight into the store's form, checking it
// against the graph's schema as it goes: vertex items become the store's vertex items and
// edge items its edge columns (one group per run of items with the same source, edge and
// target type), attribute values are converted to their attribute's type the moment they
// are read, and no object per body item is built in between. Items keep body order and
// repeated keys (multi-edges), exactly as upsert-body.ts + upsert-convert.ts read them.
//
// Validation is all or nothing: any problem rejects the body before anything changes. The
// error then reported is the one the item path gives (malformed text first, then the body's
// shape, then schema checks in item order, vertices before edges): on a problem the body is
// read again that way, which costs nothing on the path that matters.
import type { TupleType } from "../../runtime-wasm/schema/types.js";
import type { AttrWrite, EdgeColumns, VertexUpsert } from "../../runtime-wasm/store/index.js";
import { readJsonBody, type JsonParseOptions, type JsonReader, type JsonValue } from "../http/json-body.js";
import type { GraphHandle } from "./engine.js";
import { upsertItemsFromText } from "./upsert-body.js";
import { attributeWrite, resolveEdgeTypes, resolveVertexType, upsertBatchOfItems, type ResolvedEdgeTypes, type ResolvedVertexType, type UpsertBatch } from "./upsert-convert.js";

/** The body in the store's form; JsonSyntaxError for malformed text, EngineError for anything else wrong. */
export function upsertBatchFromText(text: string, graph: GraphHandle, tuples: readonly TupleType[], options: JsonParseOptions = {}): UpsertBatch {
  try {
    return readJsonBody(text, options, (r) => new BodyReader(r, graph, tuples).read());
  } catch (fastError) {
    upsertBatchOfItems(graph, tuples, upsertItemsFromText(text, options));
    throw fastError;
  }
}

/** Thrown on the first problem; the body is then read again to name it (upsertBatchFromText). */
class Rejected extends Error {}

const reject = (): never => {
  throw new Rejected("invalid upsert body");
};
const nowhere = () => "";

class BodyReader {
  private readonly vertices: VertexUpsert[] = [];
  private readonly edgeColumns: EdgeColumns[] = [];
  private readonly vertexTypes = new Map<string, ResolvedVertexType>();
  private readonly edgeTypes = new Map<string, ResolvedEdgeTypes>();
  /** The type names of the last edge item, and its group: a run goes on while they repeat. */
  private lastSourceType = "";
  private lastEdgeType = "";
  private lastTargetType = "";
  private lastGroup: EdgeColumns | undefined;
  private lastTypes: ResolvedEdgeTypes | undefined;

  constructor(
    private readonly r: JsonReader,
    private readonly graph: GraphHandle,
    private readonly tuples: readonly TupleType[],
  ) {}

  read(): UpsertBatch {
    const r = this.r;
    if (!r.atObject()) reject();
    r.entries(1, (key) => {
      if (key === "vertices") this.readVertices();
      else if (key === "edges") this.readEdges();
      else reject();
    });
    return { vertices: this.vertices, edgeColumns: this.edgeColumns };
  }

  private readVertices(): void {
    this.level(2, (typeName) => {
      let type: ResolvedVertexType | undefined;
      this.level(3, (id) => {
        type ??= this.vertexType(typeName);
        this.vertices.push({ type: type.key, id, attributes: this.readWrites(4, type) });
      });
    });
  }

  private readEdges(): void {
    this.level(2, (sourceType) => {
      this.level(3, (sourceId) => {
        this.level(4, (edgeType) => {
          this.level(5, (targetType) => this.readTargets(sourceType, sourceId, edgeType, targetType));
        });
      });
    });
  }

  /**
   * The target ids of one source, edge type and target type: `{"id": {attributes}, …}`, the
   * level every edge item passes, so it is walked here in one loop (no call per item) and an
   * empty attribute object, what most edges carry, is taken in stride.
   */
  private readTargets(sourceType: string, sourceId: string, edgeType: string, targetType: string): void {
    const r = this.r;
    const t = r.text;
    if (!r.atObject()) reject();
    if (6 > r.maxDepth) r.fail(`JSON nesting deeper than ${r.maxDepth} levels`);
    r.pos++;
    r.skipSpace();
    if (t.charCodeAt(r.pos) === 125) {
      r.pos++;
      return;
    }
    const group = this.groupFor(sourceType, edgeType, targetType);
    const types = this.lastTypes!;
    const from = group.from as string[];
    const to = group.to as string[];
    const emptyAllowed = 7 <= r.maxDepth;
    for (;;) {
      // The compact item `"id":{}` followed by `,` or `}` (what most clients send), read with
      // a local position; anything else (escapes, white space, attributes) by the general path.
      if (emptyAllowed) {
        const start = r.pos + 1;
        let q = start;
        let c = t.charCodeAt(r.pos) === 34 ? t.charCodeAt(q) : 0;
        while (c !== 34 && c !== 92 && c >= 32) c = t.charCodeAt(++q);
        if (c === 34 && t.charCodeAt(q + 1) === 58 && t.charCodeAt(q + 2) === 123 && t.charCodeAt(q + 3) === 125) {
          const after = t.charCodeAt(q + 4);
          if (after === 44 || after === 125) {
            if (group.attributes !== undefined) group.attributes.push(undefined);
            from.push(sourceId);
            to.push(t.slice(start, q));
            r.pos = q + 5;
            if (after === 125) return;
            if (t.charCodeAt(r.pos) <= 32) r.skipSpace();
            continue;
          }
        }
      }
      if (t.charCodeAt(r.pos) !== 34) r.expected("a string key");
      const targetId = r.string();
      r.skipSpace();
      if (t.charCodeAt(r.pos) !== 58) r.expected("':'");
      r.pos++;
      r.skipSpace();
      let writes: AttrWrite[] | undefined;
      if (emptyAllowed && t.charCodeAt(r.pos) === 123 && t.charCodeAt(r.pos + 1) === 125) r.pos += 2;
      else writes = this.readWrites(7, types);
      if (writes !== undefined) {
        group.attributes ??= new Array<AttrWrite[] | undefined>(from.length).fill(undefined);
        group.attributes.push(writes);
      } else if (group.attributes !== undefined) group.attributes.push(undefined);
      from.push(sourceId);
      to.push(targetId);
      r.skipSpace();
      const c = t.charCodeAt(r.pos++);
      if (c === 44) {
        r.skipSpace();
        continue;
      }
      if (c === 125) return;
      r.pos--;
      r.expected("',' or '}'");
    }
  }

  /**
   * The group an item of these types joins: the last one while the types repeat (they are
   * then not even looked up again), else a new one; `lastTypes` are its resolved types.
   */
  private groupFor(sourceType: string, edgeType: string, targetType: string): EdgeColumns {
    if (this.lastGroup !== undefined && sourceType === this.lastSourceType && edgeType === this.lastEdgeType && targetType === this.lastTargetType) return this.lastGroup;
    const types = this.edgeTypesOf(sourceType, edgeType, targetType);
    const group: EdgeColumns = { type: types.type, fromType: types.from, toType: types.to, from: [], to: [] };
    this.edgeColumns.push(group);
    this.lastGroup = group;
    this.lastTypes = types;
    this.lastSourceType = sourceType;
    this.lastEdgeType = edgeType;
    this.lastTargetType = targetType;
    return group;
  }

  private vertexType(name: string): ResolvedVertexType {
    let t = this.vertexTypes.get(name);
    if (!t) {
      t = resolveVertexType(this.graph, name);
      this.vertexTypes.set(name, t);
    }
    return t;
  }

  private edgeTypesOf(sourceType: string, edgeType: string, targetType: string): ResolvedEdgeTypes {
    const triple = `${sourceType}\n${edgeType}\n${targetType}`;
    let t = this.edgeTypes.get(triple);
    if (!t) {
      t = resolveEdgeTypes(this.graph, sourceType, edgeType, targetType, nowhere);
      this.edgeTypes.set(triple, t);
    }
    return t;
  }

  /** One fixed level of the body: an object whose every key leads one level deeper. */
  private level(depth: number, onKey: (key: string) => void): void {
    if (!this.r.atObject()) reject();
    this.r.entries(depth, onKey);
  }

  /**
   * The attribute object of an item, name → {"value": v, "op": o}, as the store's writes
   * (undefined when it names none): each value converted as soon as it is read.
   */
  private readWrites(depth: number, type: { attributes: ResolvedVertexType["attributes"] }): AttrWrite[] | undefined {
    const r = this.r;
    if (!r.atObject()) reject();
    // `{}`, the common case of edges, without walking it (deeper than allowed is still refused below).
    if (depth <= r.maxDepth && r.text.charCodeAt(r.pos + 1) === 125) {
      r.pos += 2;
      return undefined;
    }
    let writes: AttrWrite[] | undefined;
    r.entries(depth, (name) => {
      if (!r.atObject()) reject();
      let value: JsonValue | undefined;
      let op = "overwrite";
      r.entries(depth + 1, (k) => {
        const v = r.value(depth + 1);
        if (k === "value") value = v;
        else if (k === "op") op = typeof v === "string" ? v : reject();
      });
      if (value === undefined) reject();
      writes ??= [];
      const write = attributeWrite(name, value!, op, type.attributes, this.tuples, nowhere);
      if (write !== undefined) writes.push(write);
    });
    return writes;
  }
}
