// How a query run meets the graph store: memory for runs comes from the store's own
// allocator (the store owns its memory), the module's schema bindings are resolved against
// the pinned snapshot's layout, and vertices and edges in the output are formatted from the
// snapshot.
import type { GraphStore, Snapshot } from "../store/api.js";
import { VERTEX_BLOCK_SHIFT, VH } from "../store/layout.js";
import type { GraphReader } from "../output/graph-reader.js";
import type { AttrType, AttrValue, DatabaseSchema } from "../schema/types.js";
import { formatDatetime, formatDouble, formatFloat, toJsonText, RawJson, type FloatStyle, type JsonOut } from "../values/index.js";
import { UNBOUND, type Binding } from "./manifest.js";
import type { MemoryLender } from "./memory-lender.js";

interface ArenaLike {
  alloc(bytes: number): number;
  free(address: number, bytes: number): void;
}

/**
 * A lender over the store's allocator. The store's public API does not lend memory yet, so
 * this reaches its arena; when the store offers `lendMemory`/`takeBackMemory`, those are used.
 */
export function storeLender(store: GraphStore): MemoryLender {
  const s = store as GraphStore & {
    lendMemory?: (bytes: number) => number;
    takeBackMemory?: (address: number, bytes: number) => void;
    state?: { arena?: ArenaLike };
  };
  if (typeof s.lendMemory === "function" && typeof s.takeBackMemory === "function") {
    return { lend: (b) => s.lendMemory!(b), takeBack: (a, b) => s.takeBackMemory!(a, b) };
  }
  const arena = s.state?.arena;
  if (!arena) throw new Error("the graph store does not lend memory to query runs");
  return { lend: (b) => arena.alloc(b), takeBack: (a, b) => arena.free(a, b) };
}

/** The store ordinals of a module's bindings in a snapshot (UNBOUND for what does not exist). */
export function resolveBindings(snapshot: Snapshot, bindings: Binding[]): number[] {
  const layout = snapshot.layout;
  return bindings.map((b) => {
    switch (b.kind) {
      case "vertexType":
        return layout.vertexTypes.find((t) => t.key === b.key)?.ordinal ?? UNBOUND;
      case "edgeType":
        return layout.edgeTypes.find((t) => t.key === b.key)?.ordinal ?? UNBOUND;
      case "vertexAttr":
        return layout.vertexTypes.find((t) => t.key === b.typeKey)?.attributes.find((a) => a.name === b.name)?.ordinal ?? UNBOUND;
      case "edgeAttr":
        return layout.edgeTypes.find((t) => t.key === b.typeKey)?.attributes.find((a) => a.name === b.name)?.ordinal ?? UNBOUND;
    }
  });
}

/** Every vertex id of the snapshot is below this bound. */
export function vidBound(snapshot: Snapshot): number {
  const view = new DataView(snapshot.memory.buffer);
  return view.getUint32(snapshot.headerAddress + VH.BLOCK_COUNT, true) << VERTEX_BLOCK_SHIFT;
}

/** Formats vertices and edges of query output from a pinned snapshot. */
export class SnapshotGraphReader implements GraphReader {
  private readonly typeNames = new Map<string, string>();
  private readonly attrTypes = new Map<string, Map<string, AttrType>>();

  constructor(
    private readonly snapshot: Snapshot,
    private readonly schema: DatabaseSchema,
    private readonly floatStyle: FloatStyle = "significant",
  ) {
    for (const t of [...schema.vertexTypes, ...schema.edgeTypes]) {
      this.typeNames.set(t.key, t.name);
      this.attrTypes.set(t.key, new Map(t.attributes.map((a) => [a.name, a.type])));
    }
    for (const t of schema.vertexTypes) {
      if (t.primaryIdAsAttribute) this.attrTypes.get(t.key)!.set(t.primaryId.name, { kind: "scalar", name: t.primaryId.type === "DATETIME" ? "DATETIME" : t.primaryId.type });
    }
  }

  vertexId(v: number): string {
    return this.snapshot.idText(v);
  }

  vertexType(v: number): string {
    const key = this.snapshot.typeOf(v);
    return this.typeNames.get(key) ?? key;
  }

  vertexAttributesJson(v: number): string {
    const key = this.snapshot.typeOf(v);
    return this.members(key, this.snapshot.attributes(v));
  }

  edgeJson(edgeType: number, from: number, to: number, eid: number): string {
    const layout = this.snapshot.layout.edgeTypes.find((t) => t.ordinal === edgeType);
    if (layout === undefined) return "{}";
    const def = this.schema.edgeTypes.find((t) => t.key === layout.key);
    const attrs = this.snapshot.edgeAttributes({ type: layout.key, directed: layout.directed, from, to, eid });
    return (
      `{"e_type":${JSON.stringify(def?.name ?? layout.key)},"directed":${layout.directed},` +
      `"from_id":${JSON.stringify(this.vertexId(from))},"from_type":${JSON.stringify(this.vertexType(from))},` +
      `"to_id":${JSON.stringify(this.vertexId(to))},"to_type":${JSON.stringify(this.vertexType(to))},` +
      `"attributes":{${this.members(layout.key, attrs)}}}`
    );
  }

  /** `"name":value,...` in schema order, each value formatted by its attribute type. */
  private members(typeKey: string, values: Record<string, AttrValue>): string {
    const types = this.attrTypes.get(typeKey);
    return Object.entries(values)
      .map(([name, value]) => `${JSON.stringify(name)}:${toJsonText(this.json(value, types?.get(name)))}`)
      .join(",");
  }

  private json(value: AttrValue, type: AttrType | undefined): JsonOut {
    if (type === undefined) return value as JsonOut;
    switch (type.kind) {
      case "scalar":
        switch (type.name) {
          case "FLOAT":
            return new RawJson(formatFloat(Number(value), this.floatStyle));
          case "DOUBLE":
            return new RawJson(formatDouble(Number(value), this.floatStyle));
          case "DATETIME":
            return formatDatetime(Number(value));
          default:
            return value as JsonOut;
        }
      case "list":
      case "set":
        return (value as AttrValue[]).map((x) => this.json(x, type.element));
      case "map": {
        const out: Record<string, JsonOut> = {};
        for (const [k, v] of value as [AttrValue, AttrValue][]) out[String(k)] = this.json(v, type.value);
        return out;
      }
      case "tuple": {
        const def = this.schema.tuples.find((t) => t.name === type.name);
        const out: Record<string, JsonOut> = {};
        for (const [k, v] of Object.entries(value as Record<string, AttrValue>)) out[k] = this.json(v, def?.fields.find((f) => f.name === k)?.type);
        return out;
      }
    }
  }
}
