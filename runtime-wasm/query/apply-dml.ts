// A successful run's data-modification log (Dml in abi.ts), made into plain store steps and
// applied to the graph store: the query's attribute writes, inserts and deletes become
// visible together when it ends, and never to the query itself. Decoding names every vertex
// by the external id it had in the run's snapshot, so the steps are plain data (JSON plus
// bigint) that do not depend on the snapshot: the server logs them as one command before
// applying them (dml-steps.ts applies them all or nothing). Consecutive upserts form one
// step; deletes keep their order.
export { applyDmlSteps, type DmlStep, type DmlSummary } from "./dml-steps.js";
import type { AttrWrite, EdgeSelector, EdgeUpsert, ExternalId, GraphStore, Snapshot, UpsertBatch, VertexKey, VertexUpsert } from "../store/api.js";
import { Dml, Out } from "./abi.js";
import type { Binding, QueryManifest } from "./manifest.js";
import { FileWrites } from "./file-writes.js";
import { applyDmlSteps, type DmlStep, type DmlSummary } from "./dml-steps.js";
import { formatDatetime, formatDouble, formatFloat, type FloatStyle } from "../values/index.js";

/**
 * Applies the log's graph writes; FILE records go to `files` (written by the caller once the
 * graph writes succeeded), their values formatted as text with `floatStyle`.
 */
export function applyDml(store: GraphStore, snapshot: Snapshot, manifest: QueryManifest, log: Uint8Array, files = new FileWrites(), floatStyle: FloatStyle = "significant"): DmlSummary {
  return applyDmlSteps(store, decodeDml(store, snapshot, manifest, log, files, floatStyle));
}

/** The log's graph writes as store steps (vertices named as the run's snapshot knew them); FILE records go to `files`. */
export function decodeDml(store: GraphStore, snapshot: Snapshot, manifest: QueryManifest, log: Uint8Array, files = new FileWrites(), floatStyle: FloatStyle = "significant"): DmlStep[] {
  const steps: DmlStep[] = [];
  const r = new DmlReader(log, manifest.keys);
  let updates: VertexUpsert[] = [];
  let edgeUpdates: EdgeUpsert[] = [];
  let inserts: UpsertBatch = { vertices: [], edges: [] };
  const flush = () => {
    if (updates.length) {
      steps.push({ kind: "upsert", batch: { vertices: updates }, updateOnly: true });
      updates = [];
    }
    if (edgeUpdates.length) {
      steps.push({ kind: "update-edges", edges: edgeUpdates });
      edgeUpdates = [];
    }
    if (inserts.vertices!.length || inserts.edges!.length) {
      steps.push({ kind: "upsert", batch: inserts, updateOnly: false });
      inserts = { vertices: [], edges: [] };
    }
  };
  const binding = (i: number): Binding => {
    const b = manifest.bindings[i];
    if (b === undefined) throw new Error(`data-modification log names binding ${i}, which the module does not have`);
    return b;
  };
  const vertexKey = (vid: number): VertexKey => ({ type: snapshot.typeOf(vid), id: snapshot.idOf(vid) as ExternalId });
  const edgeTypeKey = (ordinal: number) => snapshot.layout.edgeTypes.find((t) => t.ordinal === ordinal)?.key;

  while (r.more()) {
    const op = r.u8();
    switch (op) {
      case Dml.SetVertexAttr:
      case Dml.AddVertexAttr: {
        const vid = r.u32();
        const b = binding(r.u32());
        const value = r.value();
        if (b.kind !== "vertexAttr") throw new Error("vertex attribute write with a non-attribute binding");
        updates.push({ type: b.typeKey, id: snapshot.idOf(vid) as ExternalId, attributes: [{ name: b.name, value, op: op === Dml.AddVertexAttr ? "+" : "=" }] });
        break;
      }
      case Dml.SetEdgeAttr:
      case Dml.AddEdgeAttr: {
        const type = binding(r.u32());
        const [from, to, eid] = [r.u32(), r.u32(), r.u32()];
        const b = binding(r.u32());
        const value = r.value();
        if (type.kind !== "edgeType" || b.kind !== "edgeAttr") throw new Error("edge attribute write with a wrong binding");
        const attributes: AttrWrite[] = discriminator(store, snapshot, type.key, from, to, eid);
        attributes.push({ name: b.name, value, op: op === Dml.AddEdgeAttr ? "+" : "=" });
        edgeUpdates.push({ type: type.key, from: vertexKey(from), to: vertexKey(to), attributes });
        break;
      }
      case Dml.InsertVertex: {
        const type = binding(r.u32());
        const id = r.value();
        const attributes = r.attributes(binding);
        if (type.kind !== "vertexType") throw new Error("vertex insert with a non-vertex binding");
        inserts.vertices!.push({ type: type.key, id: id as ExternalId, attributes });
        break;
      }
      case Dml.InsertEdge: {
        const type = binding(r.u32());
        const endpoint = (): VertexKey => {
          if (r.u8() === 0) return vertexKey(r.u32());
          const t = binding(r.u32());
          if (t.kind !== "vertexType") throw new Error("edge endpoint with a non-vertex binding");
          return { type: t.key, id: r.value() as ExternalId };
        };
        const from = endpoint();
        const to = endpoint();
        const attributes = r.attributes(binding);
        if (type.kind !== "edgeType") throw new Error("edge insert with a non-edge binding");
        inserts.edges!.push({ type: type.key, from, to, attributes } satisfies EdgeUpsert);
        break;
      }
      case Dml.DeleteVertex: {
        flush();
        steps.push({ kind: "delete-vertex", vertex: vertexKey(r.u32()) });
        break;
      }
      case Dml.DeleteEdge: {
        flush();
        const [ordinal, from, to, eid] = [r.u32(), r.u32(), r.u32(), r.u32()];
        const type = edgeTypeKey(ordinal);
        if (type === undefined) break;
        const disc = discriminator(store, snapshot, type, from, to, eid);
        steps.push({
          kind: "delete-edge",
          selector: { from: vertexKey(from), type, to: vertexKey(to), ...(disc.length ? { discriminator: Object.fromEntries(disc.map((d) => [d.name, d.value])) } : {}) },
        });
        break;
      }
      case Dml.FileOpen: {
        const file = r.u32();
        files.open(file, String(r.value()));
        break;
      }
      case Dml.FileLine: {
        const file = r.u32();
        const n = r.u32();
        const fields: string[] = [];
        for (let i = 0; i < n; i++) fields.push(r.text(snapshot, floatStyle));
        files.line(file, fields.join(","));
        break;
      }
      default:
        throw new Error(`unknown data-modification record ${op}`);
    }
  }
  flush();
  return steps;
}

/** The discriminator attributes of an edge (its identity among parallel edges), as writes. */
function discriminator(store: GraphStore, snapshot: Snapshot, typeKey: string, from: number, to: number, eid: number): AttrWrite[] {
  const def = store.schema.edgeTypes.find((t) => t.key === typeKey);
  if (!def || def.discriminator.length === 0 || eid < 0) return [];
  const attrs = snapshot.edgeAttributes({ type: typeKey, directed: def.directed, from, to, eid });
  return def.discriminator.map((name) => ({ name, value: attrs[name], op: "=" as const }));
}

/** Reads the log's operands and typed values. */
class DmlReader {
  private pos = 0;
  private readonly view: DataView;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly keys: string[],
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  more(): boolean {
    return this.pos < this.bytes.length;
  }
  u8(): number {
    return this.bytes[this.pos++];
  }
  u32(): number {
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  attributes(binding: (i: number) => Binding): AttrWrite[] {
    const n = this.u32();
    const out: AttrWrite[] = [];
    for (let i = 0; i < n; i++) {
      const b = binding(this.u32());
      const value = this.value();
      if (b.kind === "vertexAttr" || b.kind === "edgeAttr") out.push({ name: b.name, value, op: "=" });
    }
    return out;
  }

  /**
   * One typed value item as FILE text: numbers as PRINT shows them, strings as they are,
   * vertices by their ids, a collection's elements (and a tuple's fields) separated by spaces.
   */
  text(snapshot: Snapshot, floatStyle: FloatStyle): string {
    const tag = this.bytes[this.pos];
    switch (tag) {
      case Out.VertexId:
        this.pos++;
        return snapshot.idText(this.u32());
      case Out.NoVertex:
        this.pos++;
        return "";
      case Out.Float:
        return formatFloat(this.value() as number, floatStyle);
      case Out.Double:
        return formatDouble(this.value() as number, floatStyle);
      case Out.Datetime:
        return formatDatetime(this.value() as number);
      case Out.Edge: {
        this.pos++;
        this.u32();
        const from = snapshot.idText(this.u32());
        const to = snapshot.idText(this.u32());
        this.u32();
        return `${from}->${to}`;
      }
      case Out.RawJson: {
        this.pos++;
        const len = this.u32();
        const text = Buffer.from(this.bytes.buffer, this.bytes.byteOffset + this.pos, len).toString("utf8");
        this.pos += len;
        return text;
      }
      case Out.ArrayBegin:
      case Out.ObjectBegin: {
        this.pos++;
        const items: string[] = [];
        while (this.bytes[this.pos] !== Out.End) {
          if (this.bytes[this.pos] === Out.Key) {
            this.pos++;
            this.u32();
          }
          items.push(this.text(snapshot, floatStyle));
        }
        this.pos++;
        return items.join(" ");
      }
      default:
        return String(this.value());
    }
  }

  /** One typed value item as a store attribute value. */
  value(): unknown {
    const tag = this.u8();
    const v = this.view;
    const at = this.pos;
    switch (tag) {
      case Out.Int:
      case Out.Datetime:
      case Out.DatetimeEpoch:
        this.pos += 8;
        return tag === Out.Int ? v.getBigInt64(at, true) : Number(v.getBigInt64(at, true));
      case Out.Uint:
        this.pos += 8;
        return v.getBigUint64(at, true);
      case Out.Float:
        this.pos += 4;
        return v.getFloat32(at, true);
      case Out.Double:
        this.pos += 8;
        return v.getFloat64(at, true);
      case Out.Bool:
        this.pos += 1;
        return this.bytes[at] !== 0;
      case Out.String: {
        const len = this.u32();
        const text = Buffer.from(this.bytes.buffer, this.bytes.byteOffset + this.pos, len).toString("utf8");
        this.pos += len;
        return text;
      }
      case Out.ArrayBegin: {
        const items: unknown[] = [];
        while (this.bytes[this.pos] !== Out.End) items.push(this.value());
        this.pos++;
        return items;
      }
      case Out.ObjectBegin: {
        const obj: Record<string, unknown> = {};
        while (this.bytes[this.pos] !== Out.End) {
          const keyTag = this.u8();
          const key = keyTag === Out.Key ? this.keys[this.u32()] : String(this.value());
          obj[key] = this.value();
        }
        this.pos++;
        return obj;
      }
      default:
        throw new Error(`a value of output tag ${tag} cannot be stored`);
    }
  }
}
